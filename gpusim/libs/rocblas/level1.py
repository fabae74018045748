"""rocBLAS level 1, element-wise routines: axpy, scal, copy, swap, rot, rotm.

C names per precision (s, d, c, z; plus csscal/zdscal with a real alpha and csrot/zdrot
with real c and s). Vectors are (pointer, n, increment); a negative increment walks the
vector from its end, as BLAS defines. Each call queues one kernel on the handle's stream.

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.libs.rocblas.handle import rocblas_create_handle
>>> h = rocblas_create_handle()
>>> x = hip.to_device(np.array([1, 2, 3], np.float32))
>>> y = hip.to_device(np.array([10, 20, 30], np.float32))
>>> rocblas_saxpy(h, 3, 2.0, x, 1, y, -1)       # y walked backwards
>>> y.copy_to_host()
array([16., 24., 32.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.libs.common import device_view, host_view
from gpusim.libs.rocblas.blas_time import ctype
from gpusim.libs.rocblas.checks import require, scalar_arg, vector
from gpusim.libs.rocblas.enums import PREFIX_DTYPE, RocblasError, rocblas_status
from gpusim.libs.rocblas.handle import get_handle
from gpusim.libs.rocblas.launching import launch_stream
from gpusim.libs.rocblas.variants import variants, with_example

S = rocblas_status
SDCZ = {p: PREFIX_DTYPE[p] for p in "sdcz"}
_SETUP = """

    >>> import numpy as np
    >>> from gpusim import hip, rocblas
    >>> h = rocblas.rocblas_create_handle()
    >>> x = hip.to_device(np.array([1, 2, 3], np.{dtype}))
    >>> y = hip.to_device(np.array([1, 1, 1], np.{dtype}))
"""


def _example(lines: str):
    return with_example(_SETUP, lines)


@_example("""
    >>> {name}(h, 3, 2, x, 1, y, 1)
    >>> y.copy_to_host().real.tolist()
    [3.0, 5.0, 7.0]
""")
def _axpy(name: str, dtype: Any, handle: Any, n: int, alpha: Any, x: Any, incx: int,
          y: Any, incy: int) -> S | None:
    """{name}: y := alpha * x + y on {ctype} vectors (rocblas_axpy_arg_check order)."""
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    if n <= 0:
        return None
    a = scalar_arg(h, alpha, dtype, name, "alpha")
    if not h.device_mode and a() == 0:
        return None
    require(name, x=x, y=y)
    xv, yv = (vector(p, n, inc, dtype, name, arg, h.device)
              for p, inc, arg in ((x, incx, "x"), (y, incy, "y")))

    def run() -> None:
        yv[:] = a() * xv + yv

    launch_stream(h, run, f"rocblas_axpy_kernel<{ctype(dtype)}>", n, dtype,
                  bytes_moved=3 * n * np.dtype(dtype).itemsize, flops=2 * n)
    return None


@_example("""
    >>> {name}(h, 3, 2, x, 1)
    >>> x.copy_to_host().real.tolist()
    [2.0, 4.0, 6.0]
""")
def _scal(name: str, dtype: Any, handle: Any, n: int, alpha: Any, x: Any, incx: int,
          ) -> S | None:
    """{name}: x := alpha * x on {ctype} vectors; incx <= 0 returns at once, as rocBLAS."""
    data, alpha_type = (dtype if isinstance(dtype, tuple) else (dtype, dtype))
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    if n <= 0 or incx <= 0:
        return None
    require(name, x=x, alpha=alpha)
    a = scalar_arg(h, alpha, alpha_type, name, "alpha")
    if not h.device_mode and a() == 1:
        return None
    xv = vector(x, n, incx, data, name, "x", h.device)

    def run() -> None:
        xv[:] = a() * xv

    launch_stream(h, run, f"rocblas_scal_kernel<{ctype(data)}>", n, data,
                  bytes_moved=2 * n * np.dtype(data).itemsize, flops=n)
    return None


@_example("""
    >>> {name}(h, 3, x, 1, y, 1)
    >>> y.copy_to_host().real.tolist()
    [1.0, 2.0, 3.0]
""")
def _copy_or_swap(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int, y: Any,
                  incy: int, *, swap: bool) -> S | None:
    """{name}: copy x into y (rocblas_copy) or exchange them (rocblas_swap), {ctype}."""
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    if n <= 0:
        return None
    require(name, x=x, y=y)
    xv, yv = (vector(p, n, inc, dtype, name, arg, h.device)
              for p, inc, arg in ((x, incx, "x"), (y, incy, "y")))

    def run() -> None:
        old = yv.copy()
        yv[:] = xv
        if swap:
            xv[:] = old

    kind = "swap" if swap else "copy"
    launch_stream(h, run, f"rocblas_{kind}_kernel<{ctype(dtype)}>", n, dtype,
                  bytes_moved=(4 if swap else 2) * n * np.dtype(dtype).itemsize, flops=0)
    return None


@_example("""
    >>> {name}(h, 3, x, 1, y, 1, 0.0, 1.0)      # c=0, s=1: x := y, y := -x
    >>> x.copy_to_host().real.tolist(), y.copy_to_host().real.tolist()
    ([1.0, 1.0, 1.0], [-1.0, -2.0, -3.0])
