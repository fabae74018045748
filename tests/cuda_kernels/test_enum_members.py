"""Enum members looked up by name in kernels (issue 19: numba's test_enums
test_getattr_getitem): ``Color['red']``; the same function run by Python is the reference."""

import enum

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import KernelCompileError


class Color(enum.Enum):
    red = 1
    green = 2


class Level(enum.IntEnum):
    low = -3
    high = 40


def compare(out, x):
    out[0] = Color.red == Color.green
    out[1] = Color["red"] == Color["red"]
    out[2] = Color["green"] == Color.green
    out[3] = x[0] > Level["low"]
    out[4] = x[0] + Level["high"] == 42


def test_members_by_name_compare_as_python_does():
    x = np.array([2])
    got, want = np.zeros(5, np.bool_), np.zeros(5, np.bool_)
    cuda.jit(compare)[1, 1](got, x)
    compare(want, x)
    np.testing.assert_array_equal(got, want)


def test_an_unknown_member_name_is_a_compile_error():
    @cuda.jit
    def k(out):
        out[0] = Color["blue"] == Color.red

    with pytest.raises(KernelCompileError, match="not a member of Color"):
        k[1, 1](np.zeros(1, np.bool_))
