"""Lab 01 (first kernels): a grid-stride loop that covers every element exactly once."""

from __future__ import annotations

import numpy as np

from gpusim import hip
from gpusim.exercises.expect import expect_array, expect_true
from gpusim.exercises.measure import lanes_per_element, profiled
from gpusim.exercises.registry import NotYet, exercise

BLOCKS, THREADS = 64, 256
OTHER_BLOCKS, OTHER_THREADS = 24, 128  # a second grid: the stride must come from the launch


@exercise("01.1", "grid-stride loop", hints=[
    "With 64 blocks of 256 threads there are 16,384 threads, and more elements than that: "
    "each thread must do several elements.",
    "After its first element, a thread moves on by the number of threads in the whole "
    "grid, and repeats while it is still inside the array.",
    "hip.gridsize(1) is that number; a while loop keeps going until i reaches out.size.",
])
def grid_stride(scale) -> str:
    """Runs ``scale[64, 256](a, x, out)`` on a size that is not a multiple of the grid, with
    a factor of its own, then on another grid (a stride typed in shows there)."""
    n = 3 * BLOCKS * THREADS + 77
    a = np.float32(2.5)
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    d_x = hip.to_device(x)
    out = hip.to_device(np.full(n, np.nan, np.float32))
    (k,) = profiled(lambda: scale[BLOCKS, THREADS](a, d_x, out))
    got = out.copy_to_host()
    if np.allclose(got, np.float32(3.0) * x, rtol=1e-6) and not np.allclose(got, a * x):
        raise NotYet("out is 3 * x, but the check passed a = 2.5: the kernel multiplies by "
                     "a number typed in, not by its argument a.")
    expect_array("out", got, a * x, unset=np.nan)
    writes = lanes_per_element(k, "out", "store", n)
    expect_true(writes <= 1.01, f"Every element is right, but each was written about "
                f"{writes:.0f} times: threads are repeating each other's work. How far "
                "apart are the elements one thread should take?")
    again = hip.to_device(np.full(n, np.nan, np.float32))
    scale[OTHER_BLOCKS, OTHER_THREADS](a, d_x, again)
    try:
        expect_array("out", again.copy_to_host(), a * x, unset=np.nan)
    except NotYet as wrong:
        raise NotYet(f"Right with 64 blocks of 256 threads, but launched with "
                     f"{OTHER_BLOCKS} blocks of {OTHER_THREADS}: {wrong.lines[0]} The stride "
                     "must follow the launch's grid (hip.gridsize(1)), not be typed "
                     "in.") from None
    return f"All {n:,} elements right (a size that is not a multiple of the grid), " \
           "each written once, with any grid."
