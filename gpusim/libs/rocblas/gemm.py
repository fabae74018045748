"""rocblas_Xgemm: C := alpha op(A) op(B) + beta C, and what the gemm family shares.

Checks follow rocBLAS's ``rocblas_gemm_arg_check``. As rocBLAS does for gemm, alpha and
beta in pointer mode device are copied to the host at the call (the handle's stream is
synchronised first), so the quick returns (beta = 1 with k = 0 or alpha = 0) apply in
both modes. The product is NumPy's matmul (the BLAS NumPy was built with: sgemm 2048^3
took 0.37-0.42 s on an idle 2-core host), in the routine's precision; rocBLAS's Tensile kernels
sum in another order, so results agree to rounding, not bit for bit.

>>> import numpy as np
>>> from gpusim import hip, rocblas
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([1, 2, 3, 4, 5, 6], np.float32))   # 2 x 3, lda = 2
>>> C = hip.device_array(4, np.float32)
>>> N, T = rocblas.rocblas_operation_none, rocblas.rocblas_operation_transpose
>>> rocblas.rocblas_sgemm(h, N, T, 2, 2, 3, 1.0, A, 2, A, 2, 0.0, C, 2)   # C = A A^T
>>> C.copy_to_host()
array([35., 44., 44., 56.], dtype=float32)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.libs.common import check_enum
from gpusim.libs.rocblas.blas_time import compute_kind, tensile_name
from gpusim.libs.rocblas.checks import (
    check_ld,
    check_sizes,
    matrix,
    null,
    scalar_arg,
)
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, RocblasError, rocblas_status
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.launching import launch_gemm
from gpusim.libs.rocblas.level2 import OP, TRANS_CODE
from gpusim.libs.rocblas.variants import variants, with_example

S = rocblas_status
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
LETTER = {OP.rocblas_operation_none: "N", OP.rocblas_operation_transpose: "T",
          OP.rocblas_operation_conjugate_transpose: "C"}
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas
    >>> h = rocblas.rocblas_create_handle()
    >>> A = hip.to_device(np.array([2, 1, 1, 3], np.{dtype}))    # [[2, 1], [1, 3]]
    >>> B = hip.to_device(np.array([1, 0, 0, 1], np.{dtype}))    # identity
    >>> C = hip.device_array(4, np.{dtype})
    >>> N = rocblas.rocblas_operation_none
"""


def apply_op(M: np.ndarray, trans: OP) -> np.ndarray:
    """op(M): M, M^T or M^H of the last two axes (a view where NumPy allows)."""
    if trans == OP.rocblas_operation_none:
        return M
    Mt = np.swapaxes(M, -1, -2)
    return Mt.conj() if trans == OP.rocblas_operation_conjugate_transpose else Mt


def now(h: Any, reader: Any) -> Any:
    """A scalar's value at the call; in pointer mode device the stream drains first, as
    rocblas_copy_alpha_beta_to_host_if_on_device does."""
    if h.device_mode:
        h.queue().synchronize()
    return reader()


def column_major_product(opA: np.ndarray, opB: np.ndarray) -> np.ndarray:
    """opA @ opB laid out column-major (as (opB^T opA^T)^T), so copying it into the
    column-major C is a straight copy instead of a transposing one."""
    return np.swapaxes(np.swapaxes(opB, -1, -2) @ np.swapaxes(opA, -1, -2), -1, -2)


def gemm_update(C: np.ndarray, product: Any, alpha: Any, beta: Any) -> None:
    """C := alpha * product + beta * C, not reading C when beta == 0 (BLAS rule)."""
    out = product() if alpha != 0 else np.zeros(C.shape, C.dtype)
    if alpha not in (0, 1):
        out = alpha * out
    C[:] = out if beta == 0 else out + beta * C


@dataclass
class GemmCall:
    """A gemm-family call that passed rocBLAS's checks and did not return early."""

    h: Any  # the Handle
    transA: OP
    transB: OP
    rows_a: int
    rows_b: int
    alpha: Any
    beta: Any


