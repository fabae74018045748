"""Matrix-core instructions in generated kernels: ``hip.mfma_*`` over a work-group's waves.

An MFMA is a wavefront collective: the 64 lanes of a wave hand in their A, B and C
register elements, the matrix core computes ``D = A @ B + C`` for each block of the
instruction, and every lane gets its D elements back. The generated code calls
``_mfma`` once per MFMA statement for the whole work-group (like ``_shfl``); the
operands are the per-thread storage of the learner's private arrays (``acc__l``, shape
``[threads, elements]``) or of spilled numbers (``x__s``, one element per thread).

Where each element sits is ``gpusim.devices.mfma``'s layout (held to AMD's matrix
instruction calculator); what is computed, and how exactly, is
``gpusim.devices.mfma_math``'s (the NumPy reference this is tested against):

- inputs are decoded to the instruction's element type (``MODE_*`` below): f16/bf16
  bit patterns held in uint16 arrays (a kernel's float16 arrays are held that way),
  float values rounded to f16/bf16 (nearest, ties to even), fp8/bf8 bit patterns through
  a 256-entry table (CDNA3's FNUZ formats), f32 values rounded to f32, int8 values;
- products and C are summed in float64 and rounded once to f32 (exact for f16/bf16/fp8
  products; the hardware's addition order is not public), i32 sums wrap, f64 stays f64;
- gfx90a flushes subnormal f16/bf16 inputs and f32 C/D of those MFMAs to zero.

Every lane of a wave must be active: the instruction reads all 64 lanes' registers, so a
lane that left through a branch (or a partial last wave) has nothing to hand in; gpusim
stops the kernel there (``FAULT_WAVE``) rather than compute with undefined values.

>>> import numpy as np
>>> from gpusim.devices.mfma import get_mfma
>>> inst = get_mfma("gfx942", "v_mfma_f32_4x4x1_16b_f32")
>>> amap, bmap, dmap = layout_maps(inst)
>>> a = np.ones((64, 1)); b = np.full((64, 1), 2.0); c = np.zeros((64, 4), np.float32)
>>> on = np.ones(64, np.bool_)
>>> _mfma(a, b, c, c, amap, bmap, dmap, inst.m, inst.n, inst.k, inst.blocks,
...       MODE_VALUE_F32, MODE_VALUE_F32, D_F32, False, TABLES, on, 64, 64, 0, 0)
>>> c[0]
array([2., 2., 2., 2.], dtype=float32)
"""

from __future__ import annotations

import math

import ml_dtypes
import numba
import numpy as np
from numba.extending import overload, register_jitable

from gpusim.compile.device.bf16 import bf16_round, bf16_value
from gpusim.compile.device.devicelib import KernelFaultError
from gpusim.compile.device.half import f16_round, f16_value
from gpusim.devices.mfma import MfmaInstruction

FAULT_WAVE = 5  # a wave-wide instruction ran with lanes missing (engine/faults.py)

# How an operand's stored element becomes the number the matrix core multiplies.
MODE_VALUE_F32 = 0  # a number, rounded to float32
MODE_VALUE_F64 = 1  # a number, as float64
MODE_F16_BITS = 2  # a float16 bit pattern (uint16)
MODE_BF16_BITS = 3  # a bfloat16 bit pattern (uint16)
MODE_F16_ROUND = 4  # a number, rounded to float16
MODE_BF16_ROUND = 5  # a number, rounded to bfloat16
MODE_FP8_BITS = 6  # an fp8 (E4M3 FNUZ) bit pattern (uint8)
MODE_BF8_BITS = 7  # a bf8 (E5M2 FNUZ) bit pattern (uint8)
MODE_INT8 = 8  # an integer, wrapped to int8
D_F32, D_I32, D_F64 = 0, 1, 2  # the accumulator's type
D_KIND = {"f32": D_F32, "i32": D_I32, "f64": D_F64}

# fp8/bf8 byte -> value (CDNA3's FNUZ formats: no infinities, 0x80 is the only NaN).
TABLES = np.stack([np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e4m3fnuz)
                   .astype(np.float64),
                   np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e5m2fnuz)
                   .astype(np.float64)])
_F32_TINY = float(np.finfo(np.float32).tiny)
_F16_TINY = 2.0 ** -14
_BF16_TINY = _F32_TINY  # bfloat16 has float32's exponent range


def layout_maps(inst: MfmaInstruction) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(block, row, column) of each (lane, element) of A, B and C/D: the int64 tables the
    generated code hands ``_mfma`` (module constants, frozen into the compiled kernel)."""
    return (np.ascontiguousarray(inst.a_map()), np.ascontiguousarray(inst.b_map()),
            np.ascontiguousarray(inst.d_map()))


@register_jitable(cache=True)
def _wrap(v, bits):
    """Two's-complement wrap of an integer to ``bits`` bits (a C cast)."""
    span = 1 << bits
    half = 1 << (bits - 1)
    return ((int(v) + half) % span) - half


