"""Lab 02 (wavefronts and LDS): a shuffle reduction that starts at the wavefront's size."""

from __future__ import annotations

import numpy as np

from gpusim import hip
from gpusim.course.expect import expect_array
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
