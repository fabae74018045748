"""Many GEMMs in one call: rocblas_Xgemm_batched and rocblas_Xgemm_strided_batched.

The two layouts learners confuse:

- ``_strided_batched``: all matrices in one buffer, matrix i of A starting
  ``i * stride_a`` elements after A (``rocblas_stride`` counts elements, not bytes;
  stride 0 reuses one matrix for the whole batch);
- ``_batched``: an array of pointers in device memory, one per matrix, anywhere
  (``hip.to_device(np.array([int(d.ptr) for d in mats], np.uint64))``; a Python list of
  device arrays is accepted too). Passing a buffer of matrices where the array of
  pointers belongs fails with rocblas_status_invalid_pointer and says which to use.

Both run as one Tensile kernel (``..._GB``) whose grid covers the batch.

>>> import numpy as np
>>> from gpusim import hip, rocblas
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([1, 0, 0, 1, 2, 0, 0, 2], np.float32))   # I and 2I
>>> C = hip.device_array(8, np.float32)
>>> N = rocblas.rocblas_operation_none
>>> rocblas.rocblas_sgemm_strided_batched(h, N, N, 2, 2, 2, 1.0, A, 2, 4, A, 2, 4,
...                                       0.0, C, 2, 4, 2)
>>> C.copy_to_host()
array([1., 0., 0., 1., 4., 0., 0., 4.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

from gpusim.libs.rocblas.checks import matrix, pointer_array, strided_matrices
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, rocblas_status
from gpusim.libs.rocblas.gemm import (
    GemmCall,
    apply_op,
    column_major_product,
    gemm_checks,
    gemm_update,
    launch_gemm_call,
)
from gpusim.libs.rocblas.variants import variants, with_example

S = rocblas_status
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas
    >>> h = rocblas.rocblas_create_handle()
    >>> N = rocblas.rocblas_operation_none
    >>> mats = [hip.to_device(np.array([k, 0, 0, k], np.{dtype})) for k in (1, 2, 3)]
"""


@with_example(_SETUP, """
    >>> A = hip.to_device(np.concatenate([m.copy_to_host() for m in mats]))
    >>> C = hip.device_array(12, np.{dtype})
    >>> {name}(h, N, N, 2, 2, 2, 1, A, 2, 4, A, 2, 4, 0, C, 2, 4, 3)
    >>> C.copy_to_host().real.reshape(3, 4)[:, 0].tolist()     # C_i[0, 0] = k^2
    [1.0, 4.0, 9.0]
""")
def _strided(name: str, dtype: Any, handle: Any, transA: int, transB: int, m: int, n: int,
             k: int, alpha: Any, A: Any, lda: int, stride_a: int, B: Any, ldb: int,
             stride_b: int, beta: Any, C: Any, ldc: int, stride_c: int, batch_count: int
             ) -> S | None:
    """{name}: C_i := alpha op(A_i) op(B_i) + beta C_i for i < batch_count, {ctype},
    matrix i at A + i * stride_a (elements)."""
    call = gemm_checks(handle, name, dtype, transA, transB, m, n, k, alpha, A, lda, B, ldb,
                       beta, C, ldc, batch_count)
    if not isinstance(call, GemmCall):
        return call
    h = call.h
    Cs = strided_matrices(C, m, n, ldc, stride_c, batch_count, dtype, name, "C", h.device)
    As = strided_matrices(A, call.rows_a, m + k - call.rows_a, lda, stride_a, batch_count,
                          dtype, name, "A", h.device)
    Bs = strided_matrices(B, call.rows_b, n + k - call.rows_b, ldb, stride_b, batch_count,
                          dtype, name, "B", h.device)

    def run() -> None:
        gemm_update(Cs, lambda: column_major_product(apply_op(As, call.transA),
                                                      apply_op(Bs, call.transB)),
                    call.alpha, call.beta)

    launch_gemm_call(h, run, call, dtype, m, n, k, batch_count)
    return None


@with_example(_SETUP, """
    >>> A = hip.to_device(np.array([int(m.ptr) for m in mats], np.uint64))   # pointers
    >>> outs = [hip.device_array(4, np.{dtype}) for _ in mats]
    >>> C = hip.to_device(np.array([int(c.ptr) for c in outs], np.uint64))
    >>> {name}(h, N, N, 2, 2, 2, 1, A, 2, A, 2, 0, C, 2, 3)
    >>> outs[2].copy_to_host().real.tolist()
    [9.0, 0.0, 0.0, 9.0]
""")
def _batched(name: str, dtype: Any, handle: Any, transA: int, transB: int, m: int, n: int,
             k: int, alpha: Any, A: Any, lda: int, B: Any, ldb: int, beta: Any, C: Any,
             ldc: int, batch_count: int) -> S | None:
    """{name}: C[i] := alpha op(A[i]) op(B[i]) + beta C[i], {ctype}; A, B, C are arrays of
    device pointers (one per matrix)."""
    call = gemm_checks(handle, name, dtype, transA, transB, m, n, k, alpha, A, lda, B, ldb,
                       beta, C, ldc, batch_count)
    if not isinstance(call, GemmCall):
        return call
    h = call.h
    Cs = [matrix(p, m, n, ldc, dtype, name, "C[i]", h.device)
          for p in pointer_array(C, batch_count, name, "C", h.device)]
    As = [matrix(p, call.rows_a, m + k - call.rows_a, lda, dtype, name, "A[i]", h.device)
          for p in pointer_array(A, batch_count, name, "A", h.device)]
    Bs = [matrix(p, call.rows_b, n + k - call.rows_b, ldb, dtype, name, "B[i]", h.device)
          for p in pointer_array(B, batch_count, name, "B", h.device)]

    def run() -> None:
        for Ci, Ai, Bi in zip(Cs, As, Bs, strict=True):
            gemm_update(Ci, lambda Ai=Ai, Bi=Bi: column_major_product(
                apply_op(Ai, call.transA), apply_op(Bi, call.transB)), call.alpha, call.beta)

    launch_gemm_call(h, run, call, dtype, m, n, k, batch_count)
    return None


_ROUTINES = {
    **variants(_strided, SDCZ, "rocblas_{p}gemm_strided_batched"),
    **variants(_batched, SDCZ, "rocblas_{p}gemm_batched"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
