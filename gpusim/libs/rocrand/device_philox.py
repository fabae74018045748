"""Philox4x32-10 inside kernels: rocRAND's ``philox4x32_10_engine`` as device functions.

The state is a private array of 17 uint32 words: rocRAND's struct
``philox4x32_10_state`` word for word (counter[0:4], result[4:8], key[8:10],
substate[10], boxmuller_float_state[11], boxmuller_double_state[12],
boxmuller_float[13], boxmuller_double[14:16]) and one word naming the generator (404),
which the generic ``rocrand(state)`` dispatches on (kernels have no overloading).

>>> st = np.zeros(17, np.uint32)
>>> init(0, 0, 0, st)
>>> [f"{int(next_word(st)):08x}" for _ in range(4)]
['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip

WORDS, TAG = 17, 404
CTR, RES, KEY, SUB, BMF_STATE, BMD_STATE, BMF, BMD = 0, 4, 8, 10, 11, 12, 13, 14
_U = np.uint64
_MASK, _S32, _ONE = _U(0xFFFFFFFF), _U(32), _U(1)
_M0, _M1 = _U(0xD2511F53), _U(0xCD9E8D57)
_W0, _W1 = _U(0x9E3779B9), _U(0xBB67AE85)


@hip.DeviceFunction
def ten_rounds(st):
    """result = Philox-4x32-10(counter, key)."""
    x0, x1, x2, x3 = _U(st[0]), _U(st[1]), _U(st[2]), _U(st[3])
    a, b = _U(st[8]), _U(st[9])
    for _ in range(10):
        p0 = _M0 * x0
        p1 = _M1 * x2
        y0 = ((p1 >> _S32) ^ x1 ^ a) & _MASK
        y2 = ((p0 >> _S32) ^ x3 ^ b) & _MASK
        x0, x1, x2, x3 = y0, p1 & _MASK, y2, p0 & _MASK
        a = (a + _W0) & _MASK
        b = (b + _W1) & _MASK
    st[4], st[5], st[6], st[7] = np.uint32(x0), np.uint32(x1), np.uint32(x2), np.uint32(x3)


@hip.DeviceFunction
def add_counter(st, n):
    """counter += n (a 64-bit number) with carries into the high words."""
    lo = _U(st[0]) | (_U(st[1]) << _S32)
    new = lo + _U(n)
    st[0], st[1] = np.uint32(new & _MASK), np.uint32(new >> _S32)
    if new < lo:
        z = (_U(st[2]) + _ONE) & _MASK
        st[2] = np.uint32(z)
        if z == 0:
            st[3] = np.uint32((_U(st[3]) + _ONE) & _MASK)


@hip.DeviceFunction
def discard_words(st, offset):
    """Move ``offset`` words on without recomputing the result (``discard_impl``)."""
    off = _U(offset)
    sub = _U(st[10]) + (off & _U(3))
    blocks = off >> _U(2)
    if sub >= 4:
        sub -= _U(4)
        blocks += _ONE
    st[10] = np.uint32(sub)
    add_counter(st, blocks)


@hip.DeviceFunction
def discard_subsequences(st, subsequence):
    """The subsequence lives in the counter's high 64 bits (z, w)."""
    s = _U(subsequence)
    hi = _U(st[2]) | (_U(st[3]) << _S32)
    hi = hi + s
    st[2], st[3] = np.uint32(hi & _MASK), np.uint32(hi >> _S32)


@hip.DeviceFunction
def init(seed, subsequence, offset, st):
    """rocrand_init: key = seed halves; counter from subsequence and offset."""
    s = _U(seed)
    st[8], st[9] = np.uint32(s & _MASK), np.uint32(s >> _S32)
    for i in range(8):
        st[i] = np.uint32(0)
    st[10], st[11], st[12] = np.uint32(0), np.uint32(0), np.uint32(0)
    st[16] = np.uint32(TAG)
    discard_subsequences(st, subsequence)
    discard_words(st, offset)
    ten_rounds(st)


@hip.DeviceFunction
def next_word(st):
    """rocrand(): the next 32-bit word."""
    sub = int(st[10])
    word = st[4 + sub]
    if sub == 3:
        st[10] = np.uint32(0)
        add_counter(st, _ONE)
        ten_rounds(st)
    else:
        st[10] = np.uint32(sub + 1)
    return word


@hip.DeviceFunction
def skip(offset, st):
    """skipahead(offset, state)."""
    discard_words(st, offset)
    ten_rounds(st)


@hip.DeviceFunction
def skip_subsequence(subsequence, st):
    """skipahead_subsequence(subsequence, state)."""
    discard_subsequences(st, subsequence)
    ten_rounds(st)
