"""Tuples and named tuples of numbers as kernel arguments (issue 19), passed by value as
numba.cuda passes them; known answers."""

from collections import namedtuple

import numpy as np

from gpusim import cuda

Point = namedtuple("Point", ("x", "y", "r"))


def test_heterogeneous_tuple():
    @cuda.jit
    def f(r1, r2, x):
        r1[0] = x[0]
        r1[1] = x[-3]
        r2[0] = x[3]

    r1, r2 = np.zeros(2, np.int64), np.zeros(1)
    f[1, 1](r1, r2, (1, 2, 3, 4.5))
    assert r1.tolist() == [1, 2] and r2.tolist() == [4.5]


def test_named_tuple_fields_and_len():
    @cuda.jit
    def f(r, x):
        r[0] = x.x + x.y
        r[1] = x.r * len(x)

    r = np.zeros(2)
    f[1, 1](r, Point(1, 2, 2.5))
    assert r.tolist() == [3.0, 7.5]


def test_nested_and_empty_tuples():
    @cuda.jit
    def f(r, x):
        r[0] = len(x)
        r[1] = len(x[0])

    r = np.zeros(2, np.int64)
    f[1, 1](r, ((), (), ()))
    assert r.tolist() == [3, 0]
    f[1, 1](r, ((1, 2), (3, 4)))
    assert r.tolist() == [2, 2]
