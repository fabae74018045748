"""cmath functions in kernels, with C99 Annex G's special values.

numba's CPU target (what generated code compiles through) implements ``cmath.cosh``,
``sinh``, ``tanh``, ``acosh``, ``log10``, ``rect``, ``polar`` and ``phase`` for complex
arguments only, and gets a few points with an infinite or NaN part wrong (``cosh(nan+0j)``
is ``nan+nanj`` there, C99 G.6.2.4 says ``nan+0j``). numba.cuda takes real arguments too
(they become complex) and follows C99, as CPython's ``cmath`` does.

So each function here converts its argument to complex of its own width (float32 and
complex64 stay single precision), looks the answer up when **both** parts are special
(+-0, +-inf, NaN: 25 points, where C99 fixes the result regardless of the formula), and
otherwise calls numba's implementation, which handles finite parts and a finite part with
an infinite one. The 25-point tables are C99's own values, read from CPython's ``cmath``
(whose special-value tables are Annex G's) once when this module is imported.

>>> cmath_cosh(complex(math.nan, 0.0))
(nan+0j)
>>> cmath_rect(2.0, 0.0)
(2+0j)
"""

from __future__ import annotations

import cmath
import math

import numba
import numpy as np
from numba.core import types
from numba.extending import overload

_jit = numba.njit(cache=True)

# the special values of one part, in table order
_SPECIAL = (-math.inf, -0.0, 0.0, math.inf, math.nan)


def _table(fn) -> tuple[np.ndarray, np.ndarray]:
    """fn at the 25 points whose parts are both special, and whether C99 defines it there
    (CPython raises ValueError where C raises a domain error: numba's result stands)."""
    out = np.zeros((5, 5), np.complex128)
    defined = np.zeros((5, 5), np.bool_)
    for i, re in enumerate(_SPECIAL):
        for j, im in enumerate(_SPECIAL):
            try:
                out[i, j] = fn(re, im)
                defined[i, j] = True
            except (ValueError, OverflowError):
                pass
    return out, defined


_UNARY = (cmath.cosh, cmath.sinh, cmath.tanh, cmath.acosh, cmath.log10)
_TABLES, _DEFINED = (np.stack(t) for t in zip(*(
    _table(lambda re, im, fn=fn: fn(complex(re, im))) for fn in _UNARY), strict=True))
_RECT, _RECT_OK = _table(cmath.rect)


def as_complex(x):
    """``x`` as complex of its own width (float32 -> complex64, other reals -> complex128)."""
    return complex(x)


@overload(as_complex)
def _as_complex(x):
    if isinstance(x, types.Complex):
        return lambda x: x
    if x == types.float32:
        return lambda x: np.complex64(x)
    return lambda x: np.complex128(x)


def in_width(x, c):
    """The complex128 ``c`` in the width of ``x`` (complex64 when x is float32/complex64)."""
    return c


@overload(in_width)
def _in_width(x, c):
    if x in (types.float32, types.complex64):
        return lambda x, c: np.complex64(c)
    return lambda x, c: np.complex128(c)


@_jit
def _special(v):
    """Row of the table for one part: 0..4 for -inf, -0, +0, +inf, NaN; -1 if finite, not 0."""
    if math.isnan(v):
        return 4
    if math.isinf(v):
        return 0 if v < 0 else 3
    if v == 0:
        return 1 if math.copysign(1.0, v) < 0 else 2
    return -1


@_jit
def _lookup(table, ok, re, im, computed):
    """``computed``, or the table's value (in computed's width) when both parts are special."""
    i, j = _special(re), _special(im)
    if i >= 0 and j >= 0 and ok[i, j]:
        return in_width(computed, table[i, j])
    return computed


@_jit
def _unary(k, z):
    """Function ``k`` of ``_UNARY`` at z, with C99's value where both parts are special."""
    w = as_complex(z)
    if k == 0:
        r = cmath.cosh(w)
    elif k == 1:
        r = cmath.sinh(w)
    elif k == 2:
        r = cmath.tanh(w)
    elif k == 3:
        r = cmath.acosh(w)
    else:
        r = cmath.log10(w)
    return _lookup(_TABLES[k], _DEFINED[k], w.real, w.imag, r)


@_jit
def cmath_cosh(z):
    return _unary(0, z)


@_jit
def cmath_sinh(z):
    return _unary(1, z)


@_jit
def cmath_tanh(z):
    return _unary(2, z)


@_jit
def cmath_acosh(z):
    return _unary(3, z)


@_jit
def cmath_log10(z):
    return _unary(4, z)


@_jit
def cmath_rect(r, phi):
    re, ph = np.float64(r), np.float64(phi)
    return in_width(r + phi, _lookup(_RECT, _RECT_OK, re, ph, cmath.rect(re, ph)))


@_jit
def cmath_phase(z):
    """The argument of z in [-pi, pi]."""
    return cmath.phase(as_complex(z))


@_jit
def cmath_polar(z):
    """(modulus, argument) of z."""
    return cmath.polar(as_complex(z))


__all__ = ["cmath_acosh", "cmath_cosh", "cmath_log10", "cmath_phase", "cmath_polar",
           "cmath_rect", "cmath_sinh", "cmath_tanh"]

# kernel-language function -> name of its implementation here
CMATH_EXTRAS = {cmath.phase: "cmath_phase", cmath.polar: "cmath_polar",
                cmath.rect: "cmath_rect", cmath.cosh: "cmath_cosh", cmath.sinh: "cmath_sinh",
                cmath.tanh: "cmath_tanh", cmath.acosh: "cmath_acosh",
                cmath.log10: "cmath_log10"}
