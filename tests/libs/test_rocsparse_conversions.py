"""rocSPARSE format conversions against SciPy on random matrices (hypothesis), with empty
rows and both index bases: csr2coo, coo2csr, csr2csc, csr2ell, csr2dense (column-major,
ld > m), nnz, dense2csr."""

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sparse_cases import PREFIX, ell_arrays, matrices, upload_coo, upload_csr

from gpusim import hip
from gpusim import rocsparse as R

SETTINGS = settings(max_examples=30, deadline=None)


def _descr(base):
    descr = R.rocsparse_create_mat_descr()
    R.rocsparse_set_mat_index_base(descr, base)
    return descr


def _routine(stem, a):
    return getattr(R, f"rocsparse_{PREFIX[a.dtype.type]}{stem}")


@SETTINGS
@given(case=matrices())
def test_csr2coo_and_coo2csr_round_trip(case):
    a, base = case
    h = R.rocsparse_create_handle()
    rp, _, _ = upload_csr(a, base)
    rows = hip.device_array(a.nnz, np.int32)
    R.rocsparse_csr2coo(h, rp, a.nnz, a.shape[0], rows, base)
    np.testing.assert_array_equal(rows.copy_to_host(), a.tocoo().row + base)
    back = hip.device_array(a.shape[0] + 1, np.int32)
    R.rocsparse_coo2csr(h, rows, a.nnz, a.shape[0], back, base)
    np.testing.assert_array_equal(back.copy_to_host(), a.indptr + base)


@SETTINGS
@given(case=matrices(), numeric=st.booleans())
def test_csr2csc_is_the_csr_of_the_transpose(case, numeric):
    a, base = case
    m, n = a.shape
    h = R.rocsparse_create_handle()
    rp, ci, val = upload_csr(a, base)
    action = R.rocsparse_action_numeric if numeric else R.rocsparse_action_symbolic
    size = R.rocsparse_csr2csc_buffer_size(h, m, n, a.nnz, rp, ci, action)
    cp, ri = hip.device_array(n + 1, np.int32), hip.device_array(a.nnz, np.int32)
    cv = hip.device_array(a.nnz, a.dtype)
    _routine("csr2csc", a)(h, m, n, a.nnz, val, rp, ci, cv, ri, cp, action, base,
                           hip.hipMalloc(size))
    want = sp.csc_matrix(a)
    want.sort_indices()
    np.testing.assert_array_equal(cp.copy_to_host(), want.indptr + base)
    np.testing.assert_array_equal(ri.copy_to_host(), want.indices + base)
    if numeric:
        np.testing.assert_array_equal(cv.copy_to_host(), want.data)


@SETTINGS
@given(case=matrices(), ell_base=st.sampled_from([0, 1]))
def test_csr2ell_matches_the_column_major_layout(case, ell_base):
    a, base = case
    m = a.shape[0]
    h = R.rocsparse_create_handle()
    rp, ci, val = upload_csr(a, base)
    width = R.rocsparse_csr2ell_width(h, m, _descr(base), rp, _descr(ell_base))
    want_col, want_val, want_width = ell_arrays(a, ell_base)
    assert width == want_width
    col, out = hip.device_array(m * width, np.int32), hip.device_array(m * width, a.dtype)
    _routine("csr2ell", a)(h, m, _descr(base), val, rp, ci, _descr(ell_base), width, out, col)
    got_col = col.copy_to_host()
    np.testing.assert_array_equal(got_col, want_col)  # padding -1 whatever the base
    np.testing.assert_array_equal(out.copy_to_host(), want_val)


@SETTINGS
@given(case=matrices(), pad=st.integers(0, 3))
def test_csr2dense_writes_column_major_with_ld(case, pad):
    a, base = case
    m, n = a.shape
    ld = m + pad
    rp, ci, val = upload_csr(a, base)
    sentinel = np.full(ld * n, 7, a.dtype)
    d_a = hip.to_device(sentinel)
    _routine("csr2dense", a)(R.rocsparse_create_handle(), m, n, _descr(base), val, rp, ci,
                             d_a, ld)
    got = d_a.copy_to_host().reshape(n, ld).T  # column j is got[:, j]
    np.testing.assert_array_equal(got[:m], a.toarray())
    assert (got[m:] == 7).all()  # rows past m inside ld are left alone


