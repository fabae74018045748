"""bfloat16 in kernels: rounding, bit patterns and values (NumPy has no bfloat16 type).

A bfloat16 is the top half of a float32: 1 sign bit, float32's 8 exponent bits, 7
mantissa bits. Kernels keep bfloat16 data as uint16 bit patterns (what a bf16 MFMA or a
rocWMMA fragment reads); ``hip.bf16(x)`` makes one from a number, rounded to nearest, ties
to even (HIP's ``__float2bfloat16``), and leaves a uint16 as it is. Checked against
``ml_dtypes.bfloat16`` in tests/mfma.

>>> hex(int(bf16_bits(1.0))), hex(int(bf16_bits(-2.5))), float(bf16_value(0x3F80))
('0x3f80', '0xc020', 1.0)
>>> float(bf16_round(1 + 2**-8)), float(bf16_round(1 + 3 * 2**-8))  # ties to even
(1.0, 1.015625)
"""

from __future__ import annotations

import math

import numpy as np
from numba.core import types
from numba.extending import overload, register_jitable

_BF16_MAX = 3.3895313892515355e38  # (2 - 2**-7) * 2**127


@register_jitable(cache=True)
def bf16_round(x):
    """``x`` rounded to the nearest bfloat16 (ties to even), as a float64."""
    v = np.float64(x)
    if v != v or v == 0.0 or math.isinf(v):
        return v
    e = math.frexp(v)[1]  # |v| in [2**(e-1), 2**e)
    q = math.ldexp(1.0, max(e - 1, -126) - 7)  # bfloat16 spacing there (2**-133: subnormal)
    r = np.rint(v / q) * q  # v / q is exact: q is a power of two
    if abs(r) > _BF16_MAX:
        r = math.copysign(math.inf, v)
    return r


@register_jitable(cache=True)
def bf16_value(bits):
    """The number a bfloat16 bit pattern holds, as a float64 (exact)."""
    b = int(bits) & 0xFFFF
    sign = -1.0 if b & 0x8000 else 1.0
    e, m = (b >> 7) & 0xFF, b & 0x7F
    if e == 0:
        return sign * math.ldexp(float(m), -133)
    if e == 255:
        return sign * math.inf if m == 0 else math.nan
    return sign * math.ldexp(float(m + 128), e - 134)


@register_jitable(cache=True)
def _float_bits(x):
    r = bf16_round(x)
    sign = 0x8000 if math.copysign(1.0, r) < 0 else 0
    a = abs(r)
    if a != a:
        return np.uint16(0x7FC0)
    if math.isinf(a):
        return np.uint16(sign | 0x7F80)
    if a < 2.0 ** -126:  # subnormal (or zero): the mantissa counts 2**-133 steps
        return np.uint16(sign | int(a * 2.0 ** 133))
    m, e = math.frexp(a)  # a = m * 2**e with m in [0.5, 1): biased exponent e + 126
    return np.uint16(sign | ((e + 126) << 7) | (int(m * 256.0) - 128))


def bf16_bits(x):
    """``hip.bf16(x)``: the bfloat16 bit pattern (uint16) of ``x`` rounded to nearest even;
    a uint16 (already a pattern) is returned unchanged."""
    if isinstance(x, (np.uint16,)):
        return x
    return _float_bits(x)


@overload(bf16_bits)
def _ov_bf16_bits(x):
    if isinstance(x, types.Integer) and x.bitwidth == 16 and not x.signed:
        return lambda x: x
    if isinstance(x, (types.Float, types.Integer)):
        return lambda x: _float_bits(x)
    return None
