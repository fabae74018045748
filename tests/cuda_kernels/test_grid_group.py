"""cuda.cg.this_grid() / g.sync(): a barrier across every work-group of a cooperative
launch, and kernel.overloads (issue 19: numba's test_cooperative_groups and the
doc examples laplace and sessionize), against NumPy."""

import numpy as np
import pytest
from numba import float32, float64, int32, int64

import gpusim
from gpusim import cuda, hip
from gpusim.devices import get_spec
from gpusim.engine.cooperative import grid_sync_seconds
from gpusim.engine.launcher import prepare
from gpusim.errors import HipError, KernelCompileError, SanitizerError, hipError_t
from gpusim.timing import kernel_estimate


def sequential_rows(m):
    """Row r is built from row r-1 read by the 'opposite' thread, which sits in another
    block: without a grid barrier between rows it would read a row not written yet."""
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, m.shape[0]):
        m[row, col] = m[row - 1, m.shape[1] - col - 1] + 1
        g.sync()


def rows_reference(rows: int, cols: int) -> np.ndarray:
    m = np.zeros((rows, cols), np.int32)
    for r in range(1, rows):
        m[r] = m[r - 1, ::-1] + 1
    return m


@pytest.mark.parametrize("grid, block", [(1, 64), (32, 32), (8, 128)])
def test_grid_sync_orders_rows_across_blocks(grid, block):
    k = cuda.jit((int32[:, ::1],))(sequential_rows)
    a = np.zeros((40, grid * block), np.int32)
    a[0] = np.arange(grid * block) % 7  # the opposite column differs: order matters
    k[grid, block](a)
    want = rows_reference(40, grid * block)
    want[0] = a[0]
    for r in range(1, 40):
        want[r] = want[r - 1, ::-1] + 1
    np.testing.assert_array_equal(a, want)


def test_each_block_reads_data_another_block_wrote_after_the_sync():
    @cuda.jit
    def rotate(a):
        i = cuda.grid(1)
        cuda.cg.this_grid()
        v = a[(i + 3 * cuda.blockDim.x) % a.size]  # three blocks further on
        cuda.cg.this_grid().sync()
        a[i] = v

    a = np.arange(640)
    rotate[10, 64](a)
    np.testing.assert_array_equal(a, np.roll(np.arange(640), -192))


def test_multi_phase_reduction_keeps_lds_and_block_values_per_work_group():
    @cuda.jit
    def reduce(x, w, partial, out):
        s = cuda.shared.array(64, float64)
        t, b = cuda.threadIdx.x, cuda.blockIdx.x
        scale = 0.0  # this block's own value, kept across the grid syncs
        for j in range(w.shape[1]):
            scale += w[b, j]
        s[t] = x[cuda.grid(1)]
        cuda.syncthreads()
        step = 32
        while step > 0:
            if t < step:
                s[t] += s[t + step]
            cuda.syncthreads()
            step //= 2
        g = cuda.cg.this_grid()
        if t == 0:
            partial[b] = s[0]
        g.sync()
        if t == 0:  # each block: the total of all blocks, times its own scale
            total = 0.0
            for j in range(cuda.gridDim.x):
                total += partial[j]
            out[b] = total * scale + s[0]  # s[0]: this block's LDS, two phases later
        g.sync()
        out[b] += partial[(b + 1) % cuda.gridDim.x] * (t == 0)

    rng = np.random.default_rng(1)
    x, w = rng.random(64 * 20), rng.random((20, 3))
    partial, out = np.zeros(20), np.zeros(20)
    reduce[20, 64](x, w, partial, out)
    sums = x.reshape(20, 64).sum(axis=1)
    want = sums.sum() * w.sum(axis=1) + sums + np.roll(sums, -1)
    np.testing.assert_allclose(out, want, rtol=1e-12)


def heat(buf_0, buf_1, timesteps, k):
    """numba.cuda's laplace example: arrays swapped by a uniform branch, threads past the
    end returned before the grid syncs."""
    i = cuda.grid(1)
    if i >= len(buf_0):
        return
    grid = cuda.cg.this_grid()
    for step in range(timesteps):
        if (step % 2) == 0:
            data = buf_0
            next_data = buf_1
        else:
            data = buf_1
            next_data = buf_0
        curr = data[i]
        if i == 0:
            nxt = curr + k * (data[i + 1] - 2 * curr)
        elif i == len(data) - 1:
            nxt = curr + k * (data[i - 1] - 2 * curr)
        else:
            nxt = curr + k * (data[i - 1] - 2 * curr + data[i + 1])
        next_data[i] = nxt
        grid.sync()


