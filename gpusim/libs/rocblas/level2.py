"""rocBLAS level 2: gemv, ger (geru / gerc), trsv.

Matrices are column-major with a leading dimension; results come from SciPy's BLAS
wrappers (reference BLAS semantics: beta = 0 does not read y, the untouched triangle of
a triangular matrix is never read; trsv does not test for singularity, so a zero on the
diagonal gives inf / nan as on the GPU).

>>> import numpy as np
>>> from gpusim import hip, rocblas
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([2, 0, 1, 4], np.float64))    # [[2, 1], [0, 4]] by columns
>>> x = hip.to_device(np.array([4, 8], np.float64))
>>> rocblas.rocblas_dtrsv(h, rocblas.rocblas_fill_upper, rocblas.rocblas_operation_none,
...                       rocblas.rocblas_diagonal_non_unit, 2, A, 2, x, 1)
>>> x.copy_to_host()
array([1., 2.])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.linalg.blas import get_blas_funcs

from gpusim.libs.common import check_enum
from gpusim.libs.rocblas.blas_time import ctype
from gpusim.libs.rocblas.checks import (
    check_inc,
    check_ld,
    check_sizes,
    matrix,
    null,
    scalar_arg,
    vector,
)
from gpusim.libs.rocblas.enums import (
    PREFIX_DTYPE,
    RocblasError,
    rocblas_diagonal,
    rocblas_fill,
    rocblas_operation,
    rocblas_status,
)
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.launching import launch_stream
from gpusim.libs.rocblas.variants import variants, with_example

S = rocblas_status
OP = rocblas_operation
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
TRANS_CODE = {OP.rocblas_operation_none: 0, OP.rocblas_operation_transpose: 1,
              OP.rocblas_operation_conjugate_transpose: 2}
FILLS = (rocblas_fill.rocblas_fill_upper, rocblas_fill.rocblas_fill_lower)
DIAGS = (rocblas_diagonal.rocblas_diagonal_non_unit, rocblas_diagonal.rocblas_diagonal_unit)
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas
    >>> h = rocblas.rocblas_create_handle()
    >>> A = hip.to_device(np.array([1, 2, 3, 4], np.{dtype}))     # [[1, 3], [2, 4]]
    >>> x = hip.to_device(np.array([1, 1], np.{dtype}))
    >>> y = hip.to_device(np.array([5, 5], np.{dtype}))
"""


@with_example(_SETUP, """
    >>> {name}(h, rocblas.rocblas_operation_none, 2, 2, 1, A, 2, x, 1, 0, y, 1)
    >>> y.copy_to_host().real.tolist()
    [4.0, 6.0]
""")
def _gemv(name: str, dtype: Any, handle: Any, trans: int, m: int, n: int, alpha: Any,
          A: Any, lda: int, x: Any, incx: int, beta: Any, y: Any, incy: int) -> S | None:
    """{name}: y := alpha op(A) x + beta y, A is m x n {ctype} (column-major, lda >= m)."""
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    trans = check_enum(trans, TRANS_CODE, function=name, arg="trans", error=RocblasError)
    check_sizes(name, m=m, n=n)
    check_ld(name, "lda", lda, "m", m)
    check_inc(name, "incx", incx)
    check_inc(name, "incy", incy)
    if not m or not n:
        return None
    a, b = scalar_arg(h, alpha, dtype, name, "alpha"), scalar_arg(h, beta, dtype, name, "beta")
    if not h.device_mode:
        if a() == 0 and b() == 1:
            return None
        if y is None or (a() != 0 and (A is None or x is None)):
            raise null(name, "y" if y is None else ("A" if A is None else "x"))
    lx, ly = (n, m) if trans == OP.rocblas_operation_none else (m, n)
    Av = matrix(A, m, n, lda, dtype, name, "A", h.device)
    xv = vector(x, lx, incx, dtype, name, "x", h.device)
    yv = vector(y, ly, incy, dtype, name, "y", h.device)
    gemv = get_blas_funcs("gemv", dtype=dtype)

    def run() -> None:
        yv[:] = gemv(a(), Av, xv, beta=b(), y=yv.copy(), trans=TRANS_CODE[trans])

    kind = "n" if trans == OP.rocblas_operation_none else "t"
    size = np.dtype(dtype).itemsize
    launch_stream(h, run, f"rocblas_gemv{kind}_kernel<{ctype(dtype)}>", m * n, dtype,
                  bytes_moved=(m * n + lx + 2 * ly) * size, flops=2 * m * n)
    return None


