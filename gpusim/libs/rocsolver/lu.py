"""LU: rocsolver_Xgetrf, Xgetrs, Xgetri, and the batched / strided-batched getrf, getrs.

getrf factors A = P L U in place with partial pivoting (LAPACK's algorithm, via SciPy's
LAPACK: the same pivots as rocSOLVER when the largest |a_ij| is unique); ipiv is 1-based
(row i was swapped with row ipiv[i]); info = j > 0 when U[j, j] (1-based) is exactly
zero, and the factorization still completes, as LAPACK and rocSOLVER do.

Layouts of the batched forms: ``_strided_batched`` takes one buffer and strideA;
``_batched`` an array of device pointers (see rocblas.batched); in both, ipiv is one
buffer with strideP between the pivots of consecutive matrices and info has one entry
per matrix.

>>> import numpy as np
>>> from gpusim import hip, rocblas, rocsolver
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([1, 3, 2, 4], np.float64))     # [[1, 2], [3, 4]]
>>> ipiv, info = hip.device_array(2, np.int32), hip.device_array(1, np.int32)
>>> rocsolver.rocsolver_dgetrf(h, 2, 2, A, 2, ipiv, info)
>>> ipiv.copy_to_host(), info.copy_to_host()
(array([2, 2], dtype=int32), array([0], dtype=int32))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.linalg.lapack import get_lapack_funcs

from gpusim.libs.common import check_enum
from gpusim.libs.rocblas.checks import check_ld, check_sizes, matrix, null
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, RocblasError, rocblas_status
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.level2 import TRANS_CODE
from gpusim.libs.rocblas.variants import variants, with_example
from gpusim.libs.rocsolver.common import int_view, launch_blocked, launch_single, matrices

S = rocblas_status
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas, rocsolver
    >>> h = rocblas.rocblas_create_handle()
    >>> A = hip.to_device(np.array([4, 2, 2, 3], np.{dtype}))     # [[4, 2], [2, 3]]
    >>> ipiv, info = hip.device_array(2, np.int32), hip.device_array(1, np.int32)
"""


def getrf(name: str, dtype: Any, handle: Any, m: int, n: int, A: Any, lda: int,
          strideA: int, ipiv: Any, strideP: int, info: Any, batch: int, layout: str
          ) -> S | None:
    """getrf in any layout (rocsolver_getf2_getrf_argCheck order)."""
    h = get_handle(handle, name)
    check_sizes(name, m=m, n=n, batch_count=batch)
    check_ld(name, "lda", lda, "m", m, at_least_one=False)
    if h.querying:
        return h.workspace(name, (min(m, n) + 1) * 64 * np.dtype(dtype).itemsize * batch)
    if (m and n and A is None) or (m and n and ipiv is None) or (batch and info is None):
        raise null(name, "A" if A is None else ("ipiv" if ipiv is None else "info"))
    if not batch:
        return None
    infos = int_view(info, batch, name, "info", h.device)
    k = min(m, n)
    if not k:
        infos[:] = 0
        return None
    mats = matrices(A, layout, m, n, lda, strideA, batch, dtype, name, "A", h.device)
    pivots = int_view(ipiv, strideP * (batch - 1) + k, name, "ipiv", h.device)
    lapack = get_lapack_funcs("getrf", dtype=np.dtype(dtype))

    def run() -> None:
        for i, M in enumerate(mats):
            lu, piv, status = lapack(np.array(M, order="F"))
            M[:] = lu
            pivots[i * strideP:i * strideP + k] = piv[:k] + 1
            infos[i] = status

    launch_blocked(h, run, "getrf", dtype, m, n, batch,
                   lambda rows, width: rows * width * width)
    return None


