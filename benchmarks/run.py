"""Speed of the emulator, measured as ratios in one run on this machine.

    python benchmarks/run.py                  # print the table
    python benchmarks/run.py --update-readme  # also write it into README.md

Each row compares gpusim with a reference doing the same work on the same machine:
numba's CUDA simulator (same kernel source), the same algorithm hand-scheduled in numba
njit, and pycachesim for the cache simulator. Times are medians of repeated runs after
a warm-up call (compile time is measured separately, in fresh processes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
# numba reads this once, when first imported: its CUDA simulator is the reference.
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

import kernels  # noqa: E402

BEGIN, END = "<!-- benchmarks:begin -->", "<!-- benchmarks:end -->"


def median_seconds(fn, repeat: int = 5) -> float:
    fn()  # warm-up (compilation, page faults)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def simulator_kernels():
    from numba import cuda as sim_cuda

    return kernels.build(sim_cuda)


def bench_kernels() -> list[tuple[str, str]]:
    from gpusim import cuda

    ours = kernels.build(cuda)
    sim = simulator_kernels()
    rows = []
    block = kernels.BLOCK

    # barrier-free: vector add
    n = 1 << 22
    a, b = np.ones(n, np.float32), np.ones(n, np.float32)
    da, db, dout = cuda.to_device(a), cuda.to_device(b), cuda.device_array(n, np.float32)
    blocks = n // block

    def run_ours():
        ours["vector_add"][blocks, block](da, db, dout)
        cuda.synchronize()

    out = np.empty(n, np.float32)
    t_ours = median_seconds(run_ours)
    t_njit = median_seconds(lambda: kernels.vector_add_njit(a, b, out, blocks, block))
    n_sim = 4096
    t_sim = median_seconds(lambda: sim["vector_add"][n_sim // block, block](
        a[:n_sim], b[:n_sim], out[:n_sim]), repeat=1)
    np.testing.assert_array_equal(dout.copy_to_host(), a + b)
    rows.append(("vector add, threads/s",
                 f"{n / t_ours:,.0f} (njit {n / t_njit:,.0f}; simulator {n_sim / t_sim:,.0f})"))
    rows.append(("vector add: gpusim time / njit time", f"{t_ours / t_njit:.2f}x"))
    rows.append(("vector add: speed-up over numba's CUDA simulator",
                 f"{(n / t_ours) / (n_sim / t_sim):,.0f}x"))

    # LDS + barriers: block tree reduction
    n = 1 << 22
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    blocks = n // block
    dx, dpart = cuda.to_device(x), cuda.device_array(blocks, np.float32)
    part = np.empty(blocks, np.float32)

    def run_ours_sum():
        ours["block_sum"][blocks, block](dx, dpart)
        cuda.synchronize()

    t_ours = median_seconds(run_ours_sum)
    t_njit = median_seconds(lambda: kernels.block_sum_njit(x, part, blocks, block))
    n_sim = 1024
    t_sim = median_seconds(lambda: sim["block_sum"][n_sim // block, block](
        x[:n_sim], part[: n_sim // block]), repeat=1)
    np.testing.assert_allclose(dpart.copy_to_host(), part, rtol=1e-5)
    rows.append(("LDS + barrier reduction, threads/s",
                 f"{n / t_ours:,.0f} (njit {n / t_njit:,.0f}; simulator {n_sim / t_sim:,.0f})"))
    rows.append(("LDS + barrier reduction: gpusim time / njit time", f"{t_ours / t_njit:.2f}x"))
    rows.append(("LDS + barrier reduction: speed-up over numba's CUDA simulator",
                 f"{(n / t_ours) / (n_sim / t_sim):,.0f}x"))
    return rows


COMPILE_SNIPPET = """
import sys, time, numba, numpy as np
from gpusim import cuda
import kernels
if "warm" in sys.argv:  # pay numba's one-time start-up (loading its CPU registries) first
    numba.njit(lambda: 0)()