""")
def _rot(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int, y: Any, incy: int,
         c: Any, s: Any) -> S | None:
    """{name}: apply the plane rotation [c s; -conj(s) c] to (x, y), {ctype} vectors."""
    data, c_type, s_type = dtype
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    if n <= 0:
        return None
    require(name, x=x, y=y, c=c, s=s)
    cv = scalar_arg(h, c, c_type, name, "c")
    sv = scalar_arg(h, s, s_type, name, "s")
    xv, yv = (vector(p, n, inc, data, name, arg, h.device)
              for p, inc, arg in ((x, incx, "x"), (y, incy, "y")))

    def run() -> None:
        cc, ss = cv(), sv()
        new_x = cc * xv + ss * yv
        yv[:] = cc * yv - np.conj(ss) * xv
        xv[:] = new_x

    launch_stream(h, run, f"rocblas_rot_kernel<{ctype(data)}>", n, data,
                  bytes_moved=4 * n * np.dtype(data).itemsize, flops=6 * n)
    return None


@_example("""
    >>> param = np.array([1, 2, 0, 0, 3], np.{dtype})   # flag 1: H = [[h11, 1], [-1, h22]]
    >>> {name}(h, 3, x, 1, y, 1, param)
    >>> x.copy_to_host().tolist(), y.copy_to_host().tolist()
    ([3.0, 5.0, 7.0], [2.0, 1.0, 0.0])
""")
def _rotm(name: str, dtype: Any, handle: Any, n: int, x: Any, incx: int, y: Any, incy: int,
          param: Any) -> S | None:
    """{name}: apply the modified Givens rotation H to (x, y), {ctype} vectors.

    ``param`` (5 elements, host or device memory by the pointer mode) is BLAS's
    (flag, h11, h21, h12, h22): flag -1 uses all four, 0 takes h11 = h22 = 1, 1 takes
    h12 = 1 and h21 = -1, and -2 is the identity (nothing is launched when the flag is
    read on the host)."""
    dtype = np.dtype(dtype)
    h = get_handle(handle, name)
    if h.querying:
        return S.rocblas_status_size_unchanged
    if n <= 0:
        return None
    require(name, x=x, y=y, param=param)
    where = dict(function=name, arg="param", error=RocblasError)
    if h.device_mode:  # read when the kernel runs, as a device pointer is
        view = device_view(param, dtype, 5, device=h.device, **where)
        read = view.copy
    else:
        values = host_view(param, dtype, 5, **where).copy()
        if values[0] == -2:
            return None
        read = values.copy
    xv, yv = (vector(p, n, inc, dtype, name, arg, h.device)
              for p, inc, arg in ((x, incx, "x"), (y, incy, "y")))

    def run() -> None:
        flag, h11, h21, h12, h22 = read()
        if flag == -2:
            return
        if flag == 0:
            h11 = h22 = dtype.type(1)
        elif flag == 1:
            h12, h21 = dtype.type(1), dtype.type(-1)
        new_x = h11 * xv + h12 * yv
        yv[:] = h21 * xv + h22 * yv
        xv[:] = new_x

    launch_stream(h, run, f"rocblas_rotm_kernel<{ctype(dtype)}>", n, dtype,
                  bytes_moved=4 * n * dtype.itemsize, flops=6 * n)
    return None


def _real(p: str) -> np.dtype:
    return PREFIX_DTYPE["s" if p in "sc" else "d"]


_ROUTINES = {
    **variants(_axpy, SDCZ, "rocblas_{p}axpy"),
    **variants(_scal, {p: (d, d) for p, d in SDCZ.items()}, "rocblas_{p}scal"),
    **variants(_scal, {"cs": (PREFIX_DTYPE["c"], _real("c")),
                       "zd": (PREFIX_DTYPE["z"], _real("z"))}, "rocblas_{p}scal"),
    **variants(_copy_or_swap, SDCZ, "rocblas_{p}copy", swap=False),
    **variants(_copy_or_swap, SDCZ, "rocblas_{p}swap", swap=True),
    **variants(_rot, {p: (d, _real(p), d) for p, d in SDCZ.items()}, "rocblas_{p}rot"),
    **variants(_rot, {"cs": (PREFIX_DTYPE["c"], _real("c"), _real("c")),
                      "zd": (PREFIX_DTYPE["z"], _real("z"), _real("z"))}, "rocblas_{p}rot"),
    **variants(_rotm, {p: SDCZ[p] for p in "sd"}, "rocblas_{p}rotm"),
}
globals().update(_ROUTINES)
__all__ = sorted(_ROUTINES)
