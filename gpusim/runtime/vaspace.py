"""A device virtual address space: where hipMalloc places buffers.

Device pointers are real addresses so that memory traces (coalescing, cache sets,
channel interleaving) mean what they would on hardware. The policy, modelled on ROCm's
allocator (ROCr hands out whole 4 KiB GPU pages and aligns large buffers to the 2 MiB
page fragment; HIP guarantees at least 256-byte alignment, hip docs "Memory management"):

- every allocation is rounded up to whole 4 KiB pages and starts on a page;
- allocations of 2 MiB or more start on a 2 MiB boundary;
- freed ranges wait in a quarantine (the most recent ``quarantine`` frees) before they
  can be handed out again, so a stale pointer is reported as "freed" instead of quietly
  aliasing a new buffer (AddressSanitizer's idea);
- free ranges are kept sorted and merged with their neighbours; first fit.

>>> vas = AddressSpace(base=0x7F00_0000_0000, size=1 << 40)
>>> a = vas.allocate(100); b = vas.allocate(100)
>>> hex(a), b - a
('0x7f0000000000', 4096)
>>> vas.release(a)
4096
"""

from __future__ import annotations

import bisect
from collections import deque

PAGE_BYTES = 4096
LARGE_PAGE_BYTES = 2 << 20


def round_up(value: int, multiple: int) -> int:
    """Smallest multiple of ``multiple`` that is >= ``value``.

    >>> round_up(5000, 4096)
    8192
    """
    return -(-value // multiple) * multiple


class AddressSpace:
    """First-fit range allocator with page alignment, merging and a free quarantine."""

    def __init__(self, base: int, size: int, quarantine: int = 64):
        if base % LARGE_PAGE_BYTES or size % LARGE_PAGE_BYTES:
            raise ValueError("address space base and size must be 2 MiB aligned")
        self.base = base
        self.size = size
        self._free_starts: list[int] = [base]  # sorted starts of free ranges
        self._free_sizes: dict[int, int] = {base: size}
        self._live: dict[int, int] = {}  # start -> reserved bytes
        self._quarantine: deque[tuple[int, int]] = deque()
        self._quarantine_len = quarantine

    def reserved_bytes(self, nbytes: int) -> int:
        """Bytes an allocation of ``nbytes`` occupies (whole pages; at least one)."""
        return round_up(max(nbytes, 1), PAGE_BYTES)

    def allocate(self, nbytes: int) -> int | None:
        """Start address of a new range for ``nbytes``, or None if no range fits."""
        need = self.reserved_bytes(nbytes)
        align = LARGE_PAGE_BYTES if need >= LARGE_PAGE_BYTES else PAGE_BYTES
        for i, start in enumerate(self._free_starts):
            size = self._free_sizes[start]
            addr = round_up(start, align)
            if addr + need <= start + size:
                self._take(i, start, size, addr, need)
                self._live[addr] = need
                return addr
        return None

    def _take(self, i: int, start: int, size: int, addr: int, need: int) -> None:
        del self._free_starts[i]
        del self._free_sizes[start]
        if addr > start:  # alignment gap stays free
            self._insert_free(start, addr - start)
        end, free_end = addr + need, start + size
        if free_end > end:
            self._insert_free(end, free_end - end)

    def _insert_free(self, start: int, size: int) -> None:
        i = bisect.bisect_left(self._free_starts, start)
        # merge with the following range
        if i < len(self._free_starts) and self._free_starts[i] == start + size:
            size += self._free_sizes.pop(self._free_starts.pop(i))
        # merge with the preceding range
        if i > 0:
            prev = self._free_starts[i - 1]
            if prev + self._free_sizes[prev] == start:
                self._free_sizes[prev] += size
                return
        self._free_starts.insert(i, start)
        self._free_sizes[start] = size

    def release(self, addr: int) -> int:
        """Free the range starting at ``addr``; returns its reserved size.

        Raises KeyError if ``addr`` is not the start of a live range (the caller turns
        that into the right HIP error: double free, or a foreign pointer).
        """
        size = self._live.pop(addr)
        self._quarantine.append((addr, size))
        while len(self._quarantine) > self._quarantine_len:
            self._insert_free(*self._quarantine.popleft())
        return size

    def live_ranges(self) -> list[tuple[int, int]]:
        """(start, reserved bytes) of every live allocation, sorted by address."""
        return sorted(self._live.items())

    def free_ranges(self) -> list[tuple[int, int]]:
        """(start, bytes) of every range available for allocation, sorted."""
        return [(s, self._free_sizes[s]) for s in self._free_starts]
