"""Compile-time arguments (issue 19): numba types, intrinsics, device functions and
constants passed to device functions; global tuples as shapes; @njit functions called
from kernels. References: NumPy and numba's njit on the CPU."""

import operator

import numba
import numpy as np
import pytest
from numba import float32, uint32, uint64

from gpusim import cuda
from gpusim.errors import KernelCompileError


@cuda.jit(device=True)
def to_uint64(num):
    return uint64(num)


@cuda.jit(device=True)
def unchanged(num):
    return num


@cuda.jit(device=True)
def histogram(ary, op2, dtype, n, binop, cast, init):
    tid = cuda.threadIdx.x
    sm = cuda.shared.array(n, dtype)
    sm[tid] = init
    cuda.syncthreads()
    binop(sm, cast(ary[tid] % n), op2)
    cuda.syncthreads()
    ary[tid] = sm[tid]


@cuda.jit
def add_hist(ary):
    histogram(ary, 1, uint32, 32, cuda.atomic.add, unchanged, 0)


@cuda.jit
def max_hist(ary):
    histogram(ary, 7, uint64, 32, cuda.atomic.max, to_uint64, 3)


def test_types_intrinsics_functions_and_shapes_as_arguments():
    idx = (np.arange(32) * 7 % 5).astype(np.uint32)
    a = idx.copy()
    add_hist[1, 32](a)
    np.testing.assert_array_equal(a, np.bincount(idx, minlength=32))
    b = idx.astype(np.uint64)
    max_hist[1, 32](b)
    np.testing.assert_array_equal(b, np.where(np.bincount(idx, minlength=32) > 0, 7, 3))


@cuda.jit(device=True)
def bump(n):
    n = n + 1
    return n


def test_a_constant_the_callee_assigns_stays_a_value():
    @cuda.jit
    def k(out):
        out[0] = bump(41)

    out = np.zeros(1, np.int64)
    k[1, 1](out)
    assert out[0] == 42


SHAPE = (4, 8)


def test_global_tuple_as_shared_shape_and_value():
    @cuda.jit
    def k(out):
        sm = cuda.shared.array(SHAPE, float32)
        width = cuda.shared.array(SHAPE[1], float32)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        sm[tx, ty] = tx * SHAPE[1] + ty
        width[ty] = 0
        cuda.syncthreads()
        out[tx, ty] = sm[tx, ty] + width[ty]

    out = np.zeros(SHAPE, np.float32)
    k[1, SHAPE](out)
    np.testing.assert_array_equal(out, np.arange(32).reshape(SHAPE))


@numba.njit
def poly(x):
    return 3 * x * x - 2 * x + 1


def test_njit_function_called_from_a_kernel():
    @cuda.jit
    def k(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = poly(a[i])

    x = np.linspace(-2, 2, 9)
    a = x.copy()
    k[1, 16](a)
    np.testing.assert_allclose(a, poly(x))


def test_a_type_as_a_kernel_variable_is_a_clear_error():
    @cuda.jit
    def k(a):
        t = uint32
        a[0] = t(1)

    with pytest.raises(KernelCompileError, match="cannot be used as a value"):
        k[1, 1](np.zeros(1, np.uint32))


@cuda.jit(device=True)
def combine(op, x, y):
    return op(x, y)


@pytest.mark.parametrize("op", [operator.add, operator.floordiv, operator.truediv,
                                operator.lt, operator.xor])
def test_operator_module_functions(op):
    @cuda.jit
    def k(a, b, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i, 0] = op(a[i], b[i])
            out[i, 1] = combine(op, a[i], b[i])

    a, b = np.arange(1, 9, dtype=np.int64), np.arange(8, 0, -1, dtype=np.int64)
    out = np.zeros((8, 2))
    k[1, 8](a, b, out)
    np.testing.assert_array_equal(out, np.stack([op(a, b)] * 2, 1))


@cuda.jit(device=True)
def add_at(ary, op2, shape, cast, wrap):
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    where = (tx, cast(ty))
    if wrap:  # with wrap=False numba never types this (uint64 % int64 is a float64)
        where = (where[0] % shape[0], where[1] % shape[1])
    cuda.atomic.add(ary, where, op2)


def test_a_branch_on_a_constant_argument_is_pruned_as_numba_does():
    @cuda.jit
    def k(ary):
        add_at(ary, 2, (4, 8), to_uint64, False)

    a = np.zeros((4, 8), np.uint32)
    k[1, (4, 8)](a)
    assert (a == 2).all()


TABLE = np.array([3.0, 5.0, 7.0])


@cuda.jit(device=True)
def lookup(table, i):
    return table[i]


def test_a_global_array_passed_to_a_device_function():
    @cuda.jit
    def k(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = lookup(TABLE, i)

    out = np.zeros(3)
    k[1, 4](out)
    np.testing.assert_array_equal(out, TABLE)
