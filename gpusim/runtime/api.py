"""The HIP runtime API under HIP's own names: devices, memory, copies, errors.

C returns a status and writes results through out-parameters; here results are
returned and a failure raises ``HipError`` (its ``.code`` is the ``hipError_t`` C would
have returned). ``hipGetLastError`` still works as in C: every failed call records its
code there, so code ported line by line behaves the same.

>>> import numpy as np
>>> from gpusim import hip
>>> x = np.arange(4, dtype=np.float32)
>>> d = hip.hipMalloc(x.nbytes)
>>> hip.hipMemcpy(d, x, x.nbytes, hip.hipMemcpyHostToDevice)
>>> y = np.empty_like(x)
>>> hip.hipMemcpy(y, d, x.nbytes, hip.hipMemcpyDeviceToHost)
>>> y
array([0., 1., 2., 3.], dtype=float32)
>>> hip.hipFree(d)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from gpusim.errors import HipError, error_string, hipError_t
from gpusim.runtime import pointers
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.memory import DevicePointer
from gpusim.runtime.properties import device_properties, hipDeviceProp_t
from gpusim.runtime.system import current_device, get_system

F = TypeVar("F", bound=Callable[..., Any])


class hipMemcpyKind(enum.IntEnum):  # noqa: N801 - HIP's spelling
    """Copy directions with HIP's values (hip_runtime_api.h)."""

    hipMemcpyHostToHost = 0
    hipMemcpyHostToDevice = 1
    hipMemcpyDeviceToHost = 2
    hipMemcpyDeviceToDevice = 3
    hipMemcpyDefault = 4


hipMemcpyHostToHost = hipMemcpyKind.hipMemcpyHostToHost
hipMemcpyHostToDevice = hipMemcpyKind.hipMemcpyHostToDevice
hipMemcpyDeviceToHost = hipMemcpyKind.hipMemcpyDeviceToHost
hipMemcpyDeviceToDevice = hipMemcpyKind.hipMemcpyDeviceToDevice
hipMemcpyDefault = hipMemcpyKind.hipMemcpyDefault

_last_error = hipError_t.hipSuccess


def hip_api(fn: F) -> F:
    """Record the code of a failing call for hipGetLastError, then re-raise."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        global _last_error
        try:
            return fn(*args, **kwargs)
        except HipError as exc:
            _last_error = exc.code
            raise

    return wrapper  # type: ignore[return-value]


# errors -----------------------------------------------------------------------------------
def hipGetLastError() -> hipError_t:
    """The code of the last failed HIP call on this process, then reset to hipSuccess.

    >>> try:
    ...     hipSetDevice(99)
    ... except HipError:
    ...     pass
    >>> hipGetLastError()
    <hipError_t.hipErrorInvalidDevice: 101>
    >>> hipGetLastError()
    <hipError_t.hipSuccess: 0>
    """
    global _last_error
    code, _last_error = _last_error, hipError_t.hipSuccess
    return code


def hipPeekAtLastError() -> hipError_t:
    """Like hipGetLastError, without resetting it."""
    return _last_error


def hipGetErrorString(code: hipError_t | int) -> str:
    """HIP's description of a status code.

    >>> hipGetErrorString(hipError_t.hipErrorOutOfMemory)
    'out of memory'
    """
    return error_string(code)


def hipGetErrorName(code: hipError_t | int) -> str:
    """The enumerator's name, e.g. 'hipErrorInvalidValue'."""
    try:
        return hipError_t(code).name
    except ValueError:
        return "hipErrorUnknown"


# devices ----------------------------------------------------------------------------------
def hipGetDeviceCount() -> int:
    """Number of emulated GPUs (8 on the default MI300X system)."""
    return len(get_system().devices)


@hip_api
def hipSetDevice(ordinal: int) -> None:
    """Make ``ordinal`` the calling host thread's current device."""
    get_system().set_current(ordinal)


def hipGetDevice() -> int:
    """Ordinal of the calling host thread's current device."""
    return get_system().current_ordinal


@hip_api
def hipGetDeviceProperties(ordinal: int | None = None) -> hipDeviceProp_t:
    """hipDeviceProp_t of a device (fields named as in HIP).

    >>> p = hipGetDeviceProperties(0); p.gcnArchName[:6], p.warpSize
    ('gfx942', 64)
    """
    system = get_system()
    ordinal = system.current_ordinal if ordinal is None else ordinal
    return device_properties(system.device(ordinal, origin="hipGetDeviceProperties"))


@hip_api
def hipDeviceSynchronize() -> None:
    """Wait for all work on the current device (all work is finished when issued, for now)."""


@hip_api
def hipDeviceReset() -> None:
    """Free every buffer of the current device."""
    current_device().memory.release_all(origin="hipDeviceReset")


# memory -----------------------------------------------------------------------------------
@hip_api
def hipMalloc(nbytes: int) -> DevicePointer:
    """Allocate ``nbytes`` on the current device and return the device pointer."""
    return current_device().memory.allocate(nbytes, origin="hipMalloc")


