"""LFSR113 (L'Ecuyer 1999, four Tausworthe components), as rocRAND seeds and steps it
(``rocrand_lfsr113.h``, ``library/src/rng/lfsr113.hpp``, rocRAND 3.2.0).

A step updates z0..z3 with shift/mask/xor and returns their XOR; the map is linear over
GF(2), so subsequences (2^55 numbers) and offsets jump with matrix powers (gf2.py). The
host generator's seed is four words: new generators use (2, 8, 16, 128); ``set_seed(s)``
takes ``(u32) s, s >> 16, s >> 32, s >> 48`` and lifts the first two to their minimum
(x < 2: +2, y < 8: +8), as rocRAND does (z and w are not lifted there).

>>> [int(v) for v in stream((2, 8, 16, 128), 0, 0, 2)]
[1574944, 268744]
"""

from __future__ import annotations

import functools

import numba
import numpy as np

from gpusim.libs.rocrand import gf2

DEFAULT_SEEDS = (2, 8, 16, 128)  # ROCRAND_LFSR113_DEFAULT_SEED_X/Y/Z/W
SUBSEQUENCE_LOG2 = 55
_MASKS = (4294967294, 4294967288, 4294967280, 4294967168)
_SHIFTS = ((6, 13, 18), (2, 27, 2), (13, 21, 7), (3, 12, 13))
_SH = np.array(_SHIFTS, np.uint64)
_MASK = np.array(_MASKS, np.uint64)
_M32 = np.uint64(0xFFFFFFFF)


def seeds_of(seed: int) -> tuple[int, int, int, int]:
    """rocRAND's ``set_seed``: four words from a 64-bit seed."""
    seed &= 0xFFFFFFFFFFFFFFFF
    x, y, z, w = ((seed >> s) & 0xFFFFFFFF for s in (0, 16, 32, 48))
    return x + 2 if x < 2 else x, y + 8 if y < 8 else y, z, w


def _step_z(z: list[int]) -> list[int]:
    out = []
    for v, mask, (a, b, c) in zip(z, _MASKS, _SHIFTS, strict=True):
        bits = (((v << a) & 0xFFFFFFFF) ^ v) >> b
        out.append((((v & mask) << c) & 0xFFFFFFFF) ^ bits)
    return out


@functools.cache
def jump_tables() -> tuple[np.ndarray, np.ndarray]:
    """(offset jumps, subsequence jumps): A^(2^k), A^(2^(55+k)), packed as rocRAND does."""
    return gf2.power_tables(gf2.pack(_step_z, 4), 4, SUBSEQUENCE_LOG2)


@numba.njit(cache=True, nogil=True)
def step(states, e):
    """One LFSR113 step of engine ``e`` (row z0..z3); returns the number. numba widens
    32-bit shifts to 64 bits, so left shifts are cut back to 32 bits explicitly."""
    out = np.uint32(0)
    for c in range(4):
        z = np.uint64(states[e, c])
        a, b, sh = _SH[c, 0], _SH[c, 1], _SH[c, 2]
        bits = (((z << a) & _M32) ^ z) >> b
        z = (((z & _MASK[c]) << sh) & _M32) ^ bits
        states[e, c] = np.uint32(z)
        out ^= np.uint32(z)
    return out


def engine(seeds: tuple, subsequence: int, offset: int) -> np.ndarray:
    """State of an engine at (seeds, subsequence, offset), shape (1, 4)."""
    offs, subs = jump_tables()
    z = np.array(seeds, np.uint32)
    gf2.jump(subs, z, np.uint64(subsequence))
    gf2.jump(offs, z, np.uint64(offset))
    return z.reshape(1, 4)


def stream(seeds: tuple, subsequence: int, offset: int, n: int) -> np.ndarray:
    """``n`` numbers of (seeds, subsequence) from ``offset``."""
    st = engine(seeds, subsequence, offset)
    return np.array([step(st, 0) for _ in range(n)], np.uint32)


@numba.njit(cache=True, nogil=True)
def _spread(states, sub1):
    for e in range(1, states.shape[0]):
        states[e] = gf2.times(sub1, states[e - 1])


def pool(seeds: tuple, offset: int, n_engines: int) -> tuple[np.ndarray, int]:
    """(states, start) of the host generator's engines (see pool.py)."""
    start = offset % n_engines
    states = np.empty((n_engines, 4), np.uint32)
    states[0] = engine(seeds, 0, offset // n_engines)[0]
    _spread(states, jump_tables()[1][0])
    for e in range(start):
        step(states, e)
    return states, start
