"""LDS + barrier kernels against NumPy: the course's classic algorithms."""

import kernels as K
import numpy as np
import pytest


def test_tiled_matmul(run, rng):
    A = rng.random((50, 37)).astype(np.float32)
    B = rng.random((37, 29)).astype(np.float32)
    C = np.zeros((50, 29), np.float32)
    run(K.matmul_tiled, (2, 4), (16, 16), A, B, C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-5)


def test_transpose_with_padded_tile(run, rng):
    a = rng.random((40, 33)).astype(np.float32)
    out = np.zeros((33, 40), np.float32)
    run(K.transpose_padded, (3, 3), (16, 16), a, out)
    np.testing.assert_array_equal(out, a.T)


def test_block_tree_reduction(run, rng):
    x = rng.random(1000, dtype=np.float32)
    out = np.zeros(4, np.float32)
    run(K.block_sum, 4, 256, x, out)  # float32 in LDS, as the course's reduction
    expected = np.add.reduceat(np.pad(x, (0, 24)).astype(np.float64), [0, 256, 512, 768])
    np.testing.assert_allclose(out, expected, rtol=1e-5)


def test_inclusive_scan_in_a_block(run, rng):
    x = rng.integers(0, 10, 200)
    out = np.zeros(200, np.int64)
    run(K.inclusive_scan, 1, 256, x, out)
    np.testing.assert_array_equal(out, np.cumsum(x))


def test_bitonic_sort_in_lds(run, rng):
    x = rng.random(256).astype(np.float32)
    y = x.copy()
    run(K.bitonic_sort, 1, 256, y)
    np.testing.assert_array_equal(y, np.sort(x))


def test_dynamic_lds_sized_by_the_launch(run, rng):
    x = rng.random(256).astype(np.float32)
    out = np.zeros(256, np.float32)
    run(K.dynamic_reverse, 4, 64, x, out, shared=64 * 4)
    np.testing.assert_array_equal(out.reshape(4, 64), x.reshape(4, 64)[:, ::-1])


def test_lds_is_per_block(run):
    """Each block reverses its own slice: no block sees another block's LDS."""
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros(1024, np.float32)
    run(K.dynamic_reverse, 16, 64, x, out, shared=256)
    np.testing.assert_array_equal(out.reshape(16, 64), x.reshape(16, 64)[:, ::-1])


def test_histogram_with_shared_and_global_atomics(run, rng):
    data = rng.integers(0, 1000, 5000)
    bins = np.zeros(16, np.int32)
    run(K.histogram_lds, 8, 128, data, bins)
    np.testing.assert_array_equal(bins, np.bincount(data % 16, minlength=16))


@pytest.mark.parametrize("values", [[1] * 128, [0] * 128, list(range(-64, 64))])
def test_syncthreads_count_and_or(run, values):
    x = np.array(values)
    out = np.zeros(3, np.int64)
    run(K.sync_votes, 1, 128, x, out)
    n = int((x > 0).sum())
    assert list(out) == [n, int(n == 128), int(n > 0)]


def test_local_arrays_are_private_per_thread_across_barriers(run):
    out = np.zeros(64, np.int64)
    run(K.local_array_kernel, 1, 64, out)
    np.testing.assert_array_equal(out, np.arange(64) * 6)
