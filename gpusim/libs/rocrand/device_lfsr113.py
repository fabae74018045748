"""LFSR113 inside kernels: rocRAND's ``lfsr113_engine`` (``rocrand_lfsr113.h``) as device
functions.

State: 9 uint32 words, rocRAND's ``lfsr113_state`` word for word (z[0:4], then the
``subsequence`` uint4 [4:8], where rocRAND keeps the seed words) and the generator word
(406). ``rocrand_init(seed, subsequence, offset, state)`` takes the seed as four words
(rocRAND's ``uint4``; here any array of four, e.g. a ``hip.local.array(4, uint32)``) and
the subsequence as an ``unsigned int``, as rocRAND does; jumps use lfsr113.py's matrix
powers (device_gf2.py), 2^55 numbers a subsequence. rocRAND's ``skipahead_sequence`` for this
state skips subsequences, as here.

>>> st = np.zeros(9, np.uint32)
>>> init(np.array(lfsr113.DEFAULT_SEEDS), 0, 0, st)
>>> [int(next_word(st)) for _ in range(2)]
[1574944, 268744]
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import lfsr113
from gpusim.libs.rocrand.device_gf2 import jump

WORDS, TAG = 9, 406  # the tag: ROCRAND_RNG_PSEUDO_LFSR113
_U32, _U = np.uint32, np.uint64
_M32 = _U(0xFFFFFFFF)
LFSR113_OFFSET_JUMPS, LFSR113_SUBSEQUENCE_JUMPS = lfsr113.jump_tables()
# (a, b, mask, c) of z <- ((z & mask) << c) ^ (((z << a) ^ z) >> b), one row a component
LFSR113_STEPS = np.array([(a, b, m, c) for (a, b, c), m in
                          zip(lfsr113._SHIFTS, lfsr113._MASKS, strict=True)], np.uint32)


@hip.DeviceFunction
def init(seed, subsequence, offset, st):
    """rocrand_init(seed words, subsequence, offset, state)."""
    for w in range(4):
        st[4 + w] = _U32(seed[w])
        st[w] = _U32(seed[w])
    st[8] = _U32(TAG)
    jump(LFSR113_SUBSEQUENCE_JUMPS, _U(subsequence) & _M32, st, 0, 4)
    jump(LFSR113_OFFSET_JUMPS, offset, st, 0, 4)


@hip.DeviceFunction
def next_word(st):
    """rocrand(): one step of the four Tausworthe components, their XOR."""
    out = _U32(0)
    for w in range(4):
        z = _U(st[w])  # 64-bit arithmetic, left shifts cut back to 32 bits
        a, b = _U(LFSR113_STEPS[w, 0]), _U(LFSR113_STEPS[w, 1])
        bits = (((z << a) & _M32) ^ z) >> b
        z = (((z & _U(LFSR113_STEPS[w, 2])) << _U(LFSR113_STEPS[w, 3])) & _M32) ^ bits
        st[w] = _U32(z)
        out ^= _U32(z)
    return out


@hip.DeviceFunction
def skip(offset, st):
    """skipahead(offset, state)."""
    jump(LFSR113_OFFSET_JUMPS, offset, st, 0, 4)


@hip.DeviceFunction
def skip_subsequence(subsequence, st):
    """skipahead_subsequence / skipahead_sequence: 2^55 numbers per subsequence (an
    ``unsigned int`` count)."""
    jump(LFSR113_SUBSEQUENCE_JUMPS, _U(subsequence) & _M32, st, 0, 4)
