"""Lab 02 (wavefronts and LDS): a shuffle reduction that starts at the wavefront's size;
stream compaction with one atomic per wavefront."""

from __future__ import annotations

import numpy as np

from gpusim import hip
from gpusim.course.expect import expect_array, expect_true
from gpusim.course.measure import lanes_per_element, profiled
from gpusim.course.registry import exercise


@exercise("02.1", "wavefront sums with shuffles", hints=[
    "Lane 0 ends with the sum of the lanes it collected: with a first offset of 16 it "
    "collects lanes 0-31 only.",
    "The first step must bring the upper half of the wavefront onto the lower half.",
    "Do not type the wavefront size: hip.warpsize is 64 on MI300X and 32 on RDNA.",
])
def wave_sums(kernel) -> str:
    """Runs ``kernel[2, 256](x, sums)``: 8 wavefronts, one sum each."""
    x = np.random.default_rng(2).integers(0, 100, 512).astype(np.float32)
    sums = hip.to_device(np.full(8, np.nan, np.float32))
    kernel[2, 256](hip.to_device(x), sums)
    expect_array("sums", sums.copy_to_host(), x.reshape(8, 64).sum(axis=1), unset=np.nan)
    return "All 8 wavefront sums of a 512-element launch are right on the wave64 MI300X."


@exercise("02.2", "one atomic per wavefront", hints=[
    "hip.ballot(keep) has one bit per lane; hip.popc of it is how many lanes keep a value.",
    "Lane 0 alone adds that many to count[0]; the atomic returns the old value: the "
    "wavefront's base. hip.shfl(base, 0) gives every lane lane 0's base.",
    "A lane's slot is the popc of the ballot with only the bits below its own lane kept: "
    "mask it with (1 << lane) - 1 (as np.uint64).",
])
def compaction(kernel) -> str:
    """Runs ``kernel[16, 256](x, out, count)``; the kept set against NumPy's, atomics
    on ``count`` counted."""
    x = np.random.default_rng(5).normal(size=4096).astype(np.float32)
    out = hip.to_device(np.full(x.size, np.nan, np.float32))
    count = hip.to_device(np.zeros(1, np.int32))
    (k,) = profiled(lambda: kernel[16, 256](hip.to_device(x), out, count))
    want = np.sort(x[x > 0])
    n = int(count.copy_to_host()[0])
    expect_true(n == want.size, f"count[0] is {n:,}, but {want.size:,} values are positive.")
    expect_array("the kept values (sorted)", np.sort(out.copy_to_host()[:n]), want,
                 unset=np.nan)
    waves = x.size // 64
    atomics = lanes_per_element(k, "count", "atomic", 1)
    expect_true(atomics <= waves, f"The kept values are right, but the kernel made "
                f"{atomics:,.0f} atomic adds on count[0] for {waves} wavefronts: an atomic "
                "per kept value. Each wavefront needs only one.")
    return f"All {want.size:,} positive values kept, with {atomics:.0f} atomics for {waves} " \
           "wavefronts."
