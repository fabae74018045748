"""rocblas_gemm_ex / rocblas_gemm_strided_batched_ex: mixed-precision GEMM on the matrix
cores, D := alpha op(A) op(B) + beta C with separate input, output and compute types.

Supported (a = b, c = d, compute) combinations, as rocBLAS's gemm_ex dispatch
(library/src/blas_ex/rocblas_gemm_ex_kernels.cpp); anything else is
rocblas_status_not_implemented:

    f64 f64 f64 | f32 f32 f32 | f16 f16 f16 | f16 f16 f32 | f16 f32 f32
    bf16 bf16 f32 | bf16 f32 f32 | i8 i32 i32 | f32_c f32_c f32_c | f64_c f64_c f64_c

Numerics: 16-bit inputs are widened exactly to f32, their products (exact in f32) are
summed in f32, the alpha/beta epilogue is done in f32 and the result rounded once to
the output type (round to nearest even, as rocblas_half / rocblas_bfloat16 convert).
That is what the MFMA f32-accumulating instructions do; the order of the sums differs
from Tensile's, so results match rocBLAS to f32 rounding of the sums (relative error
about k * 2^-24), not bit for bit. compute_type f16 is modeled the same way (the MFMA
f16 instructions also accumulate in f32); it differs only in alpha and beta being
rocblas_half. bf16 data are ``np.uint16`` arrays of raw bits (rocblas_bfloat16 is a
16-bit struct in C): see ``float_to_bfloat16`` / ``bfloat16_to_float``.

>>> import numpy as np
>>> from gpusim import hip, rocblas as rb
>>> h = rb.rocblas_create_handle()
>>> A = hip.to_device(np.array([1, 2, 3, 4], np.float16))
>>> D = hip.device_array(4, np.float16)
>>> N, f16, f32 = rb.rocblas_operation_none, rb.rocblas_datatype_f16_r, rb.rocblas_datatype_f32_r
>>> rb.rocblas_gemm_ex(h, N, N, 2, 2, 2, 1.0, A, f16, 2, A, f16, 2, 0.0, D, f16, 2, D, f16, 2,
...                    f32, rb.rocblas_gemm_algo_standard, 0, 0)
>>> D.copy_to_host()
array([ 7., 10., 15., 22.], dtype=float16)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.libs.common import check_enum
from gpusim.libs.rocblas.blas_time import tensile_name
from gpusim.libs.rocblas.checks import (
    check_ld,
    check_sizes,
    fail,
    null,
    same_memory,
    scalar_arg,
    strided_matrices,
)
from gpusim.libs.rocblas.enums import RocblasError, rocblas_datatype, rocblas_status
from gpusim.libs.rocblas.gemm import LETTER, apply_op, column_major_product, now
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.launching import launch_gemm
from gpusim.libs.rocblas.level2 import OP, TRANS_CODE

S = rocblas_status
T = rocblas_datatype
STORAGE = {T.rocblas_datatype_f16_r: np.float16, T.rocblas_datatype_bf16_r: np.uint16,
           T.rocblas_datatype_f32_r: np.float32, T.rocblas_datatype_f64_r: np.float64,
           T.rocblas_datatype_i8_r: np.int8, T.rocblas_datatype_i32_r: np.int32,
           T.rocblas_datatype_f32_c: np.complex64, T.rocblas_datatype_f64_c: np.complex128}
# (a/b type, c/d type, compute type) -> (Tensile type code, model kind)
SUPPORTED = {
    (T.rocblas_datatype_f64_r,) * 3: ("DB", "f64"),
    (T.rocblas_datatype_f32_r,) * 3: ("SB", "f32"),
    (T.rocblas_datatype_f16_r,) * 3: ("HB", "f16"),
    (T.rocblas_datatype_f16_r, T.rocblas_datatype_f16_r, T.rocblas_datatype_f32_r):
        ("HHS_BH", "f16"),
    (T.rocblas_datatype_f16_r, T.rocblas_datatype_f32_r, T.rocblas_datatype_f32_r):
        ("HSS_BH", "f16"),
    (T.rocblas_datatype_bf16_r, T.rocblas_datatype_bf16_r, T.rocblas_datatype_f32_r):
        ("BBS_BH", "bf16"),
    (T.rocblas_datatype_bf16_r, T.rocblas_datatype_f32_r, T.rocblas_datatype_f32_r):
        ("BSS_BH", "bf16"),
    (T.rocblas_datatype_i8_r, T.rocblas_datatype_i32_r, T.rocblas_datatype_i32_r):
        ("I8II_BH", "i8"),
    (T.rocblas_datatype_f32_c,) * 3: ("CB", "f32"),
    (T.rocblas_datatype_f64_c,) * 3: ("ZB", "f64"),
}


def bfloat16_to_float(bits: np.ndarray) -> np.ndarray:
    """Raw bfloat16 bit patterns (uint16) -> float32, exactly.

    >>> bfloat16_to_float(np.array([0x3F80, 0xC040], np.uint16))
    array([ 1., -3.], dtype=float32)
    """
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def float_to_bfloat16(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even; NaN stays a (quiet) NaN.

    >>> hex(int(float_to_bfloat16(np.array([1 + 2**-8], np.float32))[0]))   # tie -> even
    '0x3f80'
    """
    x = np.asarray(x, np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), ((u >> 16) | 0x40).astype(np.uint16), bits)


