"""rocBLAS level 3 besides gemm (gemm.py): symm, syrk, trsm, trmm (s, d, c, z).

Checks follow rocBLAS's ``rocblas_symm_arg_check`` / ``rocblas_syrk_arg_check`` /
``rocblas_trsm_arg_check`` / ``rocblas_trmm_arg_check`` order; results come from SciPy's
BLAS wrappers. trmm is rocBLAS 4's out-of-place form: C := alpha op(A) B (C may be B
when ldc = ldb). They are modeled as GEMM-shaped kernels with their own FLOP counts.

>>> import numpy as np
>>> from gpusim import hip, rocblas
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([4, 2, 0, 3], np.float64))   # [[4, 0], [2, 3]]
>>> B = hip.to_device(np.array([8, 7], np.float64))
>>> left, lower = rocblas.rocblas_side_left, rocblas.rocblas_fill_lower
>>> N, D = rocblas.rocblas_operation_none, rocblas.rocblas_diagonal_non_unit
>>> rocblas.rocblas_dtrsm(h, left, lower, N, D, 2, 1, 1.0, A, 2, B, 2)   # solve A X = B
>>> B.copy_to_host()
array([2., 1.])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.linalg.blas import get_blas_funcs

from gpusim.libs.common import check_enum
from gpusim.libs.rocblas.blas_time import compute_kind, ctype
from gpusim.libs.rocblas.checks import (
    check_ld,
    check_sizes,
    fail,
    matrix,
    null,
    same_memory,
    scalar_arg,
)
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, RocblasError, rocblas_side, rocblas_status
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.launching import launch_gemm
from gpusim.libs.rocblas.level2 import DIAGS, FILLS, OP, TRANS_CODE
from gpusim.libs.rocblas.variants import variants, with_example

S = rocblas_status
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
SIDES = (rocblas_side.rocblas_side_left, rocblas_side.rocblas_side_right)
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas
    >>> h = rocblas.rocblas_create_handle()
    >>> A = hip.to_device(np.array([2, 1, 1, 3], np.{dtype}))    # [[2, 1], [1, 3]]
    >>> B = hip.to_device(np.array([1, 0, 0, 1], np.{dtype}))    # identity
    >>> C = hip.device_array(4, np.{dtype})
    >>> N, L = rocblas.rocblas_operation_none, rocblas.rocblas_side_left
    >>> U, D = rocblas.rocblas_fill_upper, rocblas.rocblas_diagonal_non_unit
"""


@with_example(_SETUP, """
    >>> {name}(h, L, U, 2, 2, 1, A, 2, B, 2, 0, C, 2)    # A symmetric from its upper half
    >>> C.copy_to_host().real.tolist()
    [2.0, 1.0, 1.0, 3.0]
""")
def _symm(name: str, dtype: Any, handle: Any, side: int, uplo: int, m: int, n: int,
          alpha: Any, A: Any, lda: int, B: Any, ldb: int, beta: Any, C: Any, ldc: int
          ) -> S | None:
    """{name}: C := alpha A B + beta C (left) or alpha B A + beta C (right), A symmetric
    ({ctype}), read from its ``uplo`` triangle."""
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    side = check_enum(side, SIDES, function=name, arg="side", error=RocblasError)
    uplo = check_enum(uplo, FILLS, function=name, arg="uplo", error=RocblasError)
    check_sizes(name, m=m, n=n)
    ka = m if side == rocblas_side.rocblas_side_left else n
    check_ld(name, "ldc", ldc, "m", m)
    check_ld(name, "ldb", ldb, "m", m)
    check_ld(name, "lda", lda, "m" if ka == m else "n", ka)
    if not m or not n:
        return None
    a = scalar_arg(h, alpha, dtype, name, "alpha")
    b = scalar_arg(h, beta, dtype, name, "beta")
    if not h.device_mode:
        if a() == 0 and b() == 1:
            return None
        if C is None or (a() != 0 and (A is None or B is None)):
            raise null(name, "C" if C is None else ("A" if A is None else "B"))
    Av = matrix(A, ka, ka, lda, dtype, name, "A", h.device)
    Bv = matrix(B, m, n, ldb, dtype, name, "B", h.device)
    Cv = matrix(C, m, n, ldc, dtype, name, "C", h.device)
    symm = get_blas_funcs("symm", dtype=dtype)

    def run() -> None:
        Cv[:] = symm(a(), Av, Bv, beta=b(), c=Cv.copy(order="F"), side=int(side == SIDES[1]),
                     lower=int(uplo == FILLS[1]))

    flops = 2.0 * ka * m * n * (4 if np.dtype(dtype).kind == "c" else 1)
    launch_gemm(h, run, f"rocblas_symm_hemm_kernel<{ctype(dtype)}>", m, n, ka, 1,
                compute_kind(dtype), flops=flops, in_bytes=np.dtype(dtype).itemsize,
                out_bytes=np.dtype(dtype).itemsize)
    return None


