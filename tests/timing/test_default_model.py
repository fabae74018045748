"""The default timing model (gpusim.engine.estimate) on the default MI300X: orderings a
real GPU shows, at sizes where it is not just launch overhead, timed the way every HIP
tutorial times kernels (events around the launch), with no trace or profile switched on.
"""

import numpy as np
import pytest

import gpusim
from gpusim import cuda
from gpusim.engine import estimate

N = 1 << 22  # 16 MiB of float32
T = 4096  # transpose side
TILE = 32


@cuda.jit
def copy_strided(a, out, stride):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[(i * stride) % a.size]


@cuda.jit
def gather(a, idx, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[idx[i]]


@cuda.jit
def transpose_naive(a, out):
    x = cuda.blockIdx.x * TILE + cuda.threadIdx.x
    y0 = cuda.blockIdx.y * TILE + cuda.threadIdx.y
    for k in range(0, TILE, 8):
        out[x, y0 + k] = a[y0 + k, x]


@cuda.jit
def transpose_padded(a, out):
    tile = cuda.shared.array((TILE, TILE + 1), np.float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for k in range(0, TILE, 8):
        tile[ty + k, tx] = a[y + k, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for k in range(0, TILE, 8):
        out[y + k, x] = tile[tx, ty + k]


@cuda.jit
def reduce_atomic(a, out):
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.add(out, 0, a[i])


@cuda.jit
def reduce_tree(a, out):
    part = cuda.shared.array(256, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    part[tid] = a[i] if i < a.size else np.float32(0.0)
    cuda.syncthreads()
    step = 128
    while step > 0:
        if tid < step:
            part[tid] += part[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, part[0])


@cuda.jit
def lds_strided(out, stride):
    buf = cuda.shared.array(4096, np.float32)
    tid = cuda.threadIdx.x
    for j in range(4096 // 256):
        buf[j * 256 + tid] = np.float32(tid)
    cuda.syncthreads()
    acc = np.float32(0.0)
    slot = (tid * stride) % 4096
    for _ in range(64):
        acc += buf[slot]
        slot = (slot + 1) % 4096
    out[cuda.grid(1)] = acc


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
    assert t64 > 2 * t1
    a = dev["a"].copy_to_host()
    assert np.array_equal(dev["out"].copy_to_host(), a[(np.arange(N) * 64) % N])


def test_random_gather_costs_more_than_sequential(dev):
    ts = modeled_us(gather, GRID, 256, dev["a"], dev["seq"], dev["out"])
    tr = modeled_us(gather, GRID, 256, dev["a"], dev["perm"], dev["out"])
    assert tr > 2 * ts  # same shapes: the index arrays' addresses keep the memo apart


def test_naive_transpose_costs_more_than_padded_lds(dev):
    grid = (T // TILE, T // TILE)
    naive = modeled_us(transpose_naive, grid, (TILE, 8), dev["m"], dev["mt"])
    padded = modeled_us(transpose_padded, grid, (TILE, 8), dev["m"], dev["mt"])
    # MI300X's L2 (16 channels x 128 B/clk per XCD) absorbs most of the naive version's
    # partial-line writes: about 1.2x here. On the H200 (slower L2) the same kernels are
    # 4x apart, as measured (tests/timing/test_calibration.py holds that ratio).
    assert naive > 1.15 * padded
    assert np.array_equal(dev["mt"].copy_to_host(), dev["m"].copy_to_host().T)


def test_atomic_per_element_costs_more_than_tree_reduction(dev):
    dev["sum"].copy_to_device(np.zeros(1, np.float32))
    atomic = modeled_us(reduce_atomic, GRID, 256, dev["a"], dev["sum"])
    tree = modeled_us(reduce_tree, GRID, 256, dev["a"], dev["sum"])
    assert atomic > 10 * tree
    want = 2 * dev["a"].copy_to_host().astype(np.float64).sum()
    assert dev["sum"].copy_to_host()[0] == pytest.approx(want, rel=1e-3)


def test_lds_bank_conflicts_cost_time(dev):
    out = cuda.device_array(4096 * 256, np.float32)
    t1 = modeled_us(lds_strided, 4096, 256, out, 1)
    t32 = modeled_us(lds_strided, 4096, 256, out, 32)
    assert t32 > 2 * t1


def test_record_says_how_the_time_was_estimated_and_relaunch_is_memoised(dev):
    estimate.forget()
    with gpusim.profile() as prof:
        first = modeled_us(copy_strided, GRID, 256, dev["a"], dev["out"], 4)
        again = modeled_us(copy_strided, GRID, 256, dev["a"], dev["out"], 4)
        other = modeled_us(copy_strided, GRID, 256, dev["a"], dev["out"], 8)
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
