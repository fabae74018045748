"""``round(x, ndigits)`` in kernels as numba.cuda computes it (issue 19: numba's
test_intrinsics test_round_to_f4_halfway).

numba.cuda (``cudaimpl.round_to_impl``) scales in float64, rounds half to even there
(``__nv_llrint``) and narrows the result once to x's width; numba's CPU target narrows
the scaled float32 value first (round(0.3425f, 3) is then 0.342, numba.cuda says 0.343).
References: numba.cuda's steps done with Python's own float arithmetic and ``round``
(not Python's correctly rounded ``round(x, n)``, which differs where the scaled product
rounds across a half).
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim import cuda


def round_to(out, x, ndigits):
    out[0] = round(x[0], ndigits)


KERNEL = cuda.jit(round_to)


def cuda_round(x: float, n: int, dtype: type = np.float32) -> np.floating:
    """numba.cuda's steps with Python floats (float64) and Python's round (ties to even),
    narrowed once to ``dtype``."""
    if n >= 0:
        scale = 10.0 ** n
        return dtype(round(float(x) * scale) / scale)
    scale = 10.0 ** -n
    return dtype(round(float(x) / scale) * scale)


def test_float32_halfway_known_answer():
    out = np.zeros(1, np.float32)
    KERNEL[1, 1](out, np.array([0.3425], np.float32), 3)
    assert out[0] == np.float32(0.343) == np.float32(round(0.3425, 3))


@settings(max_examples=60, deadline=None)
@given(st.floats(-1e6, 1e6, width=32), st.integers(-3, 5))
def test_float32_follows_numba_cuda(x, n):
    out = np.zeros(1, np.float32)
    KERNEL[1, 1](out, np.array([x], np.float32), n)
    assert out[0] == cuda_round(np.float32(x), n)


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 1), st.integers(-5, 5))
def test_float64_follows_numba_cuda(x, n):
    # not Python's round(x, n), which rounds the decimal value exactly: round(5e-06, 5) is
    # 1e-05 there, while 5e-06 * 1e5 is exactly 0.5 in float64, a tie that numba.cuda's
    # llrint rounds to even: 0.0
    out = np.zeros(1)
    KERNEL[1, 1](out, np.array([x]), n)
    assert out[0] == cuda_round(x, n, np.float64)


def test_float64_scaled_product_known_answer():
    out = np.zeros(1)
    KERNEL[1, 1](out, np.array([5e-06]), 5)
    assert 5e-06 * 1e5 == 0.5 and out[0] == 0.0 and round(5e-06, 5) == 1e-05


def test_special_values_pass_through():
    out = np.zeros(1, np.float32)
    for v in (np.inf, -np.inf):
        KERNEL[1, 1](out, np.array([v], np.float32), 2)
        assert out[0] == v
    KERNEL[1, 1](out, np.array([np.nan], np.float32), 2)
    assert np.isnan(out[0])
