"""What an MFMA computes: a NumPy reference executor over a wavefront's registers.

``mfma(inst, a, b, c)`` takes what the 64 lanes hold (``a[lane, e]``: the e-th A element
of that lane, laid out as ``gpusim.devices.mfma`` says) and returns each lane's D, with
``D = A @ B + C`` per block. ``pack_*`` / ``unpack_d`` move whole matrices into and out of
that layout, so a learner can check a tile by hand:

>>> import numpy as np, ml_dtypes
>>> from gpusim.devices.mfma import get_mfma
>>> from gpusim.devices.mfma_math import mfma, pack_a, pack_b, pack_d, unpack_d
>>> inst = get_mfma("gfx942", "v_mfma_f32_16x16x16_bf16")
>>> A = np.full((16, 16), 0.5, np.float32); B = np.eye(16, dtype=np.float32)
>>> d = mfma(inst, pack_a(inst, A), pack_b(inst, B), pack_d(inst, np.ones((16, 16))))
>>> d.shape, d.dtype, float(unpack_d(inst, d)[3, 7])
((64, 4), dtype('float32'), 1.5)

Numerics (what is exact and what is modelled):

- Inputs are values of the instruction's element type: f32, f16 (``np.float16``), bf16
  (``ml_dtypes.bfloat16``), i8, f64, fp8/bf8 (CDNA3's FNUZ formats,
  ``ml_dtypes.float8_e4m3fnuz`` / ``float8_e5m2fnuz``). Other values are first rounded to
  the element type, round-to-nearest-even, as HIP's conversions do.
- Products of f16/bf16/fp8 inputs are exact in f32 (at most 22 significant bits) and the
  matrix core accumulates in f32. gpusim adds the K products and C in f64 (exact unless
  their magnitudes span more than about 30 binades) and rounds once to f32. The
  hardware's internal addition order is not documented, so a result can differ from a
  real GPU in the last bit where the sum needs rounding.
- gfx90a (MI200) flushes subnormal inputs and outputs of its f16 and bf16 MFMAs to zero
  (AMD, "MI200 matrix fused multiply-add (MFMA) behavior specifics", MIOpen docs,
  https://rocm.docs.amd.com/projects/MIOpen/en/latest/MI200AlternateImplementation.html);
  gfx942 keeps them. f32 and f64 MFMAs keep subnormals on both.
- i8: exact integer products, sum wraps to int32 as the hardware's 32-bit adder does.
- f64: D = A @ B + C in float64.
- xf32 (gfx942 ``v_mfma_f32_*_xf32``) is not modelled: its reduced internal precision is
  not specified in the public ISA guide; calling it raises NotImplementedError.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from gpusim.devices.mfma import WAVE, MfmaInstruction

ELEMENT_DTYPE = {
    "f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16), "i8": np.dtype(np.int8),
    "f64": np.dtype(np.float64), "i32": np.dtype(np.int32),
    "fp8": np.dtype(ml_dtypes.float8_e4m3fnuz), "bf8": np.dtype(ml_dtypes.float8_e5m2fnuz),
}
_FLUSHES = {("gfx90a", "f16"), ("gfx90a", "bf16")}


def element_dtype(type_name: str) -> np.dtype:
    """The NumPy dtype of one register element of an MFMA operand type."""
    if type_name not in ELEMENT_DTYPE:
        raise NotImplementedError(
            f"MFMA element type {type_name!r} is not modelled by gpusim "
            f"(modelled: {', '.join(ELEMENT_DTYPE)})")
    return ELEMENT_DTYPE[type_name]


def _as(values, type_name: str) -> np.ndarray:
    values = np.asarray(values)
    dtype = element_dtype(type_name)
    if values.dtype == dtype:
        return values
    if dtype.kind in "iu" and values.dtype.kind not in "iub":
        raise TypeError(f"{type_name} MFMA operands must be integers, got {values.dtype}")
    with np.errstate(over="ignore", invalid="ignore"):  # to inf / NaN, as a GPU converts
        return values.astype(dtype)


def _blocks(inst: MfmaInstruction, matrix: np.ndarray, rows: int, cols: int) -> np.ndarray:
    matrix = np.asarray(matrix)
    if matrix.shape == (rows, cols) and inst.blocks == 1:
        matrix = matrix[None]
    if matrix.shape != (inst.blocks, rows, cols):
        raise ValueError(f"{inst.name} takes {inst.blocks} block(s) of {rows}x{cols}, "
                         f"got an array of shape {matrix.shape}")
    return matrix


def _pack(matrix: np.ndarray, where: np.ndarray) -> np.ndarray:
    block, r, c = where[..., 0], where[..., 1], where[..., 2]
    return matrix[block, r, c]


def pack_a(inst: MfmaInstruction, A) -> np.ndarray:
    """A as [blocks, M, K] (or [M, K]) -> each lane's A register elements [64, a_per_lane]."""
    return _pack(_as(_blocks(inst, A, inst.m, inst.k), inst.a_type), inst.a_map())


