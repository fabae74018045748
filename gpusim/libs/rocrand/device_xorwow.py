"""XORWOW inside kernels: rocRAND's ``xorwow_engine`` as device functions.

State: 13 uint32 words, rocRAND's ``xorwow_state`` word for word (d[0],
boxmuller_float_state[1], boxmuller_double_state[2], boxmuller_float[3],
boxmuller_double[4:6], x[6:11], padding[11]) and the generator word (401). Jumps use
the GF(2) matrix powers of xorwow.py (device_gf2.py), passed to the kernel as
constant arrays.

>>> st = np.zeros(13, np.uint32)
>>> init(0, 0, 0, st)
>>> int(next_word(st)) == int(xorwow.stream(0, 0, 0, 1)[0])
True
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import xorwow
from gpusim.libs.rocrand.device_gf2 import jump

WORDS, TAG = 13, 401
D, BMF_STATE, BMD_STATE, BMF, BMD, X = 0, 1, 2, 3, 4, 6
_U32, _U = np.uint32, np.uint64
# (64, 800) each: A^(2^k), A^(2^(67+k)); unique names (kernels see constant arrays)
XORWOW_OFFSET_JUMPS, XORWOW_SUBSEQUENCE_JUMPS = xorwow.jump_tables()


@hip.DeviceFunction
def skip(offset, st):
    """skipahead(offset, state): x jumps, d moves by 362437 per number."""
    jump(XORWOW_OFFSET_JUMPS, offset, st, X, 5)
    st[0] = _U32((_U(st[0]) + (_U(offset) & _U(0xFFFFFFFF)) * _U(362437)) & _U(0xFFFFFFFF))


@hip.DeviceFunction
def skip_subsequence(subsequence, st):
    """skipahead_subsequence: 2^67 numbers per subsequence (d is unchanged)."""
    jump(XORWOW_SUBSEQUENCE_JUMPS, subsequence, st, X, 5)


@hip.DeviceFunction
def init(seed, subsequence, offset, st):
    """rocrand_init: rocRAND's seeding constants, then the jumps."""
    s = _U(seed)
    t0 = ((_U(s & _U(0xFFFFFFFF)) ^ _U(0x2C7F967F)) * _U(1228688033)) & _U(0xFFFFFFFF)
    t1 = (((s >> _U(32)) ^ _U(0xA03697CB)) * _U(2073658381)) & _U(0xFFFFFFFF)
    st[6] = _U32((_U(123456789) + t0) & _U(0xFFFFFFFF))
    st[7] = _U32(_U(362436069) ^ t0)
    st[8] = _U32((_U(521288629) + t1) & _U(0xFFFFFFFF))
    st[9] = _U32(_U(88675123) ^ t1)
    st[10] = _U32((_U(5783321) + t0) & _U(0xFFFFFFFF))
    st[0] = _U32((_U(6615241) + t1 + t0) & _U(0xFFFFFFFF))
    st[12] = _U32(TAG)
    skip_subsequence(subsequence, st)
    skip(offset, st)
    st[1], st[2] = _U32(0), _U32(0)


@hip.DeviceFunction
def next_word(st):
    """rocrand(): one XORWOW step."""
    t = st[6] ^ (st[6] >> _U32(2))
    x4 = st[10]
    st[6], st[7], st[8], st[9] = st[7], st[8], st[9], x4
    x4 = (x4 ^ (x4 << _U32(4))) ^ (t ^ (t << _U32(1)))
    st[10] = x4
    d = (_U(st[0]) + _U(362437)) & _U(0xFFFFFFFF)
    st[0] = _U32(d)
    return _U32((d + _U(x4)) & _U(0xFFFFFFFF))
