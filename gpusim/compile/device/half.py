"""float16 in generated code: rounding, bit conversions and ``cuda.fp16`` operations.

numba's CPU target (which compiles the generated module) has no float16 at all: not as
a number, not as an array element (``NotImplementedError: float16`` from its data model).
So the ``half`` pass (``passes/half.py``) lowers float16 onto what it has:

- a float16 *value* is a float32 holding a number that float16 represents exactly;
- a float16 *array* (argument, ``shared``/``local`` array, view) is its uint16 bit pattern;
  a load is ``f16_value(bits)``, a store ``f16_bits(v)``;
- an operation typed float16 runs in float32/float64 and is rounded once with
  ``f16_round``. For + - * / and sqrt of float16 operands this is IEEE-exact: float32
  (24 bits) and float64 (53) have at least 2*11 + 2 bits, so rounding the wider result to
  11 bits gives the correctly rounded float16 (no double-rounding error; Figueroa, "When
  is double rounding innocuous?", SIGNUM 1995). ``hfma`` is exact in float64 before its
  one rounding (a product of two float16s has 22 bits, and a sum that stays finite in
  float16 spans at most 40 bits).

``f16_round`` rounds from float64 directly (float64 -> float32 -> float16 could round
twice), ties to even, with float16's subnormals (2**-24) and overflow to infinity at
65520, as IEEE 754 and NumPy's ``astype(np.float16)`` do. Every function here also runs
as plain Python (the reference path).

>>> float(f16_round(0.1)), float(np.float16(0.1))
(0.0999755859375, 0.0999755859375)
>>> hex(int(f16_bits(-2.0))), float(f16_value(np.uint16(0x3c00)))
('0xc000', 1.0)
"""

from __future__ import annotations

import math

import numba
import numpy as np

_jit = numba.njit(cache=True)

F16_MAX = 65504.0  # the largest finite float16 (IEEE 754 binary16)
_NAN_BITS = 0x7E00  # the quiet NaN float16 conversions produce (NumPy gives the same)


@_jit
def f16_round(x):
    """``x`` rounded to the nearest float16 (ties to even), returned as a float32."""
    v = np.float64(x)
    if v != v or v == 0.0 or math.isinf(v):
        return np.float32(v)
    e = math.frexp(v)[1]  # |v| in [2**(e-1), 2**e)
    q = math.ldexp(1.0, max(e - 1, -14) - 10)  # float16 spacing there (2**-24: subnormal)
    r = np.rint(v / q) * q  # v / q is exact: q is a power of two
    if abs(r) > F16_MAX:
        r = math.copysign(math.inf, v)
    return np.float32(r)


@_jit
def f16_bits(x):
    """The float16 bit pattern (uint16) of ``x`` rounded to float16: what a store writes."""
    r = np.float64(f16_round(x))
    sign = 0x8000 if math.copysign(1.0, r) < 0 else 0
    a = abs(r)
    if a != a:
        return np.uint16(_NAN_BITS)
    if math.isinf(a):
        return np.uint16(sign | 0x7C00)
    if a < 2.0 ** -14:  # subnormal (or zero): the mantissa counts 2**-24 steps
        return np.uint16(sign | int(a * 2.0 ** 24))
    m, e = math.frexp(a)  # a = m * 2**e with m in [0.5, 1): biased exponent e - 1 + 15
    return np.uint16(sign | ((e + 14) << 10) | (int(m * 2048.0) - 1024))


@_jit
def f16_value(bits):
    """The number a float16 bit pattern holds, as a float32 (exact): what a load reads."""
    b = int(bits)
    sign = -1.0 if b & 0x8000 else 1.0
    e, m = (b >> 10) & 0x1F, b & 0x3FF
    if e == 0:
        v = math.ldexp(float(m), -24)
    elif e == 31:
        v = math.inf if m == 0 else math.nan
    else:
        v = math.ldexp(float(m + 1024), e - 25)
    return np.float32(sign * v)


@_jit
def _wide(x):
    """An argument of a ``cuda.fp16`` function: converted to float16 (numba.cuda's typing
    converts every argument to float16), then widened exactly to float64."""
    return np.float64(f16_round(x))


# cuda.fp16 arithmetic: exact in float64, then one rounding (see the module docstring)
@_jit
def hadd(a, b):
    """``cuda.fp16.hadd``: a + b in float16."""
    return f16_round(_wide(a) + _wide(b))


@_jit
def hsub(a, b):
    """``cuda.fp16.hsub``: a - b in float16."""
    return f16_round(_wide(a) - _wide(b))


@_jit
def hmul(a, b):
    """``cuda.fp16.hmul``: a * b in float16."""
    return f16_round(_wide(a) * _wide(b))


@_jit
def hdiv(a, b):
    """``cuda.fp16.hdiv``: a / b in float16 (IEEE: x/0 is +-inf, 0/0 NaN)."""
    x, y = _wide(a), _wide(b)
    if y == 0.0:
        return f16_round(np.nan if x == 0.0 or x != x else
                         math.copysign(math.inf, x) * math.copysign(1.0, y))
    return f16_round(x / y)


@_jit
def hfma(a, b, c):
    """``cuda.fp16.hfma``: a * b + c with one rounding."""
    return f16_round(_wide(a) * _wide(b) + _wide(c))


@_jit
def hneg(a):
    """``cuda.fp16.hneg``: -a."""
    return f16_round(-_wide(a))


@_jit
def habs(a):
    """``cuda.fp16.habs``: |a|."""
    return f16_round(abs(_wide(a)))


@_jit
def hmax(a, b):
    """``cuda.fp16.hmax``: ``a if a > b else b`` (numba.cuda's lowering: a NaN gives b)."""
    x, y = _wide(a), _wide(b)
    return f16_round(x if x > y else y)


@_jit
def hmin(a, b):
    """``cuda.fp16.hmin``: ``a if a < b else b`` (a NaN gives b)."""
    x, y = _wide(a), _wide(b)
    return f16_round(x if x < y else y)


# comparisons: PTX setp.{eq,ne,...}.f16, all ordered (any NaN operand gives False)
@_jit
def heq(a, b):
    """``cuda.fp16.heq``: a == b."""
    return _wide(a) == _wide(b)


@_jit
def hne(a, b):
    """``cuda.fp16.hne``: a != b, ordered (False when either is NaN, as PTX setp.ne)."""
    x, y = _wide(a), _wide(b)
    return x == x and y == y and x != y


@_jit
def hgt(a, b):
    """``cuda.fp16.hgt``: a > b."""
    return _wide(a) > _wide(b)


@_jit
def hge(a, b):
    """``cuda.fp16.hge``: a >= b."""
    return _wide(a) >= _wide(b)


@_jit
def hlt(a, b):
    """``cuda.fp16.hlt``: a < b."""
    return _wide(a) < _wide(b)


@_jit
def hle(a, b):
    """``cuda.fp16.hle``: a <= b."""
    return _wide(a) <= _wide(b)
