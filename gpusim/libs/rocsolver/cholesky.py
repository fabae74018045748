"""Cholesky: rocsolver_Xpotrf (+ _batched, _strided_batched) and rocsolver_Xpotrs.

potrf factors the Hermitian positive-definite A = L L^H (uplo lower) or U^H U (upper)
in place, touching only that triangle. If the leading minor of order j is not positive
definite, info = j (1-based) and the factorization stops there, as LAPACK's does.

>>> import numpy as np
>>> from gpusim import hip, rocblas, rocsolver
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([1, 2, 2, 1], np.float32))    # [[1, 2], [2, 1]]: not SPD
>>> info = hip.device_array(1, np.int32)
>>> rocsolver.rocsolver_spotrf(h, rocblas.rocblas_fill_upper, 2, A, 2, info)
>>> info.copy_to_host()                                        # the 2x2 minor fails
array([2], dtype=int32)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.linalg.lapack import get_lapack_funcs

from gpusim.libs.common import check_enum
from gpusim.libs.rocblas.checks import check_ld, check_sizes, null
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, RocblasError, rocblas_status
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.level2 import FILLS
from gpusim.libs.rocblas.variants import variants, with_example
from gpusim.libs.rocsolver.common import int_view, launch_blocked, launch_single, matrices

S = rocblas_status
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas, rocsolver
    >>> h = rocblas.rocblas_create_handle()
    >>> A = hip.to_device(np.array([4, 2, 2, 3], np.{dtype}))     # [[4, 2], [2, 3]]
    >>> info = hip.device_array(1, np.int32)
"""


def potrf(name: str, dtype: Any, handle: Any, uplo: int, n: int, A: Any, lda: int,
          strideA: int, info: Any, batch: int, layout: str) -> S | None:
    """potrf in any layout (rocsolver_potf2_potrf_argCheck order)."""
    h = get_handle(handle, name)
    uplo = check_enum(uplo, FILLS, function=name, arg="uplo", error=RocblasError)
    check_sizes(name, n=n, batch_count=batch)
    check_ld(name, "lda", lda, "n", n, at_least_one=False)
    if h.querying:
        return h.workspace(name, (n + 1) * 64 * np.dtype(dtype).itemsize * batch)
    if (n and A is None) or (batch and info is None):
        raise null(name, "A" if A is None else "info")
    if not batch:
        return None
    infos = int_view(info, batch, name, "info", h.device)
    if not n:
        infos[:] = 0
        return None
    mats = matrices(A, layout, n, n, lda, strideA, batch, dtype, name, "A", h.device)
    lapack = get_lapack_funcs("potrf", dtype=np.dtype(dtype))
    lower = int(uplo == FILLS[1])

    def run() -> None:
        for i, M in enumerate(mats):
            factor, status = lapack(np.array(M, order="F"), lower=lower, clean=0)
            M[:] = factor
            infos[i] = status

    launch_blocked(h, run, "potrf", dtype, n, n, batch,
                   lambda rows, width: rows * width * width / 2)
    return None


@with_example(_SETUP, """
    >>> {name}(h, rocblas.rocblas_fill_lower, 2, A, 2, info)
    >>> L = A.copy_to_host().real
    >>> round(float(L[0]), 6), round(float(L[1]), 6), info.copy_to_host().tolist()
    (2.0, 1.0, [0])
""")
def _potrf(name: str, dtype: Any, handle: Any, uplo: int, n: int, A: Any, lda: int,
           info: Any) -> S | None:
    """{name}: Cholesky factor of the positive-definite {ctype} A, in place in its
    ``uplo`` triangle; info (device int32) = j > 0 if the minor of order j is not PD."""
    return potrf(name, dtype, handle, uplo, n, A, lda, 0, info, 1, "one")


@with_example(_SETUP, """
    >>> two = hip.to_device(np.concatenate([A.copy_to_host()] * 2))
    >>> infos = hip.device_array(2, np.int32)
    >>> {name}(h, rocblas.rocblas_fill_lower, 2, two, 2, 4, infos, 2)
    >>> infos.copy_to_host().tolist(), round(float(two.copy_to_host()[4].real), 6)
    ([0, 0], 2.0)
""")
def _potrf_strided(name: str, dtype: Any, handle: Any, uplo: int, n: int, A: Any, lda: int,
                   strideA: int, info: Any, batch_count: int) -> S | None:
    """{name}: potrf of batch_count matrices strideA elements apart in one buffer."""
    return potrf(name, dtype, handle, uplo, n, A, lda, strideA, info, batch_count, "strided")


@with_example(_SETUP, """
    >>> ptrs = hip.to_device(np.array([int(A.ptr)], np.uint64))
    >>> {name}(h, rocblas.rocblas_fill_lower, 2, ptrs, 2, info, 1)
    >>> info.copy_to_host().tolist(), round(float(A.copy_to_host()[0].real), 6)
    ([0], 2.0)
""")
def _potrf_batched(name: str, dtype: Any, handle: Any, uplo: int, n: int, A: Any, lda: int,
                   info: Any, batch_count: int) -> S | None:
    """{name}: potrf of batch_count matrices given by an array of device pointers."""
    return potrf(name, dtype, handle, uplo, n, A, lda, 0, info, batch_count, "batched")


@with_example(_SETUP, """
    >>> lower = rocblas.rocblas_fill_lower
    >>> getattr(rocsolver, "{name}".replace("potrs", "potrf"))(h, lower, 2, A, 2, info)
    >>> B = hip.to_device(np.array([6, 5], np.{dtype}))
    >>> {name}(h, lower, 2, 1, A, 2, B, 2)
    >>> np.round(B.copy_to_host().real, 5).tolist()
    [1.0, 1.0]
""")
def _potrs(name: str, dtype: Any, handle: Any, uplo: int, n: int, nrhs: int, A: Any,
           lda: int, B: Any, ldb: int) -> S | None:
    """{name}: solve A X = B with A's Cholesky factor from potrf ({ctype}); X overwrites B."""
    h = get_handle(handle, name)
    uplo = check_enum(uplo, FILLS, function=name, arg="uplo", error=RocblasError)
    check_sizes(name, n=n, nrhs=nrhs)
    check_ld(name, "lda", lda, "n", n, at_least_one=False)
    check_ld(name, "ldb", ldb, "n", n, at_least_one=False)
    if h.querying:
        return h.workspace(name, n * max(nrhs, 1) * np.dtype(dtype).itemsize)
    if (n and A is None) or (nrhs and n and B is None):
        raise null(name, "A" if A is None else "B")
    if not n or not nrhs:
        return None
    (M,) = matrices(A, "one", n, n, lda, 0, 1, dtype, name, "A", h.device)
    (R,) = matrices(B, "one", n, nrhs, ldb, 0, 1, dtype, name, "B", h.device)
    lapack = get_lapack_funcs("potrs", dtype=np.dtype(dtype))

    def run() -> None:
        with np.errstate(all="ignore"):
            R[:] = lapack(np.array(M, order="F"), np.array(R, order="F"),
                          lower=int(uplo == FILLS[1]))[0]

    launch_single(h, run, f"rocsolver_potrs_kernel<{np.dtype(dtype).name}>", dtype, n, nrhs,
                  n, 2.0 * n * n * nrhs)
    return None


_ROUTINES = {
    **variants(_potrf, SDCZ, "rocsolver_{p}potrf"),
    **variants(_potrf_strided, SDCZ, "rocsolver_{p}potrf_strided_batched"),
    **variants(_potrf_batched, SDCZ, "rocsolver_{p}potrf_batched"),
    **variants(_potrs, SDCZ, "rocsolver_{p}potrs"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
