"""Lab 04 (streams): spread a copy-kernel-copy pipeline over several streams."""

from __future__ import annotations

import numpy as np

import gpusim
from gpusim import hip
from gpusim.course.expect import expect_array, expect_true
from gpusim.course.measure import expect_faster
from gpusim.course.registry import exercise


def _span(pipeline, streams: list) -> tuple[float, int]:
    """Modeled time from the first operation's start to the last one's end, and how
    many streams the operations ran on."""
    with gpusim.profile() as prof:
        pipeline(streams)
        hip.hipDeviceSynchronize()
    records = [r for r in prof.records if r.done]
    expect_true(bool(records), "pipeline(streams) ran nothing: it should copy, launch and "
                "copy back each chunk.")
    return (max(r.end_ns for r in records) - min(r.start_ns for r in records),
            len({r.stream for r in records}))


@exercise("04.1", "overlap with streams", hints=[
    "Work in one stream runs in order; work in different streams may overlap.",
    "Give chunk c its own stream out of the list: which one, if there are fewer streams "
    "than chunks?",
    "The remainder of c divided by len(streams) picks a stream for every chunk in turn.",
])
def overlap(pipeline, h_in: np.ndarray, h_out: np.ndarray) -> str:
    """Runs ``pipeline`` on one stream and on four; results against NumPy."""
    one, _ = _span(pipeline, [hip.hipStreamCreate()])
    h_out[:] = np.nan
    four, used = _span(pipeline, [hip.hipStreamCreate() for _ in range(4)])
    expect_array("h_out", np.asarray(h_out), np.sqrt(np.asarray(h_in)) * 1.5 + 0.25,
                 unset=np.nan)
    expect_true(used > 1, "Given four streams, the pipeline still puts every chunk on one "
                "of them, so nothing overlaps (1.00x).")
    expect_true(used == 4, f"Given four streams, the chunks ran on {used} of them: use "
                "every stream it is given.")
    return [expect_faster("4 streams", four, one, factor=1.5, baseline="1 stream"),
            f"The chunks ran on {used} streams and the results are right."]
