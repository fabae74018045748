"""Compile the emulator's shared machinery once, at set-up, not in a student's first cell.

numba keeps what it compiled on disk (``cache=True``), but the first process on a fresh
machine compiles it all: the timing model's replay, the cache levels, the tracer's
counters, the launcher. That took 20-30 s on the first launch of a lab's first kernel;
``make lab`` and Binder's ``postBuild`` run this module once so the course opens warm::

    python -m gpusim.exercises.warm

It launches one small kernel through each path a lab uses (the default model's sampled
trace and its relaunch from the memo, a full trace under ``profile(memory=True)``, the
sanitizer) and checks their results, so a broken install fails here, loudly. It also
builds and runs a small HIP C++ program: the first build on a machine compiles zig's
libc++ for ``gpusim.hipcc`` (about a minute, once).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def warm() -> float:
    """Run the paths above once; return the seconds it took.

    >>> warm() >= 0.0
    True
    """
    import gpusim
    from gpusim import cuda

    start = time.perf_counter()

    @cuda.jit
    def saxpy(a, x, y):
        i = cuda.grid(1)
        if i < y.size:
            y[i] = a * x[i] + y[i]

    n = 128 * 256  # more work-groups than the default sample: sampled, then memoised
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, np.float32)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    for _ in range(2):
        saxpy[n // 256, 256](np.float32(2), dx, dy)
    with gpusim.profile(memory=True):
        saxpy[n // 256, 256](np.float32(2), dx, dy)
    checked = cuda.jit(saxpy.py_func, check=True)
    checked[n // 256, 256](np.float32(2), dx, dy)
    if not np.array_equal(dy.copy_to_host(), y + 8 * x):
        raise RuntimeError("gpusim warm-up: saxpy gave a wrong result; the install is broken")
    _warm_hipcc()
    return time.perf_counter() - start


_PROGRAM = r"""
#include <hip/hip_runtime.h>
#include <iostream>
#include <vector>
__global__ void twice(int* v) { v[threadIdx.x] *= 2; }
int main() {
  std::vector<int> h(64, 21); int* d;
  hipMalloc(&d, 64 * sizeof(int));
  hipMemcpy(d, h.data(), 64 * sizeof(int), hipMemcpyHostToDevice);
  twice<<<1, 64>>>(d);
  hipMemcpy(h.data(), d, 64 * sizeof(int), hipMemcpyDeviceToHost);
  hipFree(d);
  return h[63] == 42 ? 0 : 1;
}
"""


def _warm_hipcc() -> None:
    """Build (libc++ on first use) and run a HIP C++ program with iostream and a kernel."""
    from gpusim import hipcc

    if hipcc.compile(_PROGRAM).run() != 0:
        raise RuntimeError("gpusim warm-up: the HIP C++ program failed; the install is broken")
    # lab 11 builds AMD's matrix_multiplication sample: compiled now, its build is cached
    sample = Path("labs/samples/rocm-examples/HIP-Basic/matrix_multiplication/main.hip")
    if sample.is_file():
        hipcc.compile(filename=sample.resolve(),
                      include_dirs=[Path("labs/samples/rocm-examples/Common").resolve()])


if __name__ == "__main__":
    print(f"gpusim: compiled and checked in {warm():.1f} s")
