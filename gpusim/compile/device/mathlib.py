"""math and cmath functions numba.cuda kernels may call but numba's CPU target lacks.

``resolve`` maps ``math.fmod``, ``math.modf``, ``math.remainder``, ``math.cbrt`` (and
``cuda.cbrt``), and ``round(x, ndigits)`` (which the CPU target computes otherwise), to
these (and ``cmath`` functions to ``cmathlib.py``); each is compiled by numba like the
rest of the generated module and runs as plain Python on the reference path. The
results follow C's ``<math.h>`` (what the device library computes): integer arguments are
converted to float64, float32 stays float32, a domain error is a NaN rather than Python's
``ValueError``. The formulas are the C99 ones (Annex F), written out because the
CPU target of numba 0.68 has no lowering for them.

>>> math_remainder(5.5, 2.0), math_modf(-3.5), math_fmod(7, 3)
(-0.5, (-0.5, -3.0), 1.0)
>>> float(round_ndigits(np.float32(0.3425), 3)) == float(np.float32(0.343))
True
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba.core import types
from numba.extending import overload

from gpusim.compile.device.cmathlib import *  # noqa: F403 - resolve finds cmath_* here
from gpusim.compile.device.cmathlib import CMATH_EXTRAS

_jit = numba.njit(cache=True)


def as_float(x):
    """``x`` as a float of its own width (integers and booleans become float64)."""
    return float(x)


@overload(as_float)
def _as_float(x):
    if isinstance(x, types.Float):
        return lambda x: x
    return lambda x: np.float64(x)


@_jit
def math_fmod(x, y):
    """C ``fmod``: the remainder of x / y truncated toward zero, with x's sign."""
    return np.fmod(as_float(x), as_float(y))


@_jit
def math_cbrt(x):
    """The real cube root (negative for negative x)."""
    return np.cbrt(as_float(x))


@_jit
def math_modf(x):
    """(fractional part, integral part), both with x's sign; modf(inf) is (0.0, inf)."""
    f = as_float(x)
    whole = np.trunc(f)
    sign = np.sign(f)
    frac = f - whole if not math.isinf(f) else sign - sign  # a zero of f's own type
    return np.copysign(frac, f) if not math.isnan(f) else frac, whole


@_jit
def math_remainder(x, y):
    """IEEE 754 remainder: x - n*y, n the integer nearest x/y (ties to even); NaN when
    y is 0 or x infinite (C99 7.12.10.2), x when y is infinite."""
    fx, fy = as_float(x), as_float(y)
    if math.isnan(fx) or math.isnan(fy) or math.isinf(fx) or fy == 0:
        return fx * 0.0 + np.nan if not math.isnan(fx) else fx
    if math.isinf(fy):
        return fx
    ax, ay = abs(fx), abs(fy)
    m = np.fmod(ax, ay)
    c = ay - m
    if m < c:
        r = m
    elif m > c:
        r = -c
    else:  # exactly half way: pick the even multiple
        r = m - 2.0 * np.fmod(0.5 * (ax - m), ay)
    return math.copysign(1.0, fx) * r


def like(f, z):
    """``z`` (a float64) as a float of ``f``'s width: what round(x, n) returns."""
    return type(f)(z)


@overload(like)
def _like(f, z):
    return (lambda f, z: np.float32(z)) if f == types.float32 else (lambda f, z: z)


@_jit
def round_ndigits(x, ndigits):
    """``round(x, ndigits)`` as numba.cuda computes it (``numba/cuda/cudaimpl.py``,
    ``round_to_impl``, after CPython's fallback ``double_round``): scaled and rounded
    half to even in float64 (``__nv_llrint``), then narrowed once to x's width. numba's
    CPU target narrows the scaled value to float32 before rounding, which makes float32
    halfway cases such as round(0.3425, 3) come out 0.342 instead of 0.343."""
    f = as_float(x)
    if math.isinf(f) or math.isnan(f):
        return f
    y = np.float64(f)
    if ndigits >= 0:
        pow1, pow2 = (10.0 ** (ndigits - 22), 1e22) if ndigits > 22 else (10.0 ** ndigits, 1.0)
        scaled = (y * pow1) * pow2
        if math.isinf(scaled):
            return f
        return like(f, (np.rint(scaled) / pow2) / pow1)  # (rint: ties to even, as llrint)
    pow1 = 10.0 ** (-ndigits)
    return like(f, np.rint(y / pow1) * pow1)


# kernel-language function -> name of its implementation here
MATH_EXTRAS = {math.fmod: "math_fmod", math.modf: "math_modf",
               math.remainder: "math_remainder", math.cbrt: "math_cbrt", **CMATH_EXTRAS}
