"""Emulated device memory: allocations, capacity accounting and pointer lookup.

Each live allocation is backed by its own zero-filled NumPy byte buffer. NumPy asks the
C library for zeroed memory, which for large buffers maps fresh pages that the operating
system only provides when first touched, so a 192 GiB device costs nothing until it is
used. Capacity is counted against the device's ``totalGlobalMem`` (whole pages, as the
real allocator counts), and against what this host can back at all.

>>> mem = DeviceMemory(ordinal=0, capacity_bytes=1 << 30, va_base=0x7F00_0000_0000)
>>> ptr = mem.allocate(1000, origin="hipMalloc")
>>> alloc, offset = mem.lookup(ptr.value + 8)
>>> alloc.nbytes, offset
(1000, 8)
>>> mem.free(ptr.value, origin="hipFree")
"""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass, field

import numpy as np

from gpusim.errors import HipError, hipError_t
from gpusim.runtime.vaspace import AddressSpace

VA_BYTES_PER_DEVICE = 1 << 40  # 1 TiB of address space per emulated device


def host_backable_bytes() -> int:
    """Physical memory of this host: the most that emulated devices can ever fill."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX host
        return 1 << 62


@dataclass(frozen=True)
class DevicePointer:
    """A device address, as ``hipMalloc`` returns it; supports pointer arithmetic.

    >>> p = DevicePointer(0x7F00_0000_1000, device=0)
    >>> p + 16
    DevicePointer(0x7f0000001010, device=0)
    """

    value: int
    device: int

    def __add__(self, offset: int) -> DevicePointer:
        return DevicePointer(self.value + int(offset), self.device)

    def __sub__(self, offset: int) -> DevicePointer:
        return DevicePointer(self.value - int(offset), self.device)

    def __int__(self) -> int:
        return self.value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"DevicePointer({self.value:#x}, device={self.device})"


@dataclass(eq=False)
class Allocation:
    """One hipMalloc'd buffer: its address, size and host backing."""

    address: int
    nbytes: int
    reserved: int
    device: int
    origin: str  # the API that made it, for messages ("hipMalloc", "to_device", ...)
    buffer: np.ndarray | None = field(repr=False)  # None once freed
    freed_by: str = ""

    @property
    def alive(self) -> bool:
        return self.buffer is not None

    def describe(self) -> str:
        return (f"{self.nbytes}-byte buffer at {self.address:#x} on device {self.device} "
                f"({self.origin})")


