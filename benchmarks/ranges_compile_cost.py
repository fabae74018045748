"""What the unchecked copies of regions (pass ``ranges``) cost in compile time.

    python benchmarks/ranges_compile_cost.py

Compiles eight catalogue kernels (generation + numba) in one process with a fresh kernel
cache, once with the ``ranges`` pass as it is and once with it made a no-op (every region
checked, one copy: the code before issue 35), and prints both times. The device library
is compiled first, so only the kernels' own modules are timed.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np


def compile_seconds(with_ranges: bool) -> float:
    """Seconds to generate and compile the eight kernels (wave size 32: new modules)."""
    import kernels as k

    from gpusim.compile import pipeline

    saved = list(pipeline.PASSES)
    if not with_ranges:
        pipeline.PASSES[:] = [(n, (lambda kir: None) if n == "ranges" else f)
                              for n, f in pipeline.PASSES]
    f32, m32 = numba.typeof(np.zeros(4, np.float32)), numba.typeof(np.zeros((4, 4), np.float32))
    cases = [(k.vadd, (f32,) * 3), (k.saxpy, (numba.typeof(np.float32(1)),) + (f32,) * 3),
             (k.block_sum, (f32, f32)), (k.matmul_tiled, (m32,) * 3),
             (k.transpose_tiled, (m32,) * 2), (k.stencil2d, (m32,) * 2),
             (k.wave_sum, (f32, f32)), (k.inclusive_scan, (f32, f32))]
    try:
        start = time.perf_counter()
        for fn, types in cases:
            pipeline.compile_kernel(fn, types, wave_size=32).finish_compile()
        return time.perf_counter() - start
    finally:
        pipeline.PASSES[:] = saved


if __name__ == "__main__":
    os.environ["GPUSIM_CACHE_DIR"] = tempfile.mkdtemp(prefix="gpusim-cc-")
    from gpusim.compile.pipeline import compile_kernel

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import kernels

    vector = (numba.typeof(np.zeros(4, np.float32)),) * 3
    compile_kernel(kernels.vadd, vector, wave_size=64).finish_compile()  # device library
    off = compile_seconds(False)  # the two modules' texts differ: no cache hit between them
    on = compile_seconds(True)
    print(f"8 kernels: {off:.2f} s with every region checked, {on:.2f} s with unchecked "
          f"copies ({on / off:.2f}x)")
