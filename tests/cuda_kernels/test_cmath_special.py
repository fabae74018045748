"""cmath in kernels at infinite, NaN and signed-zero parts (C99 Annex G), against CPython's
cmath, whose special values are Annex G's (issue 19: numba's cudapy TestCMath)."""

import cmath
import itertools
import math

import numpy as np
import pytest

from gpusim import cuda

PARTS = [-math.inf, -2.5, -0.0, 0.0, 1.0, math.pi, math.inf, math.nan]
Z = [complex(re, im) for re, im in itertools.product(PARTS, PARTS)]


def same(got: complex, want: complex) -> bool:
    """Equal part by part, NaN equal to NaN, and zeros of one sign (the sign of a zero
    next to a NaN is unspecified in C99, so it is not compared there)."""
    nan_near = math.isnan(want.real) or math.isnan(want.imag)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        if math.isnan(w):
            if not math.isnan(g):
                return False
        elif w == 0 and not nan_near:
            if g != 0 or math.copysign(1, g) != math.copysign(1, w):
                return False
        elif not (g == w or abs(g - w) <= 4e-16 * abs(w)):
            return False
    return True


def raises(fn, *args) -> bool:
    """Python raises ValueError where C99 signals "invalid" (the test skips those points, as
    numba's does)."""
    try:
        fn(*args)
    except ValueError:
        return True
    return False


@pytest.mark.parametrize("name", ["cosh", "sinh", "tanh", "acosh", "log10"])
def test_unary_special_values(name):
    ns = {"cuda": cuda, "cmath": cmath}
    exec("def k(out, z):\n    i = cuda.grid(1)\n    if i < z.size:\n"
         f"        out[i] = cmath.{name}(z[i])\n", ns)
    fn = getattr(cmath, name)
    ok = [v for v in Z if not raises(fn, v)]
    z = np.array(ok)
    out = np.zeros_like(z)
    cuda.jit(ns["k"])[1, 64](out, z)
    bad = [(v, g, fn(v)) for v, g in zip(ok, out, strict=True) if not same(complex(g), fn(v))]
    assert not bad


def test_rect_special_values():
    @cuda.jit
    def k(out, r, phi):
        i = cuda.grid(1)
        if i < r.size:
            out[i] = cmath.rect(r[i], phi[i])

    pairs = [(r, p) for r, p in itertools.product(PARTS, PARTS) if not raises(cmath.rect, r, p)]
    r, phi = np.array(pairs).T.copy()
    out = np.zeros(len(pairs), complex)
    k[1, 64](out, r, phi)
    assert all(same(complex(g), cmath.rect(a, b)) for g, (a, b) in zip(out, pairs, strict=True))


def test_single_precision_and_real_arguments():
    @cuda.jit
    def k(out32, z32, out, x):
        i = cuda.grid(1)
        if i < x.size:
            out32[i] = cmath.tanh(z32[i])
            out[i] = cmath.cosh(x[i])  # a real argument is a complex one with imag 0

    z = np.array([0.5 - 1j, -2 + 0.25j, complex(math.inf, 0.0)], np.complex64)
    x = np.array([-1.5, 0.0, math.inf])
    out32, out = np.zeros(3, np.complex64), np.zeros(3, complex)
    k[1, 4](out32, z, out, x)
    np.testing.assert_allclose(out32, [cmath.tanh(complex(v)) for v in z], rtol=1e-6)
    assert all(same(complex(g), cmath.cosh(v)) for g, v in zip(out, x, strict=True))
