"""Known kernels whose view data the tests can predict (defined in a file: kernels
must have readable source)."""

import numpy as np

from gpusim import hip

TILE = 32


@hip.jit
def copy_strided(a, b, stride):
    i = hip.grid(1)
    if i < b.size:
        b[i] = a[(i * stride) % a.size]


@hip.jit
def transpose_lds(a, out):
    tile = hip.shared.array((TILE, TILE), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def transpose_padded(a, out):
    tile = hip.shared.array((TILE, TILE + 1), np.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    tile[ty, tx] = a[hip.blockIdx.y * TILE + ty, hip.blockIdx.x * TILE + tx]
    hip.syncthreads()
    out[hip.blockIdx.x * TILE + ty, hip.blockIdx.y * TILE + tx] = tile[tx, ty]


@hip.jit
def even_lanes(x, out):
    i = hip.grid(1)
    if hip.laneid % 2 == 0:
        out[i] = x[i] * np.float32(2.0)


@hip.jit
def saxpy(a, x, y, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def site_index(record, array, kind, space="global"):
    """The index of the record's site (memory instruction) for ``array`` ``kind``."""
    return next(i for i, s in enumerate(record.memory["sites"])
                if s["array"] == array and s["kind"] == kind and s["space"] == space)


@hip.jit
def matmul_naive(A, B, C, n):
    row = hip.blockIdx.y * hip.blockDim.y + hip.threadIdx.y
    col = hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x
    if row < n and col < n:
        acc = np.float32(0.0)
        for k in range(n):
            acc += A[row, k] * B[k, col]
        C[row, col] = acc
