"""math/cmath functions numba.cuda kernels call that numba's CPU target lacks (issue 19),
against Python's math and cmath modules."""

import cmath
import math

import numpy as np
import pytest

from gpusim import cuda

Z = [complex(0.5, -1.25), complex(-2.0, 0.75), complex(3.0, 0.0), complex(-0.25, -0.5)]


@pytest.mark.parametrize("fn", [cmath.sqrt, cmath.exp, cmath.log, cmath.log10, cmath.cosh,
                                cmath.sinh, cmath.tanh, cmath.acosh, cmath.asin])
def test_cmath_functions(fn):
    ns = {"cuda": cuda, "fn": fn, "cmath": cmath}
    exec("def k(out, z):\n    i = cuda.grid(1)\n    if i < z.size:\n"
         f"        out[i] = cmath.{fn.__name__}(z[i])\n", ns)
    z = np.array(Z)
    out = np.zeros_like(z)
    cuda.jit(ns["k"])[1, 8](out, z)
    np.testing.assert_allclose(out, [fn(v) for v in Z], rtol=1e-13, atol=1e-15)


def test_phase_polar_rect_and_cube_roots():
    @cuda.jit
    def k(out, z, x):
        i = cuda.grid(1)
        if i < z.size:
            r, phi = cmath.polar(z[i])
            out[i, 0] = cmath.phase(z[i])
            out[i, 1] = r
            out[i, 2] = cmath.rect(r, phi).real
            out[i, 3] = cuda.cbrt(x[i])
            out[i, 4] = math.cbrt(x[i])

    z, x = np.array(Z), np.array([-27.0, 8.0, 0.001, -2.0])
    out = np.zeros((4, 5))
    k[1, 8](out, z, x)
    want = [[cmath.phase(v), abs(v), cmath.rect(*cmath.polar(v)).real, math.cbrt(y),
             math.cbrt(y)] for v, y in zip(Z, x, strict=True)]
    np.testing.assert_allclose(out, want, rtol=1e-14)


def test_numpy_bitwise_functions():
    @cuda.jit
    def k(a, out):
        out[0] = np.invert(a[0])
        out[1] = np.bitwise_xor(a[0], a[1])
        out[2] = np.left_shift(a[1], 2)
        out[3] = np.right_shift(a[1], 1)

    a = np.array([5, 12], np.int32)
    out = np.zeros(4, np.int32)
    k[1, 1](a, out)
    assert out.tolist() == [~5, 5 ^ 12, 12 << 2, 12 >> 1]


def test_methods_of_values_typed_by_numba():
    @cuda.jit
    def k(z, out):
        i = cuda.grid(1)
        if i < z.size:
            out[i] = z[i].conjugate()

    z = np.array([1 + 2j, 3 - 1j])
    out = np.zeros(2, complex)
    k[1, 2](z, out)
    np.testing.assert_array_equal(out, z.conj())
