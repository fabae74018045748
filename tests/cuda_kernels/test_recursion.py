"""Recursive device functions (issue 19: numba's test_recursion): self and mutual recursion
compiled as functions of their own; the same Python functions run on the host are the
reference. What such a function cannot do (barriers, thread indices, arrays, raise) and
recursion numba cannot type are compile errors that say so."""

import math

import numpy as np
import pytest
from numba import types

from gpusim import cuda
from gpusim.compile.pipeline import front_end
from gpusim.errors import KernelCompileError


@cuda.jit("i8(i8)", device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit(device=True)
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@cuda.jit(device=True)
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@cuda.jit(device=True)
def halve(x):
    return x / 2.0


@cuda.jit(device=True)
def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


@cuda.jit(device=True)
def power_sum(x, n):
    # calls a non-recursive helper and math from the recursive function
    if n == 0:
        return 0.0
    return math.sqrt(x) + power_sum(halve(x), n - 1)


def test_self_and_mutual_recursion_match_python():
    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        if i < x.size:
            out[i, 0] = fib(x[i])
            out[i, 1] = is_even(x[i])
            out[i, 2] = gcd(x[i] * 6, 48)

    x = np.arange(20, dtype=np.int64)
    out = np.zeros((20, 3), np.int64)
    k[1, 32](out, x)
    want = [[fib(v), is_even(v), gcd(v * 6, 48)] for v in x.tolist()]
    np.testing.assert_array_equal(out, want)
    assert out[10, 0] == 55 and math.gcd(6 * 7, 48) == out[7, 2]


def test_recursion_calls_helpers_and_math_and_sits_between_barriers():
    @cuda.jit
    def k(out, x):
        t = cuda.threadIdx.x
        s = cuda.shared.array(64, np.float64)
        s[t] = power_sum(x[t], t % 5)
        cuda.syncthreads()
        out[t] = s[63 - t] + fib(t % 12)

    x = np.linspace(1.0, 9.0, 64)
    out = np.zeros(64)
    k[1, 64](out, x)
    want = [power_sum(x[63 - t], (63 - t) % 5) + fib(t % 12) for t in range(64)]
    np.testing.assert_allclose(out, want, rtol=1e-15)


def test_a_recursive_call_as_a_statement_runs():
    @cuda.jit(device=True)
    def count_down(n):
        if n > 0:
            count_down(n - 1)

    @cuda.jit
    def k(out):
        count_down(5)
        out[0] = 1

    out = np.zeros(1, np.int64)
    k[1, 1](out)
    assert out[0] == 1


def test_the_generated_code_shows_the_function():
    def k(out):
        out[0] = fib(7)

    out = np.zeros(1, np.int64)
    cuda.jit(k)[1, 1](out)
    assert out[0] == 13
    kir = front_end(k, wave_size=64, arg_types=(types.int64[::1],))
    assert "def fib(n):" in kir.source and "return fib(n - 1) + fib(n - 2)" in kir.source


@cuda.jit(device=True)
def with_barrier(n):
    cuda.syncthreads()
    return 0 if n <= 0 else with_barrier(n - 1)


@cuda.jit(device=True)
def with_thread_index(n):
    return cuda.threadIdx.x if n <= 0 else with_thread_index(n - 1)


@cuda.jit(device=True)
def with_array(a, n):
    return 0.0 if n <= 0 else a[n] + with_array(a, n - 1)


@cuda.jit(device=True)
def with_raise(n):
    if n == 1:
        raise ValueError("one")
    return 0 if n <= 0 else with_raise(n - 1)


@cuda.jit(device=True)
def runaway(x):
    return runaway(x)


def barrier_kernel(a):
    a[0] = with_barrier(3)


def thread_index_kernel(a):
    a[0] = with_thread_index(3)


def array_kernel(a):
    a[0] = with_array(a, 3)


def raise_kernel(a):
    a[0] = with_raise(3)


def runaway_kernel(a):
    a[0] = runaway(1)


@pytest.mark.parametrize("kernel, match", [
    (barrier_kernel, "cannot use hip.syncthreads"),
    (thread_index_kernel, "cannot use hip.threadIdx.x"),
    (array_kernel, "cannot take arrays"),
    (raise_kernel, "`raise` is not supported"),
    (runaway_kernel, "cannot type infer runaway recursion"),
])
def test_what_a_separate_function_cannot_do_is_a_clear_error(kernel, match):
    with pytest.raises(KernelCompileError, match=match):
        cuda.jit(kernel)[1, 1](np.zeros(4))


@cuda.jit(device=True)
def reverse_through_shared(a, n, dtype):
    s = cuda.shared.array(n, dtype)  # a shape known only once the call binds n
    t = cuda.threadIdx.x
    s[t] = a[t]
    cuda.syncthreads()
    a[t] = s[n - 1 - t]


def test_device_functions_with_compile_time_shapes_are_still_inlined():
    # looking for recursion must not resolve a callee without the constants its call binds
    @cuda.jit
    def k(a):
        reverse_through_shared(a, 32, np.int32)

    a = np.arange(32, dtype=np.int32)
    k[1, 32](a)
    np.testing.assert_array_equal(a, np.arange(32)[::-1])
