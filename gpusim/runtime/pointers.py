"""What a pointer argument of a HIP call refers to: device bytes or host bytes.

HIP's C API takes ``void*``; here a device side may be a ``DevicePointer`` (from
hipMalloc, possibly offset), a ``DeviceArray`` or a raw integer address, and a host side
is a NumPy array (pinned ones come from hipHostMalloc / pinned_array).

>>> import numpy as np
>>> region = resolve(np.zeros(4, np.float32), origin="example")
>>> region.is_device, region.data.size, region.pinned
(False, 16, False)
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.errors import HipError, hipError_t
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.memory import Allocation, DevicePointer
from gpusim.runtime.system import get_system

# Host buffers made by hipHostMalloc / pinned_array: data address -> nbytes.
_pinned: dict[int, int] = {}


@dataclass
class Region:
    """A run of bytes a copy reads or writes, with where they live."""

    data: np.ndarray  # flat uint8 view of the bytes from the pointer to the buffer's end
    is_device: bool
    pinned: bool
    device: int | None
    describe: str


def resolve_device(ptr: Any, *, origin: str) -> tuple[Allocation, int]:
    """(allocation, offset) for a device pointer, DeviceArray or integer address."""
    if isinstance(ptr, DeviceArray):
        ptr = ptr.ptr
    address = int(ptr) if isinstance(ptr, (DevicePointer, int, np.integer)) else None
    if address is None or isinstance(ptr, bool):
        raise HipError(
            hipError_t.hipErrorInvalidDevicePointer,
            f"{origin}: expected a device pointer or DeviceArray, got {type(ptr).__name__}",
        )
    device = get_system().owner_of(address)
    if device is None:
        raise HipError(
            hipError_t.hipErrorInvalidDevicePointer,
            f"{origin}: {address:#x} is not a device address of this system",
        )
    return device.memory.lookup(address, origin=origin)


def resolve(obj: Any, *, origin: str) -> Region:
    """Describe the bytes ``obj`` points at; HipError if it is not a valid pointer."""
    if isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"{origin}: host array is not contiguous; pass np.ascontiguousarray(a)",
            )
        flat = obj.reshape(-1).view(np.uint8)
        return Region(flat, False, is_pinned(obj), None, f"host array of {obj.nbytes} bytes")
    alloc, offset = resolve_device(obj, origin=origin)
    data = alloc.buffer[offset:]
    return Region(data, True, False, alloc.device, f"device buffer ({alloc.describe()}) "
                  f"from offset {offset}")


def register_pinned(ary: np.ndarray) -> None:
    """Remember ``ary`` as pinned until hipHostFree or until it is garbage collected
    (after which its address may be reused by an ordinary array)."""
    address = ary.ctypes.data
    _pinned[address] = ary.nbytes
    weakref.finalize(ary, _pinned.pop, address, None)


def unregister_pinned(ary: Any, *, origin: str) -> None:
    address = ary.ctypes.data if isinstance(ary, np.ndarray) else None
    if address not in _pinned:
        raise HipError(
            hipError_t.hipErrorInvalidValue,
            f"{origin}: not a buffer from hipHostMalloc (or already freed)",
        )
    del _pinned[address]


def is_pinned(ary: np.ndarray) -> bool:
    """True if ``ary`` lies inside a buffer from hipHostMalloc / pinned_array."""
    address = ary.ctypes.data
    return any(start <= address < start + size for start, size in _pinned.items())
