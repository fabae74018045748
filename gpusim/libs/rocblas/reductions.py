"""rocBLAS level 1 reductions: dot (dotu/dotc), nrm2, asum, iamax, iamin.

The result is an out-parameter: in pointer mode host it is returned (and also written
into ``result`` when a host array is given), and the call waits for the kernels, as
rocBLAS's does; in pointer mode device ``result`` must be device memory, written when
the kernels run. iamax/iamin are 1-based (0 for an empty vector) and, for complex
vectors, compare |re| + |im| as BLAS does. Workspace: ``(ceil(n / NB) + 1)`` partial
results per call (NB = 512, 1024 for iamax/iamin: rocblas_block_sizes.h), reported in a
device-memory size query.

>>> import numpy as np
>>> from gpusim import hip, rocblas
>>> h = rocblas.rocblas_create_handle()
>>> x = hip.to_device(np.array([3, -4], np.float32))
>>> float(rocblas.rocblas_snrm2(h, 2, x, 1)), int(rocblas.rocblas_isamax(h, 2, x, 1))
(5.0, 2)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gpusim.libs.rocblas.blas_time import ctype
from gpusim.libs.rocblas.checks import null, vector
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, real_dtype, rocblas_status
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.launching import deliver, zero_result
from gpusim.libs.rocblas.variants import variants, with_example

S = rocblas_status
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas
    >>> h = rocblas.rocblas_create_handle()
    >>> x = hip.to_device(np.array([1, -2, 2], np.{dtype}))
"""


def _workspace_bytes(n: int, nb: int, out: np.dtype) -> int:
    return (math.ceil(max(n, 1) / nb) + 1) * out.itemsize


@with_example(_SETUP, """
    >>> y = hip.to_device(np.array([1, 1, 1], np.{dtype}))
    >>> complex({name}(h, 3, x, 1, y, 1)).real
    1.0
""")
def _dot(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int, y: Any, incy: int,
         result: Any = None, *, conjugate: bool = False) -> Any:
    """{name}: the dot product of two {ctype} vectors (x conjugated for dotc)."""
    h = get_handle(handle, name)
    dtype = np.dtype(dtype)
    status = h.workspace(name, _workspace_bytes(n, 512, dtype))
    if status is not None:
        return status
    if n <= 0:
        return zero_result(h, name, result, dtype)
    for ptr, arg in ((x, "x"), (y, "y")):
        if ptr is None:
            raise null(name, arg)
    xv, yv = (vector(p, n, inc, dtype, name, arg, h.device)
              for p, inc, arg in ((x, incx, "x"), (y, incy, "y")))

    def compute() -> Any:
        return np.sum((np.conj(xv) if conjugate else xv) * yv, dtype=dtype)

    kernel = f"rocblas_dot_kernel_inc1<{ctype(dtype)}>"
    return deliver(h, name, result, dtype, compute, [kernel, "rocblas_dot_kernel_reduce"],
                   n, bytes_moved=2 * n * dtype.itemsize, flops=2 * n)


def _reduction(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int,
               result: Any, *, op: str) -> Any:
    """The shared body of nrm2, asum, iamax and iamin (rocblas_asum_nrm2_arg_check and
    rocblas_iamax_iamin_arg_check order: result, quick return, x)."""
    h = get_handle(handle, name)
    dtype = np.dtype(dtype)
    out = np.dtype(np.int32) if op.startswith("ia") else real_dtype(dtype)
    status = h.workspace(name, _workspace_bytes(n, 1024 if out.kind == "i" else 512, out))
    if status is not None:
        return status
    if result is None and h.device_mode:
        raise null(name, "result")
    if n <= 0 or incx <= 0:
        return zero_result(h, name, result, out)
    if x is None:
        raise null(name, "x")
    xv = vector(x, n, incx, dtype, name, "x", h.device)
    compute = {"nrm2": lambda: np.sqrt(np.sum(np.abs(xv) ** 2, dtype=out)),
               "asum": lambda: np.sum(np.abs(xv.real) + np.abs(xv.imag), dtype=out),
               "iamax": lambda: 1 + int(np.argmax(np.abs(xv.real) + np.abs(xv.imag))),
               "iamin": lambda: 1 + int(np.argmin(np.abs(xv.real) + np.abs(xv.imag)))}[op]
    kernels = [f"rocblas_reduction_kernel_part<{op}, {ctype(dtype)}>",
               f"rocblas_reduction_kernel_final<{op}>"]
    return deliver(h, name, result, out, compute, kernels, n,
                   bytes_moved=n * dtype.itemsize, flops=2 * n)


@with_example(_SETUP, """
    >>> float({name}(h, 3, x, 1))
    3.0
""")
def _nrm2(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int,
          result: Any = None) -> Any:
    """{name}: the Euclidean norm of a {ctype} vector (a real number)."""
    return _reduction(name, dtype, handle, n, x, incx, result, op="nrm2")


@with_example(_SETUP, """
    >>> float({name}(h, 3, x, 1))
    5.0
""")
def _asum(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int,
          result: Any = None) -> Any:
    """{name}: the sum of |re| + |im| over a {ctype} vector."""
    return _reduction(name, dtype, handle, n, x, incx, result, op="asum")


@with_example(_SETUP, """
    >>> int({name}(h, 3, x, 1))          # 1-based: the first of the two 2s
    2
""")
def _iamax(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int,
           result: Any = None) -> Any:
    """{name}: 1-based index of the first element of largest |re| + |im| ({ctype})."""
    return _reduction(name, dtype, handle, n, x, incx, result, op="iamax")


@with_example(_SETUP, """
    >>> int({name}(h, 3, x, 1))
    1
""")
def _iamin(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int,
           result: Any = None) -> Any:
    """{name}: 1-based index of the first element of smallest |re| + |im| ({ctype})."""
    return _reduction(name, dtype, handle, n, x, incx, result, op="iamin")


_REAL_PREFIX = {"s": SDCZ["s"], "d": SDCZ["d"], "sc": SDCZ["c"], "dz": SDCZ["z"]}
_ROUTINES = {
    **variants(_dot, {"s": SDCZ["s"], "d": SDCZ["d"]}, "rocblas_{p}dot"),
    **variants(_dot, {"c": SDCZ["c"], "z": SDCZ["z"]}, "rocblas_{p}dotu"),
    **variants(_dot, {"c": SDCZ["c"], "z": SDCZ["z"]}, "rocblas_{p}dotc", conjugate=True),
    **variants(_nrm2, _REAL_PREFIX, "rocblas_{p}nrm2"),
    **variants(_asum, _REAL_PREFIX, "rocblas_{p}asum"),
    **variants(_iamax, SDCZ, "rocblas_i{p}amax"),
    **variants(_iamin, SDCZ, "rocblas_i{p}amin"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