k = kernels.build(cuda)["block_sum"]
x = cuda.to_device(np.ones(1024, np.float32)); p = cuda.device_array(4, np.float32)
t = time.perf_counter(); k[4, 256](x, p); cuda.synchronize()
print(time.perf_counter() - t)
"""


def bench_compile(runs: int = 3) -> list[tuple[str, str]]:
    """First launch in a fresh process with an empty cache, then with a warm cache (with
    and without numba's own one-time start-up, which any numba code pays once)."""
    first, cached, cached_warm = [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, GPUSIM_CACHE_DIR=cache, NUMBA_CACHE_DIR=cache,
                       PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "benchmarks")]))
            for bucket, extra in ((first, []), (cached, []), (cached_warm, ["warm"])):
                out = subprocess.run([sys.executable, "-c", COMPILE_SNIPPET, *extra], env=env,
                                     capture_output=True, text=True, check=True)
                bucket.append(float(out.stdout.strip().splitlines()[-1]))
    return [("first launch of a lab-sized kernel (LDS reduction: compile + run), median",
             f"{statistics.median(first):.3f} s"),
            ("same launch in a new process, cached on disk, median",
             f"{statistics.median(cached):.3f} s"),
            ("same, after numba's one-time start-up in that process, median",
             f"{statistics.median(cached_warm):.3f} s")]


def bench_memsim() -> list[tuple[str, str]]:
    """Cache hierarchy accesses/s vs pycachesim's C core on the same traces."""
    import memsim_bench

    n = 4_000_000
    return [(f"cache simulator, {levels}, {trace} trace ({n:,} accesses)",
             f"{ours:.1f} M acc/s vs pycachesim {theirs:.1f} M acc/s = {ours / theirs:.1f}x")
            for levels, trace, theirs, ours in memsim_bench.measure(n, repeat=3)]


def bench_checked() -> list[tuple[str, str]]:
    """The checked (sanitizer) path's cost relative to the fast path."""
    import check_bench

    return check_bench.bench_check()


def bench_launch() -> list[tuple[str, str]]:
    """Host overhead of one launch of a tiny kernel (runtime + engine + call)."""
    import launch_bench

    return launch_bench.bench_launch()


def bench_estimate() -> list[tuple[str, str]]:
    """Cost of the default timing model: plain, first and memoised launches."""
    import estimate_bench

    return estimate_bench.bench_estimate()


def bench_tracing() -> list[tuple[str, str]]:
    """Cost of tracing a launch through the memory model (profile(memory=True))."""
    import trace_bench

    rows = []
    for name, launch in trace_bench.cases():
        plain, traced, record = trace_bench.overhead(launch)
        m = record.memory
        rows.append((f"memory tracing overhead, {name}",
                     f"{traced / plain:.1f}x ({m['traced_workgroups']} of "
                     f"{m['total_workgroups']} workgroups traced)"))
    return rows


def bench_views() -> list[tuple[str, str]]:
    """Seconds from a control move to updated figures, per live view (viz_bench.py)."""
    import viz_bench

    return viz_bench.bench_views()


def table(rows: list[tuple[str, str]]) -> str:
    lines = ["| measurement | result |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in rows]
    return "\n".join(lines)


def bench_rccl() -> list[tuple[str, str]]:
    """8-GPU AllReduce of 256 MiB (benchmarks/rccl_bench.py)."""
    import rccl_bench
    return rccl_bench.bench_allreduce()


def bench_mfma() -> list[tuple[str, str]]:
    """A matrix-core GEMM kernel vs the same arithmetic in numba njit (mfma_bench.py)."""
    import mfma_bench

    return mfma_bench.bench_mfma()


def bench_engine() -> list[tuple[str, str]]:
    """Six kernels against serial and prange njit of the same algorithm (engine_bench.py)."""
    import engine_bench

    return engine_bench.bench_engine()


def bench_debugger() -> list[tuple[str, str]]:
    """gpusim.debug: recording one work-group, and one step of the stepper view."""
    import debugger_bench

    return debugger_bench.bench_debugger()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update-readme", action="store_true")
    args = parser.parse_args()
    rows = (bench_kernels() + bench_engine() + bench_compile() + bench_launch() + bench_estimate()
            + bench_checked() + bench_tracing() + bench_memsim() + bench_rccl() + bench_views()
            + bench_mfma() + bench_debugger())
    text = table(rows)
    machine = f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
    print(text)
    if args.update_readme:
        readme = ROOT / "README.md"
        body = readme.read_text()
        head, rest = body.split(BEGIN)
        _, tail = rest.split(END)
        block = f"{BEGIN}\nMeasured by `python benchmarks/run.py` on {machine}:\n\n{text}\n{END}"
        readme.write_text(head + block + tail)


if __name__ == "__main__":
    main()
