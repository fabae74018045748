"""The pure-Python reference path gives the same results as the compiled path (every
test using the ``run`` fixture runs on both; these compare the two directly)."""

import kernels as K
import numpy as np
import pytest

from gpusim.errors import HipError


def test_block_sum(run, rng):
    x = rng.random(300, dtype=np.float32)
    out = np.zeros(2, np.float32)
    run(K.block_sum, 2, 256, x, out)
    np.testing.assert_allclose(out, [x[:256].sum(), x[256:].sum()], rtol=1e-5)


def test_wave_collectives_and_atomics(run, rng):
    x = rng.random(200)
    out = np.zeros(200)
    total = np.zeros(1)
    run(K.uses_device_functions, 4, 64, x, out, total)
    np.testing.assert_allclose(total[0], np.clip(x, 0, 1).sum())


def test_divergent_control_flow_agrees(run):
    fast, ref = np.zeros(64, np.int64), np.zeros(64, np.int64)
    run(K.divergent_break_collective, 1, 64, fast)
    run(K.divergent_break_collective, 1, 64, ref, reference=True)
    np.testing.assert_array_equal(fast, ref)


def test_faults_are_reported_the_same_way(run):
    with pytest.raises(HipError, match="index -1 is outside 0..63"):
        run(K.negative_index, 1, 64, np.zeros(64))