@register_jitable(cache=True)
def _decode(x, mode, tables):
    if mode == MODE_VALUE_F32:
        return np.float64(np.float32(x))
    if mode == MODE_VALUE_F64:
        return np.float64(x)
    if mode == MODE_F16_BITS:
        return np.float64(f16_value(x))
    if mode == MODE_BF16_BITS:
        return bf16_value(x)
    if mode == MODE_F16_ROUND:
        return np.float64(f16_round(x))
    if mode == MODE_BF16_ROUND:
        return bf16_round(x)
    if mode == MODE_FP8_BITS:
        return tables[0, int(x) & 0xFF]
    if mode == MODE_BF8_BITS:
        return tables[1, int(x) & 0xFF]
    return np.float64(_wrap(x, 8))  # MODE_INT8


def _elem(x, t, e):
    """Element ``e`` of thread ``t``'s operand: a private array's row, a spilled number,
    or a number every lane shares."""
    if isinstance(x, np.ndarray):
        return x[t, e] if x.ndim == 2 else x[t]
    return x


@overload(_elem)
def _ov_elem(x, t, e):
    if isinstance(x, numba.types.Array) and x.ndim == 2:
        return lambda x, t, e: x[t, e]
    if isinstance(x, numba.types.Array):
        return lambda x, t, e: x[t]
    return lambda x, t, e: x


@register_jitable(cache=True)
def _flush(v, tiny):
    return math.copysign(0.0, v) if abs(v) < tiny else v


@register_jitable(cache=True)
def _mfma(a, b, c, d, amap, bmap, dmap, m, n, k, blocks, amode, bmode, dkind, flush,
          tables, mask, nt, wave, site, blk):
    """``D = A @ B + C`` for every wave of the work-group; ``d`` (a private array's
    storage) gets each lane's result elements, of type ``dkind`` (``D_F32``, ``D_I32``,
    ``D_F64``). ``flush``: gfx90a's f16/bf16 subnormal flush. Stops the kernel
    (``FAULT_WAVE``) when a wave has a lane that is not active."""
    integer = dkind == D_I32
    f64 = dkind == D_F64
    tiny_in = _F16_TINY if amode == MODE_F16_BITS or amode == MODE_F16_ROUND else _BF16_TINY
    A = np.zeros((blocks, m, k))
    B = np.zeros((blocks, k, n))
    C = np.zeros((blocks, m, n))
    for base in range(0, nt, wave):
        for lane in range(wave):  # the whole wave must take part
            t = base + lane
            if t >= nt or not mask[t]:
                active = 0
                for s in range(base, min(nt, base + wave)):
                    active += 1 if mask[s] else 0
                raise KernelFaultError(FAULT_WAVE, site, blk, t, active, wave)
        for lane in range(wave):
            t = base + lane
            for e in range(amap.shape[1]):
                v = _decode(_elem(a, t, e), amode, tables)
                A[amap[lane, e, 0], amap[lane, e, 1], amap[lane, e, 2]] = (
                    _flush(v, tiny_in) if flush else v)
            for e in range(bmap.shape[1]):
                v = _decode(_elem(b, t, e), bmode, tables)
                B[bmap[lane, e, 0], bmap[lane, e, 1], bmap[lane, e, 2]] = (
                    _flush(v, tiny_in) if flush else v)
            for e in range(dmap.shape[1]):
                x = _elem(c, t, e)
                v = np.float64(_wrap(x, 32)) if integer else (
                    np.float64(x) if f64 else np.float64(np.float32(x)))
                C[dmap[lane, e, 0], dmap[lane, e, 1], dmap[lane, e, 2]] = (
                    _flush(v, _F32_TINY) if flush else v)
        # D = C + sum over k of A[i, k] B[k, j], in float64, k ascending for each (i, j);
        # the j loop innermost runs over contiguous rows (numba vectorises it). Exact for
        # i8 (int8 products summed stay far below 2**53), one rounding to f32 below.
        for bl in range(blocks):
            for i in range(m):
                for kk in range(k):
                    x = A[bl, i, kk]
                    for j in range(n):
                        C[bl, i, j] += x * B[bl, kk, j]
        for lane in range(wave):
            t = base + lane
            for e in range(dmap.shape[1]):
                s = C[dmap[lane, e, 0], dmap[lane, e, 1], dmap[lane, e, 2]]
                if integer:  # the hardware's 32-bit adder wraps
                    d[t, e] = _wrap(int(s), 32)
                elif f64:
                    d[t, e] = s
                else:
                    r = np.float64(np.float32(s))
                    d[t, e] = _flush(r, _F32_TINY) if flush else r
