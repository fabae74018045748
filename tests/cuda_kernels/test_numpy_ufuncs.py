"""NumPy ufuncs called on numbers inside numba.cuda kernels (issue 19): comparisons,
logical operations, degrees/radians, against NumPy itself on the same values."""

import numpy as np
import pytest

from gpusim import cuda

A = np.array([-2.5, 0.0, 1.0, 3.0, np.nan, np.inf], np.float64)
B = np.array([1.0, 0.0, -1.0, 3.0, 1.0, np.inf], np.float64)

BINARY = [np.equal, np.not_equal, np.greater, np.greater_equal, np.less, np.less_equal,
          np.logical_and, np.logical_or, np.logical_xor]


@pytest.mark.parametrize("ufunc", BINARY, ids=lambda u: u.__name__)
def test_binary_predicates(ufunc):
    ns = {"cuda": cuda, "np": np}
    exec("def k(a, b, out):\n    i = cuda.grid(1)\n    if i < out.size:\n"
         f"        out[i] = np.{ufunc.__name__}(a[i], b[i])\n", ns)
    out = np.zeros(A.size, np.bool_)
    cuda.jit(ns["k"])[1, 8](A, B, out)
    np.testing.assert_array_equal(out, ufunc(A, B))


def test_logical_not_degrees_radians():
    @cuda.jit
    def k(a, flags, deg, rad):
        i = cuda.grid(1)
        if i < a.size:
            flags[i] = np.logical_not(a[i])
            deg[i] = np.degrees(a[i])
            rad[i] = np.radians(a[i])

    flags = np.zeros(A.size, np.bool_)
    deg, rad = np.zeros_like(A), np.zeros_like(A)
    k[1, 8](A, flags, deg, rad)
    np.testing.assert_array_equal(flags, np.logical_not(A))
    np.testing.assert_allclose(deg, np.degrees(A), rtol=1e-15)
    np.testing.assert_allclose(rad, np.radians(A), rtol=1e-15)


def test_float32_degrees_stays_float32():
    """numba's typing: np.degrees of a float32 is a float32 (NumPy's too)."""
    @cuda.jit
    def k(a, out):
        out[0] = np.degrees(a[0]) - np.float32(np.degrees(a[0]))

    a = np.array([0.7], np.float32)
    out = np.ones(1, np.float64)
    k[1, 1](a, out)
    assert out[0] == 0.0
