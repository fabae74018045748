"""Enum members as kernel arguments (issue 19: numba's test_enums test_compare).

numba types an Enum member by its class, compares two with ``==`` by value and ``is``
by class and value; the same function run by Python is the reference.
"""

import enum

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import KernelCompileError


class Color(enum.Enum):
    red = 1
    green = 2


class Planet(enum.Enum):  # tuple values, as numba's own test uses
    VENUS = (4.869e24, 6.0518e6)
    EARTH = (5.976e24, 6.37814e6)


class Shape(enum.IntEnum):
    circle = 2
    square = 500


class Level(enum.IntEnum):
    two = 2
    three = 3


def compare(a, b, out):
    out[0] = a == b
    out[1] = a != b
    out[2] = a is b
    out[3] = a is not b


PAIRS = [(Color.red, Color.red), (Color.red, Color.green), (Planet.EARTH, Planet.EARTH),
         (Planet.VENUS, Planet.EARTH), (Shape.circle, Level.two), (Shape.square, Level.two),
         (Level.three, Level.three)]


@pytest.mark.parametrize("a, b", PAIRS, ids=[f"{a.name}-{b.name}" for a, b in PAIRS])
def test_members_compare_as_python_does(a, b):
    got, want = np.zeros(4, np.bool_), np.zeros(4, np.bool_)
    cuda.jit(compare)[1, 1](a, b, got)
    compare(a, b, want)
    np.testing.assert_array_equal(got, want)


def against_constants(a, s, out):
    out[0] = a == Color.red
    out[1] = a != Color.green
    out[2] = a is Color.green
    out[3] = s == Shape.circle
    out[4] = s > 1
    out[5] = s is Shape.circle
    out[6] = a.value == 1


@pytest.mark.parametrize("a", list(Color))
@pytest.mark.parametrize("s", list(Shape))
def test_an_argument_against_members_written_in_the_kernel(a, s):
    got, want = np.zeros(7, np.bool_), np.zeros(7, np.bool_)
    cuda.jit(against_constants)[1, 1](a, s, got)
    against_constants(a, s, want)
    np.testing.assert_array_equal(got, want)


def test_intenum_arguments_keep_their_class_after_int_arguments():
    # the argument type cache once keyed an IntEnum member like an int of its size, so
    # after a launch with an int, IntEnum members arrived as plain int64s
    @cuda.jit
    def half(x, out):
        out[0] = x / 2

    out = np.zeros(1)
    half[1, 1](7, out)
    assert out[0] == 3.5
    got, want = np.zeros(4, np.bool_), np.zeros(4, np.bool_)
    cuda.jit(compare)[1, 1](Shape.circle, Level.two, got)
    compare(Shape.circle, Level.two, want)
    np.testing.assert_array_equal(got, want)


def test_is_on_numbers_is_a_compile_error():
    @cuda.jit
    def same(x, y, out):
        out[0] = x is y

    with pytest.raises(KernelCompileError, match="`is` / `is not` compare Enum members"):
        same[1, 1](1, 2, np.zeros(1, np.bool_))
