"""Student submissions for the course checks' tests: one right and several wrong ones
per exercise, each wrong one a mistake students make. Kernels must live in a file."""

import math

import numpy as np

from gpusim import hip

# ---- 01.1 grid-stride loop: scale(a, x, out) with 64 blocks of 256 threads


@hip.jit
def scale_right(a, x, out):
    i = hip.grid(1)
    stride = hip.gridsize(1)
    while i < out.size:
        out[i] = a * x[i]
        i += stride


@hip.jit
def scale_no_loop(a, x, out):  # the starter: one element per thread
    i = hip.grid(1)
    if i < out.size:
        out[i] = a * x[i]


@hip.jit
def scale_stride_64(a, x, out):  # right values, every element done by 256 threads
    i = hip.grid(1)
    while i < out.size:
        out[i] = a * x[i]
        i += 64


@hip.jit
def scale_skips(a, x, out):  # steps two grids at a time: half the elements never written
    i = hip.grid(1)
    while i < out.size:
        out[i] = a * x[i]
        i += 2 * hip.gridsize(1)


@hip.jit
def scale_past_end(a, x, out):  # <= reads one past the end
    i = hip.grid(1)
    while i <= out.size:
        out[i] = a * x[i]
        i += hip.gridsize(1)


@hip.jit
def scale_wrong_factor(a, x, out):
    i = hip.grid(1)
    while i < out.size:
        out[i] = 2.0 * x[i]
        i += hip.gridsize(1)


# ---- 02.1 wavefront sums with shuffles: wave_sums(x, sums)




@hip.jit
def wave_sums_right(x, sums):
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def wave_sums_cuda(x, sums):  # the starter: offset 16, a 32-lane warp's
    i = hip.grid(1)
    v = x[i]
    offset = 16
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def wave_sums_no_store(x, sums):  # forgets to write the result
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2


# ---- 03.1 histogram with LDS bins: histogram(x, bins), 16 blocks of 256


@hip.jit
def histogram_right(x, bins):
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t < 16:
        h[t] = 0
    hip.syncthreads()
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, h[t])


@hip.jit
def histogram_uninitialised(x, bins):  # the starter
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, h[t])


@hip.jit
def histogram_no_barrier(x, bins):  # zeroes the bins but does not wait
    h = hip.shared.array(16, np.int32)
    t = hip.threadIdx.x
    if t < 16:
        h[t] = 0
    hip.atomic.add(h, x[hip.blockIdx.x * hip.blockDim.x + t] % 16, 1)
    hip.syncthreads()
    if t < 16:
        hip.atomic.add(bins, t, h[t])


# ---- 03.2 one atomic per block: total(x, total), 8 blocks of 256



@hip.jit
def total_atomic_per_block(x, total):
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
        hip.atomic.add(total, 0, tile[0])


@hip.jit
def total_racy(x, total):  # the starter: += from every block
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


@hip.jit(check=True)  # as lab 03 declares its kernels: the check must still trace it
def total_atomic_per_element(x, total):  # right, but one atomic per element
    hip.atomic.add(total, 0, x[hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x])


# ---- 06.1 conflict-free transpose: transpose(a, out), blocks of 32 x 32

TILE = 32


@hip.jit
def transpose_padded(a, out):
    tile = hip.shared.array((TILE, TILE + 1), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def transpose_unpadded(a, out):  # the starter: 32-way conflicts on the column read
    tile = hip.shared.array((TILE, TILE), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def transpose_pad_two(a, out):  # rows of 34 words: still 2-way
    tile = hip.shared.array((TILE, TILE + 2), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def transpose_forgot_transpose(a, out):  # conflict-free, but copies instead
    tile = hip.shared.array((TILE, TILE + 1), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx] = tile[ty, tx]


# ---- 04.1 streams: pipeline(streams) over 8 chunks, as in lab 04


@hip.jit
def brighten(x, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = math.sqrt(x[i]) * 1.5 + 0.25


def make_pipeline(pick, chunks=8, chunk=1 << 18, broken=False, wait=False):
    """A lab-04 pipeline whose chunk c goes to stream ``pick(c, streams)``; ``broken``
    forgets to copy the last chunk back; ``wait`` synchronises after every chunk."""
    h_in = hip.pinned_array(chunks * chunk, np.float32)
    h_in[:] = 9.0
    h_out = hip.pinned_array(chunks * chunk, np.float32)
    d_in = hip.device_array(chunks * chunk, np.float32)
    d_res = hip.device_array(chunks * chunk, np.float32)

    def pipeline(streams):
        for c in range(chunks):
            s = pick(c, streams)
            part = slice(c * chunk, (c + 1) * chunk)
            hip.hipMemcpyAsync(d_in[part], h_in[part], 4 * chunk, hip.hipMemcpyHostToDevice, s)
            brighten[chunk // 256, 256, s](d_in[part], d_res[part])
            if not (broken and c == chunks - 1):
                hip.hipMemcpyAsync(h_out[part], d_res[part], 4 * chunk,
                                   hip.hipMemcpyDeviceToHost, s)
            if wait:
                hip.hipStreamSynchronize(s)
    return pipeline, h_in, h_out


# ---- 02.2 stream compaction: compact(x, out, count), 16 blocks of 256


@hip.jit
def compact_per_wave(x, out, count):
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    votes = hip.ballot(keep)
    lane = hip.laneid
    below = votes & ((np.uint64(1) << np.uint64(lane)) - np.uint64(1))
    base = 0
    if lane == 0:
        base = hip.atomic.add(count, 0, hip.popc(votes))
    base = hip.shfl(base, 0)
    if keep:
        out[base + hip.popc(below)] = x[i]


@hip.jit
def compact_per_value(x, out, count):  # the starter: right, an atomic per kept value
    i = hip.grid(1)
    if i < x.size and x[i] > 0:
        out[hip.atomic.add(count, 0, 1)] = x[i]


@hip.jit
def compact_no_shfl(x, out, count):  # only lane 0 knows the base
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    votes = hip.ballot(keep)
    lane = hip.laneid
    below = votes & ((np.uint64(1) << np.uint64(lane)) - np.uint64(1))
    base = 0
    if lane == 0:
        base = hip.atomic.add(count, 0, hip.popc(votes))
    if keep:
        out[base + hip.popc(below)] = x[i]
