"""From generator words to numbers: rocRAND's distributions, vectorised with numba.

Each function reads groups of ``input_width`` 32-bit words and writes ``output_width``
numbers per group, as rocRAND's host distributions do (``library/src/rng/distribution/``
and the device helpers in ``rocrand_uniform.h`` / ``rocrand_normal.h``, rocRAND 3.2.0):

============================  =====  ======  ===============================================
distribution                  in     out     formula (float32 math where C uses float)
============================  =====  ======  ===============================================
uniform float                 1      1       2^-32 + w * 2^-32, so (0, 1]
uniform double                2      1       2^-53 + (w0 | (w1 >> 11) << 32) * 2^-53
normal float (Box-Muller)     2      2       u = 2^-32 + x 2^-32, v = c + y c (c = 2pi 2^-32),
                                             s = sqrt(-2 log u): (sin v * s, cos v * s)
normal double                 4      2       53-bit u and w from (x ^ y << 21), (z ^ w << 21):
                                             (sin(pi w) s, cos(pi w) s)
log-normal                    same   same    exp(mean + stddev * normal)
MRG uniform float / double    1      1       v / m1 (double, then float)
MRG uint                      1      1       (uint)((v - 1) * (2^32 - 1) / (m1 - 1))
MRG normal float / double     2      2       Box-Muller on the MRG uniforms
poisson (lambda <= 4000)      1      1       alias table: x = w 2^-32, i = floor(size x)
poisson (lambda > 4000)       1      1       round(sqrt(lambda) n + lambda), n = sqrt2 erfinv
============================  =====  ======  ===============================================

Normals follow rocRAND's host code path (``sinf``/``cosf``); on an AMD GPU rocRAND uses
the ``__sincosf`` intrinsic and FMA contraction, which change the last bits of some
normals (uniforms are exact either way: 2^-32 is a power of two).

>>> out = np.empty(2, np.float32)
>>> uniform_float(np.array([0, 0xFFFFFFFF], np.uint32), out); out
array([2.3283064e-10, 1.0000000e+00], dtype=float32)
"""

from __future__ import annotations

import math

import numba
import numpy as np

# rocrand_common.h constants, as the C float/double literals round.
INV32 = np.float32(2.3283064e-10)           # ROCRAND_2POW32_INV (exactly 2^-32)
INV32_2PI = np.float32(1.46291807e-09)      # ROCRAND_2POW32_INV_2PI
INV32_D = 2.3283064365386963e-10            # ROCRAND_2POW32_INV_DOUBLE
INV53_D = 1.1102230246251565e-16            # ROCRAND_2POW53_INV_DOUBLE
TWO_PI = np.float32(6.2831855)              # ROCRAND_2PI
PI_D = 3.1415926535897932                   # ROCRAND_PI_DOUBLE
SQRT2_D = 1.4142135623730951                # ROCRAND_SQRT2_DOUBLE
PI_F = np.float32(3.141592653)              # ROCRAND_PI
LAMBDA_HUGE = 4000.0                        # rocrand_poisson.h lambda_threshold_huge
_F2, _F1 = np.float32(-2.0), np.float32(1.0)


@numba.njit(cache=True, nogil=True)
def uniform_float(w, out):
    for i in range(out.size):
        out[i] = INV32 + np.float32(w[i]) * INV32


@numba.njit(cache=True, nogil=True)
def uniform_double(w, out):
    for i in range(out.size):
        v = np.uint64(w[2 * i]) | ((np.uint64(w[2 * i + 1]) >> np.uint64(11)) << np.uint64(32))
        out[i] = INV53_D + np.float64(v) * INV53_D


@numba.njit(cache=True, nogil=True)
def box_muller(x, y):
    """rocrand_device::detail::box_muller (host path): two float32 normals."""
    u = INV32 + np.float32(x) * INV32
    v = INV32_2PI + np.float32(y) * INV32_2PI
    s = np.float32(math.sqrt(_F2 * np.float32(math.log(u))))
    return np.float32(math.sin(v)) * s, np.float32(math.cos(v)) * s


@numba.njit(cache=True, nogil=True)
def box_muller_double(x, y, z, w):
    """box_muller_double(uint4) (host path): two float64 normals from four words."""
    v1 = np.uint64(x) ^ (np.uint64(y) << np.uint64(21))
    v2 = np.uint64(z) ^ (np.uint64(w) << np.uint64(21))
    u = INV53_D + np.float64(v1) * INV53_D
    t = INV53_D * 2.0 + np.float64(v2) * (INV53_D * 2.0)
    s = math.sqrt(-2.0 * math.log(u))
    return math.sin(t * PI_D) * s, math.cos(t * PI_D) * s


