"""Lab 01 (first kernels): a grid-stride loop that covers every element exactly once."""

from __future__ import annotations

import numpy as np

from gpusim import hip
from gpusim.course.expect import expect_array, expect_true
from gpusim.course.measure import lanes_per_element, profiled
from gpusim.course.registry import exercise

BLOCKS, THREADS = 64, 256


@exercise("01.1", "grid-stride loop", hints=[
    "With 64 blocks of 256 threads there are 16,384 threads, and more elements than that: "
    "each thread must do several elements.",
    "After its first element, a thread moves on by the number of threads in the whole "
    "grid, and repeats while it is still inside the array.",
    "hip.gridsize(1) is that number; a while loop keeps going until i reaches out.size.",
])
def grid_stride(scale) -> str:
    """Runs ``scale[64, 256](a, x, out)`` on a size that is not a multiple of the grid."""
    n = 3 * BLOCKS * THREADS + 77
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    d_x = hip.to_device(x)
    out = hip.to_device(np.full(n, np.nan, np.float32))
    (k,) = profiled(lambda: scale[BLOCKS, THREADS](np.float32(3.0), d_x, out))
    expect_array("out", out.copy_to_host(), np.float32(3.0) * x, unset=np.nan)
    writes = lanes_per_element(k, "out", "store", n)
    expect_true(writes <= 1.01, f"Every element is right, but each was written about "
                f"{writes:.0f} times: threads are repeating each other's work. How far "
                "apart are the elements one thread should take?")
    return f"All {n:,} elements right (a size that is not a multiple of the grid), " \
           "each written once."
