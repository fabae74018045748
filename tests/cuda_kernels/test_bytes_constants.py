"""Bytes literals stored into 'S' arrays and record fields (issue 19: numba's
test_const_string), against the same stores done by NumPy on the host."""

import numpy as np

from gpusim import cuda


def test_bytes_into_a_char_array_truncated_like_numpy():
    @cuda.jit
    def fill(arr):
        i = cuda.grid(1)
        if i < arr.size - 1:
            arr[i] = b"TOO-LONG-FOR-S4" if i % 2 else b"AB"

    got = np.zeros(6, "S4")
    fill[1, 8](got)
    want = np.zeros(6, "S4")
    for i in range(5):
        want[i] = b"TOO-LONG-FOR-S4" if i % 2 else b"AB"
    np.testing.assert_array_equal(got, want)


def test_bytes_into_a_record_field():
    dt = np.dtype([("x", np.float32), ("y", "S12")])

    @cuda.jit
    def f(a):
        a[0]["x"] = 1
        a[0]["y"] = b"ABC"
        a[1].y = b"XYZ"

    a = np.zeros(2, dt)
    f[1, 1](a)
    np.testing.assert_array_equal(a, np.array([(1, b"ABC"), (0, b"XYZ")], dt))
