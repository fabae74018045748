"""Pointer arguments of a library call -> NumPy views of the emulated bytes.

C takes ``T*``; here a device pointer may be a ``DeviceArray`` (any view of one), a
``DevicePointer`` from hipMalloc (possibly offset) or an integer device address, and
``None`` is the null pointer. ``device_view`` returns a flat, writable NumPy view of
``count`` elements from that address, so a library computes in place on the device
bytes, as the real kernels do. Host memory (pointer mode host, set/get_vector sources)
is a NumPy array; ``host_view`` checks it the same way.

Checks, each raising the calling library's error (``error=``) with the function and
argument named: null pointer and host-array-for-device (``error.pointer_status``),
element type (``error.value_status``: a DeviceArray of float64 passed to an ``s``
routine). Reading past the end of the buffer is not a library status (the real library
would launch and the GPU would fault), so it raises ``HipError(hipErrorIllegalAddress)``.

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.libs.common.errors import LibraryError
>>> d = hip.to_device(np.arange(6, dtype=np.float64))
>>> device_view(d[2:], np.float64, 3, function="f", arg="x", error=LibraryError)
array([2., 3., 4.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim.errors import HipError, hipError_t
from gpusim.libs.common.errors import LibraryError, fail
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.pointers import resolve


def _check_dtype(found: np.dtype, dtype: np.dtype, function: str, arg: str,
                 error: type[LibraryError]) -> None:
    if found != dtype:
        raise fail(error, error.value_status, function,
                    f"argument '{arg}' holds {found} but {function} works on {dtype}; "
                    f"pass an array of {dtype} (or call the routine for {found})")


def device_view(ptr: Any, dtype: Any, count: int, *, function: str, arg: str,
                error: type[LibraryError], device: int | None = None) -> np.ndarray:
    """Flat writable view of ``count`` elements of ``dtype`` at a device pointer.

    ``device``: the ordinal the library's handle belongs to; memory of another device
    is refused (the library would need peer access it does not set up).
    """
    dtype = np.dtype(dtype)
    if ptr is None:
        raise fail(error, error.pointer_status, function,
                    f"argument '{arg}' is a null pointer (None); pass a DeviceArray or a "
                    "hipMalloc pointer")
    if isinstance(ptr, np.ndarray):
        raise fail(error, error.pointer_status, function,
                    f"argument '{arg}' is a host NumPy array, but {function} reads device "
                    "memory here; copy it with hip.to_device(...) first")
    if isinstance(ptr, DeviceArray):
        _check_dtype(ptr.dtype, dtype, function, arg, error)
    try:
        region = resolve(ptr, origin=f"{function}: argument '{arg}'")
    except HipError as exc:
        raise fail(error, error.pointer_status, function, exc.detail) from None
    if device is not None and region.device != device:
        raise fail(error, error.pointer_status, function,
                    f"argument '{arg}' lives on device {region.device} but the handle "
                    f"belongs to device {device}; create the handle after hipSetDevice"
                    f"({region.device}) or copy the data")
    return _take(region.data, dtype, count, function, arg, region.describe)


def host_view(ary: Any, dtype: Any, count: int, *, function: str, arg: str,
              error: type[LibraryError]) -> np.ndarray:
    """Flat writable view of ``count`` elements of a host NumPy array (C host memory)."""
    dtype = np.dtype(dtype)
    if ary is None:
        raise fail(error, error.pointer_status, function,
                    f"argument '{arg}' is a null pointer (None); pass a NumPy array")
    if not isinstance(ary, np.ndarray):
        raise fail(error, error.pointer_status, function,
                    f"argument '{arg}' must be host memory (a NumPy array) here, got "
                    f"{type(ary).__name__}; copy device data with copy_to_host() first")
    _check_dtype(ary.dtype, dtype, function, arg, error)
    region = resolve(ary, origin=f"{function}: argument '{arg}'")
    return _take(region.data, dtype, count, function, arg, region.describe)


def _take(data: np.ndarray, dtype: np.dtype, count: int, function: str, arg: str,
          describe: str) -> np.ndarray:
    need = int(count) * dtype.itemsize
    if need > data.size:
        raise HipError(
            hipError_t.hipErrorIllegalAddress,
            f"{function}: argument '{arg}' must hold {count} elements of {dtype} "
            f"({need} bytes) for these sizes/strides, but the {describe} has only "
            f"{data.size} bytes; check the sizes, leading dimension and increment",
        )
    return data[:need].view(dtype)


def scalar_reader(value: Any, dtype: Any, *, device_mode: bool, function: str, arg: str,
                  error: type[LibraryError], device: int | None = None
                  ) -> Callable[[], Any]:
    """How to get a scalar argument (alpha, beta) under the library's pointer mode.

    Host mode: ``value`` is a number (or a 1-element host array) and is read now, at
    the call, as the real library reads ``*alpha`` before it returns. Device mode:
    ``value`` is a device pointer read when the kernel runs, so a kernel queued earlier
    on the stream may still write it. Returns a function giving the ``dtype`` value.

    >>> read = scalar_reader(3, np.complex64, device_mode=False, function="f", arg="alpha",
    ...                      error=LibraryError)
    >>> read()
    np.complex64(3+0j)
    """
    dtype = np.dtype(dtype)
    if device_mode:
        view = device_view(value, dtype, 1, function=function, arg=arg, error=error,
                           device=device)
        return lambda: view[0]
    if isinstance(value, np.ndarray):
        host = host_view(value, dtype, 1, function=function, arg=arg, error=error)
        number = host[0].copy()
        return lambda: number
    if value is None or isinstance(value, (DeviceArray, bool)) or not np.isscalar(value):
        raise fail(error, error.pointer_status, function,
                    f"argument '{arg}' must be a host number in pointer mode host, got "
                    f"{value!r}; pass a number, or switch the handle to pointer mode "
                    "device to pass device memory")
    if np.iscomplexobj(value) and dtype.kind != "c":
        raise fail(error, error.value_status, function,
                    f"argument '{arg}' is complex ({value!r}) but {function} is real "
                    f"({dtype}); pass a real number or use the complex routine")
    number = dtype.type(value)
    return lambda: number
