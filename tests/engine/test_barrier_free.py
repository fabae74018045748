"""Barrier-free kernels against NumPy: indexing, grid-stride loops, math, launch shapes."""

import math

import kernels as K
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import gpusim
from gpusim.engine import launcher, specialize, workers


def test_vector_add(run, rng):
    a, b = rng.random(1000), rng.random(1000)
    out = np.zeros(1000)
    run(K.vadd, 4, 256, a, b, out)
    np.testing.assert_array_equal(out, a + b)


def test_grid_stride_loop_covers_more_elements_than_threads(run, rng):
    x, y = rng.random(5000).astype(np.float32), rng.random(5000).astype(np.float32)
    out = np.zeros(5000, np.float32)
    run(K.saxpy_stride, 3, 64, np.float32(2.0), x, y, out)
    np.testing.assert_allclose(out, 2 * x + y, rtol=1e-6)


def test_2d_indexing(run):
    out = np.zeros((37, 45))
    run(K.index2d, (3, 5), (16, 8), out)
    yy, xx = np.mgrid[:37, :45]
    np.testing.assert_array_equal(out, yy * 1000 + xx)


def test_3d_indexing(run):
    out = np.zeros((5, 6, 7))
    run(K.index3d, (2, 2, 2), (4, 4, 3), out)
    z, y, x = np.mgrid[:5, :6, :7]
    np.testing.assert_array_equal(out, (z * 100 + y) * 100 + x)


def test_thread_numbering_is_x_fastest_and_lanes_follow_linear_ids(run):
    out = np.zeros((6 * 100, 4), np.int64)
    run(K.ids, (2, 3, 1), (10, 5, 2), out)
    t = np.tile(np.arange(100), 6)
    np.testing.assert_array_equal(out[:, 0], t)
    np.testing.assert_array_equal(out[:, 1], np.repeat(np.arange(6), 100))
    np.testing.assert_array_equal(out[:, 2], t % 64)  # waves are consecutive linear ids
    assert (out[:, 3] == 64).all()


def test_wave32_device(run, rx7900xtx):
    out = np.zeros((100, 4), np.int64)
    run(K.ids, 1, 100, out, device=rx7900xtx)
    np.testing.assert_array_equal(out[:, 2], np.arange(100) % 32)
    assert (out[:, 3] == 32).all()


def test_math_functions(run, rng):
    x = rng.random(100).astype(np.float32)
    out = np.zeros((100, 4), np.float32)
    run(K.math_ops, 1, 128, x, out)
    np.testing.assert_allclose(out[:, 0], np.sqrt(x) + np.exp(-x), rtol=1e-6)
    np.testing.assert_allclose(out[:, 1], np.floor(x * 3.0) + x, rtol=1e-6)
    np.testing.assert_allclose(out[:, 2], x * x + 1, rtol=1e-6)
    want = np.maximum(x, 0.5) - np.minimum(x, 0.25) + np.where(x > 0.5, x, -x)
    np.testing.assert_allclose(out[:, 3], want, rtol=1e-6)


def test_bit_intrinsics_use_the_operand_width(run):
    x = np.array([0, 1, 8, 0x80000000, 12345], np.uint32)
    out = np.zeros((5, 4), np.int64)
    run(K.bits, 1, 64, x, out)
    popc = [bin(int(v)).count("1") for v in x]
    ffs = [(int(v) & -int(v)).bit_length() for v in x]
    clz = [32 - int(v).bit_length() for v in x]
    brev = [int(f"{int(v):032b}"[::-1], 2) for v in x]
    np.testing.assert_array_equal(out, np.array([popc, ffs, clz, brev]).T)


def test_print_in_a_kernel(run, capsys):
    run(K.prints, 1, 64, np.arange(64.0))
    assert capsys.readouterr().out == "value 1.0 7\n"


def test_each_print_is_a_whole_line_when_many_blocks_print(run, capfd, monkeypatch):
    # numba writes print() item by item; blocks on two host threads would interleave
    # mid-line, where a GPU's printf keeps each call's line whole. So a printing kernel's
    # blocks run on one host thread.
    asked = []

    def spy(nblocks, parallel):
        asked.append(parallel)
        return workers.plan_workers(nblocks, parallel)

    monkeypatch.setattr(launcher, "plan_workers", spy)
    x = np.arange(64.0)
    run(K.prints_per_block, 64, 64, x, reference=False)
    run(K.vadd, 64, 64, x, x, np.zeros(64), reference=False)
    assert asked == [False, gpusim.config.parallel]
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == sorted(f"block {b} of the grid reads {x[b]}" for b in range(64))
    assert specialize(K.prints_per_block, (x,), 64).prints
    assert not specialize(K.vadd, (x, x, x), 64).prints


def test_constant_array_and_global_constants(run):
    out = np.zeros(10)
    run(K.const_kernel, 1, 64, out)
    np.testing.assert_array_equal(out, K.WEIGHTS[np.arange(10) % 4])


dims = st.integers(1, 5)


@settings(max_examples=12, deadline=None)
@given(grid=st.tuples(dims, dims, dims), block=st.tuples(st.integers(1, 40), dims, dims))
def test_any_launch_shape_runs_every_thread_once(run, grid, block):
    """Blocks of any shape (not multiples of the wave) in 1-3D grids: ids are exact."""
    nthreads = math.prod(block)
    out = np.zeros((math.prod(grid) * nthreads, 4), np.int64)
    run(K.ids, grid, block, out)
    np.testing.assert_array_equal(out[:, 0], np.tile(np.arange(nthreads), math.prod(grid)))
    np.testing.assert_array_equal(out[:, 1], np.repeat(np.arange(math.prod(grid)), nthreads))


@settings(max_examples=10, deadline=None)
@given(n=st.integers(1, 3000), block=st.integers(1, 300))
def test_vector_add_any_size(run, n, block):
    a, b = np.arange(n, dtype=np.float64), np.full(n, 0.5)
    out = np.zeros(n)
    run(K.vadd, (n + block - 1) // block, block, a, b, out)
    np.testing.assert_array_equal(out, a + b)


@settings(max_examples=8, deadline=None)
@given(rows=st.integers(1, 40), cols=st.integers(1, 40), bx=st.integers(1, 16),
       by=st.integers(1, 16))
def test_2d_kernel_any_shape(run, rows, cols, bx, by):
    out = np.zeros((rows, cols))
    run(K.index2d, ((cols + bx - 1) // bx, (rows + by - 1) // by), (bx, by), out)
    yy, xx = np.mgrid[:rows, :cols]
    np.testing.assert_array_equal(out, yy * 1000 + xx)
