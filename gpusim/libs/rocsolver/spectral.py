"""Singular values and eigenvalues: rocsolver_Xgesvd, rocsolver_Xsyevd / Xheevd.

gesvd: A = U S V^H. As in rocSOLVER, the argument ``V`` receives V^H (the right singular
vectors as *rows*: V[i, :] is the i-th one), not V. left_svect / right_svect choose all
vectors (U is m x m, V^H is n x n), the min(m, n) singular ones, ``overwrite`` (they go
into A) or none. S (real) holds the singular values in decreasing order; E (real,
min(m, n) - 1) the unconverged superdiagonal, zero here since the SciPy/LAPACK
algorithm converged (info = 0).

syevd / heevd: eigenvalues of the symmetric / Hermitian A (from its ``uplo`` triangle)
in D, ascending; with rocblas_evect_original the eigenvectors overwrite A as columns.
E is rocSOLVER's workspace for the tridiagonal form (left as zeros here).

>>> import numpy as np
>>> from gpusim import hip, rocblas, rocsolver
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([2, 1, 1, 2], np.float64))           # [[2, 1], [1, 2]]
>>> D, E, info = (hip.device_array(2, np.float64), hip.device_array(2, np.float64),
...               hip.device_array(1, np.int32))
>>> rocsolver.rocsolver_dsyevd(h, rocsolver.rocblas_evect_original,
...                            rocblas.rocblas_fill_upper, 2, A, 2, D, E, info)
>>> D.copy_to_host(), info.copy_to_host()
(array([1., 3.]), array([0], dtype=int32))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg
from scipy.linalg.lapack import get_lapack_funcs

from gpusim.libs.common import check_enum, device_view
from gpusim.libs.rocblas.checks import check_ld, check_sizes, fail, matrix, null
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, RocblasError, real_dtype, rocblas_status
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.level2 import FILLS
from gpusim.libs.rocblas.variants import variants, with_example
from gpusim.libs.rocsolver.common import int_view, launch_single
from gpusim.libs.rocsolver.enums import rocblas_evect, rocblas_svect

S = rocblas_status
SV = rocblas_svect
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas, rocsolver
    >>> h = rocblas.rocblas_create_handle()
    >>> A = hip.to_device(np.array([3, 0, 0, -2], np.{dtype}))     # diag(3, -2)
    >>> info = hip.device_array(1, np.int32)
"""


def _real(ptr: Any, dtype: Any, count: int, name: str, arg: str, device: int) -> np.ndarray:
    return device_view(ptr, real_dtype(np.dtype(dtype)), count, function=name, arg=arg,
                       error=RocblasError, device=device)


@with_example(_SETUP, """
    >>> s = hip.device_array(2, np.{dtype}().real.dtype)
    >>> U, Vt = hip.device_array(4, np.{dtype}), hip.device_array(4, np.{dtype})
    >>> e = hip.device_array(1, np.{dtype}().real.dtype)
    >>> {name}(h, rocsolver.rocblas_svect_all, rocsolver.rocblas_svect_all, 2, 2, A, 2,
    ...        s, U, 2, Vt, 2, e, rocsolver.rocblas_outofplace, info)
    >>> s.copy_to_host().tolist(), info.copy_to_host().tolist()
    ([3.0, 2.0], [0])
""")
def _gesvd(name: str, dtype: Any, handle: Any, left_svect: int, right_svect: int, m: int,
           n: int, A: Any, lda: int, S_: Any, U: Any, ldu: int, V: Any, ldv: int, E: Any,
           fast_alg: int, info: Any) -> S | None:
    """{name}: singular values (and vectors) of the m x n {ctype} A; V receives V^H."""
    h = get_handle(handle, name)
    left = check_enum(left_svect, SV, function=name, arg="left_svect", error=RocblasError)
    right = check_enum(right_svect, SV, function=name, arg="right_svect", error=RocblasError)
    if left == right == SV.rocblas_svect_overwrite:
        raise fail(S.rocblas_status_invalid_value, name,
                   "left_svect and right_svect cannot both be rocblas_svect_overwrite "
                   "(A can hold only one set of vectors)")
    check_sizes(name, m=m, n=n)
    k = min(m, n)
    check_ld(name, "lda", lda, "m", m, at_least_one=False)
    for ld, arg in ((ldu, "ldu"), (ldv, "ldv")):
        check_ld(name, arg, ld, "1", 1)
    if left in (SV.rocblas_svect_all, SV.rocblas_svect_singular):
        check_ld(name, "ldu", ldu, "m", m)
    if right == SV.rocblas_svect_all:
        check_ld(name, "ldv", ldv, "n", n)
    if right == SV.rocblas_svect_singular:
        check_ld(name, "ldv", ldv, "min(m, n)", k)
    if h.querying:
        return h.workspace(name, (m + n) * 64 * np.dtype(dtype).itemsize)
    needed = {"A": m and n, "E": k > 1, "S": k, "info": True,
              "U": (left == SV.rocblas_svect_all and m)
              or (left == SV.rocblas_svect_singular and k),
              "V": right in (SV.rocblas_svect_all, SV.rocblas_svect_singular) and n}
    given = {"A": A, "E": E, "S": S_, "info": info, "U": U, "V": V}
    for arg, need in needed.items():
        if need and given[arg] is None:
            raise null(name, arg)
    infos = int_view(info, 1, name, "info", h.device)
    infos[:] = 0
    if not k:
        return None
    M = matrix(A, m, n, lda, dtype, name, "A", h.device)
    sv = _real(S_, dtype, k, name, "S", h.device)
    ev = _real(E, dtype, k - 1, name, "E", h.device) if k > 1 else None
    Uv = {SV.rocblas_svect_all: lambda: matrix(U, m, m, ldu, dtype, name, "U", h.device),
          SV.rocblas_svect_singular: lambda: matrix(U, m, k, ldu, dtype, name, "U", h.device)
          }.get(left, lambda: None)()
    Vv = {SV.rocblas_svect_all: lambda: matrix(V, n, n, ldv, dtype, name, "V", h.device),
          SV.rocblas_svect_singular: lambda: matrix(V, k, n, ldv, dtype, name, "V", h.device)
          }.get(right, lambda: None)()
    vectors = left != SV.rocblas_svect_none or right != SV.rocblas_svect_none
    full = SV.rocblas_svect_all in (left, right)

    def run() -> None:
        a = np.array(M, order="F")
        if not vectors:
            sv[:] = scipy.linalg.svd(a, compute_uv=False, lapack_driver="gesvd")
        else:
            u, s, vh = scipy.linalg.svd(a, full_matrices=full, lapack_driver="gesvd")
            sv[:] = s
            if Uv is not None:
                Uv[:] = u[:, :Uv.shape[1]]
            if Vv is not None:
                Vv[:] = vh[:Vv.shape[0], :]
            if left == SV.rocblas_svect_overwrite:
                M[:, :k] = u[:, :k]
            if right == SV.rocblas_svect_overwrite:
                M[:k, :] = vh[:k, :]
        if ev is not None:
            ev[:] = 0

    work = 4.0 * max(m, n) * k * k + (8.0 * k**3 + 4.0 * m * m * n if vectors else 0)
    launch_single(h, run, f"rocsolver_gesvd_kernel<{np.dtype(dtype).name}>", dtype, m, n, k,
                  work)
    return None


