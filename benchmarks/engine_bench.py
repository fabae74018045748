"""Engine speed, measured (a script, not a test): ``python tests/engine/bench_engine.py``.

Compares the emulator with the same work hand-scheduled in plain numba ``njit`` (loops
over blocks and threads, one loop per barrier phase) and with numba's CUDA simulator,
and times first and cached compiles in fresh processes. Prints a small table.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np
from numba import njit

sys.path.insert(0, os.path.dirname(__file__))
import kernels as K  # noqa: E402

from gpusim.devices import get_spec  # noqa: E402
from gpusim.engine import launch  # noqa: E402

SPEC = get_spec("mi300x")


def best_of(fn, repeat=7):
    fn()  # warm up (compile)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


@njit(nogil=True)
def vadd_by_hand(a, b, out, nblocks, nthreads):
    for blk in range(nblocks):
        for t in range(nthreads):
            i = blk * nthreads + t
            if i < out.size:
                out[i] = a[i] + b[i]


@njit(nogil=True)
def reduce_by_hand(x, out, nblocks, nthreads):
    s = np.empty(nthreads, np.float64)
    for blk in range(nblocks):
        for t in range(nthreads):  # phase 1: load
            i = blk * nthreads + t
            s[t] = x[i] if i < x.size else 0.0
        stride = nthreads // 2
        while stride > 0:  # one loop per barrier phase
            for t in range(stride):
                s[t] += s[t + stride]
            stride //= 2
        out[blk] = s[0]


@njit(nogil=True)
def matmul_by_hand(A, B, C, gx, gy):
    T = 16
    sA = np.empty((T, T), np.float32)
    sB = np.empty((T, T), np.float32)
    acc = np.empty(T * T, np.float32)
    for by in range(gy):
        for bx in range(gx):
            acc[:] = 0
            for k0 in range(0, A.shape[1], T):
                for ty in range(T):  # phase 1: every thread loads one element of each tile
                    for tx in range(T):
                        row, col = by * T + ty, bx * T + tx
                        ok_a = row < A.shape[0] and k0 + tx < A.shape[1]
                        ok_b = col < B.shape[1] and k0 + ty < B.shape[0]
                        sA[ty, tx] = A[row, k0 + tx] if ok_a else 0.0
                        sB[ty, tx] = B[k0 + ty, col] if ok_b else 0.0
                for ty in range(T):  # phase 2: every thread multiplies
                    for tx in range(T):
                        a = acc[ty * T + tx]
                        for k in range(T):
                            a += sA[ty, k] * sB[k, tx]
                        acc[ty * T + tx] = a
            for ty in range(T):
                for tx in range(T):
                    row, col = by * T + ty, bx * T + tx
                    if row < C.shape[0] and col < C.shape[1]:
                        C[row, col] = acc[ty * T + tx]


def bench_runtime() -> list[tuple[str, float, float]]:
    rows = []
    n = 1 << 20
    a, b, out = np.random.rand(n), np.random.rand(n), np.zeros(n)
    blocks = n // 256
    t_emu = best_of(lambda: launch(K.vadd, grid=blocks, block=256, args=(a, b, out),
                                   device=SPEC))
    t_hand = best_of(lambda: vadd_by_hand(a, b, out, blocks, 256))
    rows.append(("vector add, 1M threads", n / t_emu, n / t_hand))
    x, red = np.random.rand(n), np.zeros(blocks)
    t_emu = best_of(lambda: launch(K.block_reduce, grid=blocks, block=256, args=(x, red),
                                   device=SPEC))
    t_hand = best_of(lambda: reduce_by_hand(x, red, blocks, 256))
    rows.append(("LDS tree reduction, 256/block, 1M threads", n / t_emu, n / t_hand))
    A = np.random.rand(256, 256).astype(np.float32)
    C = np.zeros((256, 256), np.float32)
    t_emu = best_of(lambda: launch(K.matmul_tiled, grid=(16, 16), block=(16, 16),
                                   args=(A, A, C), device=SPEC), repeat=3)
    t_hand = best_of(lambda: matmul_by_hand(A, A, C, 16, 16), repeat=3)
    rows.append(("tiled matmul 256x256 (16x16 tiles)", 256 * 256 / t_emu, 256 * 256 / t_hand))
    return rows


CUDASIM = textwrap.dedent("""
    import os, time, numpy as np
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    from numba import cuda
    @cuda.jit
    def vadd(a, b, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a[i] + b[i]
    n = 4096
    a = np.random.rand(n); b = np.random.rand(n); out = np.zeros(n)
    t = time.perf_counter(); vadd[n // 256, 256](a, b, out); dt = time.perf_counter() - t
    print(n / dt)
    T = 16
    @cuda.jit
    def matmul(A, B, C):
        sA = cuda.shared.array((T, T), np.float32)
        sB = cuda.shared.array((T, T), np.float32)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        row, col = cuda.blockIdx.y * T + ty, cuda.blockIdx.x * T + tx
        acc = 0.0
        for k0 in range(0, A.shape[1], T):
            sA[ty, tx] = A[row, k0 + tx]
            sB[ty, tx] = B[k0 + ty, col]
            cuda.syncthreads()
            for k in range(T):
                acc += sA[ty, k] * sB[k, tx]
            cuda.syncthreads()
        C[row, col] = acc
    n = 32
    A = np.random.rand(n, n).astype(np.float32); C = np.zeros_like(A)
    t = time.perf_counter(); matmul[(2, 2), (T, T)](A, A, C); dt = time.perf_counter() - t
    print(n * n / dt)
""")


def bench_cudasim() -> tuple[float, float]:
    """numba's CUDA simulator: threads/s of a vector add and of a 32x32 tiled matmul."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    res = subprocess.run([sys.executable, "-c", CUDASIM], env=env, capture_output=True,
                         text=True, timeout=600)
    if res.returncode != 0:
        return float("nan"), float("nan")
    vadd, matmul = res.stdout.split()[-2:]
    return float(vadd), float(matmul)


COMPILE = textwrap.dedent("""
    import sys, time
    t0 = time.perf_counter()
    from numba import njit
    njit(lambda x: x + 1)(1)            # numba's one-time start-up, paid by any kernel
    t1 = time.perf_counter()
    sys.path.insert(0, {here!r})
    import kernels as K
    from gpusim.compile.pipeline import compile_kernel
    from gpusim.engine.launch import arg_types
    import numpy as np
    f32, f64, i64 = np.zeros(2, np.float32), np.zeros(2), np.zeros(2, np.int64)
    cases = [(K.vadd, (f64, f64, f64)), (K.saxpy_stride, (2.0, f64, f64, f64)),
             (K.index2d, (np.zeros((2, 2)),)),
             (K.matmul_tiled, (np.zeros((2, 2), np.float32),) * 3),
             (K.transpose_padded, (np.zeros((2, 2), np.float32),) * 2),
             (K.block_reduce, (f64, f64)), (K.inclusive_scan, (i64, i64)),
             (K.histogram, (i64, np.zeros(16, np.int32))), (K.shfl_down_sum, (f64, f64)),
             (K.ballot_compact, (f32, f32, i64)), (K.early_return, (f32, f32)),
             (K.uses_device_functions, (f64, f64, f64))]
    times = []
    for k, args in cases:
        t = time.perf_counter()
        compile_kernel(k, arg_types(args), wave_size=64)
        times.append(time.perf_counter() - t)
    print(t1 - t0, sorted(times)[len(times) // 2], max(times))
""")


def bench_compile() -> tuple[list[float], list[float]]:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, GPUSIM_CACHE_DIR=cache)
        script = COMPILE.format(here=os.path.dirname(os.path.abspath(__file__)))
        runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                               text=True, check=True).stdout.split() for _ in range(2)]
    return [float(v) for v in runs[0]], [float(v) for v in runs[1]]


def main() -> None:
    print(f"host: {os.cpu_count()} cores; device model {SPEC.name}")
    sim_vadd, sim_mm = bench_cudasim()
    print(f"numba CUDA simulator: vector add {sim_vadd:,.0f} threads/s, tiled matmul "
          f"{sim_mm:,.0f} threads/s")
    print("threads per second (njit by hand: the same algorithm hand-scheduled, one thread)")
    print(f"{'kernel':44s} {'emulator':>14s} {'njit by hand':>14s} {'ratio':>7s} "
          f"{'vs cudasim':>11s}")
    sims = [sim_vadd, sim_vadd, sim_mm]
    for (name, emu, hand), sim in zip(bench_runtime(), sims, strict=True):
        print(f"{name:44s} {emu:14,.0f} {hand:14,.0f} {hand / emu:7.2f} {emu / sim:11,.0f}x")
    first, cached = bench_compile()
    print(f"numba start-up in a new process: {first[0]:.2f} s (paid once, by any numba code)")
    print(f"first compile of 12 lab kernels (fresh cache): median {first[1]:.2f} s, "
          f"max {first[2]:.2f} s")
    print(f"same kernels in a new process (cached): median {cached[1] * 1000:.0f} ms, "
          f"max {cached[2] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
