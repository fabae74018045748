"""Held-out kernels: measured on the H200 but never used to choose a model constant.

The integer-op cost (``ArchRates.int_op_cycles``) and the unrolling rule
(``trace/costs.py``, ``UNROLL_MAX``) were introduced after looking at the misses
of ``suite.py``'s table; these launches, written afterwards and measured once, check
them on code they were not chosen for: LDS reads in a loop of 16 constant trips
(unrolled) and the same reads in a loop whose bound is an argument (not unrolled),
an integer hash loop (64-bit multiply and modulo), and an FMA chain split into an
unrolled inner loop. Same spelling rule as ``suite.py`` (``from suite import cuda``).
"""

from __future__ import annotations

import numpy as np
from suite import Case, cuda

N = 1 << 20
INNER = 16  # constant trips: unrolled by the compiler
OUTER = 64


@cuda.jit
def lds_unrolled(out, reps):
    buf = cuda.shared.array(1024, np.float32)
    tid = cuda.threadIdx.x
    for j in range(4):
        buf[j * 256 + tid] = np.float32(tid)
    cuda.syncthreads()
    acc = np.float32(0.0)
    for _ in range(reps):
        for k in range(INNER):
            acc += buf[k * 64 + tid % 64]
    out[cuda.grid(1)] = acc


@cuda.jit
def lds_dynamic(out, reps, inner):
    buf = cuda.shared.array(1024, np.float32)
    tid = cuda.threadIdx.x
    for j in range(4):
        buf[j * 256 + tid] = np.float32(tid)
    cuda.syncthreads()
    acc = np.float32(0.0)
    for _ in range(reps):
        for k in range(inner):
            acc += buf[k * 64 + tid % 64]
    out[cuda.grid(1)] = acc


@cuda.jit
def int_hash(out, iters):
    i = cuda.grid(1)
    h = i
    for _ in range(iters):
        h = (h * 1103515245 + 12345) % 2147483648
    if i < out.size:
        out[i] = h


@cuda.jit
def fma_unrolled(out, x0, reps):
    i = cuda.grid(1)
    x = x0 + np.float32(i) * np.float32(1e-9)
    y = np.float32(0.5)
    for _ in range(reps):
        for _k in range(INNER):
            y = x * y + np.float32(0.25)
    if i < out.size:
        out[i] = y


def cases() -> list[Case]:
    """The held-out launches (5)."""
    grid = (N // 256,)
    return [
        Case("lds_unrolled16", "held-out LDS loop", lds_unrolled, grid, (256,),
             lambda r: [np.zeros(N, np.float32), OUTER]),
        Case("lds_dynamic16", "held-out LDS loop", lds_dynamic, grid, (256,),
             lambda r: [np.zeros(N, np.float32), OUTER, INNER]),
        Case("int_hash256", "held-out integer", int_hash, grid, (256,),
             lambda r: [np.zeros(N, np.int64), 256]),
        Case("int_hash1024", "held-out integer", int_hash, grid, (256,),
             lambda r: [np.zeros(N, np.int64), 1024]),
        Case("fma_unrolled", "held-out compute", fma_unrolled, grid, (256,),
             lambda r: [np.zeros(N, np.float32), np.float32(1.0), OUTER]),
    ]
