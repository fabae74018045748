"""``round(x, ndigits)`` in kernels as numba.cuda computes it (issue 19: numba's
test_intrinsics test_round_to_f4_halfway).

numba.cuda (``cudaimpl.round_to_impl``) scales in float64, rounds half to even there
(``__nv_llrint``) and narrows the result once to x's width; numba's CPU target narrows
the scaled float32 value first (round(0.3425f, 3) is then 0.342, numba.cuda says 0.343).
References: Python's correctly rounded ``round`` for float64; for float32, the same
steps done with Python's own float arithmetic and ``round``.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim import cuda


def round_to(out, x, ndigits):
    out[0] = round(x[0], ndigits)


KERNEL = cuda.jit(round_to)


def cuda_f4_round(x: np.float32, n: int) -> np.float32:
    """numba.cuda's steps with Python floats (float64) and Python's round (ties to even)."""
    if n >= 0:
        scale = 10.0 ** n
        return np.float32(round(float(x) * scale) / scale)
    scale = 10.0 ** -n
    return np.float32(round(float(x) / scale) * scale)


def test_float32_halfway_known_answer():
    out = np.zeros(1, np.float32)
    KERNEL[1, 1](out, np.array([0.3425], np.float32), 3)
    assert out[0] == np.float32(0.343) == np.float32(round(0.3425, 3))


@settings(max_examples=60, deadline=None)
@given(st.floats(-1e6, 1e6, width=32), st.integers(-3, 5))
def test_float32_follows_numba_cuda(x, n):
    out = np.zeros(1, np.float32)
    KERNEL[1, 1](out, np.array([x], np.float32), n)
    assert out[0] == cuda_f4_round(np.float32(x), n)


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 1), st.integers(-5, 5))
def test_float64_matches_python(x, n):
    out = np.zeros(1)
    KERNEL[1, 1](out, np.array([x]), n)
    assert out[0] == round(x, n)


def test_special_values_pass_through():
    out = np.zeros(1, np.float32)
    for v in (np.inf, -np.inf):
        KERNEL[1, 1](out, np.array([v], np.float32), 2)
        assert out[0] == v
    KERNEL[1, 1](out, np.array([np.nan], np.float32), 2)
    assert np.isnan(out[0])