@numba.njit(cache=True, nogil=True)
def normal_float(w, out, mean, stddev, log, norm=0.0):
    """out <- mean + stddev * Box-Muller(word pairs), exp'd for log-normal; ``norm`` > 0
    selects the MRG generators' Box-Muller (uniforms v / m1)."""
    m, sd = np.float32(mean), np.float32(stddev)
    for g in range((out.size + 1) // 2):
        if norm > 0.0:
            a, b = mrg_box_muller(w[2 * g], w[2 * g + 1], norm)
        else:
            a, b = box_muller(w[2 * g], w[2 * g + 1])
        r0, r1 = m + a * sd, m + b * sd
        if log:
            r0, r1 = np.float32(math.exp(r0)), np.float32(math.exp(r1))
        out[2 * g] = r0
        if 2 * g + 1 < out.size:
            out[2 * g + 1] = r1


@numba.njit(cache=True, nogil=True)
def normal_double(w, out, mean, stddev, log, norm=0.0):
    """Double normals in pairs: four words per pair, or for the MRG generators
    (``norm`` > 0) two numbers through their uniforms."""
    for g in range((out.size + 1) // 2):
        if norm > 0.0:
            a, b = mrg_box_muller_double(w[2 * g], w[2 * g + 1], norm)
        else:
            a, b = box_muller_double(w[4 * g], w[4 * g + 1], w[4 * g + 2], w[4 * g + 3])
        r0, r1 = mean + a * stddev, mean + b * stddev
        if log:
            r0, r1 = math.exp(r0), math.exp(r1)
        out[2 * g] = r0
        if 2 * g + 1 < out.size:
            out[2 * g + 1] = r1


@numba.njit(cache=True, nogil=True)
def mrg_uniform(v, norm):
    """mrg_uniform_distribution: float(v / m1) computed in double."""
    return np.float32(np.float64(v) * norm)


@numba.njit(cache=True, nogil=True)
def mrg_uint(w, out, uint_norm):
    for i in range(out.size):
        out[i] = np.uint32((np.float64(w[i]) - 1.0) * uint_norm)


@numba.njit(cache=True, nogil=True)
def mrg_uniform_float(w, out, norm):
    for i in range(out.size):
        out[i] = mrg_uniform(w[i], norm)


@numba.njit(cache=True, nogil=True)
def mrg_uniform_double(w, out, norm):
    for i in range(out.size):
        out[i] = np.float64(w[i]) * norm


@numba.njit(cache=True, nogil=True)
def mrg_box_muller(x, y, norm):
    u = mrg_uniform(x, norm)
    v = mrg_uniform(y, norm) * TWO_PI
    s = np.float32(math.sqrt(_F2 * np.float32(math.log(u))))
    return np.float32(math.sin(v)) * s, np.float32(math.cos(v)) * s


@numba.njit(cache=True, nogil=True)
def mrg_box_muller_double(x, y, norm):
    """mrg_box_muller_double: the float uniforms widened, angle by sin/cos(pi v)."""
    u = np.float64(mrg_uniform(x, norm))
    v = np.float64(mrg_uniform(y, norm)) * 2.0
    s = math.sqrt(-2.0 * math.log(u))
    return math.sin(v * PI_D) * s, math.cos(v * PI_D) * s


@numba.njit(cache=True, nogil=True)
def erfinv_double(x):
    """roc_d_erfinv: Giles-style closed-form approximation rocRAND uses (a = 0.147)."""
    sgn = -1.0 if x < 0.0 else 1.0
    x = (1.0 - x) * (1.0 + x)
    lnx = math.log(x) if x > 0.0 else -math.inf
    if math.isinf(lnx):
        return 0.0
    tt1 = 2.0 / (PI_D * 0.147) + 0.5 * lnx
    tt2 = 1.0 / 0.147 * lnx
    return sgn * math.sqrt(-tt1 + math.sqrt(tt1 * tt1 - tt2))


@numba.njit(cache=True, nogil=True)
def erfinv_float(x):
    """roc_f_erfinv in float32 arithmetic (rocrand_normal.h)."""
    sgn = np.float32(-1.0) if x < np.float32(0.0) else np.float32(1.0)
    x = (np.float32(1.0) - x) * (np.float32(1.0) + x)
    if x <= np.float32(0.0):
        return np.float32(0.0)
    lnx = np.float32(math.log(x))
    tt1 = np.float32(2.0) / (PI_F * np.float32(0.147)) + np.float32(0.5) * lnx
    tt2 = np.float32(1.0) / np.float32(0.147) * lnx
    return sgn * np.float32(math.sqrt(-tt1 + np.float32(math.sqrt(tt1 * tt1 - tt2))))


@numba.njit(cache=True, nogil=True)
def inverse_normal_float(u, out, mean, stddev, log):
    """normal_distribution(x): sqrt2 erfinv(2u - 1) of uniforms ``u`` (quasi-random)."""
    m, sd = np.float32(mean), np.float32(stddev)
    for i in range(out.size):
        v = np.float32(1.4142135) * erfinv_float(np.float32(2.0) * u[i] - np.float32(1.0))
        r = m + v * sd
        out[i] = np.float32(math.exp(r)) if log else r


@numba.njit(cache=True, nogil=True)
def inverse_normal_double(u, out, mean, stddev, log):
    """normal_distribution_double: the same in double (Sobol, ThreeFry2x32 doubles)."""
    for i in range(out.size):
        v = SQRT2_D * erfinv_double(2.0 * u[i] - 1.0)
        r = mean + v * stddev
        out[i] = math.exp(r) if log else r


@numba.njit(cache=True, nogil=True)
def discrete_alias(x, out, offset, alias, probability):
    """rocRAND's discrete_alias for uniform doubles ``x`` in [0, 1)."""
    size = probability.size
    for i in range(out.size):
        nx = size * x[i]
        f = math.floor(nx)
        k = int(f)
        out[i] = offset + (k if nx - f < probability[k] else alias[k])


@numba.njit(cache=True, nogil=True)
def c_round(x):
    """C's ``round`` of a non-negative double: halves go away from zero.

    Python's (and so numba's) ``round`` sends halves to even, which rocRAND's C does not.

    >>> c_round(2.5), round(2.5)
    (3.0, 2)
    """
    r = math.floor(x)
    if x - r >= 0.5:  # exact: x and floor(x) are within 1 of each other
        r += 1.0
    return r


@numba.njit(cache=True, nogil=True)
def poisson_huge(p, out, lam):
    """lambda > 4000: round(sqrt(lambda) n + lambda), n from the uniform doubles ``p``."""
    root = math.sqrt(lam)
    for i in range(out.size):
        n = SQRT2_D * erfinv_double(2.0 * p[i] - 1.0)
        out[i] = np.uint32(c_round(root * n + lam))


def alias_table(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """rocRAND's alias table (``discrete.hpp`` create_alias_table) of normalised ``p``.

    >>> alias_table(np.array([0.25, 0.75]))
    (array([0.5, 1. ]), array([1, 0], dtype=uint32))
    """
    p = np.array(p, np.float64)
    size = p.size
    average = 1.0 / size
    prob, alias = np.ones(size), np.zeros(size, np.uint32)
    large = [i for i in range(size) if p[i] >= average]
    small = [i for i in range(size) if p[i] < average]
    while small and large:
        less, more = small.pop(), large.pop()
        prob[less] = p[less] * size
        alias[less] = more
        p[more] = (p[more] + p[less]) - average
        (large if p[more] >= average else small).append(more)
    return prob, alias


def poisson_probabilities(lam: float) -> tuple[np.ndarray, int]:
    """(probabilities, offset) as rocRAND's poisson.hpp tabulates them, before
    ``normalize``: a window of ``2 * int(16 (2 + sqrt(lambda)))`` values around lambda, cut
    where p < 1e-12."""
    capacity = 2 * int(16.0 * (2.0 + math.sqrt(lam)))
    log_lam = math.log(lam)
    left = int(math.floor(lam)) - capacity // 2
    p = np.zeros(capacity)

    def pp(i: int) -> float:
        x = left + i
        if x < 0:  # C's lgamma(x + 1) is +inf at the poles: probability 0
            return 0.0
        return math.exp(x * log_lam - math.lgamma(x + 1.0) - lam)

    lo = 0
    for i in range(capacity // 2, -1, -1):
        if pp(i) < 1e-12:
            lo = i + 1
            break
        p[i] = pp(i)
    hi = capacity - 1
    for i in range(capacity // 2 + 1, capacity):
        if pp(i) < 1e-12:
            hi = i - 1
            break
        p[i] = pp(i)
    return p[lo:hi + 1], left + lo


def normalize(p: np.ndarray) -> np.ndarray:
    """p / sum(p) with the sum taken left to right, as discrete.hpp's normalize() does.

    >>> normalize(np.array([1.0, 3.0]))
    array([0.25, 0.75])
    """
    p = np.asarray(p, np.float64)
    return p / np.cumsum(p)[-1]
