"""Slices of shared memory kept across a barrier (numba's test_sm.test_issue_5073): a
slice with block-uniform bounds reads no memory, so it is the same view in every thread
and stays a plain variable across the barrier (issue 19)."""

import numpy as np
from numba import int64

from gpusim import cuda


def test_slices_of_dynamic_shared_memory_survive_a_barrier():
    @cuda.jit
    def copy_halves(x, y, half):
        dyn = cuda.shared.array(0, dtype=int64)
        lo = dyn[0:half]
        hi = dyn[half:half * 2]
        tx, bx, bd = cuda.threadIdx.x, cuda.blockIdx.x, cuda.blockDim.x
        i = bx * bd + tx
        if i < len(x):
            if tx < half:
                lo[tx] = x[i]
            else:
                hi[tx - half] = x[i] * 10
        cuda.syncthreads()
        if tx == 0:
            for j in range(half):
                y[bd * bx + j] = hi[j]
                y[bd * bx + j + half] = lo[j]

    x = np.arange(256)
    y = np.zeros_like(x)
    copy_halves[16, 16, 0, 16 * 8](x, y, 8)
    blocks = x.reshape(16, 2, 8)
    np.testing.assert_array_equal(y.reshape(16, 2, 8), np.stack([blocks[:, 1] * 10,
                                                                 blocks[:, 0]], axis=1))
