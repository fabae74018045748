"""The calibration suite through gpusim's default timing model (any device profile).

``modeled_times(device)`` launches every case of ``suite.py`` once on an emulated
``device`` (default ``h200``, the calibration target) at the suite's sizes and returns
each launch's modeled duration (CUDA events around it, as ``measure_cuda.py`` times the
real GPU) with how it was estimated. The kernels run for real on the host, on the
default path: a sample of work-groups traced, the rest fast (gpusim.engine.estimate).

Usage: ``python benchmarks/calibration/model_gpusim.py [device]`` prints the table.
"""

from __future__ import annotations

import importlib
import os
import sys
import time

import numpy as np

os.environ.pop("GPUSIM_CALIBRATE_ON", None)  # the suite's kernels in gpusim's spelling
sys.path.insert(0, os.path.dirname(__file__))
from suite import cuda  # noqa: E402

import gpusim  # noqa: E402


def modeled_times(device: str = "h200", names: list[str] | None = None,
                  source: str = "suite") -> list[dict]:
    """One row per case: name, family, modeled_us, bound, estimate, host_s (host
    seconds of the launch, compilation included); ``names``: only these cases;
    ``source``: the module whose ``cases()`` to run (``suite`` or ``heldout``)."""
    gpusim.set_system(device, 1)
    try:
        rng = np.random.default_rng(2026)
        rows = []
        for case in importlib.import_module(source).cases():
            host = case.args(rng)  # every case draws, so the inputs match measure_cuda.py
            if names is not None and case.name not in names:
                continue
            dev = [cuda.to_device(x) if isinstance(x, np.ndarray) else x for x in host]
            launch = case.kernel[case.grid, case.block, 0, case.lds_bytes]
            start, end = cuda.event(), cuda.event()
            t0 = time.perf_counter()
            with gpusim.profile() as prof:
                start.record()
                launch(*dev)
                end.record()
                end.synchronize()
            wall = time.perf_counter() - t0
            why = prof.kernels[0].breakdown
            rows.append({"name": case.name, "family": case.family,
                         "modeled_us": cuda.event_elapsed_time(start, end) * 1e3,
                         "bound": why.get("bound", ""), "estimate": why.get("estimate", ""),
                         "host_s": wall})
        return rows
    finally:
        gpusim.set_system()


if __name__ == "__main__":
    for row in modeled_times(*sys.argv[1:2], source=(sys.argv[2:3] or ["suite"])[0]):
        print(f"{row['name']:24s} {row['modeled_us']:10.1f} us  {row['bound']:8s} "
              f"{row['estimate']:8s} host {row['host_s']:6.2f} s")
