"""Student submissions for the checks of labs 07-12: one right and several wrong ones per
exercise, each wrong one a mistake students make. Kernels must live in a file."""

import math

import numpy as np

from gpusim import hip
from tests.course.submissions import wave_sums_right  # noqa: F401 - 09.2 is 02.1 ported

# ---- 12.3: one wavefront per row (12.2 uses the check's own one-thread-per-row kernel)


@hip.jit
def softmax_wave_right(x, y, rows, cols):
    lane = hip.threadIdx.x
    r = hip.blockIdx.x
    w = hip.warpsize
    m = np.float32(-np.inf)
    for c in range(lane, cols, w):
        m = max(m, x[r, c])
    d = w // 2
    while d > 0:
        m = max(m, hip.shfl_xor(m, d))
        d //= 2
    s = np.float32(0.0)
    for c in range(lane, cols, w):
        s += math.exp(x[r, c] - m)
    d = w // 2
    while d > 0:
        s += hip.shfl_xor(s, d)
        d //= 2
    for c in range(lane, cols, w):
        y[r, c] = math.exp(x[r, c] - m) / s


@hip.jit
def softmax_wave_starter(x, y, rows, cols):  # chunks per lane, no reduction of the sum
    lane = hip.threadIdx.x
    r = hip.blockIdx.x
    w = hip.warpsize
    m = np.float32(-np.inf)
    for c in range(lane, cols, w):
        m = max(m, x[r, c])
    d = w // 2
    while d > 0:
        m = max(m, hip.shfl_xor(m, d))
        d //= 2
    chunk = cols // w
    s = np.float32(0.0)
    for c in range(lane * chunk, lane * chunk + chunk):
        s += math.exp(x[r, c] - m)
    for c in range(lane * chunk, lane * chunk + chunk):
        y[r, c] = math.exp(x[r, c] - m) / s


@hip.jit
def softmax_wave_chunked(x, y, rows, cols):  # right values, uncoalesced chunks per lane
    lane = hip.threadIdx.x
    r = hip.blockIdx.x
    w = hip.warpsize
    chunk = cols // w
    m = np.float32(-np.inf)
    for c in range(lane * chunk, lane * chunk + chunk):
        m = max(m, x[r, c])
    d = w // 2
    while d > 0:
        m = max(m, hip.shfl_xor(m, d))
        d //= 2
    s = np.float32(0.0)
    for c in range(lane * chunk, lane * chunk + chunk):
        s += math.exp(x[r, c] - m)
    d = w // 2
    while d > 0:
        s += hip.shfl_xor(s, d)
        d //= 2
    for c in range(lane * chunk, lane * chunk + chunk):
        y[r, c] = math.exp(x[r, c] - m) / s


@hip.jit
def softmax_wave32(x, y, rows, cols):  # CUDA habit: the butterfly starts at 16
    lane = hip.threadIdx.x
    r = hip.blockIdx.x
    m = np.float32(-np.inf)
    for c in range(lane, cols, 64):
        m = max(m, x[r, c])
    d = 16
    while d > 0:
        m = max(m, hip.shfl_xor(m, d))
        d //= 2
    s = np.float32(0.0)
    for c in range(lane, cols, 64):
        s += math.exp(x[r, c] - m)
    d = 16
    while d > 0:
        s += hip.shfl_xor(s, d)
        d //= 2
    for c in range(lane, cols, 64):
        y[r, c] = math.exp(x[r, c] - m) / s


# ---- 12.4: all heads in one launch (rows of 256, 4 rows per block of (64, 4))


@hip.jit
def softmax_rows(x, y, rows, cols):
    lane = hip.threadIdx.x
    r = hip.blockIdx.x * hip.blockDim.y + hip.threadIdx.y
    v = hip.local.array(4, np.float32)
    m = np.float32(-np.inf)
    for k in range(4):
        v[k] = x[r, lane + 64 * k]
        m = max(m, v[k])
    d = 32
    while d > 0:
        m = max(m, hip.shfl_xor(m, d))
        d //= 2
    s = np.float32(0.0)
    for k in range(4):
        v[k] = math.exp(v[k] - m)
        s += v[k]
    d = 32
    while d > 0:
        s += hip.shfl_xor(s, d)
        d //= 2
    for k in range(4):
        y[r, lane + 64 * k] = v[k] / s


def softmax_all_right(d_in, d_out):
    softmax_rows[d_in.shape[0] // 4, (64, 4)](d_in, d_out, d_in.shape[0], 256)


def softmax_all_per_head(d_in, d_out):
    for h in range(16):
        head = slice(h * 512, (h + 1) * 512)
        softmax_rows[128, (64, 4)](d_in[head], d_out[head], 512, 256)


def softmax_all_first_head(d_in, d_out):
    softmax_rows[128, (64, 4)](d_in, d_out, 512, 256)


# ---- 09.2: one sum per wavefront


@hip.jit
def wave_sums_16(x, sums):  # the hipified starter: a 32-lane tree
    i = hip.grid(1)
    v = x[i]
    offset = 16
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def wave_sums_every_lane(x, sums):  # every lane writes: a race on the slot
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    sums[i // hip.warpsize] = v


# ---- 08.1: pi with rocRAND's device API

from gpusim import rocrand  # noqa: E402


@hip.jit
def pi_right(hits, seed, per_thread):
    tid = hip.grid(1)
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, tid, 0, st)
    count = 0
    for _ in range(per_thread):
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        if x * x + y * y <= 1.0:
            count += 1
    hip.atomic.add(hits, 0, count)


@hip.jit
def pi_same_stream(hits, seed, per_thread):  # every thread on subsequence 0
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, 0, 0, st)
    count = 0
    for _ in range(per_thread):
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        if x * x + y * y <= 1.0:
            count += 1
    hip.atomic.add(hits, 0, count)


@hip.jit
def pi_starter(hits, seed, per_thread):
    count = 0
    hip.atomic.add(hits, 0, count)


@hip.jit
def pi_offset(hits, seed, per_thread):  # thread id as the offset: overlapping streams
    tid = hip.grid(1)
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, 0, tid, st)
    count = 0
    for _ in range(per_thread):
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        if x * x + y * y <= 1.0:
            count += 1
    hip.atomic.add(hits, 0, count)
