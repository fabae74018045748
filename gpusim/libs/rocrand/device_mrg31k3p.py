"""MRG31k3p inside kernels: rocRAND's ``mrg31k3p_engine`` (``rocrand_mrg31k3p.h``) as
device functions.

State: 13 uint32 words, rocRAND's ``mrg31k3p_state`` word for word (x1[0:3], x2[3:6],
boxmuller_float_state[6], boxmuller_double_state[7], boxmuller_float[8], padding[9],
boxmuller_double[10:12]) and the generator word (405). Seeding is rocRAND's
``(x * seed mod 2^64) mod m`` with ``x = lo(seed) ^ 0x55555555``, ``y = hi(seed) ^
0xAAAAAAAA`` (seed 0 means 12345); jumps multiply by mrg.py's matrix powers
(device_mrg.py; 2^72 numbers a subsequence, 2^134 a sequence). ``next_raw`` is the
engine's ``next()`` in [1, m1]; the step is the recurrence itself, ``(2^22 x1[1] +
129 x1[2]) mod m1`` and ``(2^15 x2[0] + 32769 x2[2]) mod m2``, which rocRAND's
shift-and-subtract arithmetic computes exactly.

>>> st = np.zeros(13, np.uint32)
>>> init(12345, 3, 7, st)
>>> int(next_raw(st)) == int(mrg.stream(mrg.MRG31K3P, 12345, 3, 7, 1)[0])
True
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import mrg
from gpusim.libs.rocrand.device_mrg import OFFSET, SUBSEQUENCE, jump, skips

WORDS, TAG = 13, mrg.MRG31K3P.rng_type
BMF_STATE, BMD_STATE, BMF, BMD = 6, 7, 8, 10
_U = np.uint64
_M32 = _U(0xFFFFFFFF)
M1, M2 = _U(mrg.MRG31K3P.m[0]), _U(mrg.MRG31K3P.m[1])
UINT_NORM = mrg.MRG31K3P.uint_norm
NORM = mrg.MRG31K3P.norm_double


@hip.DeviceFunction
def wrapping_product(x, s):
    """x * s mod 2^64 for a 32-bit x, from products that fit (NumPy warns on a wrap)."""
    a = x * (s & _M32)
    hi = ((a >> _U(32)) + ((x * (s >> _U(32))) & _M32)) & _M32
    return (hi << _U(32)) | (a & _M32)


@hip.DeviceFunction
def init(seed, subsequence, offset, st):
    """rocrand_init(seed, subsequence, offset, state)."""
    s = _U(seed)
    if s == 0:
        s = _U(mrg.DEFAULT_SEED)
    xs = wrapping_product((s ^ _U(0x55555555)) & _M32, s)
    ys = wrapping_product(((s >> _U(32)) ^ _U(0xAAAAAAAA)) & _M32, s)
    st[0], st[1], st[2] = np.uint32(xs % M1), np.uint32(ys % M1), np.uint32(xs % M1)
    st[3], st[4], st[5] = np.uint32(ys % M2), np.uint32(xs % M2), np.uint32(ys % M2)
    st[6], st[7], st[12] = np.uint32(0), np.uint32(0), np.uint32(TAG)
    jump(1, SUBSEQUENCE, subsequence, st)
    jump(1, OFFSET, offset, st)


@hip.DeviceFunction
def next_raw(st):
    """The engine's next(): x1[0] - x2[0] (+ m1), in [1, m1]."""
    t = ((_U(st[1]) << _U(22)) + _U(129) * _U(st[2])) % M1
    u = ((_U(st[3]) << _U(15)) + _U(32769) * _U(st[5])) % M2
    st[2], st[1], st[0] = st[1], st[0], np.uint32(t)
    st[5], st[4], st[3] = st[4], st[3], np.uint32(u)
    r = t - u if t > u else t + M1 - u
    return np.uint32(r)


skip, skip_subsequence, skip_sequence = skips(1)  # 2^72 numbers a subsequence, 2^134 a sequence