def pack_b(inst: MfmaInstruction, B) -> np.ndarray:
    """B as [blocks, K, N] (or [K, N]) -> each lane's B register elements [64, b_per_lane]."""
    return _pack(_as(_blocks(inst, B, inst.k, inst.n), inst.b_type), inst.b_map())


def pack_d(inst: MfmaInstruction, C) -> np.ndarray:
    """C as [blocks, M, N] (or [M, N]) -> each lane's C registers [64, d_per_lane]."""
    return _pack(_as(_blocks(inst, C, inst.m, inst.n), inst.d_type), inst.d_map())


def _unpack(regs: np.ndarray, where: np.ndarray, shape: tuple[int, int, int]) -> np.ndarray:
    out = np.zeros(shape, dtype=regs.dtype)
    out[where[..., 0], where[..., 1], where[..., 2]] = regs
    return out


def unpack_d(inst: MfmaInstruction, d: np.ndarray) -> np.ndarray:
    """Each lane's D registers [64, d_per_lane] -> D as [blocks, M, N] ([M, N] for 1 block)."""
    out = _unpack(_check(inst, d, inst.d_per_lane, "d"), inst.d_map(),
                  (inst.blocks, inst.m, inst.n))
    return out[0] if inst.blocks == 1 else out


def flushes_subnormals(inst: MfmaInstruction) -> bool:
    """Whether ``inst`` flushes subnormal inputs and results to zero (gfx90a's f16/bf16)."""
    return (inst.arch, inst.a_type) in _FLUSHES


def _check(inst: MfmaInstruction, regs, per_lane: int, what: str) -> np.ndarray:
    regs = np.asarray(regs)
    if regs.shape != (WAVE, per_lane):
        raise ValueError(f"{inst.name}: {what} must hold {per_lane} element(s) in each of "
                         f"{WAVE} lanes, shape ({WAVE}, {per_lane}); got {regs.shape}")
    return regs


def _flush(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Subnormals of ``dtype`` -> zero of the same sign (values held as float64)."""
    tiny = float(ml_dtypes.finfo(dtype).smallest_normal)
    return np.where(np.abs(x) < tiny, np.copysign(0.0, x), x)


def mfma(inst: MfmaInstruction, a, b, c) -> np.ndarray:
    """Execute ``inst`` for one wavefront: D registers [64, d_per_lane] from A, B, C registers."""
    if inst.a_type == "xf32":
        raise NotImplementedError(
            f"{inst.name}: xf32 MFMAs are not modelled (their internal precision is not "
            "public); use v_mfma_f32_*_f32 for f32 inputs")
    a = _as(_check(inst, a, inst.a_per_lane, "a"), inst.a_type)
    b = _as(_check(inst, b, inst.b_per_lane, "b"), inst.b_type)
    c = _as(_check(inst, c, inst.d_per_lane, "c"), inst.d_type)
    with np.errstate(over="ignore", invalid="ignore"):  # inf and NaN propagate silently
        return _pack(_execute(inst, a, b, c), inst.d_map())


def _execute(inst: MfmaInstruction, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    A = _unpack(a, inst.a_map(), (inst.blocks, inst.m, inst.k))
    B = _unpack(b, inst.b_map(), (inst.blocks, inst.k, inst.n))
    C = _unpack(c, inst.d_map(), (inst.blocks, inst.m, inst.n))
    if inst.d_type == "i32":
        D = (A.astype(np.int64) @ B.astype(np.int64) + C).astype(np.int64)
        D = ((D + 2**31) % 2**32 - 2**31).astype(np.int32)
    elif inst.d_type == "f64":
        D = A @ B + C
    else:
        A, B, C = (x.astype(np.float64) for x in (A, B, C))
        flush = flushes_subnormals(inst)
        if flush:
            A, B = _flush(A, element_dtype(inst.a_type)), _flush(B, element_dtype(inst.b_type))
            C = _flush(C, np.dtype(np.float32))
        D = (A @ B + C).astype(np.float32)
        if flush:
            D = _flush(D.astype(np.float64), np.dtype(np.float32)).astype(np.float32)
    return D
