"""Lab 04 (streams): spread a copy-kernel-copy pipeline over several streams.

Any mapping of chunks to streams is accepted if it uses every stream it is given, keeps
each chunk's steps in order (on one stream, or ordered with events) and is fast enough.
The emulator runs work in issue order, so a chunk whose steps sit on different streams
gets right answers here and wrong ones on a GPU; the check finds that in the timeline.
"""

from __future__ import annotations

import numpy as np

import gpusim
from gpusim import hip
from gpusim.course.expect import expect_array, expect_true
from gpusim.course.measure import expect_faster
from gpusim.course.registry import exercise
from gpusim.profiler import CopyRecord, KernelRecord


def _run(pipeline, nstreams: int) -> list:
    """The profile records of ``pipeline`` run on ``nstreams`` new streams. The streams
    are destroyed afterwards, so the hardware queues they held are free for the next run
    (streams left over would share queues with these: see lab 04's hardware queues)."""
    streams = [hip.hipStreamCreate() for _ in range(nstreams)]
    try:
        with gpusim.profile() as prof:
            pipeline(streams)
            hip.hipDeviceSynchronize()
    finally:
        for s in streams:
            hip.hipStreamDestroy(s)
    records = [r for r in prof.records if r.done]
    expect_true(bool(records), "pipeline(streams) ran nothing: it should copy, launch and "
                "copy back each chunk.")
    return records


def _span(records: list) -> float:
    return max(r.end_ns for r in records) - min(r.start_ns for r in records)


def _steps(records: list) -> list[tuple]:
    """(copy in, kernel, copy back) of each chunk: the i-th of each kind, in issue order."""
    def of(kind, direction=None):
        return sorted((r for r in records if isinstance(r, kind)
                       and getattr(r, "direction", None) == direction),
                      key=lambda r: r.correlation_id)
    return list(zip(of(CopyRecord, "HtoD"), of(KernelRecord), of(CopyRecord, "DtoH"),
                    strict=False))


def _expect_ordered(records: list) -> None:
    """Each chunk's kernel starts after its copy in ends, its copy back after the kernel."""
    names = ("copy in", "kernel", "copy back")
    for c, steps in enumerate(_steps(records)):
        for i in (0, 1):
            before, after = steps[i], steps[i + 1]
            expect_true(after.start_ns >= before.end_ns,
                        f"chunk {c}: its {names[i + 1]} on stream {after.stream} started "
                        f"before its {names[i]} on stream {before.stream} had finished, so "
                        "on a GPU it would read data that is not there yet. Different "
                        "streams are not ordered with each other: keep a chunk's copy in, "
                        "kernel and copy back on one stream (or order them with "
                        "hipEventRecord and hipStreamWaitEvent).")


def _issued_by_step(records: list) -> bool:
    """Were all the copies in issued before any kernel (breadth first)?"""
    steps = _steps(records)
    return len(steps) > 1 and steps[-1][0].correlation_id < steps[0][1].correlation_id


@exercise("04.1", "overlap with streams", hints=[
    "Work in one stream runs in order; work in different streams may overlap.",
    "Give chunk c its own stream out of the list: which one, if there are fewer streams "
    "than chunks?",
    "The remainder of c divided by len(streams) picks a stream for every chunk in turn.",
])
def overlap(pipeline, h_in: np.ndarray, h_out: np.ndarray) -> str:
    """Runs ``pipeline`` on one stream and on four; results against NumPy."""
    one = _span(_run(pipeline, 1))
    h_out[:] = np.nan
    records = _run(pipeline, 4)
    used = len({r.stream for r in records})
    expect_array("h_out", np.asarray(h_out), np.sqrt(np.asarray(h_in)) * 1.5 + 0.25,
                 unset=np.nan)
    _expect_ordered(records)
    expect_true(used > 1, "Given four streams, the pipeline still puts every chunk on one "
                "of them, so nothing overlaps (1.00x).")
    expect_true(used == 4, f"Given four streams, the chunks ran on {used} of them: use "
                "every stream it is given.")
    four = _span(records)
    if _issued_by_step(records) and one / four < 1.5:
        expect_true(False, f"4 streams: only {one / four:.2f}x faster than 1 stream; the "
                    "target is 1.5x. Issue order matters: you queued every copy in before "
                    "any kernel, so on each stream a chunk's copy back waits behind the "
                    "copies in of the later chunks of that stream. Queue each chunk's copy "
                    "in, kernel and copy back together.")
    return [expect_faster("4 streams", four, one, factor=1.5, baseline="1 stream"),
            f"The chunks ran on {used} streams, each in order, and the results are right."]
