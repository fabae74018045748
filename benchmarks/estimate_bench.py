"""Host cost of the default timing model (issue 13): launches with and without it.

    python benchmarks/estimate_bench.py       # prints the rows

Three ways to launch the same kernel, taken in turn in every round (``ROUNDS``), each
the median of its rounds:

- plain:    the model switched off (``gpusim.engine.estimate.ENABLED = False``): the
            first-order estimate, what every launch cost before the default model;
- first:    the model on, its memo emptied before each launch: a sampled trace of about
            ``estimate.SAMPLE`` work-groups, the memory model and the timing model;
- relaunch: the model on, same shapes again: the memoised time.

Two kernels: a lab-sized vector add (2^20 floats) and a 4096 x 4096 LDS transpose.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent / "calibration"))

ROUNDS = 100


def _interleaved(fns: list, rounds: int = ROUNDS) -> list[tuple[float, float]]:
    """Median (wall, CPU) seconds of each of ``fns`` over ``rounds``, run in turn within
    each round so that a change of load on a shared machine hits all of them alike.
    Medians, not minima: Linux charges a thread's CPU time at scheduler ticks, so the
    best of many CPU readings is a lucky one."""
    for fn in fns:
        fn()  # warm-up: compilation
    times = np.zeros((len(fns), rounds, 2))
    for r in range(rounds):
        for k, fn in enumerate(fns):
            t, c = time.perf_counter(), time.process_time()
            fn()
            times[k, r] = time.perf_counter() - t, time.process_time() - c
    return [(float(w), float(c)) for w, c in np.median(times, axis=1)]


def bench_estimate() -> list[tuple[str, str]]:
    """Rows (what, value): milliseconds per launch, and the ratios to a plain launch."""
    import suite
    from suite import cuda

    from gpusim.engine import estimate

    rng = np.random.default_rng(0)
    n, t = suite.N_LAB, suite.TRANSPOSE_N
    cases = [("vector add 2^20", suite.vector_add, (n // 256,), (256,),
              [cuda.to_device(rng.random(n, dtype=np.float32)) for _ in range(3)]),
             ("LDS transpose 4096^2", suite.transpose_lds, (t // 32, t // 32), (32, 8),
              [cuda.to_device(rng.random((t, t), dtype=np.float32)) for _ in range(2)])]
    rows = []
    for label, kernel, grid, block, args in cases:
        def once(kernel=kernel, grid=grid, block=block, args=args) -> None:
            kernel[grid, block](*args)
            cuda.synchronize()

        def first() -> None:
            estimate.forget()
            once()

        def plain_launch() -> None:
            estimate.ENABLED = False
            try:
                once()
            finally:
                estimate.ENABLED = True

        plain, cold, warm = _interleaved([plain_launch, first, once])

        def cell(t: tuple[float, float], plain: tuple[float, float] = plain) -> str:
            return (f"{t[0] * 1e3:.1f} ms wall ({t[0] / plain[0]:.2f}x), "
                    f"{t[1] * 1e3:.1f} ms CPU ({t[1] / plain[1]:.2f}x)")

        rows += [(f"{label}: plain launch (model off)",
                  f"{plain[0] * 1e3:.1f} ms wall, {plain[1] * 1e3:.1f} ms CPU"),
                 (f"{label}: first launch, sampled model", cell(cold)),
                 (f"{label}: relaunch, memoised model", cell(warm))]
    return rows


if __name__ == "__main__":
    for what, value in bench_estimate():
        print(f"{what:44s} {value}")
