"""Lab 12 (performance capstone): students' rooflines, block sizes, one-wave-per-row
softmaxes and batched launches."""

from __future__ import annotations

import math

import numpy as np

from answers import right, wrong
from gpusim import hip
from gpusim.devices import get_spec
from gpusim.exercises.labs.lab12 import _thread_per_row as naive

GBS = get_spec("mi300x").memory_bandwidth_gbs


def roof_right(rows, cols):
    return 2 * rows * cols * 4 / (GBS * 1e9) * 1e6


def roof_tb(rows, cols):
    nbytes = rows * cols * np.dtype(np.float32).itemsize * 2
    return nbytes / (GBS / 1000) / 1e6


def roof_numpy(rows, cols):
    return np.float64(8.0 * rows * cols) / np.float64(GBS) * 1e-3


# ---- 12.3: one wavefront per row, kernel[rows, 64](x, y, rows, cols)


@hip.jit
def wave_solution(x, y, rows, cols):
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
def wave_inverse(x, y, rows, cols):  # multiply by 1/s, blockDim for the stride
    lane = hip.threadIdx.x
    r = hip.blockIdx.x
    w = hip.blockDim.x
    m = np.float32(-np.inf)
    for c in range(lane, cols, w):
        m = max(m, x[r, c])
    d = w // 2
    while d > 0:
        m = max(m, hip.shfl_xor(m, d))
        d //= 2
    s = np.float32(0.0)
    c = lane
    while c < cols:
        s += math.exp(x[r, c] - m)
        c += w
    d = 1
    while d < w:
        s += hip.shfl_xor(s, d)
        d *= 2
    inv = np.float32(1.0) / s
    for c in range(lane, cols, w):
        y[r, c] = math.exp(x[r, c] - m) * inv


@hip.jit
def wave_broadcast(x, y, rows, cols):  # shfl_down tree, lane 0's sum broadcast
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
        s += hip.shfl_down(s, d)
        d //= 2
    s = hip.shfl(s, 0)
    for c in range(lane, cols, w):
        y[r, c] = math.exp(x[r, c] - m) / s


@hip.jit
def wave_starter(x, y, rows, cols):
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
def wave_chunked(x, y, rows, cols):  # reduced sum, chunks per lane: uncoalesced
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
def wave_64(x, y, rows, cols):  # the wavefront size typed in
    lane = hip.threadIdx.x
    r = hip.blockIdx.x
    m = np.float32(-np.inf)
    for c in range(lane, cols, 64):
        m = max(m, x[r, c])
    d = 32
    while d > 0:
        m = max(m, hip.shfl_xor(m, d))
        d //= 2
    s = np.float32(0.0)
    for c in range(lane, cols, 64):
        s += math.exp(x[r, c] - m)
    d = 32
    while d > 0:
        s += hip.shfl_xor(s, d)
        d //= 2
    for c in range(lane, cols, 64):
        y[r, c] = math.exp(x[r, c] - m) / s


@hip.jit
def wave_16(x, y, rows, cols):  # CUDA habit: the sum's butterfly starts at 16
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
    d = 16
    while d > 0:
        s += hip.shfl_xor(s, d)
        d //= 2
    for c in range(lane, cols, w):
        y[r, c] = math.exp(x[r, c] - m) / s


# ---- 12.4: all heads in one launch


@hip.jit
def rows4(x, y, rows, cols):
    lane = hip.threadIdx.x
    r = hip.blockIdx.x * hip.blockDim.y + hip.threadIdx.y
    w = hip.warpsize
    v = hip.local.array(8, np.float32)
    per = cols // w
    m = np.float32(-np.inf)
    for k in range(per):
        v[k] = x[r, lane + w * k]
        m = max(m, v[k])
    d = w // 2
    while d > 0:
        m = max(m, hip.shfl_xor(m, d))
        d //= 2
    s = np.float32(0.0)
    for k in range(per):
        v[k] = math.exp(v[k] - m)
        s += v[k]
    d = w // 2
    while d > 0:
        s += hip.shfl_xor(s, d)
        d //= 2
    for k in range(per):
        y[r, lane + w * k] = v[k] / s


