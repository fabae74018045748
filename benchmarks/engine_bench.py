"""Kernel execution speed (issue 35): gpusim against the same kernel hand-scheduled in njit.

    python benchmarks/engine_bench.py                  # print the table
    python benchmarks/engine_bench.py --json out.json  # also write the raw seconds
    python benchmarks/engine_bench.py --compare before.json after.json

Six kernels of the test catalogue (``tests/kernels.py``: vector add, SAXPY, a 2-D
5-point stencil, tiled matmul, LDS block reduction, transpose through LDS) run three
ways on the same data:

1. gpusim: the catalogue kernel compiled by ``gpusim.cuda.jit``, launched on device
   arrays, timed as launch + ``cuda.synchronize()`` (work-groups on every host core);
2. serial njit: the same arithmetic hand-scheduled for ``numba.njit`` as loops over
   blocks and threads, one thread loop per barrier phase, the LDS a local ``np.empty``
   per block, on one core: what an emulator that compiles kernels to loops would run;
3. prange njit: the same function with ``parallel=True``, blocks spread over the cores
   by ``numba.prange``.

The baselines keep each kernel's guards and float32 arithmetic, with two things a compiling
engine knows as well: indexes built from the block number are ``0 <=`` (else numba pays
a negative-index wrap-around on every access), and a phase's thread loop stops at the
last thread that can pass its guard (the reduction's ``tid < stride``).

Before timing, gpusim's result is checked against the serial njit result (and prange
against serial). Times are medians of ``ROUNDS`` calls after a warm-up one
(``run.median_seconds``); compilation is not timed. The ratios are gpusim's time over
each njit time: 1.0x means gpusim runs kernels at compiled-loop speed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

# (run.py sets NUMBA_ENABLE_CUDASIM on import: that swaps numba.cuda only, njit is untouched)
import kernels  # noqa: E402
from run import median_seconds, table  # noqa: E402

from gpusim import cuda  # noqa: E402
from gpusim.engine.workers import host_cores  # noqa: E402

ROUNDS = 15  # medians: this shared 2-core machine swings 2x between rounds of memory-bound kernels
LOG_N = 24  # 1-D kernels: 2^24 threads (2^22 ran gpusim's vector add in under 3 ms)
TILE = kernels.catalogue.TILE  # matmul_tiled's LDS tiles are TILE x TILE
LDS_T = 16  # transpose_tiled's tile is a hard-coded (16, 17)


# -- hand-scheduled baselines: plain functions, compiled twice by `schedules` ----------------------
# Each takes the kernel's arguments plus (grid, block) and runs every block's threads as
# loops, one loop per barrier phase, with the kernel's own guards and float32 arithmetic.
# Values a thread keeps across a barrier (matmul's acc) live in a per-block array.
# One addition: `0 <=` on indexes built from the block number. A GPU index is never
# negative, but LLVM cannot prove it of prange's block number (or of `b // grid[0]`), so
# every access would pay numba's negative-index wrap-around select, which also blocks
# vectorisation: without it SAXPY's prange loop is ~3x and the transpose ~2x slower.
# The extra compare changes no result; a compiled-loop engine can know the same fact.
def vadd_blocks(a, b, out, grid, block):
    for bid in numba.prange(grid):
        for t in range(block):
            i = bid * block + t
            if 0 <= i < out.size:
                out[i] = a[i] + b[i]


def saxpy_blocks(a, x, y, out, grid, block):
    for bid in numba.prange(grid):
        for t in range(block):
            i = bid * block + t
            if 0 <= i < out.size:
                out[i] = a * x[i] + y[i]


def stencil2d_blocks(a, out, grid, block):
    for b in numba.prange(grid[0] * grid[1]):
        bx, by = b % grid[0], b // grid[0]
        for ty in range(block[1]):
            for tx in range(block[0]):
                x, y = bx * block[0] + tx, by * block[1] + ty
                if 0 < y < a.shape[0] - 1 and 0 < x < a.shape[1] - 1:
                    out[y, x] = (0.25 * (a[y - 1, x] + a[y + 1, x] + a[y, x - 1] + a[y, x + 1])
                                 - a[y, x])


def matmul_tiled_blocks(A, B, C, grid, block):
    for b in numba.prange(grid[0] * grid[1]):
        bx, by = b % grid[0], b // grid[0]
        sA = np.empty((TILE, TILE), np.float32)
        sB = np.empty((TILE, TILE), np.float32)
        acc = np.zeros((TILE, TILE), np.float32)  # one float32 register per thread
        for k0 in range(0, A.shape[1], TILE):
            for ty in range(TILE):  # phase: load both tiles
                for tx in range(TILE):
                    row, col = by * TILE + ty, bx * TILE + tx
                    sA[ty, tx] = (A[row, k0 + tx]
                                  if 0 <= row < A.shape[0] and k0 + tx < A.shape[1] else 0.0)
                    sB[ty, tx] = (B[k0 + ty, col]
                                  if 0 <= col < B.shape[1] and k0 + ty < B.shape[0] else 0.0)
            for ty in range(TILE):  # phase: multiply them
                for tx in range(TILE):
                    for k in range(TILE):
                        acc[ty, tx] += sA[ty, k] * sB[k, tx]
        for ty in range(TILE):  # after the last barrier: store
            for tx in range(TILE):
                row, col = by * TILE + ty, bx * TILE + tx
                if 0 <= row < C.shape[0] and 0 <= col < C.shape[1]:
                    C[row, col] = acc[ty, tx]


def block_sum_blocks(x, out, grid, block):
    for bid in numba.prange(grid):
        s = np.empty(256, np.float32)
        for t in range(block):  # phase: load
            i = bid * block + t
            s[t] = x[i] if 0 <= i < x.size else 0.0
        stride = block // 2
        # one phase per barrier, over the threads that can pass the kernel's guard (kept):
        # looping over all 256 to test `t < stride` is ~9x slower, and gpusim narrows too
        while stride > 0:
            for t in range(min(block, stride)):
                if t < stride:
                    s[t] += s[t + stride]
            stride //= 2
        for t in range(min(block, 1)):
            if t == 0:
                out[bid] = s[0]


def transpose_tiled_blocks(a, out, grid, block):
    for b in numba.prange(grid[0] * grid[1]):
        bx, by = b % grid[0], b // grid[0]
        tile = np.empty((LDS_T, LDS_T + 1), np.float32)
        for ty in range(block[1]):  # phase: load a tile
            for tx in range(block[0]):
                x, y = bx * block[0] + tx, by * block[1] + ty
                if 0 <= y < a.shape[0] and 0 <= x < a.shape[1]:
                    tile[ty, tx] = a[y, x]
        for ty in range(block[1]):  # phase: store it transposed
            for tx in range(block[0]):
                ox, oy = by * LDS_T + tx, bx * LDS_T + ty
                if 0 <= oy < out.shape[0] and 0 <= ox < out.shape[1]:
                    out[oy, ox] = tile[tx, ty]


def schedules(fn: Callable) -> tuple[Callable, Callable]:
    """(serial, prange) njit versions of one baseline: ``numba.prange`` is ``range`` without
    ``parallel=True``, so one source serves both. The prange copy gets its own qualified
    name because numba's on-disk cache keys entries by name and signature, not by the
    ``parallel`` flag: under one name each version would load the other's machine code."""
    twin = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    twin.__qualname__ = f"{fn.__qualname__}_prange"
    return numba.njit(cache=True)(fn), numba.njit(cache=True, parallel=True)(twin)


