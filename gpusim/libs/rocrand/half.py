"""Half-precision outputs: ``rocrand_generate_uniform_half``, ``_normal_half`` and
``_log_normal_half`` (rocRAND 3.2.0 ``rocrand_uniform.h``, ``rocrand_normal.h``,
``library/src/rng/distribution/*.hpp``), written as NumPy float16.

Each 16-bit piece of a generator's words is one uniform: ``2^-16 + v 2^-16`` computed in
float and rounded to half (a 32-bit word gives two, low half first; a 64-bit number
four). A normal pair takes one 32-bit word (its low and high 16 bits; a 64-bit number: the
low 16 bits of each of its words) through ``box_muller_half``: u = 2^-16 + x 2^-16,
v = 2pi 2^-16 + y 2pi 2^-16, s = sqrt(-2 log u), (sin v s, cos v s), then mean + stddev z.
MRG generators first map their word to 32 bits. Quasi-random generators take the top 16
bits of a point (uniform) or their float inverse-CDF normal.

rocRAND computes this two ways (``ROCRAND_HALF_MATH_SUPPORTED``): a host generator in
float, rounding to half at the end; a device generator (half math on AMD GPUs) in half
operations, each rounded to half: u and v rounded, ``hlog``/``hsqrt``/``hsin``/``hcos``
(modeled as the float function of the half argument, rounded), ``__hmul``, and
``__hfma2(z, stddev, mean)`` rounded once, then ``h2exp`` for log-normal. ``mean`` and
``stddev`` are half arguments in C, so they are rounded to half first.

>>> w = np.array([0x0000FFFF], np.uint32)
>>> uniform(w.view(np.uint16)).tolist()   # 0xFFFF -> 1.0, 0x0000 -> 2^-16
[1.0, 1.52587890625e-05]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gpusim.libs.rocrand import distributions as dist

INV16 = np.float32(1.5258789e-05)       # ROCRAND_2POW16_INV (2^-16)
INV16_2PI = np.float32(9.58738e-05)     # ROCRAND_2POW16_INV_2PI


def uniform(v16: np.ndarray) -> np.ndarray:
    """``uniform_distribution_half`` of 16-bit values."""
    return (INV16 + v16.astype(np.float32) * INV16).astype(np.float16)


def _h(x: np.ndarray) -> np.ndarray:
    """Round to half and back to float (one half operation's result)."""
    return np.asarray(x, np.float32).astype(np.float16).astype(np.float32)


def box_muller(x: np.ndarray, y: np.ndarray, half_math: bool) -> tuple[np.ndarray, np.ndarray]:
    """``box_muller_half`` of 16-bit x, y: two arrays of normals (as float32 values of halves)."""
    u = INV16 + x.astype(np.float32) * INV16
    v = INV16_2PI + y.astype(np.float32) * INV16_2PI
    if half_math:
        u, v = _h(u), _h(v)
        s = _h(np.sqrt(_h(np.float32(-2.0) * _h(np.log(u)))))
        return _h(_h(np.sin(v)) * s), _h(_h(np.cos(v)) * s)
    s = np.sqrt(np.float32(-2.0) * np.log(u))
    return _h(np.sin(v) * s), _h(np.cos(v) * s)


def scale(z: np.ndarray, mean: float, stddev: float, log: bool, half_math: bool) -> np.ndarray:
    """mean + stddev z (exp'd for log-normal) as rocRAND finishes a half normal."""
    m = np.float16(mean).astype(np.float32)
    sd = np.float16(stddev).astype(np.float32)
    if half_math:  # __hfma(z, stddev, mean): one rounding (exact in double first)
        r = (z.astype(np.float64) * np.float64(sd) + np.float64(m)).astype(np.float16)
        return np.exp(r.astype(np.float32)).astype(np.float16) if log else r
    r = m + sd * z.astype(np.float32)
    return (np.exp(r) if log else r).astype(np.float16)


def plan(family: str, what: str, *, mean: float = 0.0, stddev: float = 1.0,
         uint_norm: float = 0.0, half_math: bool = False) -> tuple[int, int, Callable]:
    """(words per group, outputs per group, fill) of a half generate call for a pseudo
    family (``std32``, ``std64``, ``mrg``)."""
    def as32(words: np.ndarray) -> np.ndarray:
        if family != "mrg":
            return words
        conv = np.empty(words.size, np.uint32)
        dist.mrg_uint(words, conv, uint_norm)
        return conv

    wide = 2 if family == "std64" else 1
    if what == "uniform":
        def fill_uniform(words, out):
            out[:] = uniform(as32(words).view(np.uint16)[:out.size])
        return wide, 2 * wide, fill_uniform

    def fill_normal(words, out):
        w = as32(words)
        pieces = w.view(np.uint16)
        if wide == 2:  # a 64-bit number's words' low halves: (uint16)v, (uint16)(v >> 32)
            x, y = pieces[0::4], pieces[2::4]
        else:
            x, y = pieces[0::2], pieces[1::2]
        a, b = box_muller(x, y, half_math)
        z = np.empty(2 * a.size, np.float32)
        z[0::2], z[1::2] = a, b
        out[:] = scale(z[:out.size], mean, stddev, what == "log_normal", half_math)
    return wide, 2, fill_normal


def quasi(points: np.ndarray, bits: int, what: str, out: np.ndarray, *, mean: float,
          stddev: float, half_math: bool) -> None:
    """Quasi-random points (dimension-major, flat) to halves."""
    v = points.reshape(-1)
    if what == "uniform":
        out[:] = uniform((v >> v.dtype.type(bits - 16)).astype(np.uint16))
        return
    hi32 = (v >> np.uint64(32)).astype(np.uint32) if bits == 64 else v
    z = np.empty(v.size, np.float32)
    dist.inverse_normal_float(dist.INV32 + hi32.astype(np.float32) * dist.INV32, z, 0.0, 1.0,
                              False)
    if half_math:  # __hfma(__float2half(v), stddev, mean)
        z = _h(z)
    out[:] = scale(z, mean, stddev, what == "log_normal", half_math)
