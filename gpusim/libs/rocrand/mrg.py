"""L'Ecuyer's combined multiple-recursive generators MRG32k3a and MRG31k3p, as rocRAND
seeds and steps them (``rocrand_mrg32k3a.h``, ``rocrand_mrg31k3p.h``, rocRAND 3.2.0).

Each engine holds two 3-word components (columns 0-2 and 3-5 of a state row).

MRG32k3a (L'Ecuyer 1999): ``g1 <- (g1[1], g1[2], 1403580 g1[1] - 810728 g1[0] mod m1)``,
``g2 <- (g2[1], g2[2], 527612 g2[2] - 1370589 g2[0] mod m2)``, m1 = 2^32 - 209,
m2 = 2^32 - 22853; output ``p1 - p2`` (+ m1 if p1 <= p2), in [1, m1]. Seeding with
``x = lo(seed) ^ 0x55555555``, ``y = hi(seed) ^ 0xAAAAAAAA`` (seed 0 means 12345):
g1 = (x, y, x) * seed and g2 = (y, x, y) * seed through rocRAND's ``mod_mul_m1/m2``, whose
intermediate 64-bit products wrap and whose result is cut to 32 bits; that arithmetic is
reproduced word for word. Subsequences are 2^76 numbers apart. cuRAND's MRG32k3a has the
same recurrence and subsequence length but other seeding (and maps to 32 bits through a
double), so streams are compared from cuRAND's own initial state.

MRG31k3p (L'Ecuyer & Touzin 2000): newest word first, ``x1 <- 2^22 x1[1] + (2^7+1)
x1[2] mod 2^31-1``, ``x2 <- 2^15 x2[0] + (2^15+1) x2[2] mod 2^31-21069``; seeding
``(x * seed mod 2^64) mod m``; subsequences 2^72 apart.

Skipping ahead multiplies each component by a power of its 3x3 step matrix (mod m),
computed here with exact integers (rocRAND ships the same powers as tables).

>>> g = engine(MRG32K3A, 12345, 0, 0); g
array([[ 51704975,   1711840,  51704975, 188071960, 144885035, 188071960]],
      dtype=uint32)
>>> int(next_32k3a(g, 0)) == int(stream(MRG32K3A, 12345, 0, 0, 1)[0])
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numba
import numpy as np

_U = np.uint64
_MASK = _U(0xFFFFFFFF)
_S32 = _U(32)
M1A, M2A = _U(4294967087), _U(4294944443)
M1C, M2C = _U(209), _U(22853)
A12, A13N, A21, A23N = _U(1403580), _U(810728), _U(527612), _U(1370589)
M1P, M2P = _U(2147483647), _U(2147462579)


@dataclass(frozen=True)
class Family:
    """One MRG: moduli, step matrices (rows), subsequence length log2, output norms."""

    rng_type: int
    m: tuple[int, int]
    a: tuple[tuple, tuple]
    subsequence_log2: int
    norm_double: float          # 1 / m1: uniform = v * norm (ROCRAND_*_NORM_DOUBLE)
    uint_norm: float            # rocrand(): (v - 1) * uint_norm


MRG32K3A = Family(402, (4294967087, 4294944443),
                  (((0, 1, 0), (0, 0, 1), (4294967087 - 810728, 1403580, 0)),
                   ((0, 1, 0), (0, 0, 1), (4294944443 - 1370589, 0, 527612))),
                  76, 2.3283065498378288e-10, 1.000000048661607)
MRG31K3P = Family(405, (2147483647, 2147462579),
                  (((0, 1 << 22, (1 << 7) + 1), (1, 0, 0), (0, 1, 0)),
                   ((1 << 15, 0, (1 << 15) + 1), (1, 0, 0), (0, 1, 0))),
                  72, 4.656612875245796923e-10, 2.000000001396983862)
DEFAULT_SEED = 12345  # ROCRAND_MRG32K3A_DEFAULT_SEED, ROCRAND_MRG31K3P_DEFAULT_SEED


def _mat_mul(a: list, b: list, m: int) -> list:
    return [[sum(a[i][k] * b[k][j] for k in range(3)) % m for j in range(3)] for i in range(3)]


@functools.cache
def jump_tables(fam: Family) -> tuple[np.ndarray, np.ndarray]:
    """(offset jumps, subsequence jumps): [64, 2 components, 9] powers A^(2^k), A^(2^(L+k))."""
    out = np.zeros((2, 64, 2, 9), np.uint64)
    for c in range(2):
        p = [list(r) for r in fam.a[c]]
        for k in range(fam.subsequence_log2 + 64):
            if k < 64:
                out[0, k, c] = np.array(p, dtype=object).reshape(-1).astype(np.uint64)
            if k >= fam.subsequence_log2:
                out[1, k - fam.subsequence_log2, c] = np.array(
                    p, dtype=object).reshape(-1).astype(np.uint64)
            p = _mat_mul(p, p, fam.m[c])
    return out[0], out[1]


def sequence_jumps(fam: Family, log2: int) -> np.ndarray:
    """[64, 2, 9] powers A^(2^(log2 + k)): the device API's ``skipahead_sequence`` tables
    (MRG32k3a: sequences of 2^127 numbers, MRG31k3p: 2^134)."""
    return jump_tables(Family(fam.rng_type, fam.m, fam.a, log2, 0.0, 0.0))[1]


@numba.njit(cache=True, nogil=True)
def _mod_m1(p):
    """rocRAND's mod_m1: one fold of 2^32 = 209 (mod m1), one conditional subtract."""
    p = M1C * (p >> _S32) + (p & _MASK)
    return p - M1A if p >= M1A else p


