"""The timing-model calibration suite: kernels written once in numba.cuda's spelling.

The same source runs through numba-cuda on a real NVIDIA GPU (``measure_cuda.py``, on the
device machine) and through gpusim's timing model (``from gpusim import cuda``), at the
same sizes, so modeled and measured times can be compared kernel by kernel and as ratios
within a family (stride 64 / stride 1, naive / padded transpose, ...).

Which ``cuda`` the kernels use is chosen before import by GPUSIM_CALIBRATE_ON:
"numba" for numba-cuda on hardware, anything else for gpusim's facade.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

if os.environ.get("GPUSIM_CALIBRATE_ON") == "numba":
    from numba import cuda
else:
    from gpusim import cuda

N_BIG = 1 << 24  # 16 Mi float32 = 64 MiB per array: far past any L2 we model
N_LAB = 1 << 20  # the size the labs use
TRANSPOSE_N = 4096
MATMUL_N = 1024
TILE = 32  # transpose tile (threads per block: 32 x 8, each thread moves 4 elements)
TILE_PADDED = 33  # one spare column: rows start in different LDS banks
MM_TILE = 16
FMA_ITERS = 1024
LDS_ITERS = 256


@cuda.jit
def copy_strided(a, out, stride):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[(i * stride) % a.size]


@cuda.jit
def gather(a, idx, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[idx[i]]


@cuda.jit
def vector_add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit
def transpose_naive(a, out):
    x = cuda.blockIdx.x * TILE + cuda.threadIdx.x
    y0 = cuda.blockIdx.y * TILE + cuda.threadIdx.y
    for k in range(0, TILE, 8):
        out[x, y0 + k] = a[y0 + k, x]


@cuda.jit
def transpose_lds(a, out):
    tile = cuda.shared.array((TILE, TILE), np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for k in range(0, TILE, 8):
        tile[ty + k, tx] = a[y + k, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for k in range(0, TILE, 8):
        out[y + k, x] = tile[tx, ty + k]


@cuda.jit
def transpose_lds_padded(a, out):
    tile = cuda.shared.array((TILE, TILE_PADDED), np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for k in range(0, TILE, 8):
        tile[ty + k, tx] = a[y + k, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for k in range(0, TILE, 8):
        out[y + k, x] = tile[tx, ty + k]


@cuda.jit
def reduce_atomic(a, out):
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.add(out, 0, a[i])


@cuda.jit
def reduce_tree(a, out):
    part = cuda.shared.array(256, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    part[tid] = a[i] if i < a.size else np.float32(0.0)
    cuda.syncthreads()
    step = 128
    while step > 0:
        if tid < step:
            part[tid] += part[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, part[0])


@cuda.jit
def reduce_shfl(a, out):
    i = cuda.grid(1)
    v = a[i] if i < a.size else np.float32(0.0)
    d = cuda.warpsize // 2
    while d > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, d)
        d //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


@cuda.jit
def matmul_naive(a, b, c):
    row, col = cuda.grid(2)
    if row < c.shape[0] and col < c.shape[1]:
        acc = np.float32(0.0)
        for k in range(a.shape[1]):
            acc += a[row, k] * b[k, col]
        c[row, col] = acc


@cuda.jit
def matmul_tiled(a, b, c):
    sa = cuda.shared.array((MM_TILE, MM_TILE), np.float32)
    sb = cuda.shared.array((MM_TILE, MM_TILE), np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * MM_TILE + ty
    col = cuda.blockIdx.x * MM_TILE + tx
    acc = np.float32(0.0)
    for t in range(a.shape[1] // MM_TILE):
        sa[ty, tx] = a[row, t * MM_TILE + tx]
        sb[ty, tx] = b[t * MM_TILE + ty, col]
        cuda.syncthreads()
        for k in range(MM_TILE):
            acc += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    c[row, col] = acc


@cuda.jit
def stencil5(a, out):
    y, x = cuda.grid(2)
    if 0 < y < a.shape[0] - 1 and 0 < x < a.shape[1] - 1:
        out[y, x] = (np.float32(0.25) * (a[y - 1, x] + a[y + 1, x] + a[y, x - 1] + a[y, x + 1])
                     - a[y, x])


@cuda.jit
def histogram_global(data, bins):
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(bins, data[i], 1)


@cuda.jit
def histogram_shared(data, bins):
    local = cuda.shared.array(256, np.int32)
    tid = cuda.threadIdx.x
    local[tid] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(local, data[i], 1)
    cuda.syncthreads()
    cuda.atomic.add(bins, tid, local[tid])


@cuda.jit
def lds_strided(out, stride):
    buf = cuda.shared.array(8192, np.float32)
    tid = cuda.threadIdx.x
    for j in range(8192 // 256):
        buf[j * 256 + tid] = np.float32(tid)
    cuda.syncthreads()
    acc = np.float32(0.0)
    slot = (tid * stride) % 8192
    for _ in range(LDS_ITERS):
        acc += buf[slot]
        slot = (slot + 1) % 8192
    out[cuda.grid(1)] = acc


@cuda.jit
def copy_with_lds(a, out):
    pad = cuda.shared.array(0, np.float32)  # dynamic LDS: only its size matters here
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i]
    if cuda.threadIdx.x == 0 and a[0] == np.float32(-1.0):
        pad[0] = a[0]  # never true: keeps the allocation without touching it


@cuda.jit
def fma_chain(out, x0):
    i = cuda.grid(1)
    x = x0 + np.float32(i) * np.float32(1e-9)
    y = np.float32(0.5)
    for _ in range(FMA_ITERS):
        y = x * y + np.float32(0.25)
    if i < out.size:
        out[i] = y


@dataclass
class Case:
    """One kernel launch to time: how to build its arguments and what it must move."""

    name: str
    family: str
    kernel: object
    grid: tuple
    block: tuple
    args: Callable[[np.random.Generator], list]  # host arrays and scalars, in order
    lds_bytes: int = 0  # dynamic LDS per block
    bytes_moved: int = 0  # the fewest DRAM bytes (each input read once, output written once)


def _f32(rng, n):
    return rng.random(n, dtype=np.float32)


def cases() -> list[Case]:
    """Every launch of the suite (29), in family order."""
    out: list[Case] = []
    big = math.ceil(N_BIG / 256)
    for s in (1, 2, 4, 8, 16, 32, 64):
        out.append(Case(f"copy_stride{s}", "strided copy", copy_strided, (big,), (256,),
                        lambda r, s=s: [_f32(r, N_BIG), np.zeros(N_BIG, np.float32), s],
                        bytes_moved=8 * N_BIG))
    out.append(Case("gather_sequential", "gather", gather, (big,), (256,),
                    lambda r: [_f32(r, N_BIG), np.arange(N_BIG, dtype=np.int32),
                               np.zeros(N_BIG, np.float32)], bytes_moved=12 * N_BIG))
    out.append(Case("gather_random", "gather", gather, (big,), (256,),
                    lambda r: [_f32(r, N_BIG), r.permutation(N_BIG).astype(np.int32),
                               np.zeros(N_BIG, np.float32)], bytes_moved=12 * N_BIG))
    for n, label in ((N_LAB, "lab"), (N_BIG, "big")):
        out.append(Case(f"vector_add_{label}", "vector add", vector_add,
                        (math.ceil(n / 256),), (256,),
                        lambda r, n=n: [_f32(r, n), _f32(r, n), np.zeros(n, np.float32)],
                        bytes_moved=12 * n))
    tgrid = (TRANSPOSE_N // TILE, TRANSPOSE_N // TILE)
    for k in (transpose_naive, transpose_lds, transpose_lds_padded):
        out.append(Case(_name(k), "transpose", k,
                        tgrid, (TILE, 8),
                        lambda r: [r.random((TRANSPOSE_N, TRANSPOSE_N), dtype=np.float32),
                                   np.zeros((TRANSPOSE_N, TRANSPOSE_N), np.float32)],
                        bytes_moved=8 * TRANSPOSE_N * TRANSPOSE_N))
    for k in (reduce_atomic, reduce_tree, reduce_shfl):
        out.append(Case(_name(k), "reduction", k, (big,), (256,),
                        lambda r: [_f32(r, N_BIG), np.zeros(1, np.float32)],
                        bytes_moved=4 * N_BIG))
    mgrid = (MATMUL_N // MM_TILE, MATMUL_N // MM_TILE)
    for k in (matmul_naive, matmul_tiled):
        out.append(Case(_name(k), "matmul", k, mgrid, (MM_TILE, MM_TILE),
                        lambda r: [r.random((MATMUL_N, MATMUL_N), dtype=np.float32),
                                   r.random((MATMUL_N, MATMUL_N), dtype=np.float32),
                                   np.zeros((MATMUL_N, MATMUL_N), np.float32)],
                        bytes_moved=12 * MATMUL_N * MATMUL_N))
    out.append(Case("stencil5", "stencil", stencil5, (TRANSPOSE_N // 16, TRANSPOSE_N // 16),
                    (16, 16),
                    lambda r: [r.random((TRANSPOSE_N, TRANSPOSE_N), dtype=np.float32),
                               np.zeros((TRANSPOSE_N, TRANSPOSE_N), np.float32)],
                    bytes_moved=8 * TRANSPOSE_N * TRANSPOSE_N))
    for k in (histogram_global, histogram_shared):
        out.append(Case(_name(k), "histogram", k, (big,), (256,),
                        lambda r: [r.integers(0, 256, N_BIG, dtype=np.int32),
                                   np.zeros(256, np.int32)], bytes_moved=4 * N_BIG))
    for s in (1, 2, 32):
        out.append(Case(f"lds_stride{s}", "LDS banks", lds_strided, (4096,), (256,),
                        lambda r, s=s: [np.zeros(4096 * 256, np.float32), s],
                        bytes_moved=4 * 4096 * 256))
    for kib in (0, 16, 40):
        out.append(Case(f"copy_lds{kib}k", "occupancy (LDS per block)", copy_with_lds,
                        (big,), (256,),
                        lambda r: [_f32(r, N_BIG), np.zeros(N_BIG, np.float32)],
                        lds_bytes=kib * 1024, bytes_moved=8 * N_BIG))
    out.append(Case("fma_chain", "compute", fma_chain, (N_LAB // 256,), (256,),
                    lambda r: [np.zeros(N_LAB, np.float32), np.float32(1.0)],
                    bytes_moved=4 * N_LAB))
    return out


def _name(kernel) -> str:
    py_func = getattr(kernel, "py_func", None)  # numba-cuda's dispatcher keeps the function
    return py_func.__name__ if py_func is not None else kernel.__name__
