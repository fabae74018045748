"""QR and least squares: rocsolver_Xgeqrf, rocsolver_Xorgqr / Xungqr, rocsolver_Xgels.

geqrf leaves R in the upper triangle of A and the Householder vectors below it, with
their scalars in ``ipiv`` (LAPACK's tau; rocSOLVER calls the argument ipiv); orgqr
(ungqr for complex) forms the m x n matrix Q with orthonormal columns from the first k
reflectors. gels solves min ||op(A) X - B|| (m >= n) or the minimum-norm solution
(m < n); B must have max(m, n) rows (ldb >= max(m, n)) and info = j > 0 if R(j, j) is
zero (A is rank deficient).

>>> import numpy as np
>>> from gpusim import hip, rocblas, rocsolver
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([1, 1, 1, 0, 1, 2], np.float64))      # 3 x 2
>>> B = hip.to_device(np.array([1, 2, 4], np.float64))               # fit y = a + b t
>>> info = hip.device_array(1, np.int32)
>>> rocsolver.rocsolver_dgels(h, rocblas.rocblas_operation_none, 3, 2, 1, A, 3, B, 3, info)
>>> np.round(B.copy_to_host()[:2], 6), info.copy_to_host()
(array([0.833333, 1.5     ]), array([0], dtype=int32))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.linalg.lapack import get_lapack_funcs

from gpusim.libs.common import check_enum, device_view
from gpusim.libs.rocblas.checks import check_ld, check_sizes, fail, matrix, null
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, RocblasError, rocblas_status
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.level2 import OP
from gpusim.libs.rocblas.variants import variants, with_example
from gpusim.libs.rocsolver.common import int_view, launch_blocked, launch_single

S = rocblas_status
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas, rocsolver
    >>> h = rocblas.rocblas_create_handle()
    >>> A = hip.to_device(np.array([3, 4, 0, 5], np.{dtype}))     # [[3, 0], [4, 5]]
    >>> tau = hip.device_array(2, np.{dtype})
"""


@with_example(_SETUP, """
    >>> {name}(h, 2, 2, A, 2, tau)
    >>> [round(abs(complex(v)), 6) for v in A.copy_to_host()[[0, 2, 3]]]   # |R| entries
    [5.0, 4.0, 3.0]
""")
def _geqrf(name: str, dtype: Any, handle: Any, m: int, n: int, A: Any, lda: int,
           ipiv: Any) -> S | None:
    """{name}: A = Q R in place ({ctype}); ipiv receives the min(m, n) reflector scalars."""
    h = get_handle(handle, name)
    check_sizes(name, m=m, n=n)
    check_ld(name, "lda", lda, "m", m, at_least_one=False)
    if h.querying:
        return h.workspace(name, (n + 1) * 64 * np.dtype(dtype).itemsize)
    if m and n and (A is None or ipiv is None):
        raise null(name, "A" if A is None else "ipiv")
    if not m or not n:
        return None
    M = matrix(A, m, n, lda, dtype, name, "A", h.device)
    tau = device_view(ipiv, dtype, min(m, n), function=name, arg="ipiv", error=RocblasError,
                      device=h.device)
    lapack = get_lapack_funcs("geqrf", dtype=np.dtype(dtype))

    def run() -> None:
        qr, t, _, _ = lapack(np.array(M, order="F"))
        M[:], tau[:] = qr, t

    launch_blocked(h, run, "geqrf", dtype, m, n, 1, lambda rows, width: 2 * rows * width**2)
    return None


