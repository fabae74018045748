"""math and cmath functions numba.cuda kernels may call but numba's CPU target lacks.

``resolve`` maps ``math.fmod``, ``math.modf``, ``math.remainder``, ``math.cbrt`` (and
``cuda.cbrt``) and the ``cmath`` functions below to these; each is compiled by numba like
the rest of the generated module and runs as plain Python on the reference path. The
results follow C's ``<math.h>`` (what the device library computes): integer arguments are
converted to float64, float32 stays float32, a domain error is a NaN rather than Python's
``ValueError``. The formulas are the C99 ones (Annex F / G), written out because the
CPU target of numba 0.68 has no lowering for them.

>>> math_remainder(5.5, 2.0), math_modf(-3.5), math_fmod(7, 3)
(-0.5, (-0.5, -3.0), 1.0)
>>> cmath_phase(complex(-1.0, 0.0)) == math.pi
True
"""

from __future__ import annotations

import cmath
import math

import numba
import numpy as np
from numba.core import types
from numba.extending import overload

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


@_jit
def cmath_phase(z):
    """The argument of z in [-pi, pi]."""
    w = complex(z)
    return math.atan2(w.imag, w.real)


@_jit
def cmath_polar(z):
    """(modulus, argument) of z."""
    w = complex(z)
    return abs(w), math.atan2(w.imag, w.real)


@_jit
def cmath_rect(r, phi):
    """The complex number with modulus r and argument phi."""
    return complex(r * math.cos(phi), r * math.sin(phi))


@_jit
def cmath_cosh(z):
    """cosh(x + iy) = cosh x cos y + i sinh x sin y."""
    w = complex(z)
    return complex(math.cosh(w.real) * math.cos(w.imag), math.sinh(w.real) * math.sin(w.imag))


@_jit
def cmath_sinh(z):
    """sinh(x + iy) = sinh x cos y + i cosh x sin y."""
    w = complex(z)
    return complex(math.sinh(w.real) * math.cos(w.imag), math.cosh(w.real) * math.sin(w.imag))


@_jit
def cmath_tanh(z):
    """tanh(x + iy) = (sinh 2x + i sin 2y) / (cosh 2x + cos 2y), +-1 once 2x overflows."""
    w = complex(z)
    if abs(w.real) > 20.0:  # tanh x == 1 in double precision; keep the sign of sin 2y
        return complex(math.copysign(1.0, w.real), 4.0 * math.sin(w.imag) * math.cos(w.imag)
                       * math.exp(-2.0 * abs(w.real)))
    d = math.cosh(2.0 * w.real) + math.cos(2.0 * w.imag)
    return complex(math.sinh(2.0 * w.real) / d, math.sin(2.0 * w.imag) / d)


@_jit
def cmath_acosh(z):
    """acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1)) (the principal branch, C99 G.6.2.1)."""
    w = complex(z)
    return cmath.log(w + cmath.sqrt(w + 1.0) * cmath.sqrt(w - 1.0))


@_jit
def cmath_log10(z):
    """log10(z) = log(z) / log(10)."""
    return cmath.log(complex(z)) / math.log(10.0)


# kernel-language function -> name of its implementation here
MATH_EXTRAS = {math.fmod: "math_fmod", math.modf: "math_modf",
               math.remainder: "math_remainder", math.cbrt: "math_cbrt",
               cmath.phase: "cmath_phase", cmath.polar: "cmath_polar", cmath.rect: "cmath_rect",
               cmath.cosh: "cmath_cosh", cmath.sinh: "cmath_sinh", cmath.tanh: "cmath_tanh",
               cmath.acosh: "cmath_acosh", cmath.log10: "cmath_log10"}
