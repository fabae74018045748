"""Generated source of canonical kernels, compared with golden files.

After an intended change to code generation, refresh them with
``GPUSIM_UPDATE_GOLDEN=1 pytest tests/compile/test_golden.py`` and read the diff.
"""

import os
import re
from pathlib import Path

import golden_kernels as G
import numba
import pytest

from gpusim.compile.pipeline import front_end

GOLDEN = Path(__file__).parent / "golden"
F32 = numba.types.float32[::1]
CASES = {
    "saxpy": (G.saxpy, (numba.types.float32, F32, F32, F32)),
    "block_sum": (G.block_sum, (F32, F32)),
    "wave_sum": (G.wave_sum, (F32, F32)),
}


def generated(name):
    kernel, types = CASES[name]
    source = front_end(kernel, wave_size=64, arg_types=types).source
    return re.sub(r"\(/.*?golden_kernels\.py,", "(golden_kernels.py,", source)


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
    assert "# line 19: hip.syncthreads()  -- barrier" in text  # back to the user's lines
    assert "while stride > 0:" in text and "tid = _tx" in text  # the user's own names
