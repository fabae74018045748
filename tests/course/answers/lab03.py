"""Lab 03 (the sanitizer): 03.1 the student's ``histogram(x, bins)`` (16 LDS bins zeroed
before use, launched [16, 256]); 03.2 ``total_fixed(x, total)`` (a block reduction whose
partial sums reach total[0] without a race, one atomic per block, launched [8, 256]).
The lab declares its kernels ``@hip.jit(check=True)``; some answers here do too."""

from __future__ import annotations

import numpy as np

from answers import right, wrong
from gpusim import hip

# ---- 03.1 histogram


@hip.jit(check=True)
def hist_thread0_loop(x, bins):  # thread 0 zeroes every bin
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t == 0:
        for b in range(16):
            h[b] = 0
    hip.syncthreads()
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, h[t])


@hip.jit
def hist_strided_zero(x, bins):  # a block-strided zeroing loop, any number of bins
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    b = t
    while b < h.shape[0]:
        h[b] = np.int32(0)
        b += hip.blockDim.x
    hip.syncthreads()
    v = x[hip.grid(1)]
    hip.atomic.add(h, v % 16, 1)
    hip.syncthreads()
    b = t
    while b < h.shape[0]:
        hip.atomic.add(bins, b, h[b])
        b += hip.blockDim.x


@hip.jit(check=True)
def hist_last_threads(x, bins):  # the last 16 threads zero and flush
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    n = hip.blockDim.x
    if t >= n - 16:
        h[t - (n - 16)] = 0
    hip.syncthreads()
    hip.atomic.add(h, x[hip.blockIdx.x * n + t] % 16, 1)
    hip.syncthreads()
    if t >= n - 16:
        hip.atomic.add(bins, t - (n - 16), h[t - (n - 16)])


@hip.jit(check=True)
def hist_starter(x, bins):  # the starter: bins never zeroed
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, h[t])


@hip.jit(check=True)
def hist_no_barrier(x, bins):  # zeroes, but nobody waits
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t < 16:
        h[t] = 0
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, h[t])


@hip.jit(check=True)
def hist_barrier_in_if(x, bins):  # the barrier inside the if: a divergent barrier
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t < 16:
        h[t] = 0
        hip.syncthreads()
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, h[t])


@hip.jit(check=True)
def hist_half_zeroed(x, bins):  # 8 threads zero 8 of the 16 bins
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t < 8:
        h[t] = 0
    hip.syncthreads()
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, h[t])


@hip.jit(check=True)
def hist_no_second_barrier(x, bins):  # reads the bins while others still add
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t < 16:
        h[t] = 0
    hip.syncthreads()
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    if t < 16:
        hip.atomic.add(bins, t, h[t])


@hip.jit(check=True)
def hist_plain_flush(x, bins):  # bins[t] += h[t]: blocks race on bins
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t < 16:
        h[t] = 0
    hip.syncthreads()
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        bins[t] += h[t]


# ---- 03.2 one atomic per block


@hip.jit(check=True)
def total_from_blockdim(x, total):  # strides from blockDim, a for loop over steps
    tile = hip.shared.array(256, np.float32)
    t = hip.threadIdx.x
    tile[t] = x[hip.grid(1)]
    hip.syncthreads()
    s = hip.blockDim.x // 2
    for _ in range(8):
        if t < s:
            tile[t] = tile[t] + tile[t + s]
        hip.syncthreads()
        s = s // 2
    if t == 0:
        hip.atomic.add(total, 0, tile[0])