def test_heat_equation_with_returned_threads_and_swapped_arrays():
    n, steps = 301, 50
    data = np.zeros(n)
    data[150] = 1000.0
    b0, b1 = data.copy(), np.zeros(n)
    cuda.jit(heat)[(n + 63) // 64, 64](b0, b1, steps, 0.25)
    cur = data.copy()
    for _ in range(steps):
        lap = np.empty(n)
        lap[1:-1] = cur[:-2] - 2 * cur[1:-1] + cur[2:]
        lap[0], lap[-1] = cur[1] - 2 * cur[0], cur[-2] - 2 * cur[-1]
        cur = cur + 0.25 * lap
    np.testing.assert_allclose(b1 if steps % 2 else b0, cur, rtol=1e-12)


def test_grid_sync_in_a_kernel_ending_branch_waits_for_threads_that_did_not_exit():
    @cuda.jit
    def starts(flags, label):
        i = cuda.grid(1)
        if i >= flags.size:
            return
        if flags[i]:  # only session starts reach the grid sync; the others exit
            label[i] = i + 1
            cuda.cg.this_grid().sync()
            j = i + 1
            while j < flags.size and label[j] == 0:
                label[j] = i + 1
                j += 1

    flags = np.zeros(300, np.int32)
    flags[[0, 5, 64, 65, 200]] = 1
    label = np.zeros(300, np.int64)
    starts[5, 64](flags, label)
    np.testing.assert_array_equal(label - 1, np.maximum.accumulate(
        np.where(flags == 1, np.arange(300), 0)))


def test_a_launch_larger_than_the_device_holds_at_once_is_refused():
    sig = (int32[:, ::1],)
    k = cuda.jit(sig)(sequential_rows)
    most = k.overloads[sig].max_cooperative_grid_blocks(1024)
    a = np.zeros((2, (most + 1) * 1024), np.int32)
    with pytest.raises(HipError) as err:
        k[most + 1, 1024](a)
    assert err.value.code == hipError_t.hipErrorCooperativeLaunchTooLarge
    assert f"holds at most {most}" in str(err.value) and "max_cooperative_grid_blocks" in str(
        err.value)
    assert not a.any()  # nothing ran


def test_max_cooperative_grid_blocks_is_the_occupancy_times_the_compute_units():
    sig = (int32[:, ::1],)
    k = cuda.jit(sig)(sequential_rows)
    ov = k.overloads[sig]
    cus = hip.hipGetDeviceProperties(0).multiProcessorCount
    for block in (64, 256, 1024):
        per_cu = hip.hipOccupancyMaxActiveBlocksPerMultiprocessor(None, block)
        assert ov.max_cooperative_grid_blocks(block) == per_cu * cus > 0
    assert ov.max_cooperative_grid_blocks((16, 16)) == ov.max_cooperative_grid_blocks(256)
    assert ov.max_cooperative_grid_blocks(4096) == 0  # larger than a block may be

    @cuda.jit((float32[::1],))
    def big_lds(a):
        s = cuda.shared.array(16384, float32)  # 64 KiB: one work-group per CU
        s[cuda.threadIdx.x] = 1.0
        cuda.cg.this_grid().sync()
        a[cuda.grid(1)] = s[cuda.threadIdx.x]

    lds = big_lds.overloads[(float32[::1],)].max_cooperative_grid_blocks(256)
    assert 0 < lds < ov.max_cooperative_grid_blocks(256)
    assert lds == hip.hipOccupancyMaxActiveBlocksPerMultiprocessor({"lds_bytes": 65536},
                                                                   256) * cus


def test_overloads_by_signature():
    @cuda.jit
    def fill(a):
        a[cuda.grid(1)] = 7

    a = np.zeros(8, np.float32)
    assert fill.overloads == {}
    fill[1, 8](a)
    assert list(fill.overloads) == [(float32[::1],)]


def test_grid_sync_under_a_thread_dependent_branch_is_a_compile_error():
    @cuda.jit
    def bad(a):
        i = cuda.grid(1)
        if i < 10:
            cuda.cg.this_grid().sync()
        a[i] = 1

    with pytest.raises(KernelCompileError, match="every thread of the grid must reach it"):
        bad[2, 32](np.zeros(64))

    @cuda.jit
    def per_block_count(a):  # block b would sync b times: the grid cannot agree
        for _ in range(cuda.blockIdx.x):
            cuda.cg.this_grid().sync()
        a[cuda.grid(1)] = 1

    with pytest.raises(KernelCompileError, match="every thread of the grid must reach it"):
        per_block_count[2, 32](np.zeros(64))


def test_checked_mode_sees_the_grid_sync_order_and_still_finds_real_races():
    def exchange(a, out):
        i = cuda.grid(1)
        a[i] = i
        cuda.cg.this_grid().sync()
        out[i] = a[a.size - 1 - i]

    def racy(a, out):
        i = cuda.grid(1)
        a[i] = i
        out[i] = a[a.size - 1 - i]

    a, out = np.zeros(256, np.int64), np.zeros(256, np.int64)
    cuda.jit(check=True)(exchange)[4, 64](a, out)
    np.testing.assert_array_equal(out, np.arange(256)[::-1])
    with pytest.raises(SanitizerError, match="global race"):
        cuda.jit(check=True)(racy)[4, 64](a, out)


def test_plain_python_reference_path_runs_phase_by_phase():
    a = np.zeros((6, 128), np.int32)
    ready = prepare(sequential_rows, grid=4, block=32, args=(a,), device=get_spec("mi300x"),
                    reference=True)
    ready.run()
    np.testing.assert_array_equal(a, rows_reference(6, 128))


def test_profiled_cooperative_launch_runs_untraced_and_correct():
    k = cuda.jit(sequential_rows)
    a = np.zeros((8, 256), np.int32)
    with gpusim.profile(memory=True), pytest.warns(UserWarning, match="runs untraced"):
        k[8, 32](a)  # a traced work-group cannot pass a grid sync on its own
        cuda.synchronize()
    np.testing.assert_array_equal(a, rows_reference(8, 256))


def test_modeled_time_counts_every_grid_sync_executed():
    k = cuda.jit(sequential_rows)
    with gpusim.profile() as prof:
        for rows in (5, 41):
            k[8, 32](np.zeros((rows, 256), np.int32))
        cuda.synchronize()
    short, long = prof.kernels
    assert (short.breakdown["grid_syncs"], long.breakdown["grid_syncs"]) == (4, 40)
    one = grid_sync_seconds(get_spec("mi300x"), 8)
    assert long.breakdown["grid_sync"] == pytest.approx(40 * one)
    roofline, _ = kernel_estimate(get_spec("mi300x"), threads=256, bytes_moved=41 * 256 * 4)
    assert long.duration_ns == pytest.approx((roofline + 40 * one) * 1e9, abs=1)


def test_dynamic_lds_is_per_work_group_and_its_views_are_made_again_after_a_grid_sync():
    @cuda.jit
    def keep(x, y, n):
        d = cuda.shared.array(0, dtype=int64)
        v = d[0:n]
        v[cuda.threadIdx.x] = x[cuda.grid(1)] * 2
        cuda.cg.this_grid().sync()
        v = d[0:n]  # each work-group's own LDS, as it left it
        y[cuda.grid(1)] = v[cuda.threadIdx.x] + x[(cuda.grid(1) + 16) % x.size]

    x, y = np.arange(64), np.zeros(64, np.int64)
    keep[4, 16, 0, 16 * 8](x, y, 16)
    np.testing.assert_array_equal(y, 2 * x + np.roll(x, -16))

    @cuda.jit
    def stale(x, y, n):
        d = cuda.shared.array(0, dtype=int64)
        v = d[0:n]
        v[cuda.threadIdx.x] = x[cuda.grid(1)]
        cuda.cg.this_grid().sync()
        y[cuda.grid(1)] = v[cuda.threadIdx.x]

    with pytest.raises(KernelCompileError, match="make the view again after the grid sync"):
        stale[4, 16, 0, 16 * 8](x, y, 16)


def test_two_dimensional_grid_and_a_barrier_result_kept_per_work_group():
    @cuda.jit
    def flip(a, out):
        x, y = cuda.grid(2)
        a[y, x] = x * 100 + y
        n = cuda.syncthreads_count(x * y % 7 < 3)  # this block's own count
        cuda.cg.this_grid().sync()
        h, w = a.shape
        out[y, x] = a[h - 1 - y, w - 1 - x] + n * 10**6 + cuda.blockIdx.y * 10**8

    a, out = np.zeros((16, 32), np.int64), np.zeros((16, 32), np.int64)
    flip[(4, 2), (8, 8)](a, out)
    xs, ys = np.meshgrid(np.arange(32), np.arange(16))
    want_a = xs * 100 + ys
    np.testing.assert_array_equal(a, want_a)
    counted = (xs * ys % 7 < 3).reshape(2, 8, 4, 8).sum(axis=(1, 3))
    assert len(np.unique(counted)) > 2  # the blocks' counts differ
    per_block = np.repeat(np.repeat(counted, 8, axis=0), 8, axis=1)
    np.testing.assert_array_equal(out, want_a[::-1, ::-1] + per_block * 10**6
                                  + (ys // 8) * 10**8)


def test_blocks_that_disagree_on_a_grid_sync_fail_as_a_divergent_grid_sync():
    @cuda.jit
    def odd_blocks_skip(a):
        m = cuda.blockIdx.x % 2  # the same in a block, not in the grid
        if m == 0:
            cuda.cg.this_grid().sync()
        a[cuda.grid(1)] = 1

    with pytest.raises(HipError, match=r"divergent grid sync .* differs between "
                       r"blockIdx=\(0, 0, 0\) and blockIdx=\(1, 0, 0\)") as err:
        odd_blocks_skip[4, 32](np.zeros(128))
        cuda.synchronize()
    assert err.value.code == hipError_t.hipErrorLaunchFailure

    @cuda.jit
    def agreed(a, n):
        rows = n * 2 + cuda.blockIdx.x * 0  # block-uniform, and equal in every block
        for _ in range(1, rows):
            a[cuda.grid(1)] += 1
            cuda.cg.this_grid().sync()

    x = np.zeros(128)
    agreed[4, 32](x, 3)
    np.testing.assert_array_equal(x, 5)
