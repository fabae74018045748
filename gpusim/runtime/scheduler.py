"""Queues and modeled time: when each queued operation runs, in both senses.

Functional order. Every operation (kernel, copy, memset, event record, host callback)
joins one process-wide list in issue order and runs only when the host synchronises
with it (a blocking copy, hipStreamSynchronize, hipEventSynchronize, ...). Issue order is
always a legal execution order: whatever an operation waits for (the previous operation
of its stream, an event recorded earlier, the null stream) was issued before it. So a
host buffer that an async copy fills really is unfilled until the host synchronises.

Modeled time. When an operation runs, it gets a start and end on its device's engines
(one compute engine, and one copy engine per direction, as asyncEngineCount=2 says):

    start = max(host clock when issued, end of what it waits for, engine free)
    end   = start + duration (from gpusim.timing)

so copies in one stream overlap kernels in another. Kernels from different streams
share one compute engine here and do not run concurrently (a simplification: real
GPUs can run small kernels side by side).

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

# Host-side cost of issuing one asynchronous call (a kernel launch, an async copy):
# model assumption, a few microseconds as measured for hipLaunchKernel on ROCm 6 hosts.
ISSUE_SECONDS = 5e-6

ENGINE_OF_KIND = {"kernel": "compute", "memset": "compute", "HtoD": "copy_h2d",
                  "DtoH": "copy_d2h", "DtoD": "copy_d2d", "PtoP": "copy_d2d",
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

    def __repr__(self) -> str:
        name = "null stream" if self.null else f"stream {self.handle}"
        return f"<{name} on device {self.device}>"

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


def _spent(*_: Any) -> None:
    """What a finished ``Op`` holds instead of its work: it never runs twice."""
    raise RuntimeError("this operation already ran (internal error)")


class Scheduler:
    """The process's queue of pending operations and the modeled clocks."""

    def __init__(self) -> None:
        self.host_time = 0.0
        self.pending: list[Op] = []
        self._seq = itertools.count()
        self._handles = itertools.count(1)
        self._engine_free: dict[tuple[int, str], float] = {}
        self._device_end: dict[int, float] = {}  # latest modeled end per device
        self._null: dict[int, Stream] = {}
        self._blocking: dict[int, list[Stream]] = {}

    # streams ----------------------------------------------------------------------------
    def null_stream(self, device: int) -> Stream:
        if device not in self._null:
            self._null[device] = Stream(device, True, 0, self, null=True)
        return self._null[device]

    def new_stream(self, device: int, blocking: bool, priority: int = 0) -> Stream:
        stream = Stream(device, blocking, next(self._handles), self, priority=priority)
        if blocking:
            self._blocking.setdefault(device, []).append(stream)
        return stream

    def forget_stream(self, stream: Stream) -> None:
        stream.destroyed = True
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
        if upto is not None and upto.done:
            return
        while self.pending:
            op = self.pending.pop(0)
            self._execute(op)
            if op is upto:
                return

    def _execute(self, op: Op) -> None:
        ready = max([op.issued_at] + [w.end for w in op.waits])
        engine = (op.stream.device, ENGINE_OF_KIND.get(op.kind, "none"))
        if engine[1] != "none":
            ready = max(ready, self._engine_free.get(engine, 0.0))
        try:
            op.run()
        except BaseException as exc:  # surfaced to the host at this synchronisation
            op.error = exc
            op.start = op.end = ready
            self._finish(op)
            raise
        op.start = ready
        op.end = ready + op.duration(op)
        if engine[1] != "none":
            self._engine_free[engine] = op.end
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

    def wait_host(self, op: Op | None) -> None:
        """The host blocks until ``op`` completes: run it and advance the host clock."""
        if op is None:
            return
        self.flush(op)
        self.host_time = max(self.host_time, op.end)

    def wait_device(self, device: int) -> None:
        """The host blocks until all work of ``device`` completes (hipDeviceSynchronize)."""
        last = [op for op in self.pending if op.stream.device == device]
        if last:
            self.flush(last[-1])
        self.host_time = max(self.host_time, self._device_end.get(device, 0.0))
