"""Regression tests for the wrong results of issue 19 (numba.cuda conformance): kernels
written for numba.cuda give numba.cuda's answers. References: numba's njit on the CPU,
Python's math module, known answers."""

import enum
import math

import numba
import numpy as np
import pytest

from gpusim import cuda


def _brev32(c):
    return int(f"{c:032b}"[::-1], 2)


def test_signature_types_a_uint32_scalar():
    @cuda.jit("void(uint32[:], uint32)")
    def k(a, c):
        a[0] = cuda.brev(c)

    a = np.zeros(1, np.uint32)
    k[1, 1](a, 0x30F0)
    assert a[0] == _brev32(0x30F0) == 0xF0C0000


def test_signature_types_an_int32_scalar():
    @cuda.jit("void(int32[:], int32)")
    def k(a, c):
        a[0] = cuda.clz(c)

    a = np.zeros(1, np.int32)
    k[1, 1](a, 0x00100000)
    assert a[0] == 32 - (0x00100000).bit_length() == 11


def test_signature_wraps_and_types_arithmetic():
    """A declared uint32 wraps as numba's does (numba's njit with the same signature)."""
    @cuda.jit("void(uint32[:], uint32)")
    def k(a, c):
        a[0] = c * c + c

    @numba.njit("uint32(uint32)")
    def ref(c):
        return c * c + c

    a = np.zeros(1, np.uint32)
    k[1, 1](a, 0xFFFF1234)
    assert a[0] == ref(0xFFFF1234)


def test_signature_refuses_other_array_types():
    @cuda.jit("void(float32[:])")
    def k(a):
        a[0] = 1

    with pytest.raises(Exception, match="declared for"):
        k[1, 1](np.zeros(1, np.int64))


def test_barrier_in_a_loop_under_a_branch_every_thread_takes():
    @cuda.jit
    def k(a):
        tid = cuda.threadIdx.x
        if tid < 64:
            for _ in range(3):
                a[tid] += 1
                cuda.syncthreads()

    a = np.zeros(64, np.int32)
    k[1, 64](a)
    assert (a == 3).all()


def test_barrier_some_threads_skip_is_still_divergent():
    @cuda.jit
    def k(a):
        tid = cuda.threadIdx.x
        if tid < 32:
            for _ in range(3):
                a[tid] += 1
                cuda.syncthreads()

    with pytest.raises(Exception, match="divergent barrier"):
        k[1, 64](np.zeros(64, np.int32))
        cuda.synchronize()


@pytest.mark.parametrize("x, y", [(5.5, 2.0), (-7.25, 2.0), (7.0, -3.0), (2.5, 1.0),
                                  (3.5, 1.0), (1e300, 3.0), (-0.0, 1.0)])
def test_fmod_modf_remainder(x, y):
    @cuda.jit
    def k(r, xs, ys):
        r[0] = math.fmod(xs[0], ys[0])
        r[1], r[2] = math.modf(xs[0])
        r[3] = math.remainder(xs[0], ys[0])

    r = np.zeros(4)
    k[1, 1](r, np.array([x]), np.array([y]))
    want = [math.fmod(x, y), *math.modf(x), math.remainder(x, y)]
    assert r.tolist() == want
    assert [math.copysign(1, v) for v in r] == [math.copysign(1, v) for v in want]


def test_math_domain_cases_give_nan_not_an_error():
    @cuda.jit
    def k(r, xs):
        r[0] = math.remainder(xs[0], 0.0)
        r[1] = math.fmod(xs[0], 0.0)
        r[2], r[3] = math.modf(xs[1])

    r = np.zeros(4)
    k[1, 1](r, np.array([1.0, -np.inf]))
    assert np.isnan(r[0]) and np.isnan(r[1])
    assert (r[2], r[3]) == (-0.0, -np.inf) and math.copysign(1, r[2]) == -1


def test_fmod_keeps_float32():
    @cuda.jit
    def k(r, xs):
        r[0] = math.fmod(xs[0], xs[1])

    r = np.zeros(1, np.float32)
    xs = np.array([5.3, 2.0], np.float32)
    k[1, 1](r, xs)
    assert r[0] == np.fmod(xs[0], xs[1])


class Code(enum.IntEnum):
    small = 1
    big = 10


class Shape(enum.Enum):
    circle = 3


def test_intenum_and_enum_constants():
    @cuda.jit
    def k(a, x):
        i = cuda.grid(1)
        if x[i] > Code.big:
            a[i] = Code.small + Shape.circle.value * 0 + (x[i] == Shape.circle.value)
        else:
            a[i] = Code.big

    x = np.array([11, 3, 12], np.int64)
    a = np.zeros(3, np.int64)
    k[1, 3](a, x)
    assert a.tolist() == [1, 10, 1]


def test_of_several_signatures_the_closest_is_launched():
    @cuda.jit(["(float64[::1], float32, float32)", "(float64[::1], float64, float64)"])
    def add(r, x, y):
        r[0] = x + y

    r = np.zeros(1)
    add[1, 1](r, np.float32(1), np.float32(2**-25))
    assert r[0] == float(np.float32(1) + np.float32(2**-25)) == 1.0
    add[1, 1](r, 1, 2**-25)
    assert r[0] == 1 + 2**-25
