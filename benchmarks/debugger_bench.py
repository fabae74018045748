"""How fast the debugger records and steps: a lab-sized kernel under ``gpusim.debug``.

    python benchmarks/debugger_bench.py       # prints the rows

The kernel is ``kernels.py``'s LDS block reduction (256 threads, a barrier per halving
step) on 2^16 elements. Recording one work-group runs the whole launch (the other
work-groups on the fast path) plus that work-group in the debug variant, the reference
path reporting every statement; the row gives it against a plain launch of the same
grid. A step of the view (``viz.stepper``: moving the step slider, which redraws the
source, the EXEC mask and the lanes' table) must answer in under 0.1 s (issue 34); the
row gives the median and the slowest over every step of wave 0. Best of several runs
for the launch times (compilation not counted).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernels  # noqa: E402
from check_bench import best_seconds  # noqa: E402

N = 1 << 16


def bench_debugger() -> list[tuple[str, str]]:
    """Rows (what, value): recording cost against a plain launch, and step latency."""
    import gpusim
    from gpusim import cuda, hip

    kernel = kernels.build(cuda)["block_sum"]
    block = kernels.BLOCK
    x = np.random.default_rng(0).random(N, dtype=np.float32)
    out = np.empty(N // block, np.float32)
    plain = best_seconds(lambda: (kernel[N // block, block](x, out), hip.synchronize()))
    recorded = best_seconds(lambda: gpusim.debug(kernel[N // block, block], x, out,
                                                  block=(3, 0, 0)))
    np.testing.assert_allclose(out, x.reshape(-1, block).sum(axis=1), rtol=1e-4)
    view = gpusim.debug(kernel[N // block, block], x, out, block=(3, 0, 0))
    steps = len(view.recording.wave_steps(0))
    times = []
    for k in range(steps):
        start = time.perf_counter()
        view.controls["step"].value = k
        times.append(time.perf_counter() - start)
    return [
        (f"record one work-group of a {N // block}-work-group launch "
         f"({len(view.recording.steps)} steps)",
         f"{recorded * 1e3:.0f} ms = {recorded / plain:.1f}x a plain launch "
         f"({plain * 1e3:.1f} ms)"),
        (f"one step of the view (wave 0, {steps} steps): median / slowest",
         f"{statistics.median(times) * 1e3:.1f} ms / {max(times) * 1e3:.1f} ms "
         "(target < 100 ms)"),
    ]


def main() -> None:
    for what, value in bench_debugger():
        print(f"{what:70s} {value}")


if __name__ == "__main__":
    main()
