"""The canonical kernels of the ISA tests, written as learners write them."""

import math

import numpy as np

from gpusim import hip

TILE = 16


def vector_add(a, b, c):
    i = hip.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def tiled_matmul(a, b, c):
    sa = hip.shared.array((TILE, TILE), np.float32)
    sb = hip.shared.array((TILE, TILE), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    row = hip.blockIdx.y * TILE + ty
    col = hip.blockIdx.x * TILE + tx
    n = a.shape[0]
    acc = np.float32(0)
    for t in range(0, n, TILE):
        sa[ty, tx] = a[row, t + tx] if row < n and t + tx < n else 0
        sb[ty, tx] = b[t + ty, col] if t + ty < n and col < n else 0
        hip.syncthreads()
        for k in range(TILE):
            acc += sa[ty, k] * sb[k, tx]
        hip.syncthreads()
    if row < n and col < n:
        c[row, col] = acc


def wave_reduce(x, out):
    i = hip.grid(1)
    v = x[i] if i < x.size else np.float32(0)
    off = hip.warpsize // 2
    while off > 0:
        v += hip.shfl_down(v, off)
        off //= 2
    if hip.laneid == 0:
        hip.atomic.add(out, 0, v)


def histogram(x, bins):
    i = hip.grid(1)
    stride = hip.gridsize(1)
    while i < x.size:
        hip.atomic.add(bins, x[i] % bins.size, 1)
        i += stride


def with_print(x):
    i = hip.grid(1)
    print(i)  # device printf: not lowered
    x[i] = 0


def with_tan(x):
    s = hip.shared.array(128, np.float32)
    s[hip.threadIdx.x] = math.tan(x[0])
    x[0] = s[0]


def bounded_copy(x, out):
    i = hip.grid(1)
    if i < x.size:
        out[i] = x[i]


WEIGHTS = np.arange(8, dtype=np.float32)


def everything(x, out, n, flag):
    """One kernel touching every construct the lowering supports."""
    i, j = hip.grid(2)
    w = hip.const.array_like(WEIGHTS)
    loc = hip.local.array(4, np.int32)
    for q in range(4):
        loc[q] = q * i
    v = x[i]
    mask = hip.ballot(v > 0)
    count = hip.syncthreads_count(v > 0)
    out[i] = hip.popc(mask) + hip.ffs(np.int32(i)) + hip.clz(np.int64(j)) + count
    out[i] += loc[i % 4] + hip.brev(np.uint32(n)) + w[i % 8] + hip.gridsize(1)
    out[i] += math.sqrt(abs(v)) + math.exp(np.float32(v)) + min(v, 2.0) + max(i, j)
    out[i] += (v // 3) + (v % 3) + v ** 2 + i // 7 + i % 5 + np.float32(v) ** 0.5
    out[i] += hip.fma(v, v, 1.0) + math.floor(v) + np.fmax(v, 0.5) + (-i) + (~j)
    if flag and hip.any(v < 0) or not hip.all(v > -1):
        out[i] -= hip.shfl_xor(v, 1) + hip.shfl_up(i, 1) + hip.shfl(np.float64(v), 0)
    old = hip.atomic.cas(out, 0, 1.0, 2.0)
    hip.atomic.max(out, 1, old)
    hip.atomic.inc(loc, 0, 3)
    k = n
    while k > 0:
        k -= 1
        if k == 3:
            continue
        if k == 7:
            break
        out[k] = k if k % 2 else -k
    for k in range(n, 0, -2):
        out[k] += hip.blockDim.y * hip.gridDim.z + hip.threadIdx.z
    assert i >= 0
    hip.threadfence()
    hip.syncwarp()
    if n < 0:
        return
    out[0] = hip.activemask() + hip.warpsize