@with_example(_SETUP, """
    >>> real = np.{dtype}().real.dtype
    >>> D, E = hip.device_array(2, real), hip.device_array(2, real)
    >>> {name}(h, rocsolver.rocblas_evect_none, rocblas.rocblas_fill_lower, 2, A, 2, D, E, info)
    >>> D.copy_to_host().tolist()
    [-2.0, 3.0]
""")
def _syevd(name: str, dtype: Any, handle: Any, evect: int, uplo: int, n: int, A: Any,
           lda: int, D: Any, E: Any, info: Any) -> S | None:
    """{name}: eigenvalues (ascending, in D) and optionally eigenvectors (in A) of the
    symmetric / Hermitian {ctype} A (rocsolver_syev_heev_argCheck order)."""
    h = get_handle(handle, name)
    evect = check_enum(evect, (rocblas_evect.rocblas_evect_original,
                               rocblas_evect.rocblas_evect_none),
                       function=name, arg="evect", error=RocblasError)
    uplo = check_enum(uplo, FILLS, function=name, arg="uplo", error=RocblasError)
    check_sizes(name, n=n)
    check_ld(name, "lda", lda, "n", n, at_least_one=False)
    if h.querying:
        return h.workspace(name, (n + 1) * 64 * np.dtype(dtype).itemsize)
    for ptr, arg in ((A, "A"), (E, "E"), (D, "D")):
        if n and ptr is None:
            raise null(name, arg)
    if info is None:
        raise null(name, "info")
    infos = int_view(info, 1, name, "info", h.device)
    infos[:] = 0
    if not n:
        return None
    M = matrix(A, n, n, lda, dtype, name, "A", h.device)
    dv, ev = _real(D, dtype, n, name, "D", h.device), _real(E, dtype, n, name, "E", h.device)
    lapack = get_lapack_funcs("syevd" if np.dtype(dtype).kind == "f" else "heevd",
                              dtype=np.dtype(dtype))
    vectors = evect == rocblas_evect.rocblas_evect_original

    def run() -> None:
        w, v, status = lapack(np.array(M, order="F"), compute_v=int(vectors),
                              lower=int(uplo == FILLS[1]))
        dv[:], ev[:] = w, 0
        if vectors:
            M[:] = v
        infos[0] = status

    launch_single(h, run, f"rocsolver_syevd_kernel<{np.dtype(dtype).name}>", dtype, n, n, n,
                  (9.0 if vectors else 4.0 / 3.0) * n**3)
    return None


_ROUTINES = {
    **variants(_gesvd, {p: PREFIX_DTYPE[p] for p in "sdcz"}, "rocsolver_{p}gesvd"),
    **variants(_syevd, {"s": PREFIX_DTYPE["s"], "d": PREFIX_DTYPE["d"]}, "rocsolver_{p}syevd"),
    **variants(_syevd, {"c": PREFIX_DTYPE["c"], "z": PREFIX_DTYPE["z"]}, "rocsolver_{p}heevd"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