def all_right(d_in, d_out):
    rows4[d_in.shape[0] // 4, (64, 4)](d_in, d_out, d_in.shape[0], d_in.shape[1])


def all_consts(d_in, d_out):
    heads, rows, cols = 16, 512, 256
    rows4[heads * rows // 4, (64, 4)](d_in, d_out, heads * rows, cols)


def all_ceil(d_in, d_out):
    n = d_in.shape[0]
    rows4[(n + 3) // 4, (64, 4)](d_in, d_out, n, 256)


def all_per_head(d_in, d_out):
    for h in range(16):
        head = slice(h * 512, (h + 1) * 512)
        rows4[128, (64, 4)](d_in[head], d_out[head], 512, 256)


def all_first_head(d_in, d_out):
    rows4[128, (64, 4)](d_in, d_out, 512, 256)


def all_one_row_per_block(d_in, d_out):  # one launch, but (64, 1) blocks
    rows4[d_in.shape[0], (64, 1)](d_in, d_out, d_in.shape[0], 256)


def all_naive(d_in, d_out):
    naive[d_in.shape[0] // 64, 64](d_in, d_out, d_in.shape[0], 256)


ANSWERS = [
    right("12.1", "the formula", lambda: (roof_right,)),
    right("12.1", "bytes over TB/s", lambda: (roof_tb,)),
    right("12.1", "NumPy float", lambda: (roof_numpy,)),
    wrong("12.1", "bytes read only", ["bytes written"],
          lambda: (lambda r, c: roof_right(r, c) / 2,)),
    wrong("12.1", "in seconds", ["in seconds"], lambda: (lambda r, c: roof_right(r, c) / 1e6,)),
    wrong("12.1", "in nanoseconds", ["in nanoseconds"],
          lambda: (lambda r, c: roof_right(r, c) * 1e3,)),
    wrong("12.1", "starter: zero", ["too small"], lambda: (lambda r, c: 0.0,)),
    right("12.2", "block 64", lambda: (naive, 64)),
    right("12.2", "block 128", lambda: (naive, 128)),
    right("12.2", "block 64 as a NumPy int", lambda: (naive, np.int64(64))),
    wrong("12.2", "starter: 256", ["target is 1.5x"], lambda: (naive, 256)),
    wrong("12.2", "not a multiple of 64", ["not a whole number"], lambda: (naive, 100)),
    wrong("12.2", "a string", ["positive number"], lambda: (naive, "64")),
    wrong("12.2", "block 32", ["not a whole number", "64-lane"], lambda: (naive, 32)),
    right("12.3", "the solution", lambda: (wave_solution,)),
    right("12.3", "blockDim stride, multiply by 1/s", lambda: (wave_inverse,)),
    right("12.3", "shfl_down tree and a broadcast", lambda: (wave_broadcast,)),
    wrong("12.3", "starter", ["each lane's own", "across the wavefront"],
          lambda: (wave_starter,)),
    wrong("12.3", "chunks per lane", ["cache lines", "neighbouring"], lambda: (wave_chunked,)),
    wrong("12.3", "64 typed in", ["32-lane", "assumes a 64-wide wavefront"],
          lambda: (wave_64,)),
    wrong("12.3", "sum butterfly from 16", ["32 of the 64 lanes", "hip.warpsize // 2"],
          lambda: (wave_16,)),
    right("12.4", "one launch", lambda: (all_right,)),
    right("12.4", "constants multiplied out", lambda: (all_consts,)),
    right("12.4", "rounded-up grid", lambda: (all_ceil,)),
    wrong("12.4", "starter: a launch per head", ["16 launches", "launch cost"],
          lambda: (all_per_head,)),
    wrong("12.4", "first head only", ["never written"], lambda: (all_first_head,)),
    wrong("12.4", "the naive kernel in one launch", ["roofline", "50%"], lambda: (all_naive,)),
    wrong("12.4", "one row per block", ["roofline", "50%"], lambda: (all_one_row_per_block,),
          misjudged="one row per block still reaches half the roofline in the model"),
]
