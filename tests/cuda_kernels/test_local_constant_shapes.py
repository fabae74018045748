"""A shared-array shape named by a local constant (issue 19: numba's test_sync
test_simple_smem): ``N = 100`` then ``cuda.shared.array(N, int32)``; known answers."""

import numpy as np
import pytest
from numba import int32

from gpusim import cuda
from gpusim.errors import KernelCompileError


def test_a_local_assigned_once_is_a_compile_time_shape():
    @cuda.jit("void(int32[::1])")
    def reverse(ary):
        n = 100
        m = n // 2 * 2
        sm = cuda.shared.array(m, int32)
        i = cuda.grid(1)
        sm[i] = i
        cuda.syncthreads()
        ary[i] = sm[m - 1 - i]

    a = np.zeros(100, np.int32)
    reverse[1, 100](a)
    np.testing.assert_array_equal(a, np.arange(99, -1, -1))


def test_a_local_assigned_twice_is_not():
    @cuda.jit
    def k(ary):
        n = 10
        if ary[0] > 0:
            n = 20
        sm = cuda.shared.array(n, int32)
        sm[0] = 1

    with pytest.raises(KernelCompileError, match="must be known when the kernel compiles"):
        k[1, 1](np.ones(1))