@hip_api
def hipFree(ptr: DevicePointer | DeviceArray | int | None) -> None:
    """Free a buffer from hipMalloc (``hipFree(None)`` / ``hipFree(0)`` is a no-op, as in C)."""
    if ptr is None or (isinstance(ptr, int) and ptr == 0):
        return
    if isinstance(ptr, DeviceArray):
        ptr = ptr.ptr
    if not isinstance(ptr, (DevicePointer, int, np.integer)) or isinstance(ptr, bool):
        raise HipError(
            hipError_t.hipErrorInvalidValue,
            f"hipFree: expected a device pointer from hipMalloc, got {type(ptr).__name__}"
            + ("; host buffers from hipHostMalloc are freed with hipHostFree"
               if isinstance(ptr, np.ndarray) else ""),
        )
    device = get_system().owner_of(int(ptr))
    if device is None:
        raise HipError(
            hipError_t.hipErrorInvalidValue,
            f"hipFree: {int(ptr):#x} is not a device address of this system",
        )
    device.memory.free(int(ptr), origin="hipFree")


@hip_api
def hipMemGetInfo() -> tuple[int, int]:
    """(free, total) bytes of the current device."""
    mem = current_device().memory
    return mem.capacity_bytes - mem.used_bytes, mem.capacity_bytes


@hip_api
def hipHostMalloc(nbytes: int, flags: int = 0) -> np.ndarray:
    """Page-locked (pinned) host memory: a uint8 NumPy array that copies move faster."""
    if not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"hipHostMalloc: size must be a non-negative integer, got {nbytes!r}")
    ary = np.zeros(int(nbytes), dtype=np.uint8)
    pointers.register_pinned(ary)
    return ary


@hip_api
def hipHostFree(ary: np.ndarray) -> None:
    """Release a buffer from hipHostMalloc (it becomes ordinary pageable memory)."""
    pointers.unregister_pinned(ary, origin="hipHostFree")


def pinned_array(shape: Any, dtype: Any = np.float64) -> np.ndarray:
    """A pinned host array of ``shape`` and ``dtype`` (numba.cuda.pinned_array).

    >>> pinned_array((2, 2), np.float32).dtype
    dtype('float32')
    """
    dtype = np.dtype(dtype)
    shape = (shape,) if np.isscalar(shape) else tuple(shape)
    raw = hipHostMalloc(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize)
    return raw.view(dtype).reshape(shape)


_EXPECTED_SIDES = {  # kind -> (dst is device, src is device)
    hipMemcpyKind.hipMemcpyHostToHost: (False, False),
    hipMemcpyKind.hipMemcpyHostToDevice: (True, False),
    hipMemcpyKind.hipMemcpyDeviceToHost: (False, True),
    hipMemcpyKind.hipMemcpyDeviceToDevice: (True, True),
}


def _side(is_device: bool) -> str:
    return "device" if is_device else "host"


@hip_api
def hipMemcpy(dst: Any, src: Any, nbytes: int, kind: hipMemcpyKind | int) -> None:
    """Copy ``nbytes`` from ``src`` to ``dst``; ``kind`` must match where each side lives.

    Either side may be a NumPy array (host), a DeviceArray, or a device pointer (with
    offsets: ``ptr + 16``). hipMemcpyDefault infers the direction from the pointers.
    """
    _copy(dst, src, nbytes, kind, origin="hipMemcpy")


def _copy(dst: Any, src: Any, nbytes: int, kind: hipMemcpyKind | int, *, origin: str) -> None:
    try:
        kind = hipMemcpyKind(kind)
    except ValueError:
        raise HipError(
            hipError_t.hipErrorInvalidMemcpyDirection,
            f"{origin}: kind {kind!r} is not a hipMemcpyKind (0-4)",
        ) from None
    if not isinstance(nbytes, (int, np.integer)) or isinstance(nbytes, bool) or nbytes < 0:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: nbytes must be a non-negative integer, got {nbytes!r}")
    d = pointers.resolve(dst, origin=f"{origin} dst")
    s = pointers.resolve(src, origin=f"{origin} src")
    if kind != hipMemcpyKind.hipMemcpyDefault:
        want_dst, want_src = _EXPECTED_SIDES[kind]
        if (d.is_device, s.is_device) != (want_dst, want_src):
            actual = _inferred_kind(d.is_device, s.is_device)
            raise HipError(
                hipError_t.hipErrorInvalidMemcpyDirection,
                f"{origin}: kind is {kind.name} but dst is {_side(d.is_device)} memory and src "
                f"is {_side(s.is_device)} memory; use {actual.name} (or hipMemcpyDefault)",
            )
    for name, region in (("dst", d), ("src", s)):
        if nbytes > region.data.size:
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"{origin}: nbytes={nbytes} but {name} is a {region.describe} with only "
                f"{region.data.size} bytes from there; copy at most that many",
            )
    # np.copyto handles overlapping ranges of one buffer like memmove.
    np.copyto(d.data[:nbytes], s.data[:nbytes])


def _inferred_kind(dst_device: bool, src_device: bool) -> hipMemcpyKind:
    return next(k for k, sides in _EXPECTED_SIDES.items() if sides == (dst_device, src_device))


@hip_api
def hipMemset(dst: Any, value: int, nbytes: int) -> None:
    """Set ``nbytes`` bytes of device memory to the byte ``value`` (as C memset)."""
    if not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"hipMemset: nbytes must be a non-negative integer, got {nbytes!r}")
    region = pointers.resolve(dst, origin="hipMemset")
    if not region.is_device:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       "hipMemset: dst is host memory; hipMemset writes device memory")
    if nbytes > region.data.size:
        raise HipError(
            hipError_t.hipErrorInvalidValue,
            f"hipMemset: nbytes={nbytes} but the {region.describe} has only "
            f"{region.data.size} bytes from there",
        )
    region.data[:nbytes] = int(value) & 0xFF
