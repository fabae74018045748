"""Unified (managed) memory: one buffer usable from host and device, migrated by page.

The bytes live in one place in this emulator; what is modeled is where each 4 KiB page
is resident, and what that costs. A processor touching a page that lives elsewhere
takes a page fault and the page migrates (HMM / XNACK-replay style, as on MI300X with
``HSA_XNACK=1``). ``hipMemPrefetchAsync`` moves pages in one bulk copy with no faults.
``hipMemAdvise`` changes the policy per page range:

- SetReadMostly: a read makes a duplicate instead of moving the page; a write
  invalidates the other duplicates;
- SetPreferredLocation / SetAccessedBy: the page stays where it is and the accessing
  processor maps it remotely (no fault, no migration).

Simplification, said once: a kernel is taken to touch every page of each managed
argument (reads and writes) unless memory tracing is on; hosts touch the pages of the
elements they index.

>>> import numpy as np
>>> from gpusim import hip
>>> a = hip.managed_array(4096, np.float32)      # 16 KiB = 4 pages, first touched on host
>>> a[:] = 1.0
>>> a.pages_on_host()
4
>>> hip.hipMemPrefetchAsync(a, a.nbytes, 0); hip.hipDeviceSynchronize()
>>> a.pages_on_host(), a.faults
(0, 0)
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from gpusim import timing
from gpusim.errors import HipError, hipError_t
from gpusim.profiler import MigrationRecord, emit
from gpusim.runtime import streams
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.system import get_system
from gpusim.runtime.vaspace import PAGE_BYTES

HOST = -1  # hipCpuDeviceId
hipCpuDeviceId = HOST
hipMemAttachGlobal = 1
hipMemAttachHost = 2


class hipMemoryAdvise(enum.IntEnum):  # noqa: N801 - HIP's values (hip_runtime_api.h)
    hipMemAdviseSetReadMostly = 1
    hipMemAdviseUnsetReadMostly = 2
    hipMemAdviseSetPreferredLocation = 3
    hipMemAdviseUnsetPreferredLocation = 4
    hipMemAdviseSetAccessedBy = 5
    hipMemAdviseUnsetAccessedBy = 6
    hipMemAdviseSetCoarseGrain = 100
    hipMemAdviseUnsetCoarseGrain = 101


class PageTable:
    """Residency and advice of each page of one managed allocation."""

    NO_PREFERENCE = -2

    def __init__(self, npages: int):
        self.owner = np.full(npages, HOST, np.int16)  # starts on the host (first touch)
        self.copies = np.full(npages, self.bit(HOST), np.int64)  # who holds a valid copy
        self.read_mostly = np.zeros(npages, bool)
        self.preferred = np.full(npages, self.NO_PREFERENCE, np.int16)
        self.accessed_by = np.zeros(npages, np.int64)  # bitmask of remote mappers
        self.faults = 0  # page faults taken so far, host and device

    @staticmethod
    def bit(processor: int) -> int:
        return 1 << (processor + 1)  # bit 0 is the host

    def touch(self, pages: slice, processor: int, write: bool) -> int:
        """Apply an access by ``processor``; returns the page faults it takes (each one
        moves or duplicates one page)."""
        owner, copies = self.owner[pages], self.copies[pages]  # views: updated in place
        bit = self.bit(processor)
        local = owner == processor
        preferred = self.preferred[pages]
        remote = ~local & (((self.accessed_by[pages] & bit) != 0)
                           | ((preferred != self.NO_PREFERENCE) & (preferred == owner)))
        duplicate = ~local & ~remote & self.read_mostly[pages] & (not write)
        copy_now = duplicate & ((copies & bit) == 0)
        migrate = ~local & ~remote & ~duplicate
        copies[copy_now] |= bit
        owner[migrate] = processor
        if write:  # after a write only the owner's copy is valid
            copies[:] = np.left_shift(1, owner.astype(np.int64) + 1)
        else:
            copies[migrate] = bit
        faults = int(copy_now.sum() + migrate.sum())
        self.faults += faults
        return faults

    def move(self, pages: slice, processor: int) -> int:
        """Prefetch: move pages to ``processor`` without faults; returns pages moved."""
        owner = self.owner[pages]
        moving = owner != processor
        owner[moving] = processor
        self.copies[pages] = self.bit(processor)
        return int(moving.sum())


class ManagedArray(DeviceArray):
    """A DeviceArray that the host may also index and compute with, like NumPy data."""

    def __init__(self, *args: Any, table: PageTable, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._table = table

    @property
    def faults(self) -> int:
        """Page faults taken on this buffer so far (host and device)."""
        return self._table.faults

    def pages_on_host(self) -> int:
        return int((self._table.owner[self._pages()] == HOST).sum())

    def _pages(self, view: np.ndarray | None = None) -> slice:
        view = self.device_view() if view is None else view
        if view.size == 0:
            return slice(0, 0)
        start = view.__array_interface__["data"][0] - self._alloc.buffer.ctypes.data
        lo = start + sum(min(0, (n - 1) * s) for n, s in zip(view.shape, view.strides,
                                                             strict=True))
        hi = start + sum(max(0, (n - 1) * s) for n, s in zip(view.shape, view.strides,
                                                             strict=True)) + view.itemsize
        return slice(lo // PAGE_BYTES, -(-hi // PAGE_BYTES))

    def _wrap(self, view: np.ndarray) -> ManagedArray:
        offset = view.__array_interface__["data"][0] - self._alloc.buffer.ctypes.data
        return ManagedArray(view.shape, view.dtype, view.strides, self._alloc, offset,
                            self._owner, table=self._table)

    def host_touch(self, view: np.ndarray, write: bool) -> None:
        """The host reads or writes ``view``: fault and migrate its pages to the host."""
        faults = self._table.touch(self._pages(view), HOST, write)
        if faults:
            _account(self, faults)

    def device_touch(self, stream: Any, write: bool = True) -> None:
        """Queue, before a kernel on ``stream``, the faults its device access causes."""
        target = streams.resolve_stream(stream, origin="kernel launch")
        pages = self._pages()

        def run() -> None:
            faults = self._table.touch(pages, target.device, write)
            op.info.update(bytes=faults * PAGE_BYTES, faults=faults, pages=faults)

        op = streams.enqueue(target, run, name="page faults", kind="migration",
                             info={"to_device": True, "reason": "fault"})

    # host access: NumPy semantics on the host copy ----------------------------------------
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        view = self.device_view()
        self.host_touch(view, write=False)
        return view if dtype is None else view.astype(dtype)

    def _touched(self, key: Any) -> np.ndarray:
        """The part of the buffer that indexing with ``key`` reaches (a view)."""
        view = self.device_view()
        part = view[(key if isinstance(key, tuple) else (key,)) + (Ellipsis,)]
        # fancy indexing copies: then charge the whole array, as its pages are unknown
        return part if np.shares_memory(part, view) else view

    def __getitem__(self, key: Any) -> Any:
        view = self.device_view()[key]
        if isinstance(view, np.ndarray):
            return self._wrap(view)
        self.host_touch(self._touched(key), write=False)
        return view

    def __setitem__(self, key: Any, value: Any) -> None:
        self.host_touch(self._touched(key), write=True)
        self.device_view()[key] = np.asarray(value) if isinstance(value, ManagedArray) else value

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        args = [np.asarray(x) if isinstance(x, ManagedArray) else x for x in inputs]
        return getattr(ufunc, method)(*args, **kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        args = [np.asarray(x) if isinstance(x, ManagedArray) else x for x in args]
        return func(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        """NumPy methods (``a.sum()``, ``a.mean()``...) run on the host copy."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(np.asarray(self), name)

    def __iter__(self):
        return iter(np.asarray(self))

    def __bool__(self) -> bool:
        return bool(np.asarray(self))

    def __repr__(self) -> str:
        return f"managed_array({np.array2string(self.device_view(), threshold=8)})"


