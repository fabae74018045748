"""Queues and modeled time: when each queued operation runs, in both senses.

Functional order. Every operation (kernel, copy, memset, event record, host callback)
joins one process-wide list in issue order and runs only when the host synchronises
with it (a blocking copy, hipStreamSynchronize, hipEventSynchronize, ...). Issue order is
always a legal execution order: whatever an operation waits for (the previous operation
of its stream, an event recorded earlier, the null stream) was issued before it. So a
host buffer that an async copy fills really is unfilled until the host synchronises.

Modeled time. Streams reach the device as ROCm maps them (see hw_queues.py): each
stream is bound to one of GPU_MAX_HW_QUEUES hardware compute queues (round-robin as
streams are created), and its copies go to an SDMA engine of its own. When an
operation runs it is placed at

    ready = max(host clock when issued, end of what it waits for,
                end of the previous operation in its hardware queue / SDMA ring)
    start = the first time from ``ready`` on when the resource it needs is free
            (the compute units for kernels and memsets, the link direction for copies)
    end   = start + duration (from gpusim.timing)

so streams on one hardware queue serialise in submission order (a real false
dependency), streams on different queues do not wait for each other's blocked work,
and copies in one stream overlap kernels in another. Kernels share the compute units
and do not run side by side (a simplification: real GPUs can run small kernels from
different queues at once); same-direction copies share the link's bandwidth, modeled
as taking turns at the full rate.

>>> s = Scheduler()
>>> q = s.new_stream(device=0, blocking=True)
>>> op = s.submit(q, run=lambda: None, kind="kernel", name="k", duration=lambda op: 1e-6)
>>> s.flush(op); (op.done, round(op.end - op.start, 9))
(True, 1e-06)
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gpusim.runtime.hw_queues import Busy, QueuePool, SdmaPool, max_hw_queues, priority_class

# Host-side cost of issuing one asynchronous call (a kernel launch, an async copy):
# model assumption, a few microseconds as measured for hipLaunchKernel on ROCm 6 hosts.
ISSUE_SECONDS = 5e-6

# What each kind of operation occupies: the in-order queue it is submitted to ("compute":
# the stream's hardware queue; "sdma": its SDMA engine's ring) and the shared resource it
# needs while it runs. A memset is a fill kernel; an event record or wait is a barrier
# packet in the hardware queue, which holds that queue until what it waits for is done.
QUEUE_OF_KIND = {"kernel": "compute", "memset": "compute", "event": "compute",
                 "HtoD": "sdma", "DtoH": "sdma", "DtoD": "sdma", "PtoP": "sdma"}
RESOURCE_OF_KIND = {"kernel": "cus", "memset": "cus", "HtoD": "link_h2d",
                    "DtoH": "link_d2h", "DtoD": "copy_d2d", "PtoP": "copy_d2d",
                    "HtoH": "host"}


@dataclass(eq=False)
class Stream:
    """A HIP stream: an in-order queue on one device."""

    device: int
    blocking: bool  # False for hipStreamNonBlocking (no implicit null-stream sync)
    handle: int
    scheduler: Scheduler
    null: bool = False
    priority: int = 0
    destroyed: bool = False
    tail: Op | None = None  # last operation issued to this stream
    hw_queue: int = 0  # the hardware compute queue it is bound to (per device and priority)
    # While set, work submitted to this stream goes to this object's ``enqueue`` instead of
    # the queue: a stream capture recording graph nodes, or a graph launch placing a node's
    # work (gpusim/runtime/capture.py, graphs.py).
    capture: Any = None

    def __repr__(self) -> str:
        name = "null stream" if self.null else f"stream {self.handle}"
        return f"<{name} on device {self.device}, hardware queue {self.hw_queue}>"

    def synchronize(self) -> None:
        """Block the host until this stream's queued work is done (numba.cuda style)."""
        self.scheduler.wait_host(self.tail)

    @contextlib.contextmanager
    def auto_synchronize(self) -> Iterator[Stream]:
        """``with stream.auto_synchronize():`` synchronises the stream when the block
        ends (numba.cuda), also when it ends with an exception."""
        try:
            yield self
        finally:
            self.synchronize()


