"""Host cost of the default timing model (issue 13): launches with and without it.

    python benchmarks/estimate_bench.py       # prints the rows

Three ways to launch the same kernel, taken in turn in every round (``ROUNDS``), each
the median of its rounds:

- plain:    the model switched off (``gpusim.engine.estimate.ENABLED = False``): the
            first-order estimate, what every launch cost before the default model;
- first:    the model on, its memo emptied before each launch: a sampled trace of about
            ``estimate.SAMPLE`` work-groups, the memory model and the timing model;
- relaunch: the model on, same shapes again: the memoised time.

Lab-sized kernels of the calibration suite: a vector add (2^20 floats), a 4096 x 4096
LDS transpose, a tree reduction (a loop, LDS, an atomic per block; 2^20 floats), a
512 x 512 tiled matmul (heavy work-groups: the sample is one of them), a 5-point stencil
on 1024 x 1024 (uncoalesced: y runs along the lanes; edge work-groups differ, so the
sample's second phase runs) and a shared-memory histogram (2^20 values, atomics).
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
    n, t, m, s = suite.N_LAB, suite.TRANSPOSE_N, 512, 1024

    def floats(*shape: int) -> object:
        return cuda.to_device(rng.random(shape, dtype=np.float32))

    cases = [("vector add 2^20", suite.vector_add, (n // 256,), (256,),
              [floats(n), floats(n), floats(n)]),
             ("LDS transpose 4096^2", suite.transpose_lds, (t // 32, t // 32), (32, 8),
              [floats(t, t), floats(t, t)]),
             ("tree reduction 2^20", suite.reduce_tree, (n // 256,), (256,),
              [floats(n), cuda.to_device(np.zeros(1, np.float32))]),
             ("tiled matmul 512^2", suite.matmul_tiled, (m // 16, m // 16), (16, 16),
              [floats(m, m), floats(m, m), floats(m, m)]),
             ("stencil 1024^2", suite.stencil5, (s // 16, s // 16), (16, 16),
              [floats(s, s), floats(s, s)]),
             ("LDS histogram 2^20", suite.histogram_shared, (n // 256,), (256,),
              [cuda.to_device(rng.integers(0, 256, n, dtype=np.int32)),
               cuda.to_device(np.zeros(256, np.int32))])]
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