@with_example(_SETUP, """
    >>> {name}(h, 2, 2, 1, x, 1, x, 1, A, 2)
    >>> A.copy_to_host().real.tolist()
    [2.0, 3.0, 4.0, 5.0]
""")
def _ger(name: str, dtype: Any, handle: Any, m: int, n: int, alpha: Any, x: Any, incx: int,
         y: Any, incy: int, A: Any, lda: int, *, conjugate: bool = False) -> S | None:
    """{name}: A := alpha x y^T + A ({ctype}; y^H for gerc)."""
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    check_sizes(name, m=m, n=n)
    check_inc(name, "incx", incx)
    check_inc(name, "incy", incy)
    check_ld(name, "lda", lda, "m", m)
    if not m or not n:
        return None
    a = scalar_arg(h, alpha, dtype, name, "alpha")
    if not h.device_mode:
        if a() == 0:
            return None
        for ptr, arg in ((A, "A"), (x, "x"), (y, "y")):
            if ptr is None:
                raise null(name, arg)
    Av = matrix(A, m, n, lda, dtype, name, "A", h.device)
    xv = vector(x, m, incx, dtype, name, "x", h.device)
    yv = vector(y, n, incy, dtype, name, "y", h.device)

    def run() -> None:
        Av[:] = Av + a() * np.outer(xv, np.conj(yv) if conjugate else yv)

    size = np.dtype(dtype).itemsize
    launch_stream(h, run, f"rocblas_ger_kernel<{ctype(dtype)}>", m * n, dtype,
                  bytes_moved=(2 * m * n + m + n) * size, flops=2 * m * n)
    return None


@with_example(_SETUP, """
    >>> {name}(h, rocblas.rocblas_fill_lower, rocblas.rocblas_operation_none,
    ...        rocblas.rocblas_diagonal_unit, 2, A, 2, x, 1)
    >>> x.copy_to_host().real.tolist()        # [[1, 0], [2, 1]] x = [1, 1]
    [1.0, -1.0]
""")
def _trsv(name: str, dtype: Any, handle: Any, uplo: int, transA: int, diag: int, n: int,
          A: Any, lda: int, x: Any, incx: int) -> S | None:
    """{name}: solve op(A) x = b in place, A triangular n x n {ctype}."""
    h = get_handle(handle, name)
    uplo = check_enum(uplo, FILLS, function=name, arg="uplo", error=RocblasError)
    transA = check_enum(transA, TRANS_CODE, function=name, arg="transA", error=RocblasError)
    diag = check_enum(diag, DIAGS, function=name, arg="diag", error=RocblasError)
    check_sizes(name, n=n)
    check_ld(name, "lda", lda, "n", n)
    check_inc(name, "incx", incx)
    if not n:
        return S.rocblas_status_size_unchanged if h.querying else None
    status = h.workspace(name, 4)  # one rocblas_int per batch member (rocblas_trsv.hpp)
    if status is not None:
        return status
    for ptr, arg in ((A, "A"), (x, "x")):
        if ptr is None:
            raise null(name, arg)
    Av = matrix(A, n, n, lda, dtype, name, "A", h.device)
    xv = vector(x, n, incx, dtype, name, "x", h.device)
    trsv = get_blas_funcs("trsv", dtype=dtype)

    def run() -> None:
        with np.errstate(all="ignore"):
            xv[:] = trsv(Av, xv.copy(), lower=int(uplo == rocblas_fill.rocblas_fill_lower),
                         trans=TRANS_CODE[transA],
                         diag=int(diag == rocblas_diagonal.rocblas_diagonal_unit))

    size = np.dtype(dtype).itemsize
    launch_stream(h, run, f"rocblas_trsv_kernel<{ctype(dtype)}>", n * n // 2 + n, dtype,
                  bytes_moved=(n * (n + 1) // 2 + 2 * n) * size, flops=n * n)
    return None


_ROUTINES = {
    **variants(_gemv, SDCZ, "rocblas_{p}gemv"),
    **variants(_ger, {"s": SDCZ["s"], "d": SDCZ["d"]}, "rocblas_{p}ger"),
    **variants(_ger, {"c": SDCZ["c"], "z": SDCZ["z"]}, "rocblas_{p}geru"),
    **variants(_ger, {"c": SDCZ["c"], "z": SDCZ["z"]}, "rocblas_{p}gerc", conjugate=True),
    **variants(_trsv, SDCZ, "rocblas_{p}trsv"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
