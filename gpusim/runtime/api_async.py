"""HIP's asynchronous API: streams, events, async copies and memsets, host callbacks.

Status-returning queries (``hipStreamQuery``, ``hipEventQuery``) return the
``hipError_t`` (hipSuccess or hipErrorNotReady) as C does, since "not ready" is an
answer, not a failure; every other failure raises ``HipError``.

>>> from gpusim import hip
>>> start, stop = hip.hipEventCreate(), hip.hipEventCreate()
>>> s = hip.hipStreamCreate()
>>> hip.hipEventRecord(start, s)
>>> d = hip.hipMalloc(1 << 20)
>>> hip.hipMemsetAsync(d, 0, 1 << 20, s)
>>> hip.hipEventRecord(stop, s)
>>> hip.hipEventSynchronize(stop)
>>> hip.hipEventElapsedTime(start, stop) > 0
True
>>> hip.hipFree(d)
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpusim.errors import HipError, hipError_t
from gpusim.runtime import mempool, streams
from gpusim.runtime.api import hip_api
from gpusim.runtime.copies import submit_copy, submit_memset
from gpusim.runtime.scheduler import Op, Stream
from gpusim.runtime.system import get_system

# How far the modeled host clock moves each time the host polls a query (model
# assumption: a query is a cheap call, about a microsecond).
POLL_SECONDS = 1e-6

hipStreamDefault = 0
hipStreamNonBlocking = 1


class hipEventFlags(enum.IntFlag):  # noqa: N801
    hipEventDefault = 0
    hipEventBlockingSync = 1
    hipEventDisableTiming = 2
    hipEventInterprocess = 4


hipEventDefault = hipEventFlags.hipEventDefault
hipEventBlockingSync = hipEventFlags.hipEventBlockingSync
hipEventDisableTiming = hipEventFlags.hipEventDisableTiming
hipEventInterprocess = hipEventFlags.hipEventInterprocess


@dataclass(eq=False)
class Event:
    """A HIP event: marks a point in a stream; times it if timing is enabled."""

    flags: int = 0
    op: Op | None = None  # the marker of the latest hipEventRecord
    destroyed: bool = False

    # numba.cuda-style methods
    def record(self, stream: Any = 0) -> None:
        hipEventRecord(self, stream)

    def synchronize(self) -> None:
        hipEventSynchronize(self)

    def query(self) -> bool:
        return hipEventQuery(self) == hipError_t.hipSuccess

    def elapsed_time(self, stop: Event) -> float:
        """Milliseconds from this event to ``stop`` (numba.cuda's spelling)."""
        return hipEventElapsedTime(self, stop)


# streams ----------------------------------------------------------------------------------
@hip_api
def hipStreamCreateWithPriority(flags: int = hipStreamDefault, priority: int = 0) -> Stream:
    """A new stream on the current device; hipStreamNonBlocking opts out of the null
    stream's implicit synchronisation."""
    if flags not in (hipStreamDefault, hipStreamNonBlocking):
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"stream flags must be hipStreamDefault (0) or hipStreamNonBlocking "
                       f"(1), got {flags!r}")
    system = get_system()
    return system.scheduler.new_stream(system.current_ordinal,
                                       blocking=flags == hipStreamDefault, priority=priority)


def hipStreamCreateWithFlags(flags: int) -> Stream:
    return hipStreamCreateWithPriority(flags, 0)


def hipStreamCreate() -> Stream:
    """A new blocking stream on the current device (``hip.stream()`` too)."""
    return hipStreamCreateWithPriority(hipStreamDefault, 0)


@hip_api
def hipStreamDestroy(stream: Stream) -> None:
    """Destroy a stream; work already queued on it still completes."""
    target = streams.resolve_stream(stream, origin="hipStreamDestroy")
    if target.null:
        raise HipError(hipError_t.hipErrorInvalidHandle,
                       "hipStreamDestroy: the null stream cannot be destroyed")
    target.scheduler.flush(target.tail)
    target.scheduler.forget_stream(target)


@hip_api
def hipStreamSynchronize(stream: Any = None) -> None:
    """Block the host until all work queued on ``stream`` has finished; the memory
    pools of its device then keep at most their release threshold of freed memory."""
    streams.synchronize_stream(stream)
    mempool.release_freed(streams.resolve_stream(stream).device)


def _poll(op: Op | None, scheduler: Any) -> hipError_t:
    """Has ``op`` finished by the host's (modeled) now? Polling moves time forward."""
    scheduler.check_capture(op, "stream")  # (querying captured work is an error)
    if op is None:
        return hipError_t.hipSuccess
    scheduler.flush(op)
    if op.end <= scheduler.host_time:
        return hipError_t.hipSuccess
    scheduler.host_time = min(op.end, scheduler.host_time + POLL_SECONDS)
    return hipError_t.hipErrorNotReady