def gemm_checks(handle: Any, name: str, dtype: Any, transA: int, transB: int, m: int,
                n: int, k: int, alpha: Any, A: Any, lda: int, B: Any, ldb: int, beta: Any,
                C: Any, ldc: int, batch_count: int = 1) -> GemmCall | S | None:
    """The handle, then rocblas_gemm_arg_check in its order. Returns the GemmCall to run,
    or what the routine returns at once: a status in a size query, None for a quick
    return (nothing to do)."""
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    transA = check_enum(transA, TRANS_CODE, function=name, arg="transA", error=RocblasError)
    transB = check_enum(transB, TRANS_CODE, function=name, arg="transB", error=RocblasError)
    check_sizes(name, m=m, n=n, k=k, batch_count=batch_count)
    rows_a = m if transA == OP.rocblas_operation_none else k
    rows_b = k if transB == OP.rocblas_operation_none else n
    check_ld(name, "lda", lda, "m" if rows_a == m else "k (rows of A^T)", rows_a)
    check_ld(name, "ldb", ldb, "k" if rows_b == k else "n (rows of B^T)", rows_b)
    check_ld(name, "ldc", ldc, "m", m)
    if not m or not n or not batch_count:
        return None
    b = now(h, scalar_arg(h, beta, dtype, name, "beta"))
    a = None
    if b == 1:
        if not k:
            return None
        a = now(h, scalar_arg(h, alpha, dtype, name, "alpha"))
        if a == 0:
            return None
    a = now(h, scalar_arg(h, alpha, dtype, name, "alpha")) if a is None else a
    if C is None or (k and a != 0 and (A is None or B is None)):
        raise null(name, "C" if C is None else ("A" if A is None else "B"))
    return GemmCall(h, transA, transB, rows_a, rows_b, a if k else 0, b)


def launch_gemm_call(h: Any, run: Any, call: GemmCall, dtype: Any, m: int, n: int, k: int,
                     batch: int = 1) -> None:
    """Queue a gemm-family kernel with its Tensile-style name and modeled time."""
    size = np.dtype(dtype).itemsize
    name = tensile_name(LETTER[call.transA], LETTER[call.transB], type_code(dtype), batch > 1,
                        mt="{MT}")
    launch_gemm(h, run, name, m, n, k, batch, compute_kind(dtype),
                complex_=np.dtype(dtype).kind == "c", in_bytes=size, out_bytes=size,
                reads_c=call.beta != 0)


@with_example(_SETUP, """
    >>> {name}(h, N, N, 2, 2, 2, 1, A, 2, B, 2, 0, C, 2)
    >>> C.copy_to_host().real.tolist()
    [2.0, 1.0, 1.0, 3.0]
""")
def _gemm(name: str, dtype: Any, handle: Any, transA: int, transB: int, m: int, n: int,
          k: int, alpha: Any, A: Any, lda: int, B: Any, ldb: int, beta: Any, C: Any,
          ldc: int) -> S | None:
    """{name}: C := alpha op(A) op(B) + beta C, {ctype}, column-major; op(A) is m x k."""
    call = gemm_checks(handle, name, dtype, transA, transB, m, n, k, alpha, A, lda, B, ldb,
                       beta, C, ldc)
    if not isinstance(call, GemmCall):
        return call
    h = call.h
    Cv = matrix(C, m, n, ldc, dtype, name, "C", h.device)
    Av = matrix(A, call.rows_a, m + k - call.rows_a, lda, dtype, name, "A", h.device)
    Bv = matrix(B, call.rows_b, n + k - call.rows_b, ldb, dtype, name, "B", h.device)

    def run() -> None:
        gemm_update(Cv, lambda: column_major_product(apply_op(Av, call.transA),
                                                      apply_op(Bv, call.transB)),
                    call.alpha, call.beta)

    launch_gemm_call(h, run, call, dtype, m, n, k)
    return None


def type_code(dtype: Any) -> str:
    """Tensile's type code of a GEMM on ``dtype`` (SB, DB, CB, ZB)."""
    return {"float32": "SB", "float64": "DB", "complex64": "CB", "complex128": "ZB"}[
        np.dtype(dtype).name]



_ROUTINES = variants(_gemm, SDCZ, "rocblas_{p}gemm")
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
