"""Atomics on global memory (real CPU atomics across host threads) and on LDS."""

import kernels as K
import numpy as np
import pytest

from gpusim.config import config


@pytest.fixture(params=[True, False], ids=["parallel", "serial"])
def parallel(request):
    old = config.parallel
    config.parallel = request.param
    yield request.param
    config.parallel = old


def test_every_atomic_op_returns_old_and_applies(run, parallel):
    out = np.array([0, 100, -1, 1000, 0, 0, 0, 0xFF, 0, 0], np.int64)
    run(K.atomic_all, 4, 64, out, 200)
    # add, sub, max, min, exch, inc (wraps at 9), dec (wraps to 9), and, or, xor
    assert list(out) == [200, -100, 199, 0, 7, 200 % 10, (-200) % 10, 0, 255, 255]


def test_float_add_by_compare_and_swap_loop(run, rng, parallel):
    x = rng.random(2000)
    total = np.zeros(1)
    run(K.atomic_float_add_cas, 32, 64, x, total)
    np.testing.assert_allclose(total[0], x.sum())


def test_lock_free_max(run, rng):
    x = rng.random(2000)
    best = np.zeros(1)
    run(K.lockfree_max, 32, 64, x, best)
    assert best[0] == x.max()


def test_global_atomic_add_from_many_blocks(run, rng):
    data = rng.integers(0, 1000, 100_000)
    bins = np.zeros(16, np.int32)
    run(K.histogram_lds, 64, 256, data, bins)
    np.testing.assert_array_equal(bins, np.bincount(data % 16, minlength=16))
