"""The benchmark kernels, written once in numba.cuda's language.

``build(cuda_module)`` executes the source with ``cuda`` bound to either numba's CUDA
simulator or ``gpusim.cuda``, so both run exactly the same kernel code. The hand-
scheduled ``njit`` baselines below do the same arithmetic as loops over blocks and
threads, one loop per barrier phase, blocks spread over the cores with prange: what a
perfect emulator would compile to.
"""

from __future__ import annotations

import linecache

import numba
import numpy as np

BLOCK = 256

SOURCE = '''
@cuda.jit
def vector_add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit
def block_sum(x, partial):
    tile = cuda.shared.array(256, numba.float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + t
    tile[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    stride = cuda.blockDim.x // 2
    while stride > 0:
        if t < stride:
            tile[t] += tile[t + stride]
        cuda.syncthreads()
        stride //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = tile[0]
'''


def build(cuda_module) -> dict:
    """The kernels of SOURCE compiled against ``cuda_module``."""
    filename = f"<benchmark kernels for {cuda_module.__name__}>"
    # Both emulators read a kernel's source: register it as if it came from a file.
    linecache.cache[filename] = (len(SOURCE), None, SOURCE.splitlines(True), filename)
    namespace = {"cuda": cuda_module, "numba": numba}
    exec(compile(SOURCE, filename, "exec"), namespace)
    return {name: namespace[name] for name in ("vector_add", "block_sum")}


@numba.njit(cache=True, parallel=True)
def vector_add_njit(a, b, out, blocks, block):
    for bid in numba.prange(blocks):
        for t in range(block):
            i = bid * block + t
            if i < out.size:
                out[i] = a[i] + b[i]


@numba.njit(cache=True, parallel=True)
def block_sum_njit(x, partial, blocks, block):
    for bid in numba.prange(blocks):
        tile = np.empty(block, np.float32)
        for t in range(block):  # phase 1: load
            i = bid * block + t
            tile[t] = x[i] if i < x.size else 0.0
        stride = block // 2
        while stride > 0:  # one phase per barrier; only the threads that work
            for t in range(stride):
                tile[t] += tile[t + stride]
            stride //= 2
        partial[bid] = tile[0]
