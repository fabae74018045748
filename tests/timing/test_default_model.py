"""The default timing model (gpusim.engine.estimate) on the default MI300X: orderings a
real GPU shows, at sizes where it is not just launch overhead, timed the way every HIP
tutorial times kernels (events around the launch), with no trace or profile switched on.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim import cuda
from gpusim.engine import estimate

# the calibration suite's kernels (numba.cuda spelling), the ones held to the H200
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "calibration"))
from suite import (  # noqa: E402
    TILE,
    copy_strided,
    gather,
    lds_strided,
    reduce_atomic,
    reduce_tree,
    transpose_lds_padded,
    transpose_naive,
)

N = 1 << 22  # 16 MiB of float32
T = 4096  # transpose side


@pytest.fixture(autouse=True)
def _cold_caches():
    """These tests compare access patterns from cold caches (issue 31 keeps the L2 and
    Infinity Cache warm between kernels; here every kernel's arrays fit the MALL)."""
    gpusim.config.cold_caches = True
    yield
    gpusim.config.cold_caches = False


def modeled_us(kernel, grid, block, *args) -> float:
    """Microseconds between two events around one launch (the default path)."""
    start, end = cuda.event(), cuda.event()
    start.record()
    kernel[grid, block](*args)
    end.record()
    end.synchronize()
    return cuda.event_elapsed_time(start, end) * 1e3


@pytest.fixture(scope="module")
def dev():
    gpusim.set_system()
    rng = np.random.default_rng(13)
    yield {"a": cuda.to_device(rng.random(N, dtype=np.float32)),
           "out": cuda.device_array(N, np.float32),
           "seq": cuda.to_device(np.arange(N, dtype=np.int32)),
           "perm": cuda.to_device(rng.permutation(N).astype(np.int32)),
           "m": cuda.to_device(rng.random((T, T), dtype=np.float32)),
           "mt": cuda.device_array((T, T), np.float32),
           "sum": cuda.device_array(1, np.float32)}
    gpusim.set_system()


GRID = N // 256


def test_strided_copy_costs_more_than_coalesced(dev):
    t1 = modeled_us(copy_strided, GRID, 256, dev["a"], dev["out"], 1)
    t64 = modeled_us(copy_strided, GRID, 256, dev["a"], dev["out"], 64)
    # less than stride 32 would cost without reuse: the index wraps every 256
    # work-groups and an XCD's 1 MiB of those lines stays in its 4 MiB L2 (memsim.period)
    assert t64 > 1.5 * t1
    a = dev["a"].copy_to_host()
    assert np.array_equal(dev["out"].copy_to_host(), a[(np.arange(N) * 64) % N])


def test_random_gather_costs_more_than_sequential(dev):
    ts = modeled_us(gather, GRID, 256, dev["a"], dev["seq"], dev["out"])
    tr = modeled_us(gather, GRID, 256, dev["a"], dev["perm"], dev["out"])
    assert tr > 2 * ts  # same shapes: the index arrays' addresses keep the memo apart


def test_naive_transpose_costs_more_than_padded_lds(dev):
    grid = (T // TILE, T // TILE)
    naive = modeled_us(transpose_naive, grid, (TILE, 8), dev["m"], dev["mt"])
    padded = modeled_us(transpose_lds_padded, grid, (TILE, 8), dev["m"], dev["mt"])
    # MI300X's L2 (16 channels x 128 B/clk per XCD) absorbs most of the naive version's
    # partial-line writes. It was about 1.2x here against the 5.3 TB/s HBM peak; with the
    # achieved 4.2 TB/s (issue 31) both are HBM-bound and about 1.03x apart. On the H200
    # (slower L2) the same kernels are 4x apart, as measured (test_calibration.py).
    assert naive > padded
    assert np.array_equal(dev["mt"].copy_to_host(), dev["m"].copy_to_host().T)


def test_atomic_per_element_costs_more_than_tree_reduction(dev):
    dev["sum"].copy_to_device(np.zeros(1, np.float32))
    atomic = modeled_us(reduce_atomic, GRID, 256, dev["a"], dev["sum"])
    tree = modeled_us(reduce_tree, GRID, 256, dev["a"], dev["sum"])
    assert atomic > 10 * tree
    want = 2 * dev["a"].copy_to_host().astype(np.float64).sum()
    assert dev["sum"].copy_to_host()[0] == pytest.approx(want, rel=1e-3)


def test_lds_bank_conflicts_cost_time(dev):
    out = cuda.device_array(1024 * 256, np.float32)
    t1 = modeled_us(lds_strided, 1024, 256, out, 1)
    t32 = modeled_us(lds_strided, 1024, 256, out, 32)
    assert t32 > 2 * t1


def test_record_says_how_the_time_was_estimated_and_relaunch_is_memoised(dev):
    estimate.forget()
    with gpusim.profile() as prof:
        first = modeled_us(copy_strided, GRID, 256, dev["a"], dev["out"], 4)
        again = modeled_us(copy_strided, GRID, 256, dev["a"], dev["out"], 4)
        other = modeled_us(copy_strided, GRID, 256, dev["a"], dev["out"], 64)
    how = [k.breakdown["estimate"] for k in prof.kernels]
    assert how == ["sampled", "memo", "sampled"]
    assert first == again and other > first
    assert prof.kernels[0].breakdown["traced_workgroups"] < GRID


def test_small_grid_is_traced_whole(dev):
    estimate.forget()
    with gpusim.profile() as prof:
        modeled_us(copy_strided, 64, 256, dev["a"], dev["out"], 1)
    assert prof.kernels[0].breakdown["estimate"] == "traced"
    assert prof.kernels[0].breakdown["traced_workgroups"] == 64
