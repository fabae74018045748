"""MRG32k3a inside kernels: rocRAND's ``mrg32k3a_engine`` as device functions.

State: 13 uint32 words, rocRAND's ``mrg32k3a_state`` word for word (g1[0:3], g2[3:6],
boxmuller_float_state[6], boxmuller_double_state[7], boxmuller_float[8], padding[9],
boxmuller_double[10:12]) and the generator word (402). Subsequences are 2^76 numbers,
sequences 2^127. ``next_raw`` is the engine's
``next()`` in [1, m1]; ``rocrand()`` maps it to 32 bits as rocRAND does.

>>> st = np.zeros(13, np.uint32)
>>> init(12345, 0, 0, st)
>>> int(next_raw(st)) == int(mrg.stream(mrg.MRG32K3A, 12345, 0, 0, 1)[0])
True
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import mrg

WORDS, TAG = 13, 402
BMF_STATE, BMD_STATE, BMF, BMD = 6, 7, 8, 10
_U = np.uint64
_MASK, _S32 = _U(0xFFFFFFFF), _U(32)
M1, M2, M1C, M2C = _U(4294967087), _U(4294944443), _U(209), _U(22853)
A12, A13N, A21, A23N = _U(1403580), _U(810728), _U(527612), _U(1370589)
UINT_NORM, NORM = mrg.MRG32K3A.uint_norm, mrg.MRG32K3A.norm_double
# [family (MRG32k3a, MRG31k3p), kind (offset, subsequence, sequence), 64, 2, 9] powers of
# the step matrices, one array so that a kernel sees one constant array whatever it uses
FAMILIES = (mrg.MRG32K3A, mrg.MRG31K3P)
SEQUENCE_LOG2 = (127, 134)  # rocRAND: sequences of 2^127 and 2^134 numbers
MRG_JUMPS = np.stack([np.stack([*mrg.jump_tables(f), mrg.sequence_jumps(f, q)])
                      for f, q in zip(FAMILIES, SEQUENCE_LOG2, strict=True)])
MRG_MODULI = np.array([f.m for f in FAMILIES], np.uint64)
OFFSET, SUBSEQUENCE, SEQUENCE = 0, 1, 2


@hip.DeviceFunction
def mod_m1(p):
    p = M1C * (p >> _S32) + (p & _MASK)
    if p >= M1:
        p -= M1
    return p


@hip.DeviceFunction
def mod_m2(p):
    p = M2C * (p >> _S32) + (p & _MASK)
    p = M2C * (p >> _S32) + (p & _MASK)
    if p >= M2:
        p -= M2
    return p


@hip.DeviceFunction
def mod_mul(i, j, second):
    """rocRAND's mod_mul_m1 / mod_mul_m2 (64-bit products wrap), cut to 32 bits."""
    hi = _U(i) // _U(131072)
    lo = _U(i) - hi * _U(131072)
    r = _U(0)
    if second:
        r = mod_m2(mod_m2(hi * j) * _U(131072) + mod_m2(lo * j))
    else:
        r = mod_m1(mod_m1(hi * j) * _U(131072) + mod_m1(lo * j))
    return np.uint32(r & _MASK)


@hip.DeviceFunction
def jump(family, kind, count, st):
    """Both components <- A^count s mod m, one matrix per set bit of ``count``, for
    MRG32k3a (family 0) and MRG31k3p (1) alike."""
    c = _U(count)
    k = 0
    while c != 0:
        if c & _U(1):
            for comp in range(2):
                m = MRG_MODULI[family, comp]
                s0, s1, s2 = _U(st[3 * comp]), _U(st[3 * comp + 1]), _U(st[3 * comp + 2])
                for r in range(3):
                    a = 3 * r
                    v = (MRG_JUMPS[family, kind, k, comp, a] * s0 % m
                         + MRG_JUMPS[family, kind, k, comp, a + 1] * s1 % m
                         + MRG_JUMPS[family, kind, k, comp, a + 2] * s2 % m) % m
                    st[3 * comp + r] = np.uint32(v)
        c = c >> _U(1)
        k += 1


@hip.DeviceFunction
def init(seed, subsequence, offset, st):
    """rocrand_init: rocRAND's seeding (seed 0 means 12345), then the jumps."""
    s = _U(seed)
    if s == 0:
        s = _U(12345)
    x = (s & _MASK) ^ _U(0x55555555)
    y = ((s >> _S32) ^ _U(0xAAAAAAAA)) & _MASK
    st[0], st[1], st[2] = mod_mul(x, s, False), mod_mul(y, s, False), mod_mul(x, s, False)
    st[3], st[4], st[5] = mod_mul(y, s, True), mod_mul(x, s, True), mod_mul(y, s, True)
    st[6], st[7], st[12] = np.uint32(0), np.uint32(0), np.uint32(TAG)
    jump(0, SUBSEQUENCE, subsequence, st)
    jump(0, OFFSET, offset, st)


@hip.DeviceFunction
def next_raw(st):
    """The engine's next(): p1 - p2 (+ m1), in [1, m1]."""
    p1 = mod_m1(A12 * _U(st[1]) + A13N * ((M1 - _U(st[0])) & _MASK))
    p2 = mod_m2(A21 * _U(st[5]) + A23N * ((M2 - _U(st[3])) & _MASK))
    st[0], st[1], st[2] = st[1], st[2], np.uint32(p1)
    st[3], st[4], st[5] = st[4], st[5], np.uint32(p2)
    r = p1 - p2 if p1 > p2 else p1 + M1 - p2
    return np.uint32(r)


def skips(family: int) -> tuple:
    """(skipahead, skipahead_subsequence, skipahead_sequence) of an MRG family."""

    @hip.DeviceFunction
    def skip(offset, st):
        jump(family, OFFSET, offset, st)

    @hip.DeviceFunction
    def skip_subsequence(subsequence, st):
        jump(family, SUBSEQUENCE, subsequence, st)

    @hip.DeviceFunction
    def skip_sequence(sequence, st):
        jump(family, SEQUENCE, sequence, st)

    return skip, skip_subsequence, skip_sequence


skip, skip_subsequence, skip_sequence = skips(0)  # 2^76 numbers a subsequence, 2^127 a sequence