@with_example(_SETUP, """
    >>> {name}(h, U, N, 2, 2, 1, A, 2, 0, C, 2)       # upper triangle of A A^T
    >>> C.copy_to_host().real.tolist()[2:]
    [5.0, 10.0]
""")
def _syrk(name: str, dtype: Any, handle: Any, uplo: int, transA: int, n: int, k: int,
          alpha: Any, A: Any, lda: int, beta: Any, C: Any, ldc: int) -> S | None:
    """{name}: C := alpha op(A) op(A)^T + beta C on the ``uplo`` triangle of C ({ctype});
    op(A) is n x k."""
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    uplo = check_enum(uplo, FILLS, function=name, arg="uplo", error=RocblasError)
    allowed = list(TRANS_CODE)[:2] if np.dtype(dtype).kind == "c" else TRANS_CODE
    transA = check_enum(transA, allowed, function=name, arg="transA", error=RocblasError)
    check_sizes(name, n=n, k=k)
    check_ld(name, "ldc", ldc, "n", n)
    rows_a = n if transA == OP.rocblas_operation_none else k
    check_ld(name, "lda", lda, "n" if rows_a == n else "k", rows_a)
    if not n:
        return None
    if (k > 0 and alpha is None) or beta is None:
        raise null(name, "beta" if beta is None else "alpha")
    a = scalar_arg(h, alpha, dtype, name, "alpha") if k > 0 else (lambda: 0)
    b = scalar_arg(h, beta, dtype, name, "beta")
    if not h.device_mode:
        calc = k > 0 and a() != 0
        if not calc and b() == 1:
            return None
        if (calc and A is None) or ((calc or b() != 1) and C is None):
            raise null(name, "A" if calc and A is None else "C")
    Cv = matrix(C, n, n, ldc, dtype, name, "C", h.device)
    Av = matrix(A, rows_a, n + k - rows_a, lda, dtype, name, "A", h.device) if k else None
    syrk = get_blas_funcs("syrk", dtype=dtype)

    def run() -> None:
        if k == 0 or a() == 0:
            tri = np.triu if uplo == FILLS[0] else np.tril
            Cv[:] = np.where(tri(np.ones((n, n), bool)), b() * Cv if b() != 0 else 0, Cv)
            return
        Cv[:] = syrk(a(), Av, beta=b(), c=Cv.copy(order="F"), trans=int(transA != OP(111)),
                     lower=int(uplo == FILLS[1]))

    flops = float(n) * (n + 1) * k * (4 if np.dtype(dtype).kind == "c" else 1)
    launch_gemm(h, run, f"rocblas_syrkx_herkx_kernel<{ctype(dtype)}>", n, n, k, 1,
                compute_kind(dtype), flops=flops, in_bytes=np.dtype(dtype).itemsize,
                out_bytes=np.dtype(dtype).itemsize)
    return None


@with_example(_SETUP, """
    >>> {name}(h, L, U, N, D, 2, 2, 1, A, 2, B, 2)     # B := inv(triu(A)) B
    >>> [round(float(v), 4) for v in B.copy_to_host().real]
    [0.5, 0.0, -0.1667, 0.3333]
""")
def _trsm(name: str, dtype: Any, handle: Any, side: int, uplo: int, transA: int, diag: int,
          m: int, n: int, alpha: Any, A: Any, lda: int, B: Any, ldb: int) -> S | None:
    """{name}: solve op(A) X = alpha B (left) or X op(A) = alpha B (right) in place of B,
    A triangular ({ctype})."""
    return _triangular(name, dtype, handle, side, uplo, transA, diag, m, n, alpha, A, lda,
                       B, ldb, None, None, solve=True)


