"""Generated source of canonical kernels, compared with golden files.

After an intended change to code generation, refresh them with
``GPUSIM_UPDATE_GOLDEN=1 pytest tests/compile/test_golden.py`` and read the diff.
"""

import os
from pathlib import Path

import kernels as G
import numba
import pytest

from gpusim.compile.pipeline import front_end

GOLDEN = Path(__file__).parent / "golden"
F32 = numba.types.float32[::1]
F32_2D = numba.types.float32[:, ::1]
CASES = {  # name: (kernel, argument types, generation mode)
    "saxpy": (G.saxpy, (numba.types.float32, F32, F32, F32), "fast"),
    "block_sum": (G.block_sum, (F32, F32), "fast"),
    "wave_sum": (G.wave_sum, (F32, F32), "fast"),
    # a matrix-core K loop: private-array operands, the MFMA call and its layout tables
    "mfma_tile": (G.mfma_tile, (F32_2D, F32_2D, F32_2D), "fast"),
    "mfma_tile.trace": (G.mfma_tile, (F32_2D, F32_2D, F32_2D), "trace"),
    # the sanitizer's code: one checked global store (saxpy), LDS and a barrier loop
    "saxpy.check": (G.saxpy, (numba.types.float32, F32, F32, F32), "check"),
    "block_sum.check": (G.block_sum, (F32, F32), "check"),
    # trace mode's code: lane addresses of global and LDS accesses, instruction counts
    "saxpy.trace": (G.saxpy, (numba.types.float32, F32, F32, F32), "trace"),
    "block_sum.trace": (G.block_sum, (F32, F32), "trace"),
}


def generated(name):
    kernel, types, mode = CASES[name]
    return front_end(kernel, wave_size=64, arg_types=types, mode=mode).source


@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_source_matches_golden_file(name):
    path = GOLDEN / f"{name}.golden"
    text = generated(name)
    if os.environ.get("GPUSIM_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


def test_generated_source_is_readable():
    text = generated("block_sum")
    assert text.startswith("# gpusim: generated from kernel 'block_sum'")
    barrier = G.block_sum.__code__.co_firstlineno + 5
    assert f"# line {barrier}: hip.syncthreads()  -- barrier" in text  # the user's lines
    assert "while stride > 0:" in text and "tid = _tx" in text  # the user's own names
