"""Argument checks in rocBLAS's order, and the strided views BLAS arguments describe.

Every routine checks like rocBLAS's ``*_arg_check`` functions (library/src/blas*/
in ROCm/rocBLAS): handle, then enum values (invalid_value: libs.common's check_enum with
``error=RocblasError``), then sizes, leading
dimensions and increments (invalid_size), then the quick return for empty problems
(success, before any pointer is looked at), then pointers (invalid_pointer). The
helpers here raise ``RocblasError`` with a message that names the argument and the fix.

Views: ``vector`` and ``matrix`` turn (pointer, sizes, increment / leading dimension)
into NumPy views of device memory, column-major, with BLAS's negative-increment rule
(element i of a vector with inc < 0 sits at ``x[(n - 1 - i) * |inc|]``).

>>> import numpy as np
>>> from gpusim import hip
>>> d = hip.to_device(np.arange(12, dtype=np.float32))
>>> matrix(d, 2, 3, 4, np.float32, "f", "A")       # 2x3 inside a 4-row column-major array
array([[0., 4., 8.],
       [1., 5., 9.]], dtype=float32)
>>> vector(d, 3, -2, np.float32, "f", "x")
array([4., 2., 0.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from gpusim.libs.common import device_view, scalar_reader
from gpusim.libs.rocblas.enums import RocblasError, rocblas_status

S = rocblas_status


def fail(status: rocblas_status, function: str, detail: str) -> RocblasError:
    return RocblasError(status, function, detail)


def check_sizes(function: str, **sizes: int) -> None:
    """Every size must be a non-negative integer (invalid_size otherwise)."""
    for name, value in sizes.items():
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise fail(S.rocblas_status_invalid_size, function,
                       f"{name}={value!r} must be an integer")
        if value < 0:
            raise fail(S.rocblas_status_invalid_size, function,
                       f"{name}={value} is negative; sizes must be >= 0")


def check_ld(function: str, ld_name: str, ld: int, rows_name: str, rows: int,
             at_least_one: bool = True) -> None:
    """A leading dimension must be >= the rows it spans (and >= 1 in rocBLAS; rocSOLVER
    only asks for >= rows): invalid_size."""
    if not isinstance(ld, (int, np.integer)) or ld < max(int(at_least_one), rows):
        raise fail(S.rocblas_status_invalid_size, function,
                   f"{ld_name}={ld} < {rows_name}={rows}: in column-major storage "
                   f"{ld_name} is the distance between columns, so it must be at least "
                   f"the number of rows ({rows_name}) and >= 1. Row-major data has "
                   "its rows contiguous: describe it as the transposed matrix (swap the "
                   "roles, e.g. C^T = B^T A^T) rather than passing its column count")


def check_inc(function: str, name: str, inc: int) -> None:
    """A vector increment may be negative but never 0: invalid_size."""
    if not isinstance(inc, (int, np.integer)) or inc == 0:
        raise fail(S.rocblas_status_invalid_size, function,
                   f"{name}={inc!r}: the increment must be a nonzero integer "
                   "(1 for a contiguous vector; negative walks it backwards)")


def null(function: str, arg: str) -> RocblasError:
    return fail(S.rocblas_status_invalid_pointer, function,
                f"argument '{arg}' is a null pointer (None); pass a DeviceArray or a "
                "hipMalloc pointer")


def require(function: str, **pointers: Any) -> None:
    """invalid_pointer naming the first argument that is None (C's nullptr)."""
    for name, ptr in pointers.items():
        if ptr is None:
            raise null(function, name)


def vector(ptr: Any, n: int, inc: int, dtype: Any, function: str, arg: str,
           device: int | None = None) -> np.ndarray:
    """View of the n elements x[0], x[inc], ... (BLAS order for inc < 0; inc 0 repeats
    one element)."""
    dtype = np.dtype(dtype)
    step = abs(int(inc))
    flat = device_view(ptr, dtype, 1 + (n - 1) * step if n > 0 else 0, function=function,
                       arg=arg, error=RocblasError, device=device)
    if n <= 0:
        return flat[:0]
    start = flat[(n - 1) * step:] if inc < 0 else flat
    return as_strided(start, shape=(n,), strides=(int(inc) * dtype.itemsize,))


def matrix(ptr: Any, rows: int, cols: int, ld: int, dtype: Any, function: str, arg: str,
           device: int | None = None) -> np.ndarray:
    """Column-major ``rows x cols`` view with leading dimension ``ld`` (writable)."""
    dtype = np.dtype(dtype)
    count = ld * (cols - 1) + rows if rows and cols else 0
    flat = device_view(ptr, dtype, count, function=function, arg=arg, error=RocblasError,
                       device=device)
    if count == 0:
        return np.zeros((rows, cols), dtype)
    return as_strided(flat, shape=(rows, cols),
                      strides=(dtype.itemsize, ld * dtype.itemsize))


def strided_matrices(ptr: Any, rows: int, cols: int, ld: int, stride: int, count: int,
                     dtype: Any, function: str, arg: str, device: int | None = None
                     ) -> np.ndarray:
    """``count x rows x cols`` view of matrices ``stride`` elements apart (``_strided_batched``;
    stride 0 repeats one matrix)."""
    dtype = np.dtype(dtype)
    one = ld * (cols - 1) + rows if rows and cols else 0
    total = stride * (count - 1) + one if one and count else 0
    flat = device_view(ptr, dtype, total, function=function, arg=arg, error=RocblasError,
                       device=device)
    if total == 0:
        return np.zeros((count, rows, cols), dtype)
    size = dtype.itemsize
    return as_strided(flat, shape=(count, rows, cols), strides=(stride * size, size, ld * size))


def pointer_array(ptrs: Any, count: int, function: str, arg: str,
                  device: int | None = None) -> list[Any]:
    """The ``count`` device pointers of a ``_batched`` argument (C: ``T* const A[]``).

    C keeps the pointers in device memory: pass a DeviceArray of uint64 addresses
    (``hip.to_device(np.array([int(a.ptr) for a in mats], np.uint64))``); a Python list
    of DeviceArrays / pointers is accepted too. The pointers are read at the call.
    """
    from gpusim.runtime.darray import DeviceArray

    if isinstance(ptrs, (list, tuple)):
        if len(ptrs) < count:
            raise fail(S.rocblas_status_invalid_pointer, function,
                       f"argument '{arg}' lists {len(ptrs)} pointers but batch_count={count}")
        return list(ptrs[:count])
    if isinstance(ptrs, DeviceArray) and ptrs.dtype not in (np.uint64, np.int64):
        raise fail(S.rocblas_status_invalid_pointer, function,
                   f"argument '{arg}' is a DeviceArray of {ptrs.dtype}, but a _batched "
                   "routine takes an array of device pointers (uint64 addresses, one per "
                   "matrix). For matrices stored one after another in a single buffer, "
                   "call the _strided_batched routine with a stride instead")
    addresses = device_view(ptrs, np.uint64, count, function=function, arg=arg,
                            error=RocblasError, device=device)
    return [int(a) for a in addresses]


def scalar_arg(h: Any, value: Any, dtype: Any, function: str, arg: str) -> Any:
    """Reader of alpha/beta/c/s under the handle's pointer mode (None: invalid_pointer)."""
    if value is None:
        raise null(function, arg)
    return scalar_reader(value, dtype, device_mode=h.device_mode, function=function,
                         arg=arg, error=RocblasError, device=h.device)


def same_memory(p: Any, q: Any) -> bool:
    """True when two pointer arguments start at the same device address."""
    from gpusim.runtime.darray import DeviceArray

    if p is None or q is None:
        return False
    p, q = (x.ptr if isinstance(x, DeviceArray) else x for x in (p, q))
    try:
        return int(p) == int(q)
    except TypeError:
        return False