def getrs(name: str, dtype: Any, handle: Any, trans: int, n: int, nrhs: int, A: Any,
          lda: int, strideA: int, ipiv: Any, strideP: int, B: Any, ldb: int, strideB: int,
          batch: int, layout: str) -> S | None:
    """getrs in any layout (rocsolver_getrs_argCheck order)."""
    h = get_handle(handle, name)
    trans = check_enum(trans, TRANS_CODE, function=name, arg="trans", error=RocblasError)
    check_sizes(name, n=n, nrhs=nrhs, batch_count=batch)
    check_ld(name, "lda", lda, "n", n, at_least_one=False)
    check_ld(name, "ldb", ldb, "n", n, at_least_one=False)
    if h.querying:
        return h.workspace(name, n * max(nrhs, 1) * np.dtype(dtype).itemsize * batch)
    if (n and A is None) or (n and ipiv is None) or (nrhs and n and B is None):
        raise null(name, "A" if A is None else ("ipiv" if ipiv is None else "B"))
    if not n or not nrhs or not batch:
        return None
    As = matrices(A, layout, n, n, lda, strideA, batch, dtype, name, "A", h.device)
    Bs = matrices(B, layout, n, nrhs, ldb, strideB, batch, dtype, name, "B", h.device)
    pivots = int_view(ipiv, strideP * (batch - 1) + n, name, "ipiv", h.device)
    lapack = get_lapack_funcs("getrs", dtype=np.dtype(dtype))

    def run() -> None:
        for i, (M, R) in enumerate(zip(As, Bs, strict=True)):
            piv = pivots[i * strideP:i * strideP + n] - 1
            with np.errstate(all="ignore"):
                R[:] = lapack(np.array(M, order="F"), piv, np.array(R, order="F"),
                              trans=TRANS_CODE[trans])[0]

    launch_single(h, run, f"rocsolver_getrs_kernel<{np.dtype(dtype).name}>", dtype, n,
                  nrhs, n, 2.0 * n * n * nrhs, batch)
    return None


@with_example(_SETUP, """
    >>> {name}(h, 2, 2, A, 2, ipiv, info)
    >>> ipiv.copy_to_host().tolist(), info.copy_to_host().tolist()
    ([1, 2], [0])
""")
def _getrf(name: str, dtype: Any, handle: Any, m: int, n: int, A: Any, lda: int, ipiv: Any,
           info: Any) -> S | None:
    """{name}: A = P L U in place ({ctype}); ipiv (1-based) and info are device int32."""
    return getrf(name, dtype, handle, m, n, A, lda, 0, ipiv, 0, info, 1, "one")


@with_example(_SETUP, """
    >>> getrf = getattr(rocsolver, "{name}".replace("getrs", "getrf"))
    >>> getrf(h, 2, 2, A, 2, ipiv, info)
    >>> B = hip.to_device(np.array([6, 5], np.{dtype}))
    >>> {name}(h, rocblas.rocblas_operation_none, 2, 1, A, 2, ipiv, B, 2)
    >>> np.round(B.copy_to_host().real, 6).tolist()       # [[4, 2], [2, 3]] x = [6, 5]
    [1.0, 1.0]
""")
def _getrs(name: str, dtype: Any, handle: Any, trans: int, n: int, nrhs: int, A: Any,
           lda: int, ipiv: Any, B: Any, ldb: int) -> S | None:
    """{name}: solve op(A) X = B with A's LU factors from getrf ({ctype}); X overwrites B."""
    return getrs(name, dtype, handle, trans, n, nrhs, A, lda, 0, ipiv, 0, B, ldb, 0, 1, "one")


@with_example(_SETUP, """
    >>> getrf = getattr(rocsolver, "{name}".replace("getri", "getrf"))
    >>> getrf(h, 2, 2, A, 2, ipiv, info)
    >>> {name}(h, 2, A, 2, ipiv, info)
    >>> (np.round(A.copy_to_host().real * 8, 6)).tolist()    # inverse = [[3, -2], [-2, 4]] / 8
    [3.0, -2.0, -2.0, 4.0]
""")
def _getri(name: str, dtype: Any, handle: Any, n: int, A: Any, lda: int, ipiv: Any,
           info: Any) -> S | None:
    """{name}: A := inverse of A from its getrf factors ({ctype}); info = j > 0 if
    U[j, j] = 0 (A is then left as it was)."""
    h = get_handle(handle, name)
    check_sizes(name, n=n)
    check_ld(name, "lda", lda, "n", n, at_least_one=False)
    if h.querying:
        return h.workspace(name, n * 64 * np.dtype(dtype).itemsize)
    if (n and A is None) or (n and ipiv is None) or info is None:
        raise null(name, "A" if A is None else ("ipiv" if ipiv is None else "info"))
    infos = int_view(info, 1, name, "info", h.device)
    if not n:
        infos[:] = 0
        return None
    M = matrix(A, n, n, lda, dtype, name, "A", h.device)
    pivots = int_view(ipiv, n, name, "ipiv", h.device)
    lapack = get_lapack_funcs("getri", dtype=np.dtype(dtype))

    def run() -> None:
        singular = np.flatnonzero(np.diagonal(M) == 0)
        if singular.size:
            infos[0] = singular[0] + 1
            return
        M[:] = lapack(np.array(M, order="F"), pivots - 1)[0]
        infos[0] = 0

    launch_single(h, run, f"rocsolver_getri_kernel<{np.dtype(dtype).name}>", dtype, n, n, n,
                  4.0 / 3.0 * n**3)
    return None


