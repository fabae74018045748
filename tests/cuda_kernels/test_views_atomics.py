"""Array views in kernels and the atomics numba.cuda has (issue 19): slices, rows,
transposes, .strides; compare_and_swap on a view; cas with a tuple index; nanmax/nanmin.
References: NumPy on the host."""

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import KernelCompileError


def test_row_slice_transpose_and_strides():
    @cuda.jit
    def k(a, out, info):
        i = cuda.grid(1)
        if i < a.shape[0]:
            row = a[i, :]
            s = 0.0
            for j in range(row.size):
                s += row[j]
            out[i, 0] = s
            out[i, 1] = a[i][1:][0]
            out[i, 2] = a.T[1, i]
            out[i, 3] = a[::2, 0].size
        if i == 0:
            info[0] = a.strides[0]
            info[1] = a.T.strides[0]

    a = np.arange(12.0).reshape(4, 3)
    out, info = np.zeros((4, 4)), np.zeros(2, np.int64)
    k[1, 8](a, out, info)
    np.testing.assert_array_equal(out, np.stack([a.sum(1), a[:, 1], a.T[1], [2] * 4], 1))
    assert info.tolist() == [a.strides[0], a.T.strides[0]]


def test_slice_assignment_broadcasts():
    @cuda.jit
    def k(a):
        a[0:2] = 1.0
        a[3:, 1] = 2.0

    a = np.zeros((5, 2))
    k[1, 1](a)
    want = np.zeros((5, 2))
    want[0:2] = 1.0
    want[3:, 1] = 2.0
    np.testing.assert_array_equal(a, want)


def test_view_indexing_is_bounds_checked():
    @cuda.jit
    def k(a):
        row = a[0, :]
        row[5] = 1.0

    with pytest.raises(Exception, match="out-of-bounds write"):
        k[1, 1](np.zeros((2, 3)))
        cuda.synchronize()


def test_compare_and_swap_on_a_view_and_cas_with_a_tuple_index():
    @cuda.jit
    def cas_view(res, old, ary, fill):
        gid = cuda.grid(1)
        if gid < res.size:
            old[gid] = cuda.atomic.compare_and_swap(res[gid:], fill, ary[gid])

    @cuda.jit
    def cas_2d(res, old, ary, fill):
        gid = cuda.grid(2)
        if gid[0] < res.shape[0] and gid[1] < res.shape[1]:
            old[gid] = cuda.atomic.cas(res, gid, fill, ary[gid])

    res0 = np.array([0, 5, 0, 7], np.int32)
    res, old, ary = res0.copy(), np.zeros(4, np.int32), np.arange(1, 5, dtype=np.int32)
    cas_view[1, 4](res, old, ary, 0)
    np.testing.assert_array_equal(res, np.where(res0 == 0, ary, res0))
    np.testing.assert_array_equal(old, res0)

    r0 = np.zeros((4, 4), np.int32)
    r0[1, 2] = 9
    r, o, v = r0.copy(), np.full((4, 4), -1, np.int32), np.arange(16, dtype=np.int32).reshape(4, 4)
    cas_2d[1, (4, 4)](r, o, v, 0)
    np.testing.assert_array_equal(r, np.where(r0 == 0, v, r0))
    np.testing.assert_array_equal(o, r0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_nanmax_nanmin_global_and_shared(dtype):
    @cuda.jit
    def k(res, ary):
        tx = cuda.threadIdx.x
        cuda.atomic.nanmax(res, 0, ary[tx])
        cuda.atomic.nanmin(res, 1, ary[tx])
        sm = cuda.shared.array(2, np.float64)
        if tx == 0:
            sm[0] = res[2]
            sm[1] = res[2]
        cuda.syncthreads()
        cuda.atomic.nanmax(sm, 0, ary[tx])
        cuda.atomic.max(sm, 1, ary[tx])
        cuda.syncthreads()
        if tx == 0:
            res[2] = sm[0]
            res[3] = sm[1]

    rng = np.random.default_rng(1)
    vals = rng.integers(-50, 50, 32).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        vals[::5] = np.nan
        res = np.array([np.nan, np.nan, np.nan, 0], dtype)
    else:
        res = np.array([vals[0], vals[0], vals[0], 0], dtype)
    k[1, 32](res, vals)
    assert res[0] == np.nanmax(vals) and res[1] == np.nanmin(vals) and res[2] == np.nanmax(vals)
    if np.issubdtype(dtype, np.floating):
        assert np.isnan(res[3])  # atomic.max keeps a NaN it finds (Python max rules)


def test_an_array_variable_that_is_not_a_view_is_a_clear_error():
    @cuda.jit
    def k(a, b):
        c = a if a.size > b.size else b
        c[0] = 1

    with pytest.raises(KernelCompileError, match="array variables"):
        k[1, 1](np.zeros(2), np.zeros(3))


def test_atomics_with_a_mixed_tuple_index_variable():
    @cuda.jit(device=True)
    def to_u64(n):
        return np.uint64(n)

    @cuda.jit
    def k(ary):
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        sm = cuda.shared.array((4, 8), np.uint32)
        sm[tx, ty] = ary[tx, ty]
        cuda.syncthreads()
        where = (tx, to_u64(ty))  # (int64, uint64), as numba's atomic tests build it
        cuda.atomic.add(sm, where, 1)
        cuda.atomic.add(ary, where, 1)
        cuda.syncthreads()
        ary[tx, ty] += sm[tx, ty] * 2

    a0 = np.arange(32, dtype=np.uint32).reshape(4, 8)
    a = a0.copy()
    k[1, (4, 8)](a)
    np.testing.assert_array_equal(a, 3 * (a0 + 1))
