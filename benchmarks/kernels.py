"""The benchmark kernels: the test catalogue's (``tests/kernels.py``), on two emulators.

``build(cuda_module)`` returns the catalogue's vector add (``vadd``) and LDS block
reduction (``block_sum``) for ``cuda_module``: ``gpusim.cuda`` compiles them as they
are; for numba's CUDA simulator the functions are rebound so that ``hip`` in their
globals is the simulator's ``numba.cuda`` (which it swaps for its fake module while a
kernel runs), so both run exactly the same kernel code. The hand-scheduled ``njit``
baselines below do the same arithmetic as loops over blocks and threads, one loop per
barrier phase, blocks spread over the cores with prange: what a perfect emulator would
compile to.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

import numba
import numpy as np


def _catalogue() -> types.ModuleType:
    """tests/kernels.py, imported under its own name (this module is also `kernels`)."""
    name = "gpusim_test_kernels"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "tests" / "kernels.py"
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


catalogue = _catalogue()

BLOCK = 256  # block_sum's LDS tile is 256 floats
NAMES = {"vector_add": catalogue.vadd, "block_sum": catalogue.block_sum}


def build(cuda_module) -> dict:
    """The benchmark kernels compiled against ``cuda_module`` (gpusim's or numba's)."""
    if cuda_module.__name__.startswith("gpusim"):
        return {name: cuda_module.jit(fn) for name, fn in NAMES.items()}
    out = {}
    for name, fn in NAMES.items():
        rebound = types.FunctionType(fn.__code__, {**fn.__globals__, "hip": cuda_module},
                                     fn.__name__, fn.__defaults__, fn.__closure__)
        out[name] = cuda_module.jit(rebound)
    return out


@numba.njit(cache=True, parallel=True)
def vector_add_njit(a, b, out, blocks, block):
    for bid in numba.prange(blocks):
        for t in range(block):
            i = bid * block + t
            if i < out.size:
                out[i] = a[i] + b[i]


@numba.njit(cache=True, parallel=True)
def block_sum_njit(x, partial, blocks, block):
    for bid in numba.prange(blocks):
        tile = np.empty(block, np.float32)
        for t in range(block):  # phase 1: load
            i = bid * block + t
            tile[t] = x[i] if i < x.size else 0.0
        stride = block // 2
        while stride > 0:  # one phase per barrier; only the threads that work
            for t in range(stride):
                tile[t] += tile[t + stride]
            stride //= 2
        partial[bid] = tile[0]