def _widen(M: np.ndarray, dtype: T) -> np.ndarray:
    if dtype == T.rocblas_datatype_bf16_r:
        return bfloat16_to_float(M)
    if dtype == T.rocblas_datatype_f16_r:
        return M.astype(np.float32)
    return M.astype(np.int64) if dtype == T.rocblas_datatype_i8_r else M


def _narrow(X: np.ndarray, dtype: T) -> np.ndarray:
    if dtype == T.rocblas_datatype_bf16_r:
        return float_to_bfloat16(X)
    if dtype == T.rocblas_datatype_i32_r:
        return X.astype(np.int64).astype(np.int32)  # wraps modulo 2^32 as int32 math does
    return X.astype(STORAGE[dtype])


def _gemm_ex(name: str, handle: Any, transA: int, transB: int, m: int, n: int, k: int,
             alpha: Any, a: Any, a_type: int, lda: int, stride_a: int, b: Any, b_type: int,
             ldb: int, stride_b: int, beta: Any, c: Any, c_type: int, ldc: int,
             stride_c: int, d: Any, d_type: int, ldd: int, stride_d: int,
             batch_count: int, compute_type: int) -> S | None:
    """rocblas_gemm_ex_arg_check order, then the type dispatch (not_implemented)."""
    h = get_handle(handle, name)
    transA = check_enum(transA, TRANS_CODE, function=name, arg="transA", error=RocblasError)
    transB = check_enum(transB, TRANS_CODE, function=name, arg="transB", error=RocblasError)
    check_sizes(name, m=m, n=n, k=k, batch_count=batch_count)
    rows_a = m if transA == OP.rocblas_operation_none else k
    rows_b = k if transB == OP.rocblas_operation_none else n
    check_ld(name, "ldc", ldc, "m", m)
    check_ld(name, "ldd", ldd, "m", m)
    check_ld(name, "lda", lda, "m" if rows_a == m else "k (rows of A^T)", rows_a)
    check_ld(name, "ldb", ldb, "k" if rows_b == k else "n (rows of B^T)", rows_b)
    if not m or not n or not batch_count or h.querying:
        return S.rocblas_status_size_unchanged if h.querying else None
    types = tuple(_datatype(t) for t in (a_type, c_type, compute_type))
    scalar_type = STORAGE.get(types[2], np.float32)
    if (k and alpha is None) or beta is None or d is None:
        raise null(name, "d" if d is None else ("beta" if beta is None else "alpha"))
    al = now(h, scalar_arg(h, alpha, scalar_type, name, "alpha")) if k else 0
    be = now(h, scalar_arg(h, beta, scalar_type, name, "beta"))
    if c is None and be != 0:
        raise null(name, "c")
    if k and (a is None or b is None) and al != 0:
        raise null(name, "a" if a is None else "b")
    if same_memory(c, d) and ldc != ldd:
        raise fail(S.rocblas_status_invalid_size, name,
                   f"c and d are the same memory but ldc={ldc} != ldd={ldd}")
    if same_memory(c, d) and _datatype(c_type) != _datatype(d_type):
        raise fail(S.rocblas_status_invalid_value, name,
                   "c and d are the same memory but c_type != d_type")
    if types not in SUPPORTED or _datatype(b_type) != types[0] or _datatype(d_type) != types[1]:
        raise fail(S.rocblas_status_not_implemented, name,
                   "this (a_type, b_type, c_type, d_type, compute_type) combination is not "
                   "supported by rocblas_gemm_ex; supported: " + ", ".join(
                       "/".join(t.name.removeprefix("rocblas_datatype_") for t in key)
                       for key in SUPPORTED))
    code, kind = SUPPORTED[types]

    def views(ptr: Any, rows: int, cols: int, ld: int, stride: int, t: T, arg: str):
        if ptr is None:
            return None
        return strided_matrices(ptr, rows, cols, ld, stride, batch_count, STORAGE[t], name,
                                arg, h.device)

    As = views(a, rows_a, m + k - rows_a, lda, stride_a, types[0], "a") if k else None
    Bs = views(b, rows_b, n + k - rows_b, ldb, stride_b, types[0], "b") if k else None
    Cs = views(c, m, n, ldc, stride_c, types[1], "c")
    Ds = views(d, m, n, ldd, stride_d, types[1], "d")
    acc = np.int64 if kind == "i8" else (STORAGE[types[2]] if kind in ("f64", "f32")
                                         else np.float32)

    def run() -> None:
        out = np.zeros((batch_count, m, n), acc)
        if k and al != 0:
            out = acc(al) * column_major_product(apply_op(_widen(As, types[0]), transA),
                                                 apply_op(_widen(Bs, types[0]), transB))
        if be != 0:
            out = out + acc(be) * _widen(Cs, types[1])
        Ds[:] = _narrow(out, types[1])

    size_in, size_out = np.dtype(STORAGE[types[0]]).itemsize, np.dtype(STORAGE[types[1]]).itemsize
    name = tensile_name(LETTER[transA], LETTER[transB], code, batch_count > 1, mt="{MT}")
    launch_gemm(h, run, name,
                m, n, k, batch_count, kind, complex_=np.dtype(acc).kind == "c",
                in_bytes=size_in, out_bytes=size_out, reads_c=be != 0)
    return None


