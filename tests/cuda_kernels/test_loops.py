"""Loops over arrays, tuples, enumerate and zip in kernels (issue 19), against the same
loops run by Python."""

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import KernelCompileError

WEIGHTS = (1.0, 2.5, 3.0)


def test_enumerate_zip_arrays_and_global_tuples():
    @cuda.jit
    def k(x, y, out):
        s = 0.0
        for i, (xv, yv) in enumerate(zip(x, y)):  # noqa: B905 - numba's zip
            s += i * xv * yv
        for v in x:
            s += v
        for j, w in enumerate(WEIGHTS, 1):
            s += j * w
        out[0] = s

    x, y = np.arange(5.0), np.arange(3.0) + 1
    out = np.zeros(1)
    k[1, 1](x, y, out)
    want = (sum(i * a * b for i, (a, b) in enumerate(zip(x, y, strict=False))) + x.sum()
            + sum(j * w for j, w in enumerate(WEIGHTS, 1)))
    assert out[0] == want


def test_a_users_own_enumerate_is_not_rewritten():
    def enumerate(a):  # noqa: A001 - shadows the builtin on purpose
        return a

    @cuda.jit
    def k(a):
        for _i, v in enumerate(a):
            a[0] = v

    with pytest.raises(KernelCompileError):
        k[1, 1](np.zeros(3))