# -- the cases -----------------------------------------------------------------------------------
def exact(got: np.ndarray, want: np.ndarray) -> None:
    """Same operations in the same order on the same types: equal to the last bit."""
    np.testing.assert_array_equal(got, want)


def interior(got: np.ndarray, want: np.ndarray) -> None:
    """The stencil writes no border: compare what it writes (device_array's zero fill is
    not a promise)."""
    exact(got[1:-1, 1:-1], want[1:-1, 1:-1])


@dataclass
class Case:
    name: str  # row label
    kernel: Callable  # the catalogue kernel (compiled by gpusim.cuda.jit)
    baseline: Callable  # its hand-scheduled twin (compiled by `schedules`)
    grid: int | tuple[int, int]
    block: int | tuple[int, int]
    args: tuple  # host arguments in kernel order; args[out] is the output (zeros)
    out: int
    check: Callable[[np.ndarray, np.ndarray], None] = exact


def cases() -> Iterator[Case]:
    """The six kernels and their data, made one case at a time (the 1-D arrays are 64 MiB
    each; only one case's are alive at once). Sizes keep every gpusim launch several
    milliseconds long, so its host overhead per launch (~0.2 ms) stays a few per cent."""
    cat = kernels.catalogue
    rng = np.random.default_rng(0)

    def vec(n: int) -> np.ndarray:
        return rng.random(n, dtype=np.float32)

    def mat(n: int) -> np.ndarray:
        return rng.random((n, n), dtype=np.float32)

    n, s, m, t = 1 << LOG_N, 2048, 512, 4096
    b1, b2 = kernels.BLOCK, (16, 16)
    yield Case(f"vector add (2^{LOG_N})", cat.vadd, vadd_blocks, n // b1, b1,
               (vec(n), vec(n), np.zeros(n, np.float32)), 2)
    # a float32 scalar: both sides type `a * x[i]` alike
    yield Case(f"SAXPY (2^{LOG_N})", cat.saxpy, saxpy_blocks, n // b1, b1,
               (np.float32(2.5), vec(n), vec(n), np.zeros(n, np.float32)), 3)
    yield Case(f"2-D stencil ({s}x{s})", cat.stencil2d, stencil2d_blocks, (s // 16, s // 16),
               b2, (mat(s), np.zeros((s, s), np.float32)), 1, interior)
    yield Case(f"tiled matmul ({m}x{m})", cat.matmul_tiled, matmul_tiled_blocks,
               (m // TILE, m // TILE), (TILE, TILE),
               (mat(m), mat(m), np.zeros((m, m), np.float32)), 2)
    yield Case(f"LDS block reduction (2^{LOG_N})", cat.block_sum, block_sum_blocks, n // b1, b1,
               (vec(n), np.zeros(n // b1, np.float32)), 1)
    yield Case(f"transpose with LDS ({t}x{t})", cat.transpose_tiled, transpose_tiled_blocks,
               (t // 16, t // 16), b2, (mat(t), np.zeros((t, t), np.float32)), 1)


def measure(case: Case, rounds: int = ROUNDS) -> dict[str, float]:
    """Median seconds of one case's three versions, after checking that they agree."""
    serial, parallel = schedules(case.baseline)
    kernel = cuda.jit(case.kernel)[case.grid, case.block]
    dargs = [cuda.device_array(a.shape, a.dtype) if k == case.out
             else cuda.to_device(a) if isinstance(a, np.ndarray) else a
             for k, a in enumerate(case.args)]
    # the njit versions each write their own copy of the output, so all three are compared
    outs = {v: list(case.args) for v in ("serial", "prange")}
    for v in outs:
        outs[v][case.out] = case.args[case.out].copy()

    def run_gpusim() -> None:
        kernel(*dargs)
        cuda.synchronize()

    runs = {"gpusim": run_gpusim,
            "serial": lambda: serial(*outs["serial"], case.grid, case.block),
            "prange": lambda: parallel(*outs["prange"], case.grid, case.block)}
    for run in runs.values():  # also compiles all three
        run()
    want = outs["serial"][case.out]
    case.check(dargs[case.out].copy_to_host(), want)
    case.check(outs["prange"][case.out], want)
    return {v: median_seconds(run, repeat=rounds) for v, run in runs.items()}


def row(name: str, t: dict[str, float]) -> tuple[str, str]:
    """One table row: the three times and gpusim's slowdown against each njit version."""
    ms = " / ".join(f"{t[v] * 1e3:.1f} ms" for v in ("gpusim", "serial", "prange"))
    return (f"{name}: gpusim / serial njit / prange njit",
            f"{ms} = {t['gpusim'] / t['serial']:.2f}x serial, "
            f"{t['gpusim'] / t['prange']:.2f}x prange")


def bench_engine(raw: dict[str, dict[str, float]] | None = None) -> list[tuple[str, str]]:
    """Rows (what, value) for benchmarks/run.py's table, one per kernel; the seconds are
    also stored in ``raw`` (keyed by case name) when it is given."""
    rows = []
    for case in cases():
        t = measure(case)
        if raw is not None:
            raw[case.name] = t
        rows.append(row(case.name, t))
    return rows


def compare(before: Path, after: Path) -> str:
    """A before/after table from two ``--json`` files (e.g. gpusim of two commits, run one
    after the other: ``PYTHONPATH=<old checkout> python benchmarks/engine_bench.py --json
    before.json``). Each run has its own njit times; the ratios are within a run."""
    runs = [json.loads(p.read_text())["seconds"] for p in (before, after)]
    lines = ["| kernel | before: gpusim / serial njit | after: gpusim / serial njit | "
             "after / prange njit |", "|---|---|---|---|"]
    for name in runs[1]:
        b, a = runs[0].get(name), runs[1][name]
        was = (f"{b['gpusim'] * 1e3:.1f} / {b['serial'] * 1e3:.1f} ms = "
               f"{b['gpusim'] / b['serial']:.2f}x" if b else "-")
        lines.append(f"| {name} | {was} | {a['gpusim'] * 1e3:.1f} / {a['serial'] * 1e3:.1f} ms"
                     f" = {a['gpusim'] / a['serial']:.2f}x | {a['gpusim'] / a['prange']:.2f}x |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", type=Path,
                        help="write the raw median seconds (for before/after comparisons)")
    parser.add_argument("--compare", metavar=("BEFORE", "AFTER"), type=Path, nargs=2,
                        help="print a before/after table of two --json files; run nothing")
    args = parser.parse_args()
    if args.compare:
        print(compare(*args.compare))
        return
    start = time.perf_counter()
    raw: dict[str, dict[str, float]] = {}
    print(table(bench_engine(raw)))
    wall = time.perf_counter() - start
    print(f"\n{host_cores()} cores, {ROUNDS} rounds per median, {wall:.0f} s in all")
    if args.json:
        meta = {"cores": host_cores(), "rounds": ROUNDS, "numba": numba.__version__,
                "python": sys.version.split()[0], "wall_s": wall}
        args.json.write_text(json.dumps({"meta": meta, "seconds": raw}, indent=2) + "\n")


if __name__ == "__main__":
    main()