@numba.njit(cache=True, nogil=True)
def _mod_m2(p):
    p = M2C * (p >> _S32) + (p & _MASK)
    p = M2C * (p >> _S32) + (p & _MASK)
    return p - M2A if p >= M2A else p


@numba.njit(cache=True, nogil=True)
def _mod_mul(i, j, second):
    """mod_mul_m1 / mod_mul_m2 of rocrand_mrg32k3a.h with its 64-bit wrap-around."""
    hi = _U(i) // _U(131072)
    lo = _U(i) - hi * _U(131072)
    if second:
        return _mod_m2(_mod_m2(hi * j) * _U(131072) + _mod_m2(lo * j)) & _MASK
    return _mod_m1(_mod_m1(hi * j) * _U(131072) + _mod_m1(lo * j)) & _MASK


def seeded(fam: Family, seed: int) -> np.ndarray:
    """The engine's state words right after seeding (subsequence 0, offset 0)."""
    seed = (seed & 0xFFFFFFFFFFFFFFFF) or DEFAULT_SEED
    x = (seed & 0xFFFFFFFF) ^ 0x55555555
    y = ((seed >> 32) ^ 0xAAAAAAAA) & 0xFFFFFFFF
    if fam is MRG31K3P:
        m1, m2 = fam.m
        words = [(v * seed) % (1 << 64) % m for v, m in
                 ((x, m1), (y, m1), (x, m1), (y, m2), (x, m2), (y, m2))]
    else:
        s = _U(seed)
        words = [_mod_mul(v, s, c >= 3) for c, v in enumerate((x, y, x, y, x, y))]
    return np.array([int(w) for w in words], np.uint32).reshape(1, 6)


@numba.njit(cache=True, nogil=True)
def apply_matrix(a, states, e, m1, m2):
    """Both components of engine ``e`` <- A s mod m (a: [2, 9] rows of the two matrices)."""
    for c in range(2):
        m = m1 if c == 0 else m2
        s0, s1, s2 = _U(states[e, 3 * c]), _U(states[e, 3 * c + 1]), _U(states[e, 3 * c + 2])
        for r in range(3):
            v = (a[c, 3 * r] * s0 % m + a[c, 3 * r + 1] * s1 % m + a[c, 3 * r + 2] * s2 % m) % m
            states[e, 3 * c + r] = np.uint32(v)


@numba.njit(cache=True, nogil=True)
def jump(tables, states, e, count, m1, m2):
    k = 0
    while count:
        if count & _U(1):
            apply_matrix(tables[k], states, e, m1, m2)
        count >>= _U(1)
        k += 1


