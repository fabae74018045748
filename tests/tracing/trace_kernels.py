"""Kernels as a learner writes them (``from gpusim import hip``), for the trace tests."""

import numpy as np

from gpusim import hip


@hip.jit
def copy_strided(a, b, stride):
    """b[i] = a[i * stride]: stride 1 is coalesced, 32 floats is one line per lane."""
    i = hip.grid(1)
    if i < b.size:
        b[i] = a[(i * stride) % a.size]


@hip.jit
def copy_gather(a, b, idx):
    i = hip.grid(1)
    if i < b.size:
        b[i] = a[idx[i]]


@hip.jit
def transpose_lds(a, out):
    """32x32 tiles through LDS; the column read hits one bank 32 times."""
    tile = hip.shared.array((32, 32), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * 32 + ty, hip.blockIdx.x * 32 + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * 32 + ty, hip.blockIdx.y * 32 + tx] = tile[tx, ty]


@hip.jit
def transpose_lds_padded(a, out):
    """The same with one float of padding per row: the column read is conflict-free."""
    tile = hip.shared.array((32, 33), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * 32 + ty, hip.blockIdx.x * 32 + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * 32 + ty, hip.blockIdx.y * 32 + tx] = tile[tx, ty]


@hip.jit
def matmul_naive(A, B, C, n):
    row = hip.blockIdx.y * hip.blockDim.y + hip.threadIdx.y
    col = hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x
    if row < n and col < n:
        acc = np.float32(0.0)
        for k in range(n):
            acc += A[row, k] * B[k, col]
        C[row, col] = acc


@hip.jit
def matmul_tiled(A, B, C, n):
    tA = hip.shared.array((16, 16), np.float32)
    tB = hip.shared.array((16, 16), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    row = hip.blockIdx.y * 16 + ty
    col = hip.blockIdx.x * 16 + tx
    acc = np.float32(0.0)
    for t in range(n // 16):
        tA[ty, tx] = A[row, t * 16 + tx]
        tB[ty, tx] = B[t * 16 + ty, col]
        hip.syncthreads()
        for k in range(16):
            acc += tA[ty, k] * tB[k, tx]
        hip.syncthreads()
    C[row, col] = acc


@hip.jit
def accumulate(a, out):
    """out[i] += a[i]: a plain read-modify-write is a load and a store."""
    i = hip.grid(1)
    if i < out.size:
        out[i] += a[i]


@hip.jit
def histogram(x, bins):
    i = hip.grid(1)
    if i < x.size:
        hip.atomic.add(bins, x[i] % bins.size, 1)


@hip.jit
def private_scratch(a, out):
    """A local (private) array lives in registers/scratch, not in global memory."""
    tmp = hip.local.array(4, np.float32)
    i = hip.grid(1)
    for k in range(4):
        tmp[k] = a[i] * k
    out[i] = tmp[0] + tmp[1] + tmp[2] + tmp[3]


@hip.jit
def out_of_bounds(a):
    i = hip.grid(1)
    a[i + 1] = 1.0
