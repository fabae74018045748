"""IEEE-754 bit patterns inside kernels, for the Box-Muller caches of generator states.

rocRAND's states keep the spare normal as a ``float`` (and a ``double``) inside the state
struct. Kernels here have no bit casts, so these device functions build and read the bit
patterns with ``math.frexp`` / ``math.ldexp``, exactly (normals are never subnormal, and
zero is handled).

>>> int(f32_bits(np.float32(1.0))) == 0x3F800000
True
>>> float(f32_from_bits(f32_bits(np.float32(-0.15625))))
-0.15625
"""

from __future__ import annotations

import math

import numpy as np

from gpusim.compile import lang as hip

_U32, _U64 = np.uint32, np.uint64


@hip.DeviceFunction
def f32_bits(x):
    """The 32 bits of float32 ``x`` (finite, normal or zero)."""
    bits = _U32(0)
    if x != 0:
        sign = _U32(0)
        if x < 0:
            sign = _U32(0x80000000)
        m, e = math.frexp(abs(np.float64(x)))
        mant = _U32(m * 16777216.0)  # 24 significant bits, the leading one included
        bits = sign | (_U32(e + 126) << _U32(23)) | (mant & _U32(0x7FFFFF))
    return bits


@hip.DeviceFunction
def f32_from_bits(b):
    """The float32 whose bits are ``b``."""
    out = np.float32(0.0)
    if (b & _U32(0x7FFFFFFF)) != 0:
        mant = np.float64((b & _U32(0x7FFFFF)) | _U32(0x800000))
        e = int((b >> _U32(23)) & _U32(0xFF))
        out = np.float32(math.ldexp(mant, e - 150))
        if b >> _U32(31):
            out = -out
    return out


@hip.DeviceFunction
def f64_bits(x):
    """The 64 bits of float64 ``x`` (finite, normal or zero)."""
    bits = _U64(0)
    if x != 0:
        sign = _U64(0)
        if x < 0:
            sign = _U64(1) << _U64(63)
        m, e = math.frexp(abs(x))
        mant = _U64(m * 9007199254740992.0)  # 53 bits
        bits = sign | (_U64(e + 1022) << _U64(52)) | (mant & _U64(0xFFFFFFFFFFFFF))
    return bits


@hip.DeviceFunction
def f64_from_bits(b):
    """The float64 whose bits are ``b``."""
    out = 0.0
    if (b & _U64(0x7FFFFFFFFFFFFFFF)) != 0:
        mant = np.float64((b & _U64(0xFFFFFFFFFFFFF)) | (_U64(1) << _U64(52)))
        e = int((b >> _U64(52)) & _U64(0x7FF))
        out = math.ldexp(mant, e - 1075)
        if b >> _U64(63):
            out = -out
    return out