def _datatype(value: Any) -> T:
    try:
        return T(int(value))
    except (ValueError, TypeError):
        return T.rocblas_datatype_invalid


def rocblas_gemm_ex(handle: Any, transA: int, transB: int, m: int, n: int, k: int,
                    alpha: Any, a: Any, a_type: int, lda: int, b: Any, b_type: int, ldb: int,
                    beta: Any, c: Any, c_type: int, ldc: int, d: Any, d_type: int, ldd: int,
                    compute_type: int, algo: int = 0, solution_index: int = 0,
                    flags: int = 0) -> S | None:
    """D := alpha op(A) op(B) + beta C with the given storage and compute types (see the
    module docstring for the example and the supported combinations). ``algo``,
    ``solution_index`` and ``flags`` select Tensile solutions on real hardware and do not
    change the result; they are accepted for fidelity."""
    return _gemm_ex("rocblas_gemm_ex", handle, transA, transB, m, n, k, alpha, a, a_type,
                    lda, 0, b, b_type, ldb, 0, beta, c, c_type, ldc, 0, d, d_type, ldd, 0,
                    1, compute_type)


def rocblas_gemm_strided_batched_ex(
        handle: Any, transA: int, transB: int, m: int, n: int, k: int, alpha: Any, a: Any,
        a_type: int, lda: int, stride_a: int, b: Any, b_type: int, ldb: int, stride_b: int,
        beta: Any, c: Any, c_type: int, ldc: int, stride_c: int, d: Any, d_type: int,
        ldd: int, stride_d: int, batch_count: int, compute_type: int, algo: int = 0,
        solution_index: int = 0, flags: int = 0) -> S | None:
    """rocblas_gemm_ex over ``batch_count`` matrices ``stride_*`` elements apart.

    >>> import numpy as np
    >>> from gpusim import hip, rocblas as rb
    >>> h = rb.rocblas_create_handle()
    >>> bf16 = rb.rocblas_datatype_bf16_r
    >>> A = hip.to_device(float_to_bfloat16(np.array([1, 2, 3, 4], np.float32)))
    >>> D = hip.device_array(4, np.float32)
    >>> rb.rocblas_gemm_strided_batched_ex(h, 111, 111, 1, 1, 2, 1.0, A, bf16, 1, 2, A,
    ...     bf16, 2, 2, 0.0, D, rb.rocblas_datatype_f32_r, 1, 1, D,
    ...     rb.rocblas_datatype_f32_r, 1, 1, 2, rb.rocblas_datatype_f32_r)
    >>> D.copy_to_host()[:2]          # [1 2].[1 2] and [3 4].[3 4]
    array([ 5., 25.], dtype=float32)
    """
    return _gemm_ex("rocblas_gemm_strided_batched_ex", handle, transA, transB, m, n, k,
                    alpha, a, a_type, lda, stride_a, b, b_type, ldb, stride_b, beta, c,
                    c_type, ldc, stride_c, d, d_type, ldd, stride_d, batch_count,
                    compute_type)
