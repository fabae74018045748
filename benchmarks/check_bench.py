"""Overhead of the checked path (the sanitizer) over the fast path, on the same kernels.

    python benchmarks/check_bench.py          # prints the table

Both paths run the benchmark kernels of ``kernels.py`` (vector add, LDS block reduction)
through ``gpusim.engine.launch`` on the same host arrays, so copies do not count. Times
are the best of several launches after a warm-up one (compilation is not counted; on a
shared machine other load only ever adds time). The checked path runs its work-groups
in order on one host thread, for exact and repeatable reports, while the fast path uses
every core: the table gives the overhead against both, and the target (under 20x) is
against the fast path as it normally runs.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernels  # noqa: E402

N = 1 << 20  # threads; the checked path keeps 48 bytes of shadow per written element


def best_seconds(fn, repeat: int = 7) -> float:
    fn()  # warm-up: compilation, page faults
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_check() -> list[tuple[str, str]]:
    """Rows (what, value): each kernel's times and the checked path's overhead."""
    from gpusim import cuda
    from gpusim.config import config
    from gpusim.devices import get_spec
    from gpusim.engine import launch
    from gpusim.engine.workers import host_cores

    spec = get_spec("mi300x")
    built = kernels.build(cuda)
    block = kernels.BLOCK
    rng = np.random.default_rng(0)
    a, b = rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32)
    cases = {
        "vector add": ("vector_add", (a, b, np.empty(N, np.float32)), 2, a + b),
        "LDS block reduction": ("block_sum", (a, np.empty(N // block, np.float32)), 1,
                                a.reshape(-1, block).sum(axis=1)),
    }
    rows = []
    parallel = config.parallel
    try:
        for title, (name, args, result, expected) in cases.items():
            kernel = built[name].py_func
            times = {}
            for label, check, par in (("fast", False, True), ("fast, 1 core", False, False),
                                      ("checked", True, False)):
                config.parallel = par
                times[label] = best_seconds(lambda k=kernel, a=args, check=check: launch(
                    k, grid=N // block, block=block, args=a, device=spec, check=check))
                np.testing.assert_allclose(args[result], expected, rtol=1e-4)
            ms = {k: f"{v * 1e3:.1f} ms" for k, v in times.items()}
            rows.append((f"{title} ({N:,} threads): fast ({host_cores()} cores) / fast "
                         "(1 core) / checked", " / ".join(ms.values())))
            rows.append((f"{title}: checked-path overhead vs fast path (vs 1 core)",
                         f"{times['checked'] / times['fast']:.1f}x "
                         f"({times['checked'] / times['fast, 1 core']:.1f}x)"))
    finally:
        config.parallel = parallel
    return rows


def main() -> None:
    for what, value in bench_check():
        print(f"{what:70s} {value}")


if __name__ == "__main__":
    main()