@with_example(_SETUP, """
    >>> two = hip.to_device(np.concatenate([A.copy_to_host()] * 2))    # 2 matrices, stride 4
    >>> pivots, infos = hip.device_array(4, np.int32), hip.device_array(2, np.int32)
    >>> {name}(h, 2, 2, two, 2, 4, pivots, 2, infos, 2)
    >>> pivots.copy_to_host().tolist(), infos.copy_to_host().tolist()
    ([1, 2, 1, 2], [0, 0])
""")
def _getrf_strided(name: str, dtype: Any, handle: Any, m: int, n: int, A: Any, lda: int,
                   strideA: int, ipiv: Any, strideP: int, info: Any, batch_count: int
                   ) -> S | None:
    """{name}: getrf of batch_count matrices strideA elements apart in one buffer."""
    return getrf(name, dtype, handle, m, n, A, lda, strideA, ipiv, strideP, info,
                 batch_count, "strided")


@with_example(_SETUP, """
    >>> ptrs = hip.to_device(np.array([int(A.ptr)], np.uint64))        # array of pointers
    >>> {name}(h, 2, 2, ptrs, 2, ipiv, 2, info, 1)
    >>> info.copy_to_host().tolist()
    [0]
""")
def _getrf_batched(name: str, dtype: Any, handle: Any, m: int, n: int, A: Any, lda: int,
                   ipiv: Any, strideP: int, info: Any, batch_count: int) -> S | None:
    """{name}: getrf of batch_count matrices given by an array of device pointers."""
    return getrf(name, dtype, handle, m, n, A, lda, 0, ipiv, strideP, info, batch_count,
                 "batched")


@with_example(_SETUP, """
    >>> getrf = getattr(rocsolver, "{name}".replace("getrs", "getrf"))
    >>> getrf(h, 2, 2, A, 2, 4, ipiv, 2, info, 1)
    >>> B = hip.to_device(np.array([6, 5], np.{dtype}))
    >>> {name}(h, rocblas.rocblas_operation_none, 2, 1, A, 2, 4, ipiv, 2, B, 2, 2, 1)
    >>> np.round(B.copy_to_host().real, 6).tolist()
    [1.0, 1.0]
""")
def _getrs_strided(name: str, dtype: Any, handle: Any, trans: int, n: int, nrhs: int,
                   A: Any, lda: int, strideA: int, ipiv: Any, strideP: int, B: Any, ldb: int,
                   strideB: int, batch_count: int) -> S | None:
    """{name}: getrs for batch_count systems stored strideA / strideB elements apart."""
    return getrs(name, dtype, handle, trans, n, nrhs, A, lda, strideA, ipiv, strideP, B,
                 ldb, strideB, batch_count, "strided")


@with_example(_SETUP, """
    >>> ptrs = hip.to_device(np.array([int(A.ptr)], np.uint64))
    >>> getattr(rocsolver, "{name}".replace("getrs", "getrf"))(h, 2, 2, ptrs, 2, ipiv, 2,
    ...                                                        info, 1)
    >>> B = hip.to_device(np.array([6, 5], np.{dtype}))
    >>> b_ptrs = hip.to_device(np.array([int(B.ptr)], np.uint64))
    >>> {name}(h, rocblas.rocblas_operation_none, 2, 1, ptrs, 2, ipiv, 2, b_ptrs, 2, 1)
    >>> np.round(B.copy_to_host().real, 6).tolist()
    [1.0, 1.0]
""")
def _getrs_batched(name: str, dtype: Any, handle: Any, trans: int, n: int, nrhs: int,
                   A: Any, lda: int, ipiv: Any, strideP: int, B: Any, ldb: int,
                   batch_count: int) -> S | None:
    """{name}: getrs for batch_count systems given by arrays of device pointers."""
    return getrs(name, dtype, handle, trans, n, nrhs, A, lda, 0, ipiv, strideP, B, ldb, 0,
                 batch_count, "batched")


_ROUTINES = {
    **variants(_getrf, SDCZ, "rocsolver_{p}getrf"),
    **variants(_getrs, SDCZ, "rocsolver_{p}getrs"),
    **variants(_getri, SDCZ, "rocsolver_{p}getri"),
    **variants(_getrf_strided, SDCZ, "rocsolver_{p}getrf_strided_batched"),
    **variants(_getrf_batched, SDCZ, "rocsolver_{p}getrf_batched"),
    **variants(_getrs_strided, SDCZ, "rocsolver_{p}getrs_strided_batched"),
    **variants(_getrs_batched, SDCZ, "rocsolver_{p}getrs_batched"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
