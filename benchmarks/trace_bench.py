"""Tracing overhead on a launch: wall time with ``gpusim.profile(memory=True)`` over without.

    python benchmarks/trace_bench.py

A traced launch runs its first work-groups (up to ``gpusim.trace.tracer.LIMITS``) in the
trace variant on one host thread, the rest on the fast path on every core, then builds
the trace and runs the memory and timing models. The ratio is what a learner waits
extra for counters and a modeled time. Times are medians after a warm-up launch (which
compiles both variants); each launch is synchronised.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import gpusim
from gpusim import hip

TILE = 16


@hip.jit
def vector_add(a, b, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


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


def median_seconds(fn: Callable[[], None], repeat: int = 5) -> float:
    fn()  # warm-up: compiles the fast and the trace variants
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def overhead(launch: Callable[[], None]) -> tuple[float, float, object]:
    """(untraced seconds, traced seconds, the traced launch's record)."""
    def plain() -> None:
        launch()
        hip.hipDeviceSynchronize()

    record = []

    def traced() -> None:
        with gpusim.profile(memory=True) as prof:
            launch()
        record[:] = prof.kernels

    return median_seconds(plain), median_seconds(traced), record[0]


def cases() -> list[tuple[str, Callable[[], None]]]:
    rng = np.random.default_rng(0)
    out = []
    for n in (1 << 16, 1 << 22):
        a = hip.to_device(rng.random(n, dtype=np.float32))
        b, c = hip.to_device(rng.random(n, dtype=np.float32)), hip.device_array(n, np.float32)
        out.append((f"vector add, {n:,} elements",
                    lambda a=a, b=b, c=c, n=n: vector_add[n // 256, 256](a, b, c)))
    for n in (128, 512):
        A = hip.to_device(rng.random((n, n), dtype=np.float32))
        B = hip.to_device(rng.random((n, n), dtype=np.float32))
        C = hip.device_array((n, n), np.float32)
        out.append((f"tiled matmul, {n}x{n}",
                    lambda A=A, B=B, C=C, n=n: matmul_tiled[(n // TILE, n // TILE),
                                                            (TILE, TILE)](A, B, C, n)))
    return out


def main() -> int:
    print(f"{'launch':<28} {'untraced':>10} {'traced':>10} {'ratio':>7}  traced work-groups")
    for name, launch in cases():
        plain, traced, record = overhead(launch)
        m = record.memory
        print(f"{name:<28} {plain * 1e3:>8.1f}ms {traced * 1e3:>8.1f}ms {traced / plain:>6.1f}x"
              f"  {m['traced_workgroups']} of {m['total_workgroups']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
