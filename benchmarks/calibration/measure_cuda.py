"""Time the calibration suite on a real NVIDIA GPU through numba-cuda (device machine).

Usage (on the machine with the GPU): ``GPUSIM_CALIBRATE_ON=numba python3
benchmarks/calibration/measure_cuda.py OUT.json [MODULE]``, MODULE ``suite`` (default)
or ``heldout`` (kernels no model constant was chosen on). Each case: arguments copied to the
device once, 3 warm-up launches, then 20 launches each timed with CUDA events; the
median is kept (and min/max). The first launch's output is checked against NumPy.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import subprocess
import sys

import numpy as np

os.environ.setdefault("GPUSIM_CALIBRATE_ON", "numba")
if not hasattr(np, "row_stack"):  # the device image's numba-cuda predates NumPy 2.5
    np.row_stack = np.vstack
sys.path.insert(0, os.path.dirname(__file__))
import suite  # noqa: E402
from suite import cuda  # noqa: E402

WARMUP, REPEAT = 3, 20


def expected(case: suite.Case, args: list) -> tuple[int, np.ndarray] | None:
    """(index of the output argument, what NumPy says it holds) for checkable cases."""
    fam, a = case.family, args[0]
    if fam == "strided copy":
        return 1, a[(np.arange(a.size, dtype=np.int64) * args[2]) % a.size]
    if fam == "gather":
        return 2, a[args[1]]
    if fam == "vector add":
        return 2, a + args[1]
    if fam == "transpose":
        return 1, a.T
    if fam == "reduction":
        return 1, np.array([a.astype(np.float64).sum()], np.float32)
    if fam == "matmul":
        return 2, a.astype(np.float64) @ args[1].astype(np.float64)
    if fam == "histogram":
        return 1, np.bincount(a, minlength=256).astype(np.int32)
    if fam == "stencil":
        ref = np.zeros_like(a)
        ref[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2]
                                  + a[1:-1, 2:]) - a[1:-1, 1:-1]
        return 1, ref
    return None


def measure(case: suite.Case, rng: np.random.Generator) -> dict:
    host = case.args(rng)
    dev = [cuda.to_device(x) if isinstance(x, np.ndarray) else x for x in host]
    launch = case.kernel[case.grid, case.block, 0, case.lds_bytes]
    launch(*dev)
    cuda.synchronize()
    check = expected(case, host)
    error = None
    if check is not None:
        index, want = check
        got = dev[index].copy_to_host().astype(np.float64)
        error = float(np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-30))
    for _ in range(WARMUP):
        launch(*dev)
    times = []
    for _ in range(REPEAT):
        start, end = cuda.event(), cuda.event()
        start.record()
        launch(*dev)
        end.record()
        end.synchronize()
        times.append(cuda.event_elapsed_time(start, end) * 1e3)  # us
    times.sort()
    return {"name": case.name, "family": case.family, "grid": list(case.grid),
            "block": list(case.block), "lds_bytes": case.lds_bytes,
            "bytes_moved": case.bytes_moved, "median_us": times[len(times) // 2],
            "min_us": times[0], "max_us": times[-1], "rel_error_vs_numpy": error}


def main(path: str, source: str = "suite") -> None:
    import numba

    rng = np.random.default_rng(2026)
    gpu = cuda.get_current_device()
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,"
                          "clocks.mem,clocks.max.sm", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip()
    rows = []
    for case in importlib.import_module(source).cases():
        row = measure(case, rng)
        rows.append(row)
        err = row["rel_error_vs_numpy"]
        print(f"{row['name']:24s} {row['median_us']:10.1f} us  "
              f"{row['bytes_moved'] / row['median_us'] / 1e3:8.1f} GB/s  "
              f"err {'-' if err is None else f'{err:.1e}'}", flush=True)
    meta = {"gpu": gpu.name.decode() if isinstance(gpu.name, bytes) else str(gpu.name),
            "compute_capability": list(gpu.compute_capability), "nvidia_smi": smi,
            "numba": numba.__version__, "python": platform.python_version(),
            "method": f"CUDA events around each launch; {WARMUP} warm-ups, median of "
                      f"{REPEAT}; arguments on the device before timing; clocks as found",
            "script": f"benchmarks/calibration/measure_cuda.py (cases of {source}.py)"}
    with open(path, "w") as fh:
        json.dump({"meta": meta, "cases": rows}, fh, indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
