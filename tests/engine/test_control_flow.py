"""Control flow around barriers: early return, divergent barriers, loops, device functions."""

import kernels as K
import numpy as np
import pytest

from gpusim.errors import HipError, hipError_t


def test_early_return_then_barrier_counts_only_live_threads(run, rng):
    x = rng.random(300).astype(np.float32)
    out = np.zeros(300, np.float32)
    run(K.early_return, 2, 256, x, out)  # the second block has 44 live threads
    np.testing.assert_array_equal(out, 2 * x)


def test_block_whose_threads_all_returned_skips_its_barrier_loop(run):
    out = np.full(512, -7, np.int64)
    run(K.all_return_then_loop, 4, 128, np.zeros(1), out)
    assert (out[:128] == 1).all()
    assert (out[128:] == -7).all()


def test_divergent_barrier_names_line_block_and_thread(run):
    with pytest.raises(HipError) as err:
        run(K.divergent_barrier, 1, 64, np.zeros(64))
    assert err.value.code == hipError_t.hipErrorLaunchFailure
    msg = str(err.value)
    line = K.line_of(K.divergent_barrier, "divergent")
    assert "divergent barrier" in msg and f"line {line}" in msg
    assert "16 of the 64 live threads" in msg and "threadIdx=(16, 0, 0)" in msg


def test_barrier_under_uniform_condition(run):
    out = np.zeros(64, np.int32)
    run(K.barrier_in_uniform_branch, 1, 64, 1, out)
    np.testing.assert_array_equal(out, 63 - np.arange(64))
    run(K.barrier_in_uniform_branch, 1, 64, 0, out)
    assert (out == -1).all()


def test_barrier_under_data_dependent_condition_that_every_thread_takes(run):
    out = np.zeros(64, np.int64)
    run(K.divergent_if_with_barrier_all_true, 1, 64, np.array([1]), out)
    np.testing.assert_array_equal(out, np.arange(64))


def test_break_and_continue_in_barrier_loops_and_thread_loops(run):
    out = np.zeros(64, np.int64)
    run(K.loop_break_continue, 1, 64, np.zeros(1), out)
    t = np.arange(64)
    np.testing.assert_array_equal(out, sum(k * ((t + 1) % 64) for k in (0, 1, 3, 4, 5)) + t + 1)


def test_device_functions_inlined_with_returns_and_collectives(run, rng):
    x = rng.random(200) * 2 - 0.5
    out = np.zeros(200)
    total = np.zeros(1)
    run(K.uses_device_functions, 4, 64, x, out, total)
    np.testing.assert_array_equal(out, np.clip(x, 0, 1))
    np.testing.assert_allclose(total[0], np.clip(x, 0, 1).sum())


def test_device_function_called_from_the_host_runs_python():
    assert K.clamp(5, 0, 3) == 3


def test_loop_until_syncthreads_or_says_nothing_changed(run, rng):
    x = rng.integers(0, 100, 64).astype(np.int32)
    out = np.zeros(64, np.int64)
    run(K.converge, 1, 64, x, out)
    np.testing.assert_array_equal(out // 1000, np.maximum.accumulate(x))
    assert len(set(out % 1000)) == 1  # the whole block did the same number of rounds


def test_nested_divergent_loops_with_a_collective(run):
    out = np.zeros(64, np.int64)
    run(K.nested_divergent, 1, 64, out)
    lanes = np.arange(64)
    want = []
    for lane in lanes:
        acc = 0
        for i in range(lane % 3):
            for _j in range(i + lane % 2):
                # lanes still in both loops at (i, j): those with i < l % 3 and j < i + l % 2
                active = sum(1 for m in lanes if i < m % 3 and _j < i + m % 2)
                acc += active + i * 100
        want.append(acc)
    np.testing.assert_array_equal(out, want)


def test_threads_returning_inside_a_loop_do_not_block_a_later_barrier(run):
    out = np.zeros(64, np.int64)
    run(K.return_in_divergent_loop, 1, 64, np.zeros(1), out)
    t = np.arange(64)
    np.testing.assert_array_equal(out, (t % 7 >= 5).astype(np.int64))


def test_collective_in_a_device_function_sees_the_callers_active_lanes(run):
    out = np.zeros(64, np.int64)
    run(K.device_fn_in_divergent_if, 1, 64, out)
    np.testing.assert_array_equal(out, np.where(np.arange(64) < 10, 10, 0))


@pytest.mark.parametrize("kernel", [K.return_from_nested_loop,
                                    K.return_from_nested_loop_no_barrier])
def test_return_from_inside_nested_loops(run, kernel):
    out = np.zeros(64, np.int64)
    run(kernel, 1, 64, out)
    np.testing.assert_array_equal(out, np.where(np.arange(64) < 16, 1, 2))
