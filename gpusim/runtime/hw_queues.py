"""Where a stream's work lands on the device: hardware queues, SDMA engines, busy time.

HIP streams are software queues. ROCm's runtime (CLR/ROCclr) maps them onto a few
hardware queues, and that mapping decides what can overlap:

    stream --(hipStreamCreate: least-used of GPU_MAX_HW_QUEUES)--> HW compute queue
           --(first copy: a free SDMA engine of its own)-----------> SDMA engine ring
    HW compute queue, SDMA ring: in order (a packet starts when the one before it ends)
    compute units, PCIe link per direction: shared, one operation at a time

- Compute queues. ``Device::acquireQueue`` (rocclr/device/rocm/rocdevice.cpp) creates a
  new HSA queue for each new stream until the pool of its priority holds
  ``GPU_MAX_HW_QUEUES`` (default 4, rocclr/utils/flags.hpp); after that a new stream
  shares the queue with the fewest streams on it (``getQueueFromPool``), which for
  streams created one after another is round-robin. Streams on one queue serialise in
  submission order: the false dependency. High, normal and low priority streams have
  separate pools (hipStreamCreateWithPriority clamps the priority to -1, 0, 1).
- SDMA engines. ``Device::fetchSDMAMask`` (rocdevice.cpp) gives each stream's blit
  manager an engine of its own, highest engine first, while unassigned engines remain;
  a stream without one takes the lowest-numbered engine that is idle
  (``hsa_amd_memory_copy_engine_status``, rocclr/device/rocm/rocblit.cpp). A copy that
  waits for an event waits in its engine's ring (ROCr polls the dependency signal in
  the SDMA queue), so it holds back only copies queued behind it on that engine.

This module holds the policies as small stateful objects; ``scheduler.py`` uses them.

>>> pool = QueuePool(max_queues=2)
>>> [pool.acquire(priority=0) for _ in range(3)]
[0, 1, 0]
"""

from __future__ import annotations

import bisect
import os

from gpusim.errors import HipError, hipError_t

DEFAULT_MAX_HW_QUEUES = 4  # ROCclr's GPU_MAX_HW_QUEUES default (rocclr/utils/flags.hpp)


def max_hw_queues() -> int:
    """Hardware compute queues per device and priority: ``GPU_MAX_HW_QUEUES`` as HIP
    reads it, default 4. Read when a system is created, as HIP reads it at start-up.

    >>> max_hw_queues() >= 1
    True
    """
    raw = os.environ.get("GPU_MAX_HW_QUEUES", "").strip()
    if not raw:
        return DEFAULT_MAX_HW_QUEUES
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"GPU_MAX_HW_QUEUES={raw!r}: expected a whole number of hardware "
                       "queues, 1 or more (HIP's default is 4)")
    return value


def priority_class(priority: int) -> int:
    """HIP's three stream priorities (hip_stream.cpp: <= -1 high, >= 1 low, else normal).

    >>> priority_class(-5), priority_class(0), priority_class(3)
    (-1, 0, 1)
    """
    return max(-1, min(1, int(priority)))


class QueuePool:
    """The hardware compute queues of one device: which one each new stream gets."""

    def __init__(self, max_queues: int) -> None:
        self.max_queues = max_queues
        self._users: dict[int, list[int]] = {}  # priority class -> streams per queue

    def acquire(self, priority: int) -> int:
        """A queue for a new stream: a fresh one while fewer than ``max_queues`` exist
        (an emptied one first), else the one with the fewest streams, lowest first
        (ROCclr breaks that tie by the queue's address; creation order stands in).

        >>> pool = QueuePool(max_queues=4)
        >>> [pool.acquire(0) for _ in range(5)], pool.acquire(-1)
        ([0, 1, 2, 3, 0], 0)
        """
        users = self._users.setdefault(priority_class(priority), [])
        if len(users) < self.max_queues and 0 not in users:
            users.append(0)
        index = users.index(min(users))
        users[index] += 1
        return index

    def release(self, priority: int, index: int) -> None:
        """A stream on queue ``index`` was destroyed (Device::releaseQueue)."""
        self._users[priority_class(priority)][index] -= 1


class SdmaPool:
    """The SDMA engines of one device: each copying stream's own engine while they last.

    >>> engines = SdmaPool(engines=2)
    >>> engines.engine_for("a", idle=lambda e: True), engines.engine_for("b", idle=lambda e: True)
    (1, 0)
    >>> engines.engine_for("c", idle=lambda e: e == 1)
    1
    """

    def __init__(self, engines: int) -> None:
        self.engines = engines
        self._owner: dict[int, object] = {}  # engine -> the stream it is assigned to

    def engine_for(self, stream: object, idle) -> int:
        """The engine ``stream``'s next copy goes to; ``idle(engine)`` says whether an
        engine has nothing queued at the copy's issue."""
        for engine, owner in self._owner.items():
            if owner is stream:
                return engine
        for engine in reversed(range(self.engines)):  # fetchSDMAMask walks down
            if engine not in self._owner:
                self._owner[engine] = stream
                return engine
        return next((e for e in range(self.engines) if idle(e)), 0)

    def release(self, stream: object) -> None:
        """Give a destroyed stream's engine back (Device::resetSDMAMask)."""
        for engine in [e for e, owner in self._owner.items() if owner is stream]:
            del self._owner[engine]


class Busy:
    """When one shared resource (the compute units, a link direction) is in use: sorted,
    disjoint [start, end) intervals. An operation takes the first gap it fits in at or
    after the time it is ready, so work that became ready early is not queued behind
    work placed earlier but waiting on something else.

    >>> cus = Busy()
    >>> cus.place(ready=10.0, duration=5.0), cus.place(ready=0.0, duration=4.0)
    (10.0, 0.0)
    >>> cus.place(ready=0.0, duration=8.0)   # does not fit before 10: after 15
    15.0
    """

    def __init__(self) -> None:
        self._starts: list[float] = []
        self._ends: list[float] = []

    def place(self, ready: float, duration: float) -> float:
        """Book the earliest ``duration``-long gap starting at or after ``ready``."""
        i = bisect.bisect_right(self._ends, ready)  # first interval still busy at ready
        start = ready
        while i < len(self._starts) and self._starts[i] < start + duration:
            start = max(start, self._ends[i])
            i += 1
        if duration > 0:
            self._starts.insert(i, start)
            self._ends.insert(i, start + duration)
        return start

    def forget_before(self, t: float) -> None:
        """Drop intervals that end by ``t``: nothing placed later can be ready before."""
        i = bisect.bisect_right(self._ends, t)
        del self._starts[:i], self._ends[:i]
