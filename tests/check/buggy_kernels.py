"""Buggy and fixed kernels for the sanitizer tests (one bug each)."""

import numba
import numpy as np

from gpusim.compile import lang as hip


def reduce_no_first_barrier(x, out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[hip.grid(1)]  # LINE: store
    # (missing hip.syncthreads() here)
    stride = 32
    while stride > 0:
        if t < stride:
            s[t] += s[t + stride]  # LINE: add
        hip.syncthreads()
        stride //= 2
    if t == 0:
        out[hip.blockIdx.x] = s[0]


def reduce_ok(x, out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[hip.grid(1)]
    hip.syncthreads()
    stride = 32
    while stride > 0:
        if t < stride:
            s[t] += s[t + stride]
        hip.syncthreads()
        stride //= 2
    if t == 0:
        out[hip.blockIdx.x] = s[0]


def warp_sync_reduce(x, out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[t]
    hip.syncthreads()
    if t < 32:  # the classic "last wavefront needs no barrier" unrolling
        s[t] += s[t + 32]  # LINE: warp32
        s[t] += s[t + 16]  # LINE: warp16
        s[t] += s[t + 8]
        s[t] += s[t + 4]
        s[t] += s[t + 2]
        s[t] += s[t + 1]
    if t == 0:
        out[0] = s[0]


def warp_sync_reduce_fixed(x, out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[t]
    hip.syncthreads()
    offset = 32
    while offset > 0:
        v = s[t + offset] if t < offset else 0.0
        hip.syncwarp()
        if t < offset:
            s[t] += v
        hip.syncwarp()
        offset //= 2
    if t == 0:
        out[0] = s[0]


def lds_histogram(x, bins):
    h = hip.shared.array(8, numba.int32)
    t = hip.threadIdx.x
    if t < 8:
        h[t] = 0
    hip.syncthreads()
    hip.atomic.add(h, x[hip.grid(1)] % 8, 1)
    hip.syncthreads()
    if t < 8:
        hip.atomic.add(bins, t, h[t])


def uninit_lds(out):
    s = hip.shared.array(64, numba.float32)
    t = hip.threadIdx.x
    if t < 32:
        s[t] = 1.0
    hip.syncthreads()
    out[t] = s[t]  # LINE: uninit


def global_race(out):
    i = hip.grid(1)
    out[i % 64] = i  # LINE: gwrite -- every block writes the same 64 elements


def global_neighbour(a):
    i = hip.grid(1)
    if i + 1 < a.size:
        a[i] = a[i + 1] * 2.0  # LINE: gneighbour


def global_atomics(counter, out):
    i = hip.grid(1)
    hip.atomic.add(counter, 0, 1)
    out[i] = i  # disjoint: each thread its own element


def oob_write(out, n):
    i = hip.grid(1)
    if i < n:
        out[i] = 1.0  # LINE: oob


def divergent_barrier(out):
    t = hip.threadIdx.x
    if t < 16:
        hip.syncthreads()  # LINE: divergent
    out[t] = t


def spin_while(flag):
    while flag[0] == 0:  # LINE: spin
        pass


def spin_for(out):
    acc = 0
    for k in range(10**12):  # LINE: forever
        acc += k & 3
    out[0] = acc


def vadd(a, b, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


def line_of(kernel, tag: str) -> int:
    """The file line of the statement marked ``# LINE: tag`` in ``kernel``."""
    import inspect

    lines, first = inspect.getsourcelines(kernel)
    return first + next(i for i, ln in enumerate(lines) if f"# LINE: {tag}" in ln)


F32 = np.float32


def transpose_tiled(a, out):
    tile = hip.shared.array((16, 17), numba.float32)  # 2D LDS, padded
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    x, y = hip.grid(2)
    if y < a.shape[0] and x < a.shape[1]:
        tile[ty, tx] = a[y, x]
    hip.syncthreads()
    ox = hip.blockIdx.y * 16 + tx
    oy = hip.blockIdx.x * 16 + ty
    if oy < out.shape[0] and ox < out.shape[1]:
        out[oy, ox] = tile[tx, ty]


def transpose_no_barrier(a, out):
    tile = hip.shared.array((16, 17), numba.float32)
    tx, ty = hip.threadIdx.x, hip.threadIdx.y
    x, y = hip.grid(2)
    tile[ty, tx] = a[y, x]  # LINE: tstore
    ox = hip.blockIdx.y * 16 + tx
    oy = hip.blockIdx.x * 16 + ty
    out[oy, ox] = tile[tx, ty]  # LINE: tload


def dynamic_shift(x, out):
    s = hip.shared.array(0, numba.float32)  # dynamic LDS: sized by the launch
    t = hip.threadIdx.x
    s[t] = x[t]
    hip.syncthreads()
    out[t] = s[(t + 1) % hip.blockDim.x]


def dynamic_shift_no_barrier(x, out):
    s = hip.shared.array(0, numba.float32)
    t = hip.threadIdx.x
    s[t] = x[t]
    out[t] = s[(t + 1) % hip.blockDim.x]


def same_thread_read_write(out):
    s = hip.shared.array(64, numba.int32)
    t = hip.threadIdx.x
    s[t] = t
    s[t] = s[t] * 2  # one thread reads and writes its own element: not a race
    s[t] += 1
    out[t] = s[t]


def race_then_oob(out):
    i = hip.grid(1)
    out[i % 64] = i  # blocks 0 and 1 race here first
    out[i // 2] = 1.0  # LINE: late_oob -- block 2 goes past the end
