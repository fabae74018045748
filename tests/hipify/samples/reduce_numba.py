"""numba.cuda reductions written for 32-lane warps: shuffles, LDS, atomics."""

import numpy as np
from numba import cuda, float32

THREADS = 256


@cuda.jit
def warp_sums(x, out):
    i = cuda.grid(1)
    v = x[i] if i < x.size else float32(0.0)
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, offset)
        offset //= 2
    if cuda.threadIdx.x % 32 == 0:
        out[i // 32] = v


@cuda.jit
def block_sum(x, total):
    tile = cuda.shared.array(THREADS, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = x[i] if i < x.size else float32(0.0)
    cuda.syncthreads()
    stride = cuda.blockDim.x // 2
    while stride > 0:
        if t < stride:
            tile[t] += tile[t + stride]
        cuda.syncthreads()
        stride //= 2
    if t == 0:
        cuda.atomic.add(total, 0, tile[0])


@cuda.jit
def vote(x, counts):
    i = cuda.grid(1)
    mask = cuda.ballot_sync(0xffffffff, x[i] > 0)
    if cuda.laneid == 0:
        counts[i // cuda.warpsize] = cuda.popc(mask)


def run():
    n = 4 * THREADS
    x = (np.arange(n, dtype=np.float32) % 7) - 3
    partial = np.zeros(n // 32, np.float32)
    total = np.zeros(1, np.float32)
    counts = np.zeros(n // 64, np.int32)
    d_x = cuda.to_device(x)
    d_partial = cuda.to_device(partial)
    warp_sums[n // THREADS, THREADS](d_x, d_partial)
    d_total = cuda.to_device(total)
    block_sum[n // THREADS, THREADS](d_x, d_total)
    d_counts = cuda.to_device(counts)
    vote[n // THREADS, THREADS](d_x, d_counts)
    return [d_partial.copy_to_host(), d_total.copy_to_host(), d_counts.copy_to_host()]