@hip.jit(check=True)
def total_shuffles(x, total):  # shuffles in each wavefront, LDS between wavefronts
    partial = hip.shared.array(16, np.float32)
    t = hip.threadIdx.x
    v = x[hip.grid(1)]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    waves = hip.blockDim.x // hip.warpsize
    if hip.laneid == 0:
        partial[t // hip.warpsize] = v
    hip.syncthreads()
    if t == 0:
        s = np.float32(0)
        for w in range(waves):
            s += partial[w]
        hip.atomic.add(total, 0, s)


@hip.jit
def total_last_thread(x, total):  # the reduction folds towards the last thread
    tile = hip.shared.array(256, np.float32)
    t = hip.threadIdx.x
    n = hip.blockDim.x
    tile[t] = x[hip.blockIdx.x * n + t]
    hip.syncthreads()
    stride = n // 2
    while stride > 0:
        if t >= n - stride:
            tile[t] += tile[t - stride]
        hip.syncthreads()
        stride //= 2
    if t == n - 1:
        hip.atomic.add(total, 0, tile[n - 1])


@hip.jit(check=True)
def total_starter(x, total):  # the starter: += from every block
    tile = hip.shared.array(256, np.float32)
    t = hip.threadIdx.x
    tile[t] = x[hip.blockIdx.x * hip.blockDim.x + t]
    hip.syncthreads()
    stride = 128
    while stride > 0:
        if t < stride:
            tile[t] += tile[t + stride]
        hip.syncthreads()
        stride //= 2
    if t == 0:
        total[0] += tile[0]


@hip.jit(check=True)
def total_atomic_each(x, total):  # no reduction: an atomic per element
    hip.atomic.add(total, 0, x[hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x])


@hip.jit(check=True)
def total_every_thread_adds(x, total):  # no `if t == 0`: the partial sum added 256 times
    tile = hip.shared.array(256, np.float32)
    t = hip.threadIdx.x
    tile[t] = x[hip.blockIdx.x * hip.blockDim.x + t]
    hip.syncthreads()
    stride = 128
    while stride > 0:
        if t < stride:
            tile[t] += tile[t + stride]
        hip.syncthreads()
        stride //= 2
    hip.atomic.add(total, 0, tile[0])


@hip.jit(check=True)
def total_loop_no_barrier(x, total):  # the barrier inside the loop forgotten
    tile = hip.shared.array(256, np.float32)
    t = hip.threadIdx.x
    tile[t] = x[hip.blockIdx.x * hip.blockDim.x + t]
    hip.syncthreads()
    stride = 128
    while stride > 0:
        if t < stride:
            tile[t] += tile[t + stride]
        stride //= 2
    if t == 0:
        hip.atomic.add(total, 0, tile[0])


@hip.jit(check=True)
def total_plain_store(x, total):  # total[0] = ...: blocks overwrite each other
    tile = hip.shared.array(256, np.float32)
    t = hip.threadIdx.x
    tile[t] = x[hip.blockIdx.x * hip.blockDim.x + t]
    hip.syncthreads()
    stride = 128
    while stride > 0:
        if t < stride:
            tile[t] += tile[t + stride]
        hip.syncthreads()
        stride //= 2
    if t == 0:
        total[0] = tile[0]


@hip.jit(check=True)
def total_per_wave(x, total):  # shuffles, then an atomic per wavefront
    v = x[hip.grid(1)]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        hip.atomic.add(total, 0, v)


ANSWERS = [
    right("03.1", "thread 0 zeroes in a loop", lambda: (hist_thread0_loop,)),
    right("03.1", "block-strided zeroing", lambda: (hist_strided_zero,)),
    right("03.1", "the last 16 threads", lambda: (hist_last_threads,)),
    wrong("03.1", "starter: never zeroed", ["sanitizer", "uninitialised", "on h"],
          lambda: (hist_starter,)),
    wrong("03.1", "no barrier after zeroing", ["sanitizer", "lds race on h",
                                                "write at line", "atomic at line"],
          lambda: (hist_no_barrier,)),
    wrong("03.1", "barrier inside the if", ["divergent barrier"],
          lambda: (hist_barrier_in_if,)),
    wrong("03.1", "half the bins zeroed", ["uninitialised", "on h"],
          lambda: (hist_half_zeroed,)),
    wrong("03.1", "no barrier before the flush", ["lds race on h", "atomic at line",
                                                     "read at line"],
          lambda: (hist_no_second_barrier,)),
    wrong("03.1", "bins[t] += without an atomic", ["global race on bins"],
          lambda: (hist_plain_flush,)),
    right("03.2", "strides from blockDim", lambda: (total_from_blockdim,)),
    right("03.2", "shuffles, then LDS", lambda: (total_shuffles,)),
    right("03.2", "folds to the last thread", lambda: (total_last_thread,)),
    wrong("03.2", "starter: += from every block", ["sanitizer", "global race on total"],
          lambda: (total_starter,)),
    wrong("03.2", "atomic per element", ["2,048 atomics", "atomic per element"],
          lambda: (total_atomic_each,)),
    wrong("03.2", "every thread adds the partial sum", ["total[0] is", "2,048 atomics",
                                                        "added more than once"],
          lambda: (total_every_thread_adds,)),
    wrong("03.2", "no barrier in the loop", ["lds race on tile", "read at line", "update at line"],
          lambda: (total_loop_no_barrier,)),
    wrong("03.2", "plain store", ["global race on total"], lambda: (total_plain_store,)),
    wrong("03.2", "atomic per wavefront", ["32 atomics", "one per wavefront",
                                           "one per block"], lambda: (total_per_wave,)),
]