@with_example(_SETUP, """
    >>> getattr(rocsolver, "{name}".replace("orgqr", "geqrf").replace("ungqr", "geqrf"))(
    ...     h, 2, 2, A, 2, tau)
    >>> {name}(h, 2, 2, 2, A, 2, tau)
    >>> Q = A.copy_to_host().reshape(2, 2).T           # column-major -> Q
    >>> np.allclose(Q.conj().T @ Q, np.eye(2), atol=1e-5)
    True
""")
def _orgqr(name: str, dtype: Any, handle: Any, m: int, n: int, k: int, A: Any, lda: int,
           ipiv: Any) -> S | None:
    """{name}: the m x n Q with orthonormal columns from geqrf's first k reflectors
    ({ctype}), in place of A."""
    h = get_handle(handle, name)
    check_sizes(name, m=m, n=n, k=k)
    if n > m or k > n:
        raise fail(S.rocblas_status_invalid_size, name,
                   f"need 0 <= k <= n <= m, got m={m}, n={n}, k={k}")
    check_ld(name, "lda", lda, "m", m, at_least_one=False)
    if h.querying:
        return h.workspace(name, (n + 1) * 64 * np.dtype(dtype).itemsize)
    if (k and ipiv is None) or (m and n and A is None):
        raise null(name, "ipiv" if ipiv is None else "A")
    if not n:
        return None
    M = matrix(A, m, n, lda, dtype, name, "A", h.device)
    tau = device_view(ipiv, dtype, k, function=name, arg="ipiv", error=RocblasError,
                      device=h.device) if k else np.zeros(0, dtype)
    lapack = get_lapack_funcs("orgqr" if np.dtype(dtype).kind == "f" else "ungqr",
                              dtype=np.dtype(dtype))

    def run() -> None:
        full_tau = np.zeros(n, dtype)
        full_tau[:k] = tau
        M[:] = lapack(np.array(M, order="F"), full_tau)[0]

    launch_single(h, run, f"rocsolver_orgqr_kernel<{np.dtype(dtype).name}>", dtype, m, n, k,
                  4.0 * m * n * k - 2.0 * (m + n) * k * k + 4.0 / 3.0 * k**3)
    return None


@with_example(_SETUP, """
    >>> B = hip.to_device(np.array([3, 9], np.{dtype}))
    >>> info = hip.device_array(1, np.int32)
    >>> {name}(h, rocblas.rocblas_operation_none, 2, 2, 1, A, 2, B, 2, info)
    >>> np.round(B.copy_to_host().real, 5).tolist()    # [[3, 0], [4, 5]] x = [3, 9]
    [1.0, 1.0]
""")
def _gels(name: str, dtype: Any, handle: Any, trans: int, m: int, n: int, nrhs: int, A: Any,
          lda: int, B: Any, ldb: int, info: Any) -> S | None:
    """{name}: least squares / minimum norm solution of op(A) X = B ({ctype}); X
    overwrites the first rows of B, A is overwritten by its QR (or LQ) factors."""
    h = get_handle(handle, name)
    complex_ = np.dtype(dtype).kind == "c"
    allowed = [OP.rocblas_operation_none,
               OP.rocblas_operation_conjugate_transpose if complex_ else
               OP.rocblas_operation_transpose]
    trans = check_enum(trans, allowed, function=name, arg="trans", error=RocblasError)
    check_sizes(name, m=m, n=n, nrhs=nrhs)
    check_ld(name, "lda", lda, "m", m, at_least_one=False)
    check_ld(name, "ldb", ldb, "max(m, n)", max(m, n), at_least_one=False)
    if h.querying:
        return h.workspace(name, (max(m, n) + nrhs) * 64 * np.dtype(dtype).itemsize)
    if (m and n and A is None) or ((m or n) and nrhs and B is None) or info is None:
        raise null(name, "A" if A is None else ("B" if B is None else "info"))
    infos = int_view(info, 1, name, "info", h.device)
    if not m or not n or not nrhs:
        infos[:] = 0
        return None
    M = matrix(A, m, n, lda, dtype, name, "A", h.device)
    R = matrix(B, max(m, n), nrhs, ldb, dtype, name, "B", h.device)
    lapack = get_lapack_funcs("gels", dtype=np.dtype(dtype))
    code = "N" if trans == OP.rocblas_operation_none else ("C" if complex_ else "T")

    def run() -> None:
        factors, x, status = lapack(np.array(M, order="F"), np.array(R, order="F"),
                                    trans=code)
        if status == 0:
            M[:], R[:] = factors, x
        infos[0] = status

    launch_single(h, run, f"rocsolver_gels_kernel<{np.dtype(dtype).name}>", dtype, m, n,
                  min(m, n), 2.0 * max(m, n) * min(m, n) ** 2 + 4.0 * m * n * nrhs)
    return None


_ROUTINES = {
    **variants(_geqrf, SDCZ, "rocsolver_{p}geqrf"),
    **variants(_orgqr, {"s": SDCZ["s"], "d": SDCZ["d"]}, "rocsolver_{p}orgqr"),
    **variants(_orgqr, {"c": SDCZ["c"], "z": SDCZ["z"]}, "rocsolver_{p}ungqr"),
    **variants(_gels, SDCZ, "rocsolver_{p}gels"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
