"""A view of an array kept across a barrier (issue 19: numba's test_sm test_issue_5073).

``sm1 = sm[0:n]`` is the array's base, offset and shape, so after a barrier it is
recomputed (``passes/remat.py``) rather than refused; results are checked against NumPy.
"""

import numpy as np
import pytest

import gpusim
from gpusim import cuda
from gpusim.errors import KernelCompileError


@cuda.jit
def slice_copy(x, y, chunk):
    dynsmem = cuda.shared.array(0, dtype=np.int64)
    sm1 = dynsmem[0:chunk]
    sm2 = dynsmem[chunk:chunk * 2]
    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    bd = cuda.blockDim.x
    i = bx * bd + tx
    if i < len(x):
        if tx < chunk:
            sm1[tx] = x[i]
        else:
            sm2[tx - chunk] = x[i]
    cuda.syncthreads()
    if tx == 0:
        for j in range(chunk):
            y[bd * bx + j] = sm1[j]
            y[bd * bx + j + chunk] = sm2[j]


@pytest.mark.parametrize("checked", [False, True])
def test_slices_of_dynamic_shared_memory_survive_the_barrier(checked, monkeypatch):
    monkeypatch.setattr(gpusim.config, "check", checked)  # the sanitizer's path too
    x = np.arange(256, dtype=np.int64) * 3 - 100
    y = np.zeros_like(x)
    slice_copy[16, 16, 0, 16 * 8](x, y, 8)
    np.testing.assert_array_equal(y, x)


def test_a_view_of_a_view_reversed_across_a_barrier():
    @cuda.jit
    def reverse(x, y):
        sm = cuda.shared.array((4, 8), dtype=np.float32)
        row = sm[1, :]
        tail = row[2:]
        t = cuda.threadIdx.x
        tail[t] = x[t]
        cuda.syncthreads()
        y[t] = tail[5 - t]

    x = np.arange(6, dtype=np.float32)
    y = np.zeros(6, np.float32)
    reverse[1, 6](x, y)
    np.testing.assert_array_equal(y, x[::-1])


def test_a_per_thread_view_of_a_global_array():
    @cuda.jit
    def shift(a, out):
        t = cuda.threadIdx.x
        mine = a[t:]
        cuda.syncthreads()
        out[t] = mine[0] + mine.size

    a = np.arange(10.0)
    out = np.zeros(10)
    shift[1, 10](a, out)
    np.testing.assert_array_equal(out, a + (10 - np.arange(10)))


def test_a_view_of_a_local_array_across_a_barrier_is_refused_not_wrong():
    @cuda.jit
    def k(out):
        t = cuda.threadIdx.x
        loc = cuda.local.array(4, np.float64)
        v = loc[1:]
        v[0] = t
        cuda.syncthreads()
        out[t] = v[0] + loc[1]

    with pytest.raises(KernelCompileError, match="'v' holds a array"):
        k[1, 4](np.zeros(4))
