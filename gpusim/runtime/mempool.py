"""HIP's stream-ordered allocator: memory pools, hipMallocAsync and hipFreeAsync.

A pool hands out device buffers and takes them back in stream order, keeping what was
freed for later allocations instead of returning it to the device, as ROCm's does
(CLR's hip::MemoryPool, hipamd/src/hip_mempool_impl.cpp at ROCm/clr f9f995c):

- ``allocate`` looks among the freed blocks, smallest first, for one at least as large
  that is safe for the allocating stream: freed (or allocated) on that stream, which
  stream order makes safe; made safe for it by ``hipStreamWaitEvent`` (the pool follows
  event dependencies); or, opportunistically, one whose free has already completed.
  A block over 9/8 of the request is taken only on the first two grounds. Otherwise it
  allocates a new buffer from the device (``DeviceMemory.allocate``).
- ``free`` (hipFreeAsync) moves a block to the freed list with a marker on the stream:
  the free completes when the stream reaches it. The buffer stays allocated.
- at a synchronisation (stream, event, device; hipFree) each pool of the device gives
  back completed freed blocks until it holds at most its release threshold (default 0:
  everything), and ``trim_to`` does the same for hipMemPoolTrimTo. As ROCm's does, a
  free that leaves more freed than used memory first gives back every completed block.

Sizes count whole blocks: a 1000-byte request served by a 4096-byte block uses 4096.

>>> from gpusim import hip
>>> pool = default_pool(0)
>>> s = hip.hipStreamCreate()
>>> a = pool.allocate(1 << 20, s)
>>> pool.free(int(a), s)
>>> pool.allocate(1 << 20, s) == a      # freed on this stream: reused in stream order
True
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from gpusim.errors import HipError, hipError_t
from gpusim.runtime import streams
from gpusim.runtime.memory import DevicePointer
from gpusim.runtime.scheduler import Op, Stream
from gpusim.runtime.system import Device, get_system

E = hipError_t


@dataclass(eq=False)
class Block:
    """A buffer of a pool: its address, size, the streams it is safe to reuse on, and
    (once freed asynchronously) the marker that completes when the free does."""

    address: int
    nbytes: int
    safe: set = field(default_factory=set)  # Streams (None: the free was synchronous)
    marker: Op | None = None


def _completed(op: Op | None) -> bool:
    """Has the host seen ``op`` finish (a HIP event query on the free's marker)?"""
    return op is None or (op.done and op.end <= op.stream.scheduler.host_time)


class MemPool:
    """One memory pool of a device (``hipMemPool_t``)."""

    def __init__(self, device: Device, max_size: int = 0) -> None:
        self.device = device
        self.max_size = max_size  # hipMemPoolProps.maxSize; 0: no limit but the device's
        self.release_threshold = 0
        self.follow_event_dependencies = True
        self.opportunistic = True
        self.internal_dependencies = True
        self.busy: dict[int, Block] = {}
        self.freed: dict[int, Block] = {}
        self.used_high = 0
        self.reserved_high = 0
        self.destroyed = False

    # sizes --------------------------------------------------------------------------------
    @property
    def used(self) -> int:
        """Bytes of blocks the program holds (hipMemPoolAttrUsedMemCurrent)."""
        return sum(b.nbytes for b in self.busy.values())

    @property
    def reserved(self) -> int:
        """Bytes of device memory the pool holds (hipMemPoolAttrReservedMemCurrent)."""
        return self.used + sum(b.nbytes for b in self.freed.values())

    def _note_highs(self) -> None:
        self.used_high = max(self.used_high, self.used)
        self.reserved_high = max(self.reserved_high, self.reserved)

    # allocating and freeing ---------------------------------------------------------------
    def allocate(self, nbytes: int, stream: Stream, *, origin: str = "hipMallocAsync"
                 ) -> DevicePointer:
        """A block of at least ``nbytes`` for use on ``stream``: a safe freed one, or a
        new buffer of the device."""
        block = self._reusable(nbytes, stream)
        if block is None:
            if self.max_size and self.reserved + nbytes > self.max_size:
                raise HipError(E.hipErrorOutOfMemory,
                               f"{origin}: {nbytes} bytes would take the pool past its "
                               f"maxSize of {self.max_size} bytes ({self.reserved} held)")
            ptr = self.device.memory.allocate(nbytes, origin=origin)
            block = Block(int(ptr), nbytes)
        block.safe.add(stream)
        self.busy[block.address] = block
        self._note_highs()
        return DevicePointer(block.address, self.device.ordinal)

    def _reusable(self, nbytes: int, stream: Stream) -> Block | None:
        for block in sorted(self.freed.values(), key=lambda b: (b.nbytes, b.address)):
            if block.nbytes < nbytes:
                continue
            close = block.nbytes <= nbytes * 9 / 8  # within 12.5%: opportunism allowed
            if stream in block.safe or None in block.safe or (
                    self.opportunistic and close and _completed(block.marker)):
                return self.freed.pop(block.address)
        return None

    def owns(self, address: int) -> bool:
        """Is ``address`` the start of one of this pool's blocks (in use or freed)?"""
        return address in self.busy or address in self.freed

    def free(self, address: int, stream: Stream | None, *, origin: str = "hipFreeAsync"
             ) -> None:
        """Give back the block at ``address``: in ``stream``'s order (hipFreeAsync), or
        at once with ``stream`` None (hipFree, after it synchronised the device)."""
        block = self.busy.get(address)
        if block is None:
            # A second free of a block: ROCm (clr f9f995c) finds it in no busy list, falls
            # back to hipFree, which returns the block's memory to the device behind the
            # pool (that still lists it as free) and hipSuccess. gpusim refuses it with
            # the code ROCm gives memory it does not know, before anything is damaged.
            raise HipError(E.hipErrorInvalidValue,
                           f"{origin}: {address:#x} was already freed to its pool"
                           if address in self.freed else
                           f"{origin}: {address:#x} is not an allocation of this pool")
        if self.freed and self._freed_bytes() > self.used:
            # ROCm's direct dispatch: freed memory outgrowing used memory goes back to
            # the device first (what has completed), then, if the device is low on
            # memory (under 1/8 free), half of what is left, waiting for it.
            self._release(0)
            mem = self.device.memory
            if mem.capacity_bytes - mem.used_bytes < mem.capacity_bytes >> 3:
                self._release(self._freed_bytes() >> 1, wait=True)
        del self.busy[address]
        if stream is None:
            block.safe, block.marker = {None}, None
        else:
            block.safe.add(stream)
            block.marker = streams.enqueue(stream, lambda: None, name=origin, kind="event")
        self.freed[address] = block
        if self.destroyed and not self.busy:  # its last block: the pool goes, as in ROCm
            self._release(0, wait=True)
            _forget(self)

    def _freed_bytes(self) -> int:
        return sum(b.nbytes for b in self.freed.values())

    # giving memory back to the device ----------------------------------------------------
    def _release(self, keep: int, *, wait: bool = False) -> None:
        """Give completed freed blocks back to the device, smallest first, until the
        pool's freed blocks total at most ``keep`` bytes (``wait``: wait for each)."""
        for block in sorted(self.freed.values(), key=lambda b: (b.nbytes, b.address)):
            if self._freed_bytes() <= keep:
                return
            if wait and block.marker is not None:
                block.marker.stream.scheduler.wait_host(block.marker)
            if _completed(block.marker):
                del self.freed[block.address]
                self.device.memory.free(block.address, origin="the memory pool's release")

    def release_freed(self) -> None:
        """What a synchronisation does: keep at most the release threshold."""
        self._release(self.release_threshold)

    def trim_to(self, min_bytes_to_hold: int) -> None:
        """hipMemPoolTrimTo: keep at most ``min_bytes_to_hold`` of freed memory."""
        self._release(min_bytes_to_hold)

    def follow(self, event_stream: Stream, wait_stream: Stream) -> None:
        """hipStreamWaitEvent: blocks safe on the event's stream become safe on the
        waiting stream too (hipMemPoolReuseFollowEventDependencies)."""
        if self.follow_event_dependencies:
            for block in self.freed.values():
                if event_stream in block.safe:
                    block.safe.add(wait_stream)

@dataclass(eq=False)
class _DevicePools:
    default: MemPool
    current: MemPool
    pools: list[MemPool]


_POOLS: weakref.WeakKeyDictionary[Device, _DevicePools] = weakref.WeakKeyDictionary()


def _pools(ordinal: int, origin: str) -> _DevicePools:
    device = get_system().device(ordinal, origin=origin)
    if device not in _POOLS:
        pool = MemPool(device)
        _POOLS[device] = _DevicePools(pool, pool, [pool])
    return _POOLS[device]


def default_pool(ordinal: int, *, origin: str = "hipDeviceGetDefaultMemPool") -> MemPool:
    """The device's default pool (made on first use, as ROCm makes it with the device)."""
    return _pools(ordinal, origin).default


def current_pool(ordinal: int, *, origin: str = "hipDeviceGetMemPool") -> MemPool:
    """The pool hipMallocAsync on the device's streams allocates from."""
    return _pools(ordinal, origin).current


def set_current_pool(ordinal: int, pool: MemPool) -> None:
    """hipDeviceSetMemPool: ``pool`` must belong to the device."""
    entry = _pools(ordinal, "hipDeviceSetMemPool")
    if pool.device is not get_system().devices[ordinal]:
        raise HipError(E.hipErrorInvalidDevice,
                       f"hipDeviceSetMemPool: the pool belongs to device "
                       f"{pool.device.ordinal}, not {ordinal}")
    entry.current = pool


def create_pool(ordinal: int, max_size: int = 0) -> MemPool:
    """hipMemPoolCreate: a new pool of the device, besides its default one."""
    entry = _pools(ordinal, "hipMemPoolCreate")
    pool = MemPool(entry.default.device, max_size)
    entry.pools.append(pool)
    return pool


def destroy_pool(pool: MemPool) -> None:
    """hipMemPoolDestroy: not a default pool. Its freed memory goes back to the device
    (waiting for the frees); blocks still in use keep it until they are freed, as ROCm's
    reference count does. The device's current pool falls back to its default one."""
    entry = _POOLS.get(pool.device)
    if entry is None or pool not in entry.pools or pool.destroyed or pool is entry.default:
        raise HipError(E.hipErrorInvalidValue,
                       "hipMemPoolDestroy: a device's default pool cannot be destroyed"
                       if entry is not None and pool is entry.default else
                       "hipMemPoolDestroy: not a live memory pool")
    pool.destroyed = True
    pool._release(0, wait=True)
    if entry.current is pool:
        entry.current = entry.default
    if not pool.busy:
        _forget(pool)


def _forget(pool: MemPool) -> None:
    entry = _POOLS.get(pool.device)
    if entry is not None and pool in entry.pools:
        entry.pools.remove(pool)


def pool_of(address: int) -> MemPool | None:
    """The pool holding the block that starts at ``address`` (busy or freed)."""
    device = get_system().owner_of(address)
    entry = _POOLS.get(device) if device is not None else None
    return next((p for p in entry.pools if p.owns(address)), None) if entry else None


def release_freed(ordinal: int) -> None:
    """After a synchronisation of the device: each of its pools keeps at most its
    release threshold of freed memory (CLR's Device::ReleaseFreedMemory)."""
    device = get_system().devices[ordinal]
    entry = _POOLS.get(device)
    for pool in entry.pools if entry else ():
        pool.release_freed()


def follow_event(event_stream: Stream, wait_stream: Stream) -> None:
    """hipStreamWaitEvent's effect on the pools of the event's device."""
    entry = _POOLS.get(get_system().devices[event_stream.device])
    for pool in entry.pools if entry else ():
        pool.follow(event_stream, wait_stream)


def reset_device(ordinal: int) -> None:
    """hipDeviceReset: the device's pools are gone (their memory is freed with the rest)."""
    device = get_system().devices[ordinal]
    entry = _POOLS.pop(device, None)
    for pool in entry.pools if entry else ():
        pool.busy.clear()
        pool.freed.clear()
        pool.destroyed = True


def malloc_async(nbytes: int, stream: Any, pool: MemPool | None = None) -> DevicePointer | None:
    """hipMallocAsync / hipMallocFromPoolAsync: ``nbytes`` from ``pool`` (the stream's
    device's current pool if None) for use on ``stream``; 0 bytes gives None (NULL). On a
    stream being captured: a memory allocation node of the graph (``capture_alloc``)."""
    from gpusim.runtime import capture  # capture -> graphs -> api: imported when called

    target = streams.resolve_stream(stream, origin="hipMallocAsync")
    if nbytes == 0:
        return None
    if capture.captures(target):
        return DevicePointer(capture.capture_alloc(target, int(nbytes)), target.device)
    if pool is None:
        pool = current_pool(target.device, origin="hipMallocAsync")
    return pool.allocate(int(nbytes), target)


def free_async(address: int, stream: Any) -> None:
    """hipFreeAsync: a pool's block back to it in ``stream``'s order. As ROCm's, device
    memory from hipMalloc is freed at once (hipFree: the device synchronises first). On a
    stream being captured, memory its graph allocated gets a memory free node."""
    from gpusim.runtime import capture
    from gpusim.runtime.api import hipFree

    target = streams.resolve_stream(stream, origin="hipFreeAsync")
    if capture.captures(target) and capture.capture_free(target, int(address)):
        return
    pool = pool_of(address)
    if pool is not None:
        pool.free(address, target)
        return
    device = get_system().owner_of(address)
    alloc = device.memory.find(address) if device is not None else None
    if alloc is None or not alloc.alive or alloc.address != address:
        raise HipError(E.hipErrorInvalidValue,
                       f"hipFreeAsync: {address:#x} is not memory from hipMallocAsync "
                       "or hipMalloc")
    hipFree(address)