def _account(array: ManagedArray, faults: int) -> None:
    """Host-side faults: charge the modeled host clock and emit a record."""
    system = get_system()
    spec = system.devices[array.device].spec
    seconds = timing.migration_seconds(spec, faults * PAGE_BYTES, faults)
    start = system.scheduler.host_time
    system.scheduler.host_time += seconds
    emit(MigrationRecord(name="host page faults", device=array.device, stream=-1,
                         start_ns=round(start * 1e9), end_ns=round((start + seconds) * 1e9),
                         done=True, nbytes=faults * PAGE_BYTES, pages=faults, faults=faults,
                         to_device=False, reason="fault"))


def managed_array(shape: Any, dtype: Any = np.float64) -> ManagedArray:
    """A managed array on the current device's address space (hipMallocManaged)."""
    dtype = np.dtype(dtype)
    base = DeviceArray.allocate(shape, dtype, origin="hipMallocManaged")
    npages = max(1, -(-base.nbytes // PAGE_BYTES))
    return ManagedArray(base.shape, base.dtype, base.strides, base._alloc, 0, base._owner,
                        table=PageTable(npages))


def _managed(ptr: Any, count: int, origin: str) -> tuple[ManagedArray, slice]:
    """The managed array and page range that (ptr, count) names."""
    if not isinstance(ptr, ManagedArray):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: expects memory from hipMallocManaged / managed_array, "
                       f"got {type(ptr).__name__}")
    if not isinstance(count, (int, np.integer)) or not 0 <= count <= ptr.nbytes:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: count must be 0..{ptr.nbytes} bytes, got {count!r}")
    first = ptr._offset // PAGE_BYTES
    return ptr, slice(first, -(-(ptr._offset + int(count)) // PAGE_BYTES))


def _processor(device: int, origin: str) -> int:
    if device == HOST:
        return HOST
    get_system().device(device, origin=origin)
    return device


def hipMallocManaged(nbytes: int, flags: int = hipMemAttachGlobal) -> ManagedArray:
    """Managed memory of ``nbytes`` (a uint8 ManagedArray; ``.view`` it as you need).

    >>> m = hipMallocManaged(1024); m.dtype, m.nbytes
    (dtype('uint8'), 1024)
    """
    if flags not in (hipMemAttachGlobal, hipMemAttachHost):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       "hipMallocManaged: flags must be hipMemAttachGlobal or hipMemAttachHost")
    return managed_array(nbytes, np.uint8)


def hipMemPrefetchAsync(ptr: ManagedArray, count: int, device: int, stream: Any = None
                        ) -> None:
    """Queue a bulk move of the pages of (ptr, count) to ``device`` (or hipCpuDeviceId)."""
    array, pages = _managed(ptr, count, "hipMemPrefetchAsync")
    processor = _processor(device, "hipMemPrefetchAsync")

    def run() -> None:
        moved = array._table.move(pages, processor)
        op.info.update(bytes=moved * PAGE_BYTES, pages=moved, faults=0)

    op = streams.enqueue(stream, run, name="hipMemPrefetchAsync", kind="migration",
                         info={"to_device": processor != HOST, "reason": "prefetch"})


def hipMemAdvise(ptr: ManagedArray, count: int, advice: int, device: int) -> None:
    """Set a migration policy for the pages of (ptr, count); see the module docstring."""
    array, pages = _managed(ptr, count, "hipMemAdvise")
    processor = _processor(device, "hipMemAdvise")
    try:
        advice = hipMemoryAdvise(advice)
    except ValueError:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"hipMemAdvise: {advice!r} is not a hipMemoryAdvise value") from None
    t, bit = array._table, PageTable.bit(processor)
    A = hipMemoryAdvise
    if advice in (A.hipMemAdviseSetReadMostly, A.hipMemAdviseUnsetReadMostly):
        t.read_mostly[pages] = advice == A.hipMemAdviseSetReadMostly
    elif advice == A.hipMemAdviseSetPreferredLocation:
        t.preferred[pages] = processor
    elif advice == A.hipMemAdviseUnsetPreferredLocation:
        t.preferred[pages] = PageTable.NO_PREFERENCE
    elif advice == A.hipMemAdviseSetAccessedBy:
        t.accessed_by[pages] |= bit
    elif advice == A.hipMemAdviseUnsetAccessedBy:
        t.accessed_by[pages] &= ~bit
    # Coarse-grain advice changes coherence granularity, not residency: nothing to model.
