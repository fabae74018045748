"""Canonical kernels whose generated source is kept as golden files (golden/*.py)."""

import numpy as np

from gpusim.compile import lang as hip


def saxpy(a, x, y, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def block_sum(x, out):
    s = hip.shared.array(256, np.float32)
    tid = hip.threadIdx.x
    i = hip.blockIdx.x * hip.blockDim.x + tid
    s[tid] = x[i] if i < x.size else 0.0
    hip.syncthreads()
    stride = hip.blockDim.x // 2
    while stride > 0:
        if tid < stride:
            s[tid] += s[tid + stride]
        hip.syncthreads()
        stride //= 2
    if tid == 0:
        out[hip.blockIdx.x] = s[0]


def wave_sum(x, out):
    i = hip.grid(1)
    if i >= x.size:
        return
    v = x[i]
    off = hip.warpsize // 2
    while off > 0:
        v += hip.shfl_down(v, off)
        off //= 2
    if hip.laneid == 0:
        hip.atomic.add(out, 0, v)
