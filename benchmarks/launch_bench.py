"""Host overhead of one kernel launch: a tiny kernel launched many times.

    python benchmarks/launch_bench.py        # prints the rows

The kernel (``kernels.py``'s vector add on one work-group of 64 threads) does almost no
work, so the time per launch is what the runtime, the engine and the generated code's
call cost on the host: argument checks, the compiled-kernel lookup, queueing on the
stream and the call into numba. Two shapes: launches queued back to back with one
synchronisation at the end, and a synchronisation after every launch (what a notebook
cell that reads the result does). Best of several rounds (other load only adds time).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernels  # noqa: E402

LAUNCHES = 2000
ROUNDS = 5


def per_launch_seconds(launch, sync, launches: int = LAUNCHES, rounds: int = ROUNDS,
                       every: bool = False) -> tuple[float, float]:
    """Best over ``rounds`` of (wall time, CPU time of this process) for ``launches``
    launches, divided by ``launches``. CPU time moves less than wall time when other
    processes share the cores."""
    launch()
    sync()  # warm-up: compilation
    wall = cpu = float("inf")
    for _ in range(rounds):
        start, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(launches):
            launch()
            if every:
                sync()
        sync()
        wall = min(wall, (time.perf_counter() - start) / launches)
        cpu = min(cpu, (time.process_time() - start_cpu) / launches)
    return wall, cpu


def bench_launch() -> list[tuple[str, str]]:
    """Rows (what, value): microseconds per launch of a 64-thread kernel."""
    from gpusim import cuda

    add = kernels.build(cuda)["vector_add"]
    n = 64
    a, b = cuda.to_device(np.ones(n, np.float32)), cuda.to_device(np.ones(n, np.float32))
    out = cuda.device_array(n, np.float32)

    def launch() -> None:
        add[1, n](a, b, out)

    queued = per_launch_seconds(launch, cuda.synchronize)
    synced = per_launch_seconds(launch, cuda.synchronize, every=True)
    np.testing.assert_array_equal(out.copy_to_host(), np.full(n, 2, np.float32))
    return [(f"host overhead per launch, 64-thread kernel, {LAUNCHES:,} launches queued",
             f"{queued[0] * 1e6:.0f} us ({queued[1] * 1e6:.0f} us CPU)"),
            ("same, synchronising after each launch",
             f"{synced[0] * 1e6:.0f} us ({synced[1] * 1e6:.0f} us CPU)")]


def main() -> None:
    for what, value in bench_launch():
        print(f"{what:70s} {value}")


if __name__ == "__main__":
    main()
