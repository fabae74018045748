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

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from gpusim.errors import HipError, error_string, hipError_t
from gpusim.occupancy_model import hipapi as hip_occupancy
from gpusim.runtime import mempool, pointers, streams
from gpusim.runtime.copies import hipMemcpyKind, submit_copy, submit_memset
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.darray_views import like_strides
from gpusim.runtime.memory import DevicePointer
from gpusim.runtime.properties import device_properties, hipDeviceProp_t
from gpusim.runtime.system import current_device, get_system

F = TypeVar("F", bound=Callable[..., Any])


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
    """Block the host until all work queued on the current device has finished; its
    memory pools then keep at most their release threshold of freed memory."""
    streams.synchronize_device()
    mempool.release_freed(get_system().current_ordinal)


@hip_api
def hipDeviceReset() -> None:
    """Finish queued work, then free every buffer of the current device."""
    streams.synchronize_device()
    mempool.reset_device(get_system().current_ordinal)
    current_device().memory.release_all(origin="hipDeviceReset")


@hip_api
def hipOccupancyMaxActiveBlocksPerMultiprocessor(kernel: Any, blockSize: int,
                                                 dynSharedMem: int = 0) -> int:
    """Workgroups of ``blockSize`` threads that one CU (a WGP on RDNA) of the current
    device holds at once.

    >>> hipOccupancyMaxActiveBlocksPerMultiprocessor({"vgprs": 128}, 256)
    4
    """
    return hip_occupancy.hipOccupancyMaxActiveBlocksPerMultiprocessor(
        kernel, blockSize, dynSharedMem, device=current_device().spec)


@hip_api
def hipOccupancyMaxPotentialBlockSize(kernel: Any, dynSharedMem: int = 0,
                                      blockSizeLimit: int = 0) -> tuple[int, int]:
    """(minGridSize, blockSize): the block size with the highest occupancy on the current
    device, and the grid that fills every CU with it."""
    return hip_occupancy.hipOccupancyMaxPotentialBlockSize(
        kernel, dynSharedMem, blockSizeLimit, device=current_device().spec)


# memory -----------------------------------------------------------------------------------
@hip_api
def hipMalloc(nbytes: int) -> DevicePointer:
    """Allocate ``nbytes`` on the current device and return the device pointer."""
    get_system().scheduler.check_capture(None, "call")  # not during a (non-relaxed) capture
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
    # hipFree synchronises the device first: queued work may still use the buffer. As
    # ROCm's, that synchronisation trims the memory pools, and a block of a pool
    # (hipMallocAsync) goes back to its pool, free for any stream.
    streams.synchronize_device(device.ordinal)
    mempool.release_freed(device.ordinal)
    pool = mempool.pool_of(int(ptr))
    if pool is not None:
        pool.free(int(ptr), None, origin="hipFree")
        return
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


def pinned_array(shape: Any, dtype: Any = np.float64, strides: Any = None,
                 order: str = "C") -> np.ndarray:
    """A pinned host array of ``shape`` and ``dtype`` (numba.cuda.pinned_array), in
    ``order`` "C" or "F" (or with contiguous ``strides``).

    >>> pinned_array((2, 2), np.float32).dtype
    dtype('float32')
    >>> pinned_array((2, 3), order="F").flags.f_contiguous
    True
    """
    dtype = np.dtype(dtype)
    shape = (shape,) if np.isscalar(shape) else tuple(shape)
    if order not in ("C", "F"):
        raise ValueError(f"pinned_array: order must be 'C' or 'F', not {order!r}")
    raw = hipHostMalloc(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize)
    return np.ndarray(shape, dtype, buffer=raw, order=order,
                      strides=None if strides is None else tuple(strides))


def pinned_array_like(ary: Any) -> np.ndarray:
    """A pinned host array with the shape and dtype of ``ary``, contiguous in its axis
    order (numba.cuda.pinned_array_like; NumPy's ``empty_like``).

    >>> pinned_array_like(np.zeros((3, 4)).T).strides
    (8, 32)
    """
    shape = tuple(ary.shape)
    return pinned_array(shape, ary.dtype,
                        strides=like_strides(shape, tuple(ary.strides), ary.dtype.itemsize))


@hip_api
def hipMemcpy(dst: Any, src: Any, nbytes: int, kind: hipMemcpyKind | int) -> None:
    """Copy ``nbytes`` from ``src`` to ``dst``; ``kind`` must match where each side lives.

    Either side may be a NumPy array (host), a DeviceArray, or a device pointer (with
    offsets: ``ptr + 16``). hipMemcpyDefault infers the direction from the pointers.
    """
    submit_copy(dst, src, nbytes, kind, stream=None, blocking=True, origin="hipMemcpy")


@hip_api
def hipMemset(dst: Any, value: int, nbytes: int) -> None:
    """Set ``nbytes`` bytes of device memory to the byte ``value`` (as C memset).

    Queued on the null stream like a fill kernel: later work and copies see it.
    """
    submit_memset(dst, value, nbytes, stream=None, origin="hipMemset")
