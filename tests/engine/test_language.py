"""Corners of the kernel language: spellings, dtypes, array layouts, global arrays."""

import numba
import numpy as np

from gpusim.compile import lang as cuda
from gpusim.compile import lang as hip

COEFFS = np.array([1.0, 10.0, 100.0])


def atomics_2d(hist, data):
    i = hip.grid(1)
    if i < data.shape[0]:
        cuda.atomic.add(hist, (data[i, 0], data[i, 1]), 1)


def numba_dtypes_and_sync_spellings(x, out):
    tile = cuda.shared.array(shape=64, dtype=numba.float32)
    t = cuda.threadIdx.x
    tile[t] = x[t]
    cuda.syncthreads()
    cuda.threadfence()
    v = cuda.shfl_down_sync(0xFFFFFFFF, tile[t], 1)
    cuda.syncwarp(0xFFFFFFFF)
    b = cuda.ballot_sync(0xFFFFFFFF, v > 0)
    out[t] = v + cuda.popc(b) * 1000 + cuda.all_sync(0xFFFFFFFF, True) * 100000


def strided(a, out):
    i, j = hip.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] * COEFFS[j % 3]


def cas_counter(counter, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = hip.atomic.compare_and_swap(counter, i, i + 1)  # a ticket: in order or not


def test_tuple_index_atomics(run, rng):
    data = rng.integers(0, 4, (500, 2))
    hist = np.zeros((4, 4), np.int64)
    run(atomics_2d, 8, 64, hist, data)
    want = np.zeros((4, 4), np.int64)
    np.add.at(want, (data[:, 0], data[:, 1]), 1)
    np.testing.assert_array_equal(hist, want)


def test_numba_dtypes_and_cuda_sync_spellings(run):
    x = np.arange(64, dtype=np.float32) - 10
    out = np.zeros(64)
    run(numba_dtypes_and_sync_spellings, 1, 64, x, out)
    v = np.append(x[1:], x[63])
    want = v + ((v > 0).sum()) * 1000 + 100000
    np.testing.assert_array_equal(out, want)


def test_strided_and_fortran_arrays_and_global_constant_arrays(run):
    base = np.arange(60.0).reshape(6, 10)
    a = base[::2, 1::3]  # non-contiguous view
    out = np.zeros((3, 3), order="F")
    run(strided, (1, 1), (8, 8), a, out)
    np.testing.assert_array_equal(out, a * COEFFS[np.arange(3) % 3])


def test_compare_and_swap_spelling(run):
    counter = np.zeros(1, np.int64)
    out = np.full(1, -1, np.int64)
    run(cas_counter, 1, 1, counter, out)
    assert out[0] == 0 and counter[0] == 1
