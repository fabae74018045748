"""XORWOW (Marsaglia 2003): a 160-bit xorshift plus a Weyl sequence, as rocRAND seeds it.

State ``d, x[0..4]``; a step is ``t = x0 ^ (x0 >> 2)``, shift the words down,
``x4 = (x4 ^ (x4 << 4)) ^ (t ^ (t << 1))``, ``d += 362437``; the output is ``d + x4``.
Seeding (``rocrand_xorwow.h``): x = (123456789, 362436069, 521288629, 88675123, 5783321),
d = 6615241, then with ``s0 = lo(seed) ^ 0x2c7f967f``, ``s1 = hi(seed) ^ 0xa03697cb``,
``t0 = 1228688033 s0``, ``t1 = 2073658381 s1``: x0 += t0, x1 ^= t0, x2 += t1, x3 ^= t1,
x4 += t0, d += t0 + t1. cuRAND uses the same algorithm with other seeding constants
(0xaad26b49, 0xf7dcefdd, 1099087573, 2591861531), so the same seed gives other streams.

The xorshift part is linear over GF(2): skipping ahead multiplies ``x`` by a power of the
160x160 step matrix A. A subsequence is 2^67 numbers (``discard_subsequence``); ``d``
moves by ``362437 * offset`` (2^67 steps leave it unchanged). rocRAND ships the powers
as tables; here they are computed once by repeated squaring (gf2.py), in rocRAND's
layout.

>>> st = seeded(0)
>>> [int(step_one(st.reshape(1, 6), 0)) for _ in range(2)] == list(stream(0, 0, 0, 2))
True
"""

from __future__ import annotations

import functools

import numba
import numpy as np

from gpusim.libs.rocrand import gf2

DEFAULT_SEED = 0  # ROCRAND_XORWOW_DEFAULT_SEED
WEYL = np.uint32(362437)
_INIT = (123456789, 362436069, 521288629, 88675123, 5783321)
SUBSEQUENCE_LOG2 = 67


def seeded(seed: int) -> np.ndarray:
    """State words (d, x0..x4) of rocRAND's XORWOW engine for ``seed`` (subsequence 0)."""
    m = 0xFFFFFFFF
    s0, s1 = (seed & m) ^ 0x2C7F967F, ((seed >> 32) & m) ^ 0xA03697CB
    t0, t1 = (1228688033 * s0) & m, (2073658381 * s1) & m
    x = [(_INIT[0] + t0) & m, _INIT[1] ^ t0, (_INIT[2] + t1) & m, _INIT[3] ^ t1,
         (_INIT[4] + t0) & m]
    return np.array([(6615241 + t0 + t1) & m] + x, np.uint32)


@numba.njit(cache=True, nogil=True)
def step_one(states, e):
    """One XORWOW step of engine ``e`` (row of ``states``: d, x0..x4); returns the word."""
    x0 = states[e, 1]
    t = x0 ^ (x0 >> np.uint32(2))
    x4 = states[e, 5]
    states[e, 1] = states[e, 2]
    states[e, 2] = states[e, 3]
    states[e, 3] = states[e, 4]
    states[e, 4] = x4
    x4 = (x4 ^ (x4 << np.uint32(4))) ^ (t ^ (t << np.uint32(1)))
    states[e, 5] = x4
    states[e, 0] = states[e, 0] + WEYL
    return np.uint32(states[e, 0] + x4)


def _step_x(x: list[int]) -> list[int]:
    """The linear (xorshift) part of a step on x0..x4."""
    m = 0xFFFFFFFF
    t = x[0] ^ (x[0] >> 2)
    return [x[1], x[2], x[3], x[4], (x[4] ^ (x[4] << 4) ^ t ^ (t << 1)) & m]


@functools.cache
def jump_tables() -> tuple[np.ndarray, np.ndarray]:
    """(offset jumps, subsequence jumps): packed A^(2^k) and A^(2^(67+k)), k = 0..63."""
    return gf2.power_tables(gf2.pack(_step_x, 5), 5, SUBSEQUENCE_LOG2)


@numba.njit(cache=True, nogil=True)
def apply_matrix(m, states, e):
    """x <- M x for engine ``e``."""
    r = gf2.times(m, states[e, 1:6])
    for k in range(5):
        states[e, 1 + k] = r[k]


@numba.njit(cache=True, nogil=True)
def jump(tables, states, e, count):
    """x <- A^count x for engine ``e``."""
    k = 0
    while count:
        if count & np.uint64(1):
            apply_matrix(tables[k], states, e)
        count >>= np.uint64(1)
        k += 1


def engine(seed: int, subsequence: int, offset: int) -> np.ndarray:
    """State of ``rocrand_init(seed, subsequence, offset)`` for XORWOW, shape (1, 6)."""
    offs, subs = jump_tables()
    st = seeded(seed).reshape(1, 6)
    jump(subs, st, 0, np.uint64(subsequence))
    jump(offs, st, 0, np.uint64(offset))
    st[0, 0] = np.uint32((int(st[0, 0]) + (offset & 0xFFFFFFFF) * 362437) & 0xFFFFFFFF)
    return st


def stream(seed: int, subsequence: int, offset: int, n: int) -> np.ndarray:
    """``n`` words of the stream ``(seed, subsequence)`` from ``offset`` on."""
    st = engine(seed, subsequence, offset)
    out = np.empty(n, np.uint32)
    _one_engine(st, out)
    return out


@numba.njit(cache=True, nogil=True)
def _one_engine(st, out):
    for i in range(out.size):
        out[i] = step_one(st, 0)


@numba.njit(cache=True, nogil=True)
def _spread(states, sub1):
    """Engine e = engine 0 jumped by e subsequences (J^e x), one matrix per engine."""
    for e in range(1, states.shape[0]):
        for w in range(6):
            states[e, w] = states[e - 1, w]
        apply_matrix(sub1, states, e)


def pool(seed: int, offset: int, n_engines: int) -> tuple[np.ndarray, int]:
    """(states, start) of the host generator's engines (see pool.py)."""
    start = offset % n_engines
    states = np.empty((n_engines, 6), np.uint32)
    states[0] = engine(seed, 0, offset // n_engines)[0]
    _spread(states, jump_tables()[1][0])
    for e in range(start):  # engines before `start` are one number further on
        step_one(states, e)
    return states, start
