"""``a[i:j].view(np.int32)``: an array's bytes reinterpreted in a kernel (issue 19: numba's
test_array_methods test_reinterpret_array_type); NumPy's ``.view`` is the reference."""

import numba
import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import HipError


@cuda.jit
def as_int32(byte_arr, start, stop, out):
    out[0] = byte_arr[start:stop].view(np.int32)[0]


def test_every_aligned_window_reads_as_numpy_does():
    rng = np.random.default_rng(7)
    byte_arr = rng.integers(0, 256, 64, dtype=np.uint8)
    out = np.zeros(1, np.int32)
    for start in range(0, 64, 4):
        as_int32[1, 1](byte_arr, start, start + 4, out)
        assert out[0] == byte_arr[start:start + 4].view(np.int32)[0]


def test_float_bits_and_a_numba_type():
    @cuda.jit
    def bits(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i:i + 1].view(numba.uint32)[0]

    x = np.array([1.0, -0.0, np.inf, 3.14159], np.float32)
    out = np.zeros(4, np.uint32)
    bits[1, 4](x, out)
    np.testing.assert_array_equal(out, x.view(np.uint32))


def test_a_size_that_does_not_divide_is_numpys_error():
    with pytest.raises(ValueError, match="divisor"):
        as_int32[1, 1](np.zeros(8, np.uint8), 0, 3, np.zeros(1, np.int32))


def test_the_reinterpreted_view_is_bounds_checked():
    @cuda.jit
    def past_end(b, out):
        out[0] = b[0:4].view(np.int32)[1]

    with pytest.raises(HipError, match="out-of-bounds read"):
        past_end[1, 1](np.zeros(16, np.uint8), np.zeros(1, np.int32))