@SETTINGS
@given(case=matrices(), pad=st.integers(0, 2))
def test_nnz_and_dense2csr_compress_a_dense_matrix(case, pad):
    a, base = case
    m, n = a.shape
    ld = m + pad
    dense = np.zeros((n, ld), a.dtype)
    dense[:, :m] = a.toarray().T  # column-major with leading dimension ld
    d_a, h = hip.to_device(dense.ravel()), R.rocsparse_create_handle()
    per_col = hip.device_array(n, np.int32)
    total = _routine("nnz", a)(h, R.rocsparse_direction_column, m, n, _descr(base), d_a, ld,
                               per_col)
    assert total == a.nnz
    np.testing.assert_array_equal(per_col.copy_to_host(), np.diff(sp.csc_matrix(a).indptr))
    per_row = hip.device_array(m, np.int32)
    _routine("nnz", a)(h, R.rocsparse_direction_row, m, n, _descr(base), d_a, ld, per_row)
    rp, ci = hip.device_array(m + 1, np.int32), hip.device_array(total, np.int32)
    val = hip.device_array(total, a.dtype)
    _routine("dense2csr", a)(h, m, n, _descr(base), d_a, ld, per_row, val, rp, ci)
    np.testing.assert_array_equal(rp.copy_to_host(), a.indptr + base)
    np.testing.assert_array_equal(ci.copy_to_host(), a.indices + base)
    np.testing.assert_array_equal(val.copy_to_host(), a.data)


def test_nnz_total_in_pointer_mode_device(fresh_system):
    a = np.array([[1.0, 0.0], [2.0, 3.0]])
    h = R.rocsparse_create_handle()
    R.rocsparse_set_pointer_mode(h, R.rocsparse_pointer_mode_device)
    total, per_row = hip.device_array(1, np.int32), hip.device_array(2, np.int32)
    assert R.rocsparse_dnnz(h, R.rocsparse_direction_row, 2, 2, _descr(0),
                            hip.to_device(a.ravel(order="F")), 2, per_row, total) is None
    assert total.copy_to_host()[0] == 3


def test_coo_upload_helper_agrees_with_scipy():
    a = sp.csr_matrix(np.array([[0, 1.0], [2.0, 0]]))
    rows, cols, vals = (d.copy_to_host() for d in upload_coo(a, 1))
    assert rows.tolist() == [1, 2] and cols.tolist() == [2, 1] and vals.tolist() == [1, 2]


@SETTINGS
@given(case=matrices(), block_dim=st.integers(1, 4), by_columns=st.booleans(),
       bsr_base=st.sampled_from([0, 1]))
def test_csr2bsr_matches_scipy_blocks(case, block_dim, by_columns, bsr_base):
    a, base = case
    m, n = a.shape
    h = R.rocsparse_create_handle()
    rp, ci, val = upload_csr(a, base)
    direction = R.rocsparse_direction_column if by_columns else R.rocsparse_direction_row
    mb, nb = -(-m // block_dim), -(-n // block_dim)
    bsr_rp = hip.device_array(mb + 1, np.int32)
    nnzb = R.rocsparse_csr2bsr_nnz(h, direction, m, n, _descr(base), rp, ci, block_dim,
                                   _descr(bsr_base), bsr_rp)
    bsr_ci = hip.device_array(nnzb, np.int32)
    bsr_val = hip.device_array(nnzb * block_dim ** 2, a.dtype)
    _routine("csr2bsr", a)(h, direction, m, n, _descr(base), val, rp, ci, block_dim,
                           _descr(bsr_base), bsr_val, bsr_rp, bsr_ci)
    rows, cols = bsr_rp.copy_to_host() - bsr_base, bsr_ci.copy_to_host() - bsr_base
    blocks = bsr_val.copy_to_host().reshape(-1, block_dim, block_dim)
    if by_columns:
        blocks = blocks.transpose(0, 2, 1)
    dense = np.zeros((mb * block_dim, nb * block_dim), a.dtype)
    touched = set()
    for i in range(mb):
        for k in range(rows[i], rows[i + 1]):
            j = cols[k]
            dense[i * block_dim:(i + 1) * block_dim, j * block_dim:(j + 1) * block_dim] = \
                blocks[k]
            touched.add((i, j))
    np.testing.assert_array_equal(dense[:m, :n], a.toarray())
    coo = a.tocoo()
    assert touched == set(zip(coo.row // block_dim, coo.col // block_dim, strict=True))
    assert all(np.all(np.diff(cols[rows[i]:rows[i + 1]]) > 0) for i in range(mb))
