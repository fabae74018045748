"""A matched collective or send/receive on the ranks' streams, and its record.

Each local rank's part is a kernel named after the collective on its stream, after the
work already queued on every participating stream; the data moves when the last
rank's part runs, and one ``CollectiveRecord`` (gpusim.profiler) records every step
with its modeled time. Calls of ranks in other MPI processes (stream None) are queued
by their own process. When a rank's stream is being captured, the parts become graph
nodes instead and run at each graph launch (captured.py).

Costs of one call: each rank's kernel is queued like any launch, for the scheduler's
ISSUE_SECONDS of host time (RCCL's enqueue and the kernel launch: the host part, which a
graph launch replaces by GRAPH_NODE_S per node); the kernel then takes the modeled
``seconds`` on the GPU (collective_time.LAUNCH_S plus the steps: the device part, which a graph
keeps). See docs/graphs.md.
"""

from __future__ import annotations

from typing import Any

from gpusim.errors import HipError
from gpusim.libs.common import launch
from gpusim.libs.rccl import captured, collective_time
from gpusim.libs.rccl.enums import NcclError, ncclResult_t
from gpusim.profiler import CollectiveRecord, CollectiveStep, emit
from gpusim.runtime.scheduler import Op


def enqueue(collective: str, algo: str, calls: list[Any], devices: list[int], run: Any,
            seconds: float, steps: list[dict], nbytes: int, nchannels: int) -> list[Op]:
    """Queue one matched operation: a kernel on each local rank's stream (``run`` in the
    last one), and its CollectiveRecord; returns the kernels' ops (none when a stream is
    captured: see captured.py)."""
    calls = [c for c in calls if c.stream is not None]  # other processes queue their own
    name = f"nccl{collective}"
    info = {"grid": (nchannels, 1, 1), "block": (256, 1, 1), "seconds": seconds}

    def make_record() -> CollectiveRecord:
        return CollectiveRecord(
            name=name, device=calls[0].comm.device, stream=calls[0].stream.handle,
            collective=collective, algorithm=algo, nranks=len(devices), devices=devices,
            streams=[c.stream.handle for c in calls], count=calls[0].count,
            datatype=calls[0].datatype.name, op=calls[0].op.name if calls[0].op else None,
            root=calls[0].root, nbytes=nbytes, nchannels=nchannels,
            bus_factor=collective_time.bus_factor(collective, len(devices)))

    def complete(record: CollectiveRecord, ops: list[Op]) -> None:
        # Each rank's kernel starts when its stream reaches it; the steps start once
        # every rank has arrived. The record spans the first start to the last end.
        start = max(o.start for o in ops)
        record.start_ns = round(min(o.start for o in ops) * 1e9)
        record.end_ns = round(max(o.end for o in ops) * 1e9)
        record.done = all(o.error is None for o in ops)
        record.steps = [CollectiveStep(s["step"], s["src"], s["dst"], s["bytes"], s["link"],
                                       round((start + s["start_s"]) * 1e9),
                                       round((start + s["end_s"]) * 1e9)) for s in steps]

    if any(captured.capture_of(c.stream) is not None for c in calls):
        _check_captures(name, calls)
        captured.CapturedCollective(f"{name} ({algo})", calls, run, info, make_record,
                                    complete).record_calls(calls)
        return []
    before = [c.stream.tail for c in calls if c.stream.tail is not None]
    ops: list[Op] = []
    for i, call in enumerate(calls):
        last = i == len(calls) - 1
        ops.append(launch(call.stream, run if last else (lambda: None),
                          name=f"{name} ({algo})", grid=info["grid"], block=info["block"],
                          seconds=seconds, waits=before))
    record = make_record()
    emit(record)
    previous = ops[-1].on_done

    def done(op: Op) -> None:
        if previous is not None:
            previous(op)
        complete(record, ops)

    ops[-1].on_done = done
    return ops


def _check_captures(name: str, calls: list[Any]) -> None:
    """Before recording anything: RCCL's launch on an invalidated capture fails with the
    HIP error, which RCCL reports as ncclUnhandledCudaError."""
    for call in calls:
        cap = captured.capture_of(call.stream)
        if cap is not None and cap.invalidated:
            try:
                cap._check_open(name)
            except HipError as exc:
                raise NcclError(ncclResult_t.ncclUnhandledCudaError,
                                f"{exc.code.name}: {exc}") from None