class DeviceMemory:
    """The memory of one emulated device: allocator, accounting and address lookup."""

    # Bytes held by every DeviceMemory of the process, checked against the host.
    host_bytes_in_use = 0

    def __init__(self, ordinal: int, capacity_bytes: int, va_base: int):
        self.ordinal = ordinal
        self.capacity_bytes = capacity_bytes
        self.used_bytes = 0
        self.space = AddressSpace(va_base, VA_BYTES_PER_DEVICE)
        self._starts: list[int] = []  # sorted addresses of live and remembered allocations
        self._by_start: dict[int, Allocation] = {}

    def allocate(self, nbytes: int, *, origin: str) -> DevicePointer:
        """Reserve ``nbytes`` of device memory and return its address."""
        if not isinstance(nbytes, (int, np.integer)) or isinstance(nbytes, bool) or nbytes < 0:
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"{origin}: size must be a non-negative integer number of bytes, got {nbytes!r}",
            )
        nbytes = int(nbytes)
        reserved = self.space.reserved_bytes(nbytes)
        free = self.capacity_bytes - self.used_bytes
        if reserved > free:
            raise HipError(
                hipError_t.hipErrorOutOfMemory,
                f"{origin}: {_size(nbytes)} requested but device {self.ordinal} has "
                f"{_size(free)} free of {_size(self.capacity_bytes)} (totalGlobalMem); "
                "free buffers you no longer need with hipFree, or allocate less",
            )
        host_limit = host_backable_bytes()
        if DeviceMemory.host_bytes_in_use + reserved > host_limit:
            raise HipError(
                hipError_t.hipErrorOutOfMemory,
                f"{origin}: {_size(nbytes)} fits on the emulated device, but this host has "
                f"only {_size(host_limit)} of RAM to back emulated memory "
                f"({_size(DeviceMemory.host_bytes_in_use)} already in use); allocate less",
            )
        address = self.space.allocate(nbytes)
        if address is None:
            raise HipError(
                hipError_t.hipErrorOutOfMemory,
                f"{origin}: device {self.ordinal}'s address space is too fragmented "
                f"for {_size(nbytes)}",
            )
        try:
            buffer = np.zeros(nbytes, dtype=np.uint8)
        except MemoryError:
            self.space.release(address)
            raise HipError(
                hipError_t.hipErrorOutOfMemory,
                f"{origin}: the host could not back {_size(nbytes)} of emulated device memory",
            ) from None
        self._forget_overlapping(address, reserved)
        alloc = Allocation(address, nbytes, reserved, self.ordinal, origin, buffer)
        bisect.insort(self._starts, address)
        self._by_start[address] = alloc
        self.used_bytes += reserved
        DeviceMemory.host_bytes_in_use += reserved
        return DevicePointer(address, self.ordinal)

    def _forget_overlapping(self, address: int, reserved: int) -> None:
        """Drop records of freed buffers whose range a new allocation reuses."""
        i = bisect.bisect_left(self._starts, address)
        if i > 0:
            i -= 1
        while i < len(self._starts) and self._starts[i] < address + reserved:
            old = self._by_start[self._starts[i]]
            if old.address + old.reserved > address:
                del self._by_start[old.address]
                del self._starts[i]
            else:
                i += 1

    def free(self, address: int, *, origin: str) -> None:
        """Release the buffer that starts at ``address`` (hipFree semantics)."""
        alloc = self._by_start.get(address)
        if alloc is None:
            inner = self.find(address)
            where = (
                f"it points {address - inner.address} bytes into {inner.describe()}"
                if inner
                else "no buffer of this device starts there"
            )
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"{origin}: {address:#x} was not returned by hipMalloc ({where}); "
                "pass the pointer hipMalloc returned",
            )
        if not alloc.alive:
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"{origin}: double free of {alloc.describe()}, already freed by {alloc.freed_by}",
            )
        self.space.release(address)
        alloc.buffer = None
        alloc.freed_by = origin
        self.used_bytes -= alloc.reserved
        DeviceMemory.host_bytes_in_use -= alloc.reserved

    def find(self, address: int) -> Allocation | None:
        """The allocation (live or remembered as freed) whose pages hold ``address``."""
        i = bisect.bisect_right(self._starts, address) - 1
        if i < 0:
            return None
        alloc = self._by_start[self._starts[i]]
        return alloc if address < alloc.address + alloc.reserved else None

    def lookup(self, address: int, *, origin: str = "access") -> tuple[Allocation, int]:
        """(allocation, byte offset) for a live address; a clear HipError otherwise."""
        alloc = self.find(address)
        if alloc is None:
            raise HipError(
                hipError_t.hipErrorInvalidDevicePointer,
                f"{origin}: {address:#x} is not inside any buffer of device {self.ordinal}",
            )
        if not alloc.alive:
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"{origin}: use after free: {address:#x} is in {alloc.describe()}, "
                f"which was freed by {alloc.freed_by}",
            )
        return alloc, address - alloc.address

    def release_all(self, *, origin: str) -> None:
        """Free every live buffer (the device is being reset or replaced)."""
        for alloc in list(self._by_start.values()):
            if alloc.alive:
                self.free(alloc.address, origin=origin)

    def live_allocations(self) -> list[Allocation]:
        """Live buffers in address order."""
        return [a for a in (self._by_start[s] for s in self._starts) if a.alive]


def _size(nbytes: int) -> str:
    """Human-readable byte count, exact bytes for small sizes."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if nbytes >= 1 << shift:
            return f"{nbytes / (1 << shift):.4g} {unit}"
    return f"{nbytes} B"
