"""Lab 03 (the sanitizer): initialise LDS before use; one atomic per block, not a race."""

from __future__ import annotations

import numpy as np

from gpusim import hip
from gpusim.exercises.expect import expect_array, expect_true
from gpusim.exercises.measure import lanes_per_element, profiled, sanitizer
from gpusim.exercises.registry import NotYet, exercise


@exercise("03.1", "zero the histogram's LDS bins", hints=[
    "LDS holds whatever the previous block left there: every bin must be set to 0 first.",
    "16 threads are enough to zero 16 bins; the others must not start adding before "
    "that is done.",
    "Which call makes every thread of the block wait for the others?",
])
def histogram(kernel) -> str:
    """Runs ``kernel[16, 256](values, bins)`` on the checked path and against np.bincount."""
    values = (np.arange(4096) * 13 % 97).astype(np.int32)
    bins = hip.to_device(np.zeros(16, np.int32))
    with sanitizer():
        kernel[16, 256](hip.to_device(values), bins)
        hip.hipDeviceSynchronize()
    expect_array("bins", bins.copy_to_host(), np.bincount(values % 16, minlength=16))
    return "The sanitizer finds nothing, and all 16 bins match NumPy's bincount."


@exercise("03.2", "one atomic per block", hints=[
    "total[0] += ... is a read, an add and a write: two blocks can interleave them.",
    "An atomic add does the three as one; the blocks then cannot lose each other's update.",
    "Let the block reduce in LDS first, so that only thread 0 of each block adds to total.",
])
def block_total(kernel) -> str:
    """Runs ``kernel[8, 256](x, total)`` checked, then traced to count its atomics."""
    blocks, threads = 8, 256
    x = np.random.default_rng(3).integers(0, 10, blocks * threads).astype(np.float32)
    d_x, total = hip.to_device(x), hip.to_device(np.zeros(1, np.float32))
    with sanitizer():  # the checked path finds races but does not trace memory
        kernel[blocks, threads](d_x, total)
        hip.hipDeviceSynchronize()
    traced = hip.to_device(np.zeros(1, np.float32))
    (k,) = profiled(lambda: kernel[blocks, threads](d_x, traced), kernel)
    atomics = lanes_per_element(k, "total", "atomic", 1)
    if atomics >= x.size - 0.5:
        per = "an atomic per element serialises on one address"
    elif abs(atomics - blocks * threads // 64) < 0.5:
        per = "one per wavefront; one per block is enough"
    else:
        per = "one per block is enough"
    try:
        expect_array("total", total.copy_to_host(), np.array([x.sum()], np.float32),
                     rtol=1e-6)
    except NotYet as wrong:
        if atomics > blocks:
            raise NotYet(*wrong.lines, f"{atomics:,.0f} atomics hit total[0] for {blocks} "
                         "blocks: a block's partial sum was added more than once. One add "
                         "per block, by one thread, is enough.") from None
        if atomics == 0 and lanes_per_element(k, "total", "store", 1) > 0:
            raise NotYet(*wrong.lines, "The blocks store into total[0] instead of adding "
                         "to it: each block overwrites the others' sums.") from None
        raise
    expect_true(atomics <= blocks, f"The total is right, but {atomics:,.0f} atomics hit "
                f"total[0] for {x.size:,} elements in {blocks} blocks: {per}. Reduce "
                "inside the block first.")
    return f"Right total, no race, and {atomics:.0f} atomics for {blocks} blocks."
