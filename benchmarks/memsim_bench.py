"""Cache simulator throughput: gpusim.memsim vs pycachesim's C core on the same traces.

    python benchmarks/memsim_bench.py [--n 4000000] [--repeat 3]

For each hierarchy (1 level: 32 KiB 4-way 64 B; 2 levels: + 4 MiB 16-way 128 B L2) and
trace (stream: consecutive 4-byte loads; random: 4-byte loads uniform over 1 GiB) both
simulators start cold and run the whole trace; the best of ``--repeat`` runs is kept.
pycachesim gets its fastest input, a Python list (conversion not timed); gpusim gets
the int64 numpy array. The counts are checked to agree before a time is reported.
DESIGN.md section 7 target: ratio (gpusim / pycachesim accesses per second) >= 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from cachesim import Cache as PCache  # noqa: E402  (pycachesim)
from cachesim import CacheSimulator, MainMemory  # noqa: E402

from gpusim.memsim import Cache, Hierarchy  # noqa: E402

L1 = Cache("L1", size=32 * 1024, ways=4, line=64)
L2 = Cache("L2", size=4 << 20, ways=16, line=128)
CONFIGS = {"1-level": [L1], "2-level": [L1, L2]}


def pycachesim(levels: list[Cache]) -> tuple[CacheSimulator, list[PCache]]:
    below, made = None, []
    for c in reversed(levels):  # bottom-up: pycachesim's setters reject growing lines
        below = PCache(c.name, sets=c.sets, ways=c.ways, cl_size=c.line,
                       load_from=below, store_to=below)  # fmt: skip
        made.append(below)
    mem = MainMemory()
    mem.load_to(made[0])
    mem.store_from(made[0])
    return CacheSimulator(made[-1], mem), made[::-1]


def best_time(fn, repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def measure(n: int, repeat: int) -> list[tuple[str, str, float, float]]:
    """(hierarchy, trace, pycachesim M acc/s, gpusim M acc/s) for each configuration."""
    rng = np.random.default_rng(0)
    traces = {
        "stream": np.arange(n, dtype=np.int64) * 4,
        "random": rng.integers(0, (1 << 30) // 4, n, dtype=np.int64) * 4,
    }
    Hierarchy([L1, L2]).run(traces["stream"][:1000])  # compile, or load numba's cache
    results = []
    for cname, levels in CONFIGS.items():
        for tname, addr in traces.items():
            as_list = addr.tolist()

            def theirs(levels=levels, as_list=as_list):
                cs, caches = pycachesim(levels)
                cs.load(as_list, length=4)
                return caches

            t_theirs, caches = best_time(theirs, repeat)
            t_ours, stats = best_time(lambda levels=levels, a=addr: Hierarchy(levels).run(a),
                                      repeat)  # fmt: skip
            for c, pc in zip(levels, caches, strict=True):
                assert stats[c.name]["hits"] == pc.backend.HIT_count, (cname, tname, c.name)
                assert stats[c.name]["misses"] == pc.backend.MISS_count, (cname, tname, c.name)
            results.append((cname, tname, n / t_theirs / 1e6, n / t_ours / 1e6))
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4_000_000, help="accesses per trace")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    header = f"{'hierarchy':<9} {'trace':<7} {'accesses':>10} {'pycachesim':>12} "
    print(header + f"{'gpusim':>12} {'ratio':>7}")
    print(f"{'':<9} {'':<7} {'':>10} {'M acc/s':>12} {'M acc/s':>12}")
    for cname, tname, theirs, ours in measure(args.n, args.repeat):
        print(f"{cname:<9} {tname:<7} {args.n:>10,} {theirs:>12.1f} {ours:>12.1f} "
              f"{ours / theirs:>6.1f}x")


if __name__ == "__main__":
    main()