@dataclass(eq=False)
class Op:
    """One queued operation and, once run, its modeled start and end (seconds)."""

    seq: int
    stream: Stream
    kind: str  # "kernel", "memset", "HtoD", "DtoH", "DtoD", "PtoP", "HtoH", "event", "host"
    name: str
    run: Callable[[], Any]
    duration: Callable[[Op], float]
    waits: list[Op] = field(default_factory=list)
    issued_at: float = 0.0
    info: dict = field(default_factory=dict)
    start: float = 0.0
    end: float = 0.0
    done: bool = False
    error: BaseException | None = None
    on_done: Callable[[Op], None] | None = None  # e.g. completes the profile record
    node: Any = None  # set on a captured operation: the graph node it became; never runs


def _spent(*_: Any) -> None:
    """What a finished ``Op`` holds instead of its work: it never runs twice."""
    raise RuntimeError("this operation already ran (internal error)")


class Scheduler:
    """The process's queue of pending operations and the modeled clocks.

    max_queues: hardware compute queues per device and priority (GPU_MAX_HW_QUEUES when
    None); sdma_engines: SDMA engines per device (the device profile's sdma_engines).
    """

    def __init__(self, max_queues: int | None = None, sdma_engines: int = 2) -> None:
        self.host_time = 0.0
        self.pending: list[Op] = []
        self.max_queues = max_hw_queues() if max_queues is None else max_queues
        self.sdma_engines = sdma_engines
        self._seq = itertools.count()
        self._handles = itertools.count(1)
        self._queues: dict[int, QueuePool] = {}
        self._sdma: dict[int, SdmaPool] = {}
        self._ring_end: dict[tuple, float] = {}  # end of the last op in each in-order queue
        self._busy: dict[tuple[int, str], Busy] = {}
        self._device_end: dict[int, float] = {}  # latest modeled end per device
        self._null: dict[int, Stream] = {}
        self._blocking: dict[int, list[Stream]] = {}
        # Active stream captures and the rule that checks host waits while there are any
        # (capture.py installs it: HIP forbids most synchronisation during capture).
        self.captures: list = []
        self.capture_guard: Callable[[Scheduler, Op | None, str], None] | None = None

    # streams ----------------------------------------------------------------------------
    def _bind(self, stream: Stream) -> Stream:
        """Give a new stream its hardware queue, as HIP does when it creates one."""
        pool = self._queues.setdefault(stream.device, QueuePool(self.max_queues))
        stream.hw_queue = pool.acquire(stream.priority)
        return stream

    def null_stream(self, device: int) -> Stream:
        """The device's null stream, made (and bound to a queue) on first use as in HIP."""
        if device not in self._null:
            self._null[device] = self._bind(Stream(device, True, 0, self, null=True))
        return self._null[device]

    def new_stream(self, device: int, blocking: bool, priority: int = 0) -> Stream:
        stream = self._bind(Stream(device, blocking, next(self._handles), self,
                                   priority=priority))
        if blocking:
            self._blocking.setdefault(device, []).append(stream)
        return stream

    def blocking_streams(self, device: int) -> list[Stream]:
        """The device's blocking streams (those the null stream synchronises with)."""
        return list(self._blocking.get(device, []))

    def forget_stream(self, stream: Stream) -> None:
        stream.destroyed = True
        self._queues[stream.device].release(stream.priority, stream.hw_queue)
        if stream.device in self._sdma:
            self._sdma[stream.device].release(stream)
        if stream in self._blocking.get(stream.device, []):
            self._blocking[stream.device].remove(stream)

    # issuing ----------------------------------------------------------------------------
    def submit(self, stream: Stream, *, run: Callable[[], Any], kind: str, name: str,
               duration: Callable[[Op], float], waits: list[Op] | None = None,
               info: dict | None = None, issue_cost: float = ISSUE_SECONDS) -> Op:
        """Queue an operation on ``stream``; it runs at the next synchronisation."""
        deps = [stream.tail] if stream.tail is not None else []
        deps += waits or []
        deps += self._implicit_null_stream_waits(stream)
        op = Op(next(self._seq), stream, kind, name, run, duration,
                [d for d in deps if d is not None], self.host_time, info or {})
        self.host_time += issue_cost
        stream.tail = op
        self.pending.append(op)
        return op

    def _implicit_null_stream_waits(self, stream: Stream) -> list[Op | None]:
        """HIP's legacy default stream: it waits for every blocking stream of its
        device, and every blocking stream waits for it. Non-blocking streams opt out."""
        if stream.null:
            return [s.tail for s in self._blocking.get(stream.device, [])]
        if stream.blocking:
            return [self.null_stream(stream.device).tail]
        return []

    # running ----------------------------------------------------------------------------
    def flush(self, upto: Op | None = None) -> None:
        """Run pending operations in issue order, through ``upto`` (all if None).

        An operation that raises is dropped from the queue and its error re-raised
        here, at the synchronising call, as a GPU fault would be; the rest stay queued.
        """
        if upto is not None and (upto.done or upto.node is not None):
            return  # done, or captured into a graph (it runs at hipGraphLaunch)
        while self.pending:
            op = self.pending.pop(0)
            self._execute(op)
            if op is upto:
                return

    def _ring(self, op: Op) -> tuple | None:
        """The in-order queue ``op`` is submitted to, or None (host-side work)."""
        stream, kind = op.stream, QUEUE_OF_KIND.get(op.kind)
        if kind == "compute":
            return (stream.device, "compute", priority_class(stream.priority),
                    stream.hw_queue)
        if kind == "sdma":
            engines = self._sdma.setdefault(stream.device, SdmaPool(self.sdma_engines))
            engine = engines.engine_for(stream, idle=lambda e: self._ring_end.get(
                (stream.device, "sdma", e), 0.0) <= op.issued_at)
            return (stream.device, "sdma", engine)
        return None

    def _execute(self, op: Op) -> None:
        ready = max([op.issued_at] + [w.end for w in op.waits])
        ring = self._ring(op)
        if ring is not None:
            ready = max(ready, self._ring_end.get(ring, 0.0))
        try:
            op.run()
        except BaseException as exc:  # surfaced to the host at this synchronisation
            op.error = exc
            op.start = op.end = ready
            self._finish(op)
            raise
        duration = op.duration(op)
        op.start = ready
        resource = RESOURCE_OF_KIND.get(op.kind)
        if resource is not None:
            busy = self._busy.setdefault((op.stream.device, resource), Busy())
            # Ops are placed in issue order, and none issued later is ready earlier
            # than this one was issued: older intervals can no longer matter.
            busy.forget_before(op.issued_at)
            op.start = busy.place(ready, duration)
        op.end = op.start + duration
        if ring is not None:
            self._ring_end[ring] = op.end
        self._finish(op)

    def _finish(self, op: Op) -> None:
        op.done = True
        device = op.stream.device
        self._device_end[device] = max(self._device_end.get(device, 0.0), op.end)
        if op.on_done is not None:
            op.on_done(op)
        # What ran is spent: every op waits on the one before it on its stream, so one
        # that kept its waits and closures would keep the stream's whole history alive
        # (every launch's arguments and traces) for the cyclic collector to walk.
        op.waits, op.run, op.duration, op.on_done = [], _spent, _spent, None

    def check_capture(self, op: Op | None, scope: str) -> None:
        """Raise if stream capture forbids this host call: waiting for ``op`` (scope
        "stream"), for a whole device ("device"), or the call itself ("call")."""
        if self.captures and self.capture_guard is not None:
            self.capture_guard(self, op, scope)

    def wait_host(self, op: Op | None) -> None:
        """The host blocks until ``op`` completes: run it and advance the host clock."""
        self.check_capture(op, "stream")
        if op is None:
            return
        self.flush(op)
        self.host_time = max(self.host_time, op.end)

    def wait_device(self, device: int) -> None:
        """The host blocks until all work of ``device`` completes (hipDeviceSynchronize)."""
        self.check_capture(None, "device")
        last = [op for op in self.pending if op.stream.device == device]
        if last:
            self.flush(last[-1])
        self.host_time = max(self.host_time, self._device_end.get(device, 0.0))
