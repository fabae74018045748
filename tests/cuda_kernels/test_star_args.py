"""``f(*t)``: a tuple spread over a call's arguments (issue 19: numba's test_complex
TestCMath.test_polar, ``complex(*cmath.polar(x))``); Python's own results are the reference."""

import cmath
import math

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import KernelCompileError

VALUES = [complex(x, y) for x in (-3.5, -1.0, 0.0, 0.5, 2.0) for y in (-2.0, 0.0, 1.5)]


@cuda.jit(device=True)
def polar_as_complex(z):
    return complex(*cmath.polar(z))


def test_polar_spread_into_complex_matches_python():
    @cuda.jit
    def k(out, z):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = polar_as_complex(z[i])

    z = np.array(VALUES)
    out = np.zeros_like(z)
    k[1, 32](out, z)
    want = np.array([complex(*cmath.polar(v)) for v in VALUES])
    np.testing.assert_allclose(out, want, rtol=1e-15, atol=0)


def test_spread_into_builtins_and_math_functions():
    @cuda.jit
    def k(out, a):
        t = (a[0], a[1])
        out[0] = math.hypot(*t)
        out[1] = max(*t)
        out[2] = min(a[2], *t)

    a = np.array([3.0, -4.0, 0.5])
    out = np.zeros(3)
    k[1, 1](out, a)
    np.testing.assert_array_equal(out, [5.0, 3.0, -4.0])


def test_a_tuple_display_spreads_into_a_device_function():
    @cuda.jit(device=True)
    def sub(x, y):
        return x - y

    @cuda.jit
    def k(out, a):
        out[0] = sub(*(a[0], a[1]))

    out = np.zeros(1)
    k[1, 1](out, np.array([10.0, 4.0]))
    assert out[0] == 6.0


def test_a_tuple_variable_into_a_device_function_is_a_clear_error():
    @cuda.jit(device=True)
    def sub(x, y):
        return x - y

    @cuda.jit
    def k(out, a):
        t = (a[0], a[1])
        out[0] = sub(*t)

    with pytest.raises(KernelCompileError, match="one by one"):
        k[1, 1](np.zeros(1), np.ones(2))


def test_spreading_a_number_is_a_clear_error():
    @cuda.jit
    def k(out, a):
        out[0] = math.hypot(*a[0])

    with pytest.raises(KernelCompileError, match="only a tuple can be spread"):
        k[1, 1](np.zeros(1), np.ones(2))


def test_starred_assignment_is_still_refused():
    @cuda.jit
    def k(out, a):
        x, *rest = (a[0], a[1], a[2])
        out[0] = x + rest[0]

    with pytest.raises(KernelCompileError, match="unpacking"):
        k[1, 1](np.zeros(1), np.ones(3))