@numba.njit(cache=True, nogil=True)
def next_32k3a(states, e):
    """One MRG32k3a step (rocRAND's arithmetic, incl. its 32-bit ``m1 - g1[0]``)."""
    g10, g11 = _U(states[e, 0]), _U(states[e, 1])
    g20, g22 = _U(states[e, 3]), _U(states[e, 5])
    p1 = _mod_m1(A12 * g11 + A13N * ((M1A - g10) & _MASK))
    p2 = _mod_m2(A21 * g22 + A23N * ((M2A - g20) & _MASK))
    states[e, 0], states[e, 1], states[e, 2] = states[e, 1], states[e, 2], np.uint32(p1)
    states[e, 3], states[e, 4], states[e, 5] = states[e, 4], states[e, 5], np.uint32(p2)
    r = (p1 - p2 + (M1A if p1 <= p2 else _U(0))) & _MASK
    return np.uint32(r)


@numba.njit(cache=True, nogil=True)
def next_31k3p(states, e):
    """One MRG31k3p step, as rocrand_mrg31k3p.h writes it (32-bit arithmetic)."""
    x11, x12 = _U(states[e, 1]), _U(states[e, 2])
    t = (((x11 & _U(511)) << _U(22)) + (x11 >> _U(9))) + (
        ((x12 & _U(16777215)) << _U(7)) + (x12 >> _U(24)))
    t = t - M1P if t >= M1P else t
    t += x12
    t = t - M1P if t >= M1P else t
    states[e, 2], states[e, 1], states[e, 0] = states[e, 1], states[e, 0], np.uint32(t)
    x20, x22 = _U(states[e, 3]), _U(states[e, 5])
    u = ((x20 & _U(65535)) << _U(15)) + _U(21069) * (x20 >> _U(16))
    u = u - M2P if u >= M2P else u
    u += (x22 & _U(65535)) << _U(15)
    u = u - M2P if u >= M2P else u
    u += _U(21069) * (x22 >> _U(16))
    u = u - M2P if u >= M2P else u
    u += x22
    u = u - M2P if u >= M2P else u
    states[e, 5], states[e, 4], states[e, 3] = states[e, 4], states[e, 3], np.uint32(u)
    return np.uint32((t - u + (M1P if t <= u else _U(0))) & _MASK)


def step_function(fam: Family):
    """The numba step of ``fam`` (for pool.draw)."""
    return next_32k3a if fam is MRG32K3A else next_31k3p


def engine(fam: Family, seed: int, subsequence: int, offset: int) -> np.ndarray:
    """State of ``rocrand_init(seed, subsequence, offset)``, shape (1, 6)."""
    offs, subs = jump_tables(fam)
    st = seeded(fam, seed)
    m1, m2 = _U(fam.m[0]), _U(fam.m[1])
    jump(subs, st, 0, _U(subsequence), m1, m2)
    jump(offs, st, 0, _U(offset), m1, m2)
    return st


def stream(fam: Family, seed: int, subsequence: int, offset: int, n: int) -> np.ndarray:
    """``n`` raw outputs (in [1, m1]) of the stream ``(seed, subsequence)`` from ``offset``."""
    st = engine(fam, seed, subsequence, offset)
    step = step_function(fam)
    return np.array([step(st, 0) for _ in range(n)], np.uint32)


@numba.njit(cache=True, nogil=True)
def _spread(states, sub1, m1, m2):
    for e in range(1, states.shape[0]):
        for w in range(6):
            states[e, w] = states[e - 1, w]
        apply_matrix(sub1, states, e, m1, m2)


def pool(fam: Family, seed: int, offset: int, n_engines: int) -> tuple[np.ndarray, int]:
    """(states, start) of the host generator's engines (see pool.py)."""
    start = offset % n_engines
    states = np.empty((n_engines, 6), np.uint32)
    states[0] = engine(fam, seed, 0, offset // n_engines)[0]
    m1, m2 = _U(fam.m[0]), _U(fam.m[1])
    _spread(states, jump_tables(fam)[1][0], m1, m2)
    step = step_function(fam)
    for e in range(start):
        step(states, e)
    return states, start
