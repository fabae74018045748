"""cuda.random (xoroshiro128+) is bit-exact with numba.cuda.random, whose own CPU-compiled
functions (importable without a GPU) are the reference."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numba.cuda import random as numba_random

from gpusim import cuda
from gpusim.cuda import random as gpusim_random

pytestmark = pytest.mark.usefixtures("fresh_system")


def numba_states(n, seed, subsequence_start=0):
    states = np.empty(n, numba_random.xoroshiro128p_dtype)
    numba_random.init_xoroshiro128p_states_cpu(states, np.uint64(seed), subsequence_start)
    return states


@settings(max_examples=25, deadline=None)
@example(n=3, seed=2**64 - 1, start=1)  # seeds are uint64: the top bit too
@given(n=st.integers(0, 40), seed=st.integers(0, 2**64 - 1), start=st.integers(0, 3))
def test_host_initialisation_matches_numba(n, seed, start):
    got = gpusim_random.create_xoroshiro128p_states(n, seed, subsequence_start=start)
    np.testing.assert_array_equal(got.copy_to_host(), numba_states(n, seed, start))


def test_subsequence_start_shifts_the_generators():
    s1 = cuda.random.create_xoroshiro128p_states(10, seed=1).copy_to_host()
    s2 = cuda.random.create_xoroshiro128p_states(10, seed=1, subsequence_start=3).copy_to_host()
    np.testing.assert_array_equal(s1[3:], s2[:-3])


def draws(module, draw, states):
    fn = getattr(module, f"xoroshiro128p_{draw}")
    with np.errstate(over="ignore"):  # uint64 arithmetic wraps, as on the GPU
        return np.array([fn(states, i) for _ in range(50) for i in range(4)])


@pytest.mark.parametrize("draw", ["uniform_float32", "uniform_float64"])
def test_uniform_draws_match_numba_bit_for_bit(draw):
    """The device functions' Python bodies (what a kernel compiles) against numba's
    CPU-compiled draws: 50 draws from each of 4 generators, and the states after."""
    ours, ref = numba_states(4, 1234), numba_states(4, 1234)
    np.testing.assert_array_equal(draws(gpusim_random, draw, ours),
                                  draws(numba_random, draw, ref))
    np.testing.assert_array_equal(ours, ref)


@pytest.mark.parametrize("draw", ["normal_float32", "normal_float64"])
def test_normal_draws_match_numba_to_float32_rounding(draw):
    """On the host, Python evaluates math.log/sqrt/cos in float64 where numba's typed code
    uses float32, so the normals agree to float32 precision here (bit-exact in kernels)."""
    ours, ref = numba_states(4, 99), numba_states(4, 99)
    np.testing.assert_allclose(draws(gpusim_random, draw, ours),
                               draws(numba_random, draw, ref), rtol=2e-6, atol=1e-6)
    np.testing.assert_array_equal(ours, ref)


@cuda.jit
def uniform_kernel(states, out):
    i = cuda.grid(1)
    out[i] = cuda.random.xoroshiro128p_uniform_float32(states, i)


def test_uniform_draws_in_a_kernel_match_numba():
    states = cuda.random.create_xoroshiro128p_states(64, seed=7)
    out = np.zeros(64, np.float32)
    uniform_kernel[1, 64](states, out)
    ref = numba_states(64, 7)
    want = [numba_random.xoroshiro128p_uniform_float32(ref, i) for i in range(64)]
    np.testing.assert_array_equal(out, np.array(want, np.float32))
