"""``@cuda.jit(debug=True)``: a division by zero stops the kernel with an exception
(issue 19: numba's test_exception test_zero_division_error_in_debug).

numba.cuda's debug kernels use Python's error model (ZeroDivisionError with numba's
messages); its simulator raises FloatingPointError; gpusim's exception is both. Without
``debug`` the NumPy model holds, checked against NumPy.
"""

import numpy as np
import pytest

from gpusim import cuda


def divide(r, x, y):
    r[0] = y[0] / x[0]
    r[1] = y[0]


@pytest.mark.parametrize("caught", [ZeroDivisionError, FloatingPointError])
def test_debug_division_by_zero_raises_and_stops(caught):
    r, x, y = np.zeros(2), np.zeros(1), np.ones(1)
    with pytest.raises(caught, match=r"tid=\[0, 0, 0\] ctaid=\[0, 0, 0\]: division by zero"):
        cuda.jit(debug=True, opt=False)(divide)[1, 1](r, x, y)
    np.testing.assert_array_equal(r, [0.0, 0.0])  # nothing after the division ran


def test_without_debug_numpys_answers():
    r, x, y = np.zeros(2), np.zeros(1), np.ones(1)
    cuda.jit(divide)[1, 1](r, x, y)
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(r, [y[0] / x[0], 1.0])


@pytest.mark.parametrize("op, dtype, message", [
    ("//", np.int64, "integer division by zero"), ("%", np.int64, "integer modulo by zero"),
    ("/", np.int64, "division by zero"), ("//", np.float64, "division by zero"),
    ("%", np.float32, "modulo by zero"), ("/", np.complex128, "complex division by zero")])
def test_numbas_message_and_the_thread_that_divided(op, dtype, message):
    ns = {"cuda": cuda}
    exec(f"def k(out, a, b):\n    i = cuda.grid(1)\n    out[i] = a[i] {op} b[i]\n", ns)
    kernel = cuda.jit(debug=True)(ns["k"])
    a = np.arange(1, 9).astype(dtype)
    b = np.ones(8, dtype)
    out = np.zeros(8, np.result_type(dtype, np.float64) if op == "/" else dtype)
    kernel[2, 4](out, a, b)  # no zero: runs through
    b[6] = 0  # thread 2 of block 1
    with pytest.raises(ZeroDivisionError, match=rf"tid=\[2, 0, 0\] ctaid=\[1, 0, 0\]: {message}$"):
        kernel[2, 4](out, a, b)


def test_a_guarded_division_does_not_raise():
    @cuda.jit(debug=True)
    def safe(out, x):
        t = cuda.threadIdx.x
        out[t] = 1.0 / x[t] if x[t] != 0 else -1.0
        q = 10
        if x[t] != 0:
            q //= int(x[t])
        out[t] += q

    x = np.array([0.0, 2.0, 0.0, 5.0])
    out = np.zeros(4)
    safe[1, 4](out, x)
    np.testing.assert_array_equal(out, [9.0, 5.5, 9.0, 2.2])


def test_a_division_computed_once_for_the_block_names_thread_zero():
    @cuda.jit(debug=True)
    def scale(r, n):
        w = 1.0 / n  # the same in every thread: computed once for the block
        cuda.syncthreads()
        r[cuda.threadIdx.x] = w

    r = np.zeros(4)
    scale[1, 4](r, 4)
    np.testing.assert_array_equal(r, 0.25)
    with pytest.raises(ZeroDivisionError, match=r"tid=\[0, 0, 0\] ctaid=\[0, 0, 0\]"):
        scale[1, 4](r, 0)