@with_example(_SETUP, """
    >>> {name}(h, L, U, N, D, 2, 2, 1, A, 2, B, 2, C, 2)    # C := triu(A) B
    >>> C.copy_to_host().real.tolist()
    [2.0, 0.0, 1.0, 3.0]
""")
def _trmm(name: str, dtype: Any, handle: Any, side: int, uplo: int, transA: int, diag: int,
          m: int, n: int, alpha: Any, A: Any, lda: int, B: Any, ldb: int, C: Any, ldc: int
          ) -> S | None:
    """{name}: C := alpha op(A) B (left) or alpha B op(A) (right), A triangular
    ({ctype}); rocBLAS 4's out-of-place trmm (pass C = B, ldc = ldb for in place)."""
    return _triangular(name, dtype, handle, side, uplo, transA, diag, m, n, alpha, A, lda,
                       B, ldb, C, ldc, solve=False)


def _triangular(name: str, dtype: Any, handle: Any, side: int, uplo: int, transA: int,
                diag: int, m: int, n: int, alpha: Any, A: Any, lda: int, B: Any, ldb: int,
                C: Any, ldc: int | None, *, solve: bool) -> S | None:
    h = get_handle(handle, name)
    side = check_enum(side, SIDES, function=name, arg="side", error=RocblasError)
    uplo = check_enum(uplo, FILLS, function=name, arg="uplo", error=RocblasError)
    transA = check_enum(transA, TRANS_CODE, function=name, arg="transA", error=RocblasError)
    diag = check_enum(diag, DIAGS, function=name, arg="diag", error=RocblasError)
    check_sizes(name, m=m, n=n)
    ka = m if side == rocblas_side.rocblas_side_left else n
    if ldc is not None:
        check_ld(name, "ldc", ldc, "m", m)
    check_ld(name, "ldb", ldb, "m", m)
    check_ld(name, "lda", lda, "m" if ka == m else "n", ka)
    if not m or not n:
        return S.rocblas_status_size_unchanged if h.querying else None
    if solve:  # trsm's workspace: a copy of the inverted diagonal blocks (model)
        status = h.workspace(name, 128 * ka * np.dtype(dtype).itemsize)
        if status is not None:
            return status
    elif h.querying:
        return S.rocblas_status_size_unchanged
    out = B if solve else C
    if out is None or alpha is None:
        raise null(name, "alpha" if alpha is None else ("B" if solve else "C"))
    a = scalar_arg(h, alpha, dtype, name, "alpha")
    if not h.device_mode and a() != 0 and (A is None or B is None):
        raise null(name, "A" if A is None else "B")
    if not solve and same_memory(B, C) and ldb != ldc:
        raise fail(S.rocblas_status_invalid_value, name,
                   f"B and C are the same memory but ldb={ldb} != ldc={ldc}; in-place trmm "
                   "needs ldc = ldb")
    Av = matrix(A, ka, ka, lda, dtype, name, "A", h.device)
    Bv = matrix(B, m, n, ldb, dtype, name, "B", h.device)
    Cv = Bv if solve else matrix(C, m, n, ldc, dtype, name, "C", h.device)
    blas = get_blas_funcs("trsm" if solve else "trmm", dtype=dtype)

    def run() -> None:
        with np.errstate(all="ignore"):
            Cv[:] = blas(a(), Av, Bv.copy(order="F"), side=int(side == SIDES[1]),
                         lower=int(uplo == FILLS[1]), trans_a=TRANS_CODE[transA],
                         diag=int(diag == DIAGS[1]))

    flops = float(ka) * m * n * (4 if np.dtype(dtype).kind == "c" else 1)
    kernel = "trsm_block_kernel" if solve else "trmm_outofplace_kernel"
    launch_gemm(h, run, f"rocblas_{kernel}<{ctype(dtype)}>", m, n, ka, 1,
                compute_kind(dtype), flops=flops, in_bytes=np.dtype(dtype).itemsize,
                out_bytes=np.dtype(dtype).itemsize)
    return None


_ROUTINES = {
    **variants(_symm, SDCZ, "rocblas_{p}symm"),
    **variants(_syrk, SDCZ, "rocblas_{p}syrk"),
    **variants(_trsm, SDCZ, "rocblas_{p}trsm"),
    **variants(_trmm, SDCZ, "rocblas_{p}trmm"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
