"""Submitting work to streams: the door every kernel, copy and memset goes through.

``enqueue`` queues an operation on a stream of the current system (see scheduler.py
for when it runs and how its modeled time is placed), emits its profile record, and
returns the queued operation so a blocking call can wait for it.

>>> import numpy as np
>>> from gpusim import hip
>>> s = hip.hipStreamCreate()
>>> out = hip.pinned_array(3)      # async copies need pinned host memory
>>> d = hip.to_device(np.arange(3.0))
>>> hip.hipMemcpyAsync(out, d, 24, hip.hipMemcpyDeviceToHost, s)
>>> out                            # not synchronised yet: the copy has not happened
array([0., 0., 0.])
>>> hip.hipStreamSynchronize(s); out
array([0., 1., 2.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim import timing
from gpusim.devices import DeviceSpec
from gpusim.errors import HipError, hipError_t
from gpusim.profiler import (
    CopyRecord,
    HostRecord,
    KernelRecord,
    MemsetRecord,
    MigrationRecord,
    Record,
    emit,
)
from gpusim.profiler.session import set_flusher
from gpusim.runtime.scheduler import Op, Scheduler, Stream
from gpusim.runtime.system import get_system

__all__ = ["Stream", "enqueue", "resolve_stream", "scheduler", "submit", "synchronize_stream"]


def scheduler() -> Scheduler:
    """The current system's scheduler."""
    return get_system().scheduler


def resolve_stream(stream: Any, *, origin: str = "launch") -> Stream:
    """The Stream a user argument names: None/0 is the current device's null stream."""
    if stream is None or (isinstance(stream, int) and stream == 0):
        system = get_system()
        return system.scheduler.null_stream(system.current_ordinal)
    if not isinstance(stream, Stream):
        raise HipError(hipError_t.hipErrorInvalidHandle,
                       f"{origin}: {stream!r} is not a stream; pass one from hipStreamCreate "
                       "(or 0 / None for the null stream)")
    if stream.destroyed:
        raise HipError(hipError_t.hipErrorInvalidHandle,
                       f"{origin}: {stream!r} was destroyed by hipStreamDestroy")
    if stream.scheduler is not get_system().scheduler:
        raise HipError(hipError_t.hipErrorInvalidHandle,
                       f"{origin}: {stream!r} belongs to a system replaced by set_system")
    return stream


def _record_for(kind: str, name: str, stream: Stream, info: dict) -> Record:
    common = dict(name=name, device=stream.device, stream=stream.handle,
                  graph=info.get("graph"))
    if kind == "kernel":
        return KernelRecord(**common, grid=info.get("grid", (1, 1, 1)),
                            block=info.get("block", (1, 1, 1)),
                            lds_bytes=info.get("lds_bytes", 0),
                            wave_size=info.get("wave_size", 64),
                            **info.get("resources", {}))
    if kind == "memset":
        return MemsetRecord(**common, nbytes=info.get("bytes", 0))
    if kind == "migration":
        return MigrationRecord(**common, nbytes=info.get("bytes", 0),
                               pages=info.get("pages", 0), faults=info.get("faults", 0),
                               to_device=info.get("to_device", True),
                               reason=info.get("reason", "fault"))
    if kind == "host":
        return HostRecord(**common)
    return CopyRecord(**common, direction=kind, nbytes=info.get("bytes", 0),
                      pinned=info.get("pinned", False), src_device=info.get("src_device"),
                      dst_device=info.get("dst_device"))


def _duration(kind: str, info: dict, spec: DeviceSpec) -> Callable[[Op], float]:
    """How long the operation takes in the model (called when it runs)."""
    nbytes = info.get("bytes", 0)
    if kind == "kernel":
        def kernel(op: Op) -> float:
            if "seconds" in op.info:  # a model that ran with the kernel knows better
                return op.info["seconds"]
            seconds, breakdown = timing.kernel_estimate(
                spec, threads=int(np.prod(info["grid"]) * np.prod(info["block"])),
                bytes_moved=info.get("bytes", 0))
            op.info["breakdown"] = breakdown
            return seconds
        return kernel
    if kind == "memset":
        return lambda op: timing.memset_seconds(spec, nbytes)
    if kind == "migration":
        return lambda op: timing.migration_seconds(spec, op.info.get("bytes", 0),
                                                   op.info.get("faults", 0))
    if kind in ("HtoD", "DtoH", "DtoD", "PtoP", "HtoH"):
        pinned = info.get("pinned", False)
        return lambda op: timing.copy_seconds(spec, nbytes, kind, pinned=pinned)
    return lambda op: 0.0


