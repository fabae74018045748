"""Tuples holding arrays as kernel arguments (issue 19: numba's test_array_args): each
array is copied in and back like a bare array argument; against NumPy."""

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import HipError


@cuda.jit
def add_into_first(x):
    i = cuda.grid(1)
    if i < len(x[0]):
        x[0][i] = x[1][i] + x[2][i]


def test_host_arrays_in_a_tuple_are_copied_in_and_back():
    x1, x2 = np.arange(10.0), np.linspace(0, 1, 10)
    x0 = np.zeros(10)
    add_into_first[1, 16]((x0, x1, x2))
    np.testing.assert_array_equal(x0, x1 + x2)


def test_device_arrays_scalars_and_nested_tuples():
    @cuda.jit
    def f(r, x):
        r[0] = x[0][1] + x[1]
        r[1] = x[2][0] * x[2][1]

    d = cuda.to_device(np.array([5, 7], np.int64))
    r = np.zeros(2, np.int64)
    f[1, 1](r, (d, 10, (4, 3)))
    assert r.tolist() == [17, 12]


def test_an_index_past_an_array_in_a_tuple_is_caught():
    @cuda.jit
    def f(x):
        x[0][cuda.grid(1)] = 1.0

    with pytest.raises(HipError, match="out-of-bounds"):
        f[1, 8]((np.zeros(4), np.zeros(8)))
        cuda.synchronize()