@hip_api
def hipStreamQuery(stream: Any = None) -> hipError_t:
    """hipSuccess if all work on ``stream`` has finished, else hipErrorNotReady."""
    target = streams.resolve_stream(stream, origin="hipStreamQuery")
    return _poll(target.tail, target.scheduler)


@hip_api
def hipStreamWaitEvent(stream: Any, event: Event, flags: int = 0) -> None:
    """Work queued on ``stream`` after this call waits for ``event``'s latest record."""
    _check_event(event, "hipStreamWaitEvent")
    if event.op is not None:
        op = streams.enqueue(stream, lambda: None, name="hipStreamWaitEvent", kind="event",
                             waits=[event.op])
        mempool.follow_event(event.op.stream, op.stream)


@hip_api
def hipLaunchHostFunc(stream: Any, fn: Callable[[Any], None], userData: Any = None) -> None:
    """Run ``fn(userData)`` on the host once the work before it on ``stream`` is done."""
    streams.enqueue(stream, lambda: fn(userData), name=getattr(fn, "__name__", "host_fn"),
                    kind="host")


@hip_api
def hipStreamAddCallback(stream: Any, callback: Callable[[Any, hipError_t, Any], None],
                         userData: Any = None, flags: int = 0) -> None:
    """Run ``callback(stream, hipSuccess, userData)`` in stream order."""
    if flags != 0:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       "hipStreamAddCallback: flags must be 0 (reserved by HIP)")
    streams.enqueue(stream, lambda: callback(stream, hipError_t.hipSuccess, userData),
                    name=getattr(callback, "__name__", "callback"), kind="host")


# events -----------------------------------------------------------------------------------
def _check_event(event: Any, origin: str) -> Event:
    if not isinstance(event, Event):
        raise HipError(hipError_t.hipErrorInvalidHandle,
                       f"{origin}: expected an event from hipEventCreate, got "
                       f"{type(event).__name__}")
    if event.destroyed:
        raise HipError(hipError_t.hipErrorInvalidHandle,
                       f"{origin}: the event was destroyed by hipEventDestroy")
    return event


def hipEventCreateWithFlags(flags: int = 0) -> Event:
    """A new event (hipEventDisableTiming makes it cheaper and un-timeable)."""
    return Event(flags=int(flags))


def hipEventCreate() -> Event:
    return Event()


@hip_api
def hipEventDestroy(event: Event) -> None:
    _check_event(event, "hipEventDestroy").destroyed = True


@hip_api
def hipEventRecord(event: Event, stream: Any = None) -> None:
    """Mark the current end of ``stream``; the event completes when that point runs."""
    _check_event(event, "hipEventRecord")
    event.op = streams.enqueue(stream, lambda: None, name="hipEventRecord", kind="event")


@hip_api
def hipEventSynchronize(event: Event) -> None:
    """Block the host until the event's recorded point has been reached."""
    _check_event(event, "hipEventSynchronize")
    if event.op is not None:
        event.op.stream.scheduler.wait_host(event.op)
        mempool.release_freed(event.op.stream.device)


@hip_api
def hipEventQuery(event: Event) -> hipError_t:
    """hipSuccess once the recorded point has been reached, else hipErrorNotReady."""
    _check_event(event, "hipEventQuery")
    if event.op is None:
        return hipError_t.hipSuccess
    return _poll(event.op, event.op.stream.scheduler)


@hip_api
def hipEventElapsedTime(start: Event, stop: Event) -> float:
    """Modeled milliseconds between two completed events."""
    for name, ev in (("start", start), ("stop", stop)):
        _check_event(ev, "hipEventElapsedTime")
        if ev.flags & hipEventDisableTiming:
            raise HipError(hipError_t.hipErrorInvalidHandle,
                           f"hipEventElapsedTime: the {name} event was created with "
                           "hipEventDisableTiming")
        if ev.op is None:
            raise HipError(hipError_t.hipErrorInvalidHandle,
                           f"hipEventElapsedTime: the {name} event was never recorded")
        sched = ev.op.stream.scheduler
        if not ev.op.done or ev.op.end > sched.host_time:
            raise HipError(hipError_t.hipErrorNotReady,
                           f"hipEventElapsedTime: the {name} event has not completed yet; "
                           "call hipEventSynchronize on it first")
    return (stop.op.end - start.op.end) * 1e3


# async copies -----------------------------------------------------------------------------
@hip_api
def hipMemcpyAsync(dst: Any, src: Any, nbytes: int, kind: int, stream: Any = None) -> None:
    """Queue a copy on ``stream``. Returns at once if the host side is pinned; a
    pageable host buffer makes the call wait, as HIP's staged copies do."""
    submit_copy(dst, src, nbytes, kind, stream=stream, blocking=False,
                origin="hipMemcpyAsync")


@hip_api
def hipMemsetAsync(dst: Any, value: int, nbytes: int, stream: Any = None) -> None:
    """Queue a byte fill of device memory on ``stream``."""
    submit_memset(dst, value, nbytes, stream=stream, origin="hipMemsetAsync")