def enqueue(stream: Any, fn: Callable[[], Any], *, name: str, kind: str = "kernel",
            info: dict | None = None, waits: list[Op] | None = None) -> Op:
    """Queue ``fn`` on ``stream`` as an operation of ``kind``.

    kind: "kernel" (info: grid, block, lds_bytes, wave_size, bytes, resources),
    "memset" (bytes), a copy direction "HtoD"/"DtoH"/"DtoD"/"PtoP"/"HtoH" (bytes,
    pinned, src_device, dst_device), "migration", "event" or "host".

    A stream under capture (hipStreamBeginCapture) records the operation as a graph node
    instead, and so does a stream that waits for captured work (it joins the capture);
    see capture.py.
    """
    info = dict(info or {})
    target = resolve_stream(stream, origin=name)
    hook = target.capture
    if hook is None and waits:
        hook = next((w.node.capture for w in waits
                     if w.node is not None and w.node.capture is not None), None)
        if hook is None:  # stand-ins of a capture that has ended: nothing to wait for
            waits = [w for w in waits if w.node is None]
    if hook is not None:
        return hook.enqueue(target, fn, name=name, kind=kind, info=info, waits=waits)
    if target.null:
        _check_implicit_capture(target, name)
    return submit(target, fn, name=name, kind=kind, info=info, waits=waits)


def submit(target: Stream, fn: Callable[[], Any], *, name: str, kind: str, info: dict,
           waits: list[Op] | None = None, issue_cost: float | None = None) -> Op:
    """Put the operation in ``target``'s queue and emit its profile record (what
    ``enqueue`` does for a stream that is not captured). ``issue_cost``: host seconds
    the submission takes (the scheduler's ISSUE_SECONDS when None)."""
    record = None if kind == "event" else _record_for(kind, name, target, info)
    spec = get_system().devices[target.device].spec
    cost = {} if issue_cost is None else {"issue_cost": issue_cost}
    op = target.scheduler.submit(target, run=fn, kind=kind, name=name,
                                 duration=_duration(kind, info, spec), waits=waits, info=info,
                                 **cost)
    if record is not None:
        record.correlation_id = op.seq + 1
        op.on_done = lambda done: _complete(record, done)
        emit(record)
    return op


def _check_implicit_capture(null: Stream, origin: str) -> None:
    """HIP's legacy null stream waits for every blocking stream of its device, which a
    stream under capture cannot give: hipErrorStreamCaptureImplicit, and the capture is
    invalidated (as HIP does)."""
    capturing = [s for s in null.scheduler.blocking_streams(null.device)
                 if getattr(s.capture, "capturing", False)]
    if capturing:
        for s in capturing:
            s.capture.invalidate(f"{origin} on the null stream")
        raise HipError(hipError_t.hipErrorStreamCaptureImplicit,
                       f"{origin}: the null stream synchronises with every blocking stream, "
                       f"and {capturing[0]!r} is being captured; the capture is now "
                       "invalidated. Use a stream of your own (or a hipStreamNonBlocking "
                       "stream for the capture) while capturing")


def _complete(record: Record, op: Op) -> None:
    record.start_ns = round(op.start * 1e9)
    record.end_ns = round(op.end * 1e9)
    record.done = op.error is None
    if isinstance(record, KernelRecord):
        record.breakdown = op.info.get("breakdown", {})
        record.counters = op.info.get("counters", {})
        record.memory = op.info.get("memory", {})
        record.occupancy = op.info.get("occupancy", record.occupancy)
    if isinstance(record, MigrationRecord):
        record.nbytes, record.faults = op.info.get("bytes", 0), op.info.get("faults", 0)
        record.pages = op.info.get("pages", 0)


def synchronize_stream(stream: Any, *, origin: str = "hipStreamSynchronize") -> None:
    """Block the host until everything queued on ``stream`` has run."""
    target = resolve_stream(stream, origin=origin)
    target.scheduler.wait_host(target.tail)


def synchronize_device(ordinal: int | None = None) -> None:
    """Block the host until every stream of the device has drained."""
    system = get_system()
    ordinal = system.current_ordinal if ordinal is None else ordinal
    system.scheduler.wait_device(ordinal)


set_flusher(lambda: get_system().scheduler.flush())
