"""LDS on the checked path: races between barriers, warp-synchronous code, atomics,
uninitialised reads, and the same results as the fast path for correct kernels."""

import kernels as K
import numpy as np
import pytest
from kernels import line_of

from gpusim.engine.findings import LDS_RACE, UNINIT
from gpusim.errors import SanitizerError, hipError_t


def findings_of(run, kernel, *launch, **kw):
    with pytest.raises(SanitizerError) as err:
        run(kernel, *launch, **kw)
    assert err.value.code == hipError_t.hipErrorLaunchFailure
    return err.value


def test_missing_barrier_in_reduction_is_an_lds_race_naming_both_lines(run):
    x = np.arange(128, dtype=np.float32)
    err = findings_of(run, K.reduce_no_first_barrier, 2, 64, x, np.zeros(2, np.float32))
    store, add = line_of(K.reduce_no_first_barrier, "store"), line_of(K.reduce_no_first_barrier,
                                                                      "add")
    [f] = err.findings
    assert f.kind == LDS_RACE and f.array == "s" and f.lines == (store, add)
    assert (f.first.what, f.second.what) == ("write", "read")
    assert f.first.thread != f.second.thread and f.first.block == f.second.block == (0, 0, 0)
    msg = str(err)
    assert f"line {store}" in msg and f"line {add}" in msg and "'reduce_no_first_barrier'" in msg
    assert "threadIdx=(32, 0, 0)" in msg and "threadIdx=(0, 0, 0)" in msg
    assert f.count == 64  # both blocks, every thread t < 32 (once per element)


def test_the_same_reduction_with_the_barrier_reports_nothing_and_sums(run):
    x = np.arange(128, dtype=np.float32)
    out = np.zeros(2, np.float32)
    run(K.block_sum, 2, 64, x, out)
    np.testing.assert_array_equal(out, [x[:64].sum(), x[64:].sum()])


def test_warp_synchronous_unrolling_without_barrier_is_reported(run):
    err = findings_of(run, K.warp_sync_reduce, 1, 64, np.ones(64, np.float32),
                      np.zeros(1, np.float32))
    lines = {ln for f in err.findings for ln in f.lines}
    assert {line_of(K.warp_sync_reduce, "warp32"), line_of(K.warp_sync_reduce, "warp16")} <= lines
    assert all(f.kind == LDS_RACE and f.same_wave for f in err.findings)
    assert "lockstep" in str(err) and "hip.syncwarp()" in str(err)
    assert "more like these" in str(err)  # the report stays short


def test_warp_synchronous_code_with_syncwarp_is_not_a_race(run):
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(1, np.float32)
    run(K.warp_sync_reduce_fixed, 1, 64, x, out)
    assert out[0] == x.sum()


def test_lds_atomics_are_not_races(run):
    x = np.arange(256, dtype=np.int32)
    bins = np.zeros(8, np.int32)
    run(K.lds_histogram, 4, 64, x, bins)
    np.testing.assert_array_equal(bins, np.bincount(x % 8, minlength=8))


def test_a_thread_may_read_and_write_its_own_element(run):
    out = np.zeros(64, np.int32)
    run(K.same_thread_read_write, 1, 64, out)
    np.testing.assert_array_equal(out, np.arange(64) * 2 + 1)


def test_uninitialised_lds_read_is_reported_with_thread_and_element(run):
    err = findings_of(run, K.uninit_lds, 1, 64, np.zeros(64, np.float32))
    [f] = err.findings
    assert f.kind == UNINIT and f.index == (32,) and f.first.thread == (32, 0, 0)
    assert f.lines == (line_of(K.uninit_lds, "uninit"),) and f.count == 32
    assert "no thread of the block had written it" in str(err)


def test_two_dimensional_lds_and_global_arrays(run):
    a = np.arange(32 * 48, dtype=np.float32).reshape(32, 48)
    out = np.zeros((48, 32), np.float32)
    run(K.transpose_tiled, (3, 2), (16, 16), a, out)
    np.testing.assert_array_equal(out, a.T)
    err = findings_of(run, K.transpose_no_barrier, (3, 2), (16, 16), a, out)
    f = err.findings[0]
    assert f.kind == LDS_RACE and len(f.index) == 2
    assert set(f.lines) == {line_of(K.transpose_no_barrier, "tstore"),
                            line_of(K.transpose_no_barrier, "tload")}


def test_dynamic_lds(run):
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    run(K.dynamic_shift, 1, 64, x, out, shared=256)
    np.testing.assert_array_equal(out, np.roll(x, -1))
    err = findings_of(run, K.dynamic_shift_no_barrier, 1, 64, x, out, shared=256)
    assert err.findings[0].kind == LDS_RACE


def test_findings_print_once_per_kind_and_lines(run):
    err = findings_of(run, K.reduce_no_first_barrier, 4, 64, np.ones(256, np.float32),
                      np.zeros(4, np.float32))
    text = str(err.findings)
    assert text.startswith("gpusim sanitizer: kernel 'reduce_no_first_barrier': 1 finding\n")
    assert text.count("[1] LDS race on s[32]") == 1 and "[2]" not in text
    assert "128 times" in text  # 4 blocks x 32 threads, counted, not listed
