"""cuda.cg.this_grid() / g.sync() and kernel.overloads (issue 19: numba's
test_cooperative_groups), against NumPy."""

import numpy as np
import pytest
from numba import float32, int32

from gpusim import cuda
from gpusim.errors import HipError, hipError_t


def sequential_rows(m):
    """Row r is built from row r-1 read by the 'opposite' thread: without a barrier
    between rows a thread would read a row that is not written yet."""
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, m.shape[0]):
        m[row, col] = m[row - 1, m.shape[1] - col - 1] + 1
        g.sync()


def test_grid_sync_orders_rows_in_one_block():
    k = cuda.jit((int32[:, ::1],))(sequential_rows)
    a = np.zeros((16, 64), np.int32)
    k[1, 64](a)
    np.testing.assert_array_equal(a, np.tile(np.arange(16), (64, 1)).T)


def test_sync_on_this_grid_directly_and_a_bare_this_grid():
    @cuda.jit
    def rotate(a):
        i = cuda.grid(1)
        cuda.cg.this_grid()
        v = a[(i + 3) % a.size]
        cuda.cg.this_grid().sync()
        a[i] = v

    a = np.arange(100)
    rotate[1, 100](a)
    np.testing.assert_array_equal(a, np.roll(np.arange(100), -3))


def test_a_cooperative_launch_of_two_blocks_stops_instead_of_a_wrong_answer():
    k = cuda.jit(sequential_rows)
    with pytest.raises(HipError) as err:
        k[2, 32](np.zeros((4, 64), np.int32))
    assert err.value.code == hipError_t.hipErrorAssert


def test_overloads_by_signature_and_cooperative_limit():
    sig = (int32[:, ::1],)
    k = cuda.jit(sig)(sequential_rows)
    ov = k.overloads[sig]
    assert [ov.max_cooperative_grid_blocks(b) for b in (256, (16, 16), (16, 4, 4))] == [1] * 3
    assert ov.max_cooperative_grid_blocks(4096) == 0  # larger than a block may be

    @cuda.jit
    def fill(a):
        a[cuda.grid(1)] = 7

    a = np.zeros(8, np.float32)
    assert fill.overloads == {}
    fill[1, 8](a)
    assert list(fill.overloads) == [(float32[::1],)]
