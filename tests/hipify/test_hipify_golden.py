"""Golden outputs for the CUDA and numba.cuda samples: HIP text and the stderr report."""

import pytest
from hipify_helpers import SAMPLES, check_golden

from gpusim import hipify

CASES = [
    ("runtime.cu", {}, "runtime"),
    ("runtime.cu", {"hip_kernel_syntax": True}, "runtime.ggl"),
    ("libraries.cu", {}, "libraries"),
    ("libraries.cu", {"roc": True}, "libraries.roc"),
    ("warp32.cu", {}, "warp32"),
    ("unsupported.cu", {}, "unsupported"),
    ("untouched.cu", {}, "untouched"),
    ("occupancy.cu", {}, "occupancy"),
    ("saxpy_numba.py", {}, "saxpy_numba"),
    ("reduce_numba.py", {}, "reduce_numba"),
    ("stencil_numba.py", {}, "stencil_numba"),
]


@pytest.mark.parametrize(("sample", "options", "golden"), CASES, ids=[c[2] for c in CASES])
def test_sample_matches_golden(sample, options, golden):
    result = hipify.hipify_file(SAMPLES / sample, **options)
    check_golden(f"{golden}.hip.txt", result.text)
    check_golden(f"{golden}.stderr.txt",
                 result.report(sample) + "\n" + result.statistics(sample) + "\n")
