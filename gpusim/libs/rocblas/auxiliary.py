"""Moving vectors and matrices between host and device: rocblas_set/get_vector and
rocblas_set/get_matrix (and their _async forms on a stream).

They copy ``elem_size``-byte elements, whatever their type, with host and device
increments / leading dimensions (in elements), and show up in the profiler as copies.
The synchronous forms return when the copy is done; the _async ones queue it on the
stream (the host array should then be pinned, as with hipMemcpyAsync). Checks in
rocblas_auxiliary.cpp's order: quick return for an empty copy, then invalid_size, then
invalid_pointer.

>>> import numpy as np
>>> from gpusim import hip, rocblas
>>> A = np.arange(6, dtype=np.float32).reshape(3, 2, order="F")     # 3 x 2, column-major
>>> d = hip.device_array(8, np.float32)                               # ldb = 4
>>> rocblas.rocblas_set_matrix(3, 2, 4, A.ravel(order="F"), 3, d, 4)
>>> d.copy_to_host()
array([0., 1., 2., 0., 3., 4., 5., 0.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from gpusim.libs.common import device_view, host_view, wait
from gpusim.libs.rocblas.checks import fail, null
from gpusim.libs.rocblas.enums import RocblasError, rocblas_status
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.pointers import is_pinned
from gpusim.runtime.streams import enqueue

S = rocblas_status


def _host_bytes(ary: Any, nbytes: int, name: str, arg: str) -> np.ndarray:
    if ary is None:
        raise null(name, arg)
    if not isinstance(ary, np.ndarray):
        raise fail(S.rocblas_status_invalid_pointer, name,
                   f"argument '{arg}' must be host memory (a NumPy array), got "
                   f"{type(ary).__name__}")
    flat = np.ascontiguousarray(ary) if not ary.flags.c_contiguous else ary
    if flat is not ary:
        raise fail(S.rocblas_status_invalid_pointer, name,
                   f"argument '{arg}' is not contiguous; pass np.ascontiguousarray(...)")
    return host_view(flat.reshape(-1).view(np.uint8), np.uint8, nbytes, function=name,
                     arg=arg, error=RocblasError)


def _device_bytes(ptr: Any, nbytes: int, name: str, arg: str) -> np.ndarray:
    if ptr is None:
        raise null(name, arg)
    address = ptr.ptr if isinstance(ptr, DeviceArray) else ptr  # any element type
    return device_view(address, np.uint8, nbytes, function=name, arg=arg, error=RocblasError)


def _block(data: np.ndarray, rows: int, cols: int, ld: int, elem: int) -> np.ndarray:
    """cols columns of rows elements, ld elements apart, each elem bytes (a view)."""
    return as_strided(data, shape=(cols, rows, elem), strides=(ld * elem, elem, 1))


def _transfer(name: str, rows: int, cols: int, elem: int, src: Any, ld_src: int, dst: Any,
              ld_dst: int, *, to_device: bool, stream: Any, blocking: bool) -> None:
    """Queue the copy of a rows x cols block (a vector is 1 x n with ld = increment)."""
    src_bytes = (ld_src * (cols - 1) + rows) * elem
    dst_bytes = (ld_dst * (cols - 1) + rows) * elem
    if to_device:
        s_view = _block(_host_bytes(src, src_bytes, name, "host source"), rows, cols, ld_src,
                        elem)
        d_view = _block(_device_bytes(dst, dst_bytes, name, "device destination"), rows,
                        cols, ld_dst, elem)
    else:
        s_view = _block(_device_bytes(src, src_bytes, name, "device source"), rows, cols,
                        ld_src, elem)
        d_view = _block(_host_bytes(dst, dst_bytes, name, "host destination"), rows, cols,
                        ld_dst, elem)
    host = src if to_device else dst
    op = enqueue(stream, lambda: np.copyto(d_view, s_view), name=name,
                 kind="HtoD" if to_device else "DtoH",
                 info={"bytes": rows * cols * elem, "pinned": is_pinned(host)})
    if blocking:
        wait(op)


def _vector_checks(name: str, n: int, elem_size: int, x: Any, incx: int, y: Any,
                   incy: int) -> bool:
    """rocblas_set/get_vector checks; False for the quick return (n = 0)."""
    if n == 0:
        return False
    if n < 0 or incx <= 0 or incy <= 0 or elem_size <= 0:
        raise fail(S.rocblas_status_invalid_size, name,
                   f"n={n}, incx={incx}, incy={incy}, elem_size={elem_size}: n, the "
                   "increments and the element size must be positive")
    if x is None or y is None:
        raise null(name, "x" if x is None else "y")
    return True


def _matrix_checks(name: str, rows: int, cols: int, elem_size: int, a: Any, lda: int,
                   b: Any, ldb: int) -> bool:
    """rocblas_set/get_matrix checks; False for the quick return (an empty matrix)."""
    if rows == 0 or cols == 0:
        return False
    if rows < 0 or cols < 0 or lda <= 0 or ldb <= 0 or rows > lda or rows > ldb \
            or elem_size <= 0:
        raise fail(S.rocblas_status_invalid_size, name,
                   f"rows={rows}, cols={cols}, lda={lda}, ldb={ldb}, elem_size={elem_size}: "
                   "sizes must be positive and each leading dimension at least rows "
                   "(column-major: ld is the distance between columns)")
    if a is None or b is None:
        raise null(name, "a" if a is None else "b")
    return True


def rocblas_set_vector(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int
                       ) -> None:
    """Copy n elements of host x (every incx-th) to device y (every incy-th).

    >>> import numpy as np
    >>> from gpusim import hip
    >>> d = hip.device_array(3, np.float64)
    >>> rocblas_set_vector(3, 8, np.array([1., 9, 2, 9, 3]), 2, d, 1); d.copy_to_host()
    array([1., 2., 3.])
    """
    if _vector_checks("rocblas_set_vector", n, elem_size, x, incx, y, incy):
        _transfer("rocblas_set_vector", 1, n, elem_size, x, incx, y, incy, to_device=True,
                  stream=0, blocking=True)


def rocblas_get_vector(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int
                       ) -> None:
    """Copy n elements of device x to host y (strided by incx / incy elements).

    >>> import numpy as np
    >>> from gpusim import hip
    >>> out = np.zeros(2, np.int32)
    >>> rocblas_get_vector(2, 4, hip.to_device(np.array([5, 6, 7], np.int32)), 2, out, 1)
    >>> out
    array([5, 7], dtype=int32)
    """
    if _vector_checks("rocblas_get_vector", n, elem_size, x, incx, y, incy):
        _transfer("rocblas_get_vector", 1, n, elem_size, x, incx, y, incy, to_device=False,
                  stream=0, blocking=True)


def rocblas_set_vector_async(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int,
                             stream: Any) -> None:
    """rocblas_set_vector queued on ``stream`` (pin the host array: hip.pinned_array)."""
    if _vector_checks("rocblas_set_vector_async", n, elem_size, x, incx, y, incy):
        _transfer("rocblas_set_vector_async", 1, n, elem_size, x, incx, y, incy,
                  to_device=True, stream=stream, blocking=False)


def rocblas_get_vector_async(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int,
                             stream: Any) -> None:
    """rocblas_get_vector queued on ``stream``; y is filled once the stream is synced."""
    if _vector_checks("rocblas_get_vector_async", n, elem_size, x, incx, y, incy):
        _transfer("rocblas_get_vector_async", 1, n, elem_size, x, incx, y, incy,
                  to_device=False, stream=stream, blocking=False)


def rocblas_set_matrix(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any,
                       ldb: int) -> None:
    """Copy a rows x cols column-major block from host a (lda) to device b (ldb)."""
    if _matrix_checks("rocblas_set_matrix", rows, cols, elem_size, a, lda, b, ldb):
        _transfer("rocblas_set_matrix", rows, cols, elem_size, a, lda, b, ldb,
                  to_device=True, stream=0, blocking=True)


def rocblas_get_matrix(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any,
                       ldb: int) -> None:
    """Copy a rows x cols column-major block from device a (lda) to host b (ldb).

    >>> import numpy as np
    >>> from gpusim import hip
    >>> d = hip.to_device(np.arange(8, dtype=np.float32))     # 4 x 2 with lda 4
    >>> out = np.zeros(4, np.float32)
    >>> rocblas_get_matrix(2, 2, 4, d, 4, out, 2); out          # its top 2 x 2 block
    array([0., 1., 4., 5.], dtype=float32)
    """
    if _matrix_checks("rocblas_get_matrix", rows, cols, elem_size, a, lda, b, ldb):
        _transfer("rocblas_get_matrix", rows, cols, elem_size, a, lda, b, ldb,
                  to_device=False, stream=0, blocking=True)


def rocblas_set_matrix_async(rows: int, cols: int, elem_size: int, a: Any, lda: int,
                             b: Any, ldb: int, stream: Any) -> None:
    """rocblas_set_matrix queued on ``stream``."""
    if _matrix_checks("rocblas_set_matrix_async", rows, cols, elem_size, a, lda, b, ldb):
        _transfer("rocblas_set_matrix_async", rows, cols, elem_size, a, lda, b, ldb,
                  to_device=True, stream=stream, blocking=False)


def rocblas_get_matrix_async(rows: int, cols: int, elem_size: int, a: Any, lda: int,
                             b: Any, ldb: int, stream: Any) -> None:
    """rocblas_get_matrix queued on ``stream``."""
    if _matrix_checks("rocblas_get_matrix_async", rows, cols, elem_size, a, lda, b, ldb):
        _transfer("rocblas_get_matrix_async", rows, cols, elem_size, a, lda, b, ldb,
                  to_device=False, stream=stream, blocking=False)
