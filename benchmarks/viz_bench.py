"""Responsiveness of the live views: seconds from a control move to updated figures.

    python benchmarks/viz_bench.py

For each view, on the kernels of the labs (lab 06's strided copy of 2**19 floats and
its 32x32 LDS transposes, lab 05's occupancy explorer), a control is moved back and
forth and the time until its ``update`` has rewritten the ColumnDataSources (and
jupyter_bokeh has serialised the changes for the front end) is measured. The browser's
redraw is not included. Target: under 0.2 s per move (DESIGN.md, issue 12).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

import gpusim
from gpusim import hip, viz

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "viz"))
import view_kernels as vk  # noqa: E402  (the lab kernels, shared with tests/viz)

MOVES = 10


def lab_profiles() -> dict[str, gpusim.profiler.Profile]:
    gpusim.set_system("mi300x", ngpus=1)
    n = 1 << 19
    a = hip.to_device(np.arange(n, dtype=np.float32))
    b = hip.device_array(n, np.float32)
    with gpusim.profile(memory=True) as copies:
        for stride in (1, 2, 4, 8, 16, 32):
            vk.copy_strided[n // 256, 256](a, b, stride)
    m = 256
    src = hip.to_device(np.arange(m * m, dtype=np.float32).reshape(m, m))
    dst = hip.device_array((m, m), np.float32)
    with gpusim.profile(memory=True) as transposes:
        for k in (vk.transpose_lds, vk.transpose_padded):
            k[(m // vk.TILE, m // vk.TILE), (vk.TILE, vk.TILE)](src, dst)
    return {"copies": copies, "transposes": transposes}


def move_seconds(view: viz.View, control: str, values: list) -> list[float]:
    """Seconds per move, cycling ``control`` through ``values``."""
    c = view.controls[control]
    out = []
    for i in range(MOVES):
        t = time.perf_counter()
        c.value = values[(i + 1) % len(values)]
        out.append(time.perf_counter() - t)
    return out


def bench_views() -> list[tuple[str, str]]:
    p = lab_profiles()
    cases = [
        ("occupancy (VGPR slider)", viz.occupancy(block_size=256, vgprs=64), "vgprs",
         [64, 65, 128, 129]),
        ("occupancy (LDS slider)", viz.occupancy(block_size=256), "lds_bytes",
         [0, 8192, 16384, 32768]),
        ("occupancy (device)", viz.occupancy(block_size=256), "device",
         ["mi300x", "mi100", "rx7900xtx"]),
        ("memory_chart (kernel)", viz.memory_chart(p["copies"]), "kernel", [0, 5]),
        ("cache_heatmap (kernel)", viz.cache_heatmap(p["copies"]), "kernel", [0, 5]),
        ("coalescing (kernel)", viz.coalescing(p["copies"]), "kernel", [0, 5]),
        ("lds_banks (kernel)", viz.lds_banks(p["transposes"]), "A kernel", [0, 1]),
        ("divergence (wave)", viz.divergence(p["copies"]), "wave", [0, 1, 2]),
        ("dispatch (time step)", viz.dispatch(p["copies"]), "step", [0, 3, 6]),
        ("timeline (device)", viz.timeline(p["copies"]), "device", [-1, 0]),
        ("roofline (device)", viz.roofline(p["copies"]), "device", ["mi300x", "mi250x"]),
    ]
    rows, worst = [], 0.0
    for name, view, control, values in cases:
        times = move_seconds(view, control, values)
        worst = max(worst, max(times))
        rows.append((f"view update: {name}", f"median {statistics.median(times) * 1e3:.1f} ms,"
                                             f" worst {max(times) * 1e3:.1f} ms"))
    rows.append(("view update, worst of all moves (target < 200 ms)", f"{worst * 1e3:.0f} ms"))
    return rows


if __name__ == "__main__":
    for name, value in bench_views():
        print(f"{name}: {value}")
