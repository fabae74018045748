"""rocSPARSE products and triangular solves against SciPy on random matrices (hypothesis),
with empty rows, both index bases, every precision, every format."""

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from hypothesis import given, settings
from hypothesis import strategies as st
from sparse_cases import (
    PREFIX,
    TOL,
    bsr_arrays,
    ell_arrays,
    matrices,
    random_matrix,
    upload_coo,
    upload_csr,
)

import gpusim
from gpusim import hip
from gpusim import rocsparse as R

OPS = [R.rocsparse_operation_none, R.rocsparse_operation_transpose,
       R.rocsparse_operation_conjugate_transpose]
SETTINGS = settings(max_examples=30, deadline=None)


def _op(a, trans):
    return {111: a, 112: a.T, 113: a.conj().T}[int(trans)]


def _descr(base):
    descr = R.rocsparse_create_mat_descr()
    R.rocsparse_set_mat_index_base(descr, base)
    return descr


def _vectors(a, trans, seed):
    rng = np.random.default_rng(seed)
    rows, cols = _op(a, trans).shape
    x = rng.standard_normal(cols).astype(a.dtype)
    y = rng.standard_normal(rows).astype(a.dtype)
    return x, y


def _check(a, trans, x, y, alpha, beta, got):
    want = alpha * (_op(a, trans) @ x.astype(np.complex128)) + beta * y
    np.testing.assert_allclose(got, want, rtol=TOL[a.dtype.type], atol=TOL[a.dtype.type] * 10)


@SETTINGS
@given(case=matrices(), trans=st.sampled_from(OPS), seed=st.integers(0, 99))
def test_csrmv_and_coomv_match_scipy(case, trans, seed):
    a, base = case
    x, y = _vectors(a, trans, seed)
    alpha, beta = 1.5, -0.5
    h = R.rocsparse_create_handle()
    rp, ci, val = upload_csr(a, base)
    d_y = hip.to_device(y)
    getattr(R, f"rocsparse_{PREFIX[a.dtype.type]}csrmv")(
        h, trans, *a.shape, a.nnz, alpha, _descr(base), val, rp, ci, None, hip.to_device(x),
        beta, d_y)
    _check(a, trans, x, y, alpha, beta, d_y.copy_to_host())
    ri, ci, val = upload_coo(a, base)
    d_y = hip.to_device(y)
    getattr(R, f"rocsparse_{PREFIX[a.dtype.type]}coomv")(
        h, trans, *a.shape, a.nnz, alpha, _descr(base), val, ri, ci, hip.to_device(x), beta,
        d_y)
    _check(a, trans, x, y, alpha, beta, d_y.copy_to_host())


@SETTINGS
@given(case=matrices(), trans=st.sampled_from(OPS), seed=st.integers(0, 99))
def test_ellmv_matches_scipy(case, trans, seed):
    a, base = case
    x, y = _vectors(a, trans, seed)
    col, val, width = ell_arrays(a, base)
    d_y = hip.to_device(y)
    getattr(R, f"rocsparse_{PREFIX[a.dtype.type]}ellmv")(
        R.rocsparse_create_handle(), trans, *a.shape, 2.0, _descr(base), hip.to_device(val),
        hip.to_device(col), width, hip.to_device(x), 0.0, d_y)
    _check(a, trans, x, y, 2.0, 0.0, d_y.copy_to_host())


@SETTINGS
@given(case=matrices(), block_dim=st.integers(1, 4), by_columns=st.booleans(),
       seed=st.integers(0, 99))
def test_bsrmv_matches_scipy(case, block_dim, by_columns, seed):
    a, base = case
    rp, ci, val, mb, nb, padded = bsr_arrays(a, block_dim, base, by_columns)
    dense = sp.csr_matrix(padded)
    x, y = _vectors(dense, R.rocsparse_operation_none, seed)
    d_y = hip.to_device(y)
    direction = R.rocsparse_direction_column if by_columns else R.rocsparse_direction_row
    getattr(R, f"rocsparse_{PREFIX[a.dtype.type]}bsrmv")(
        R.rocsparse_create_handle(), direction, R.rocsparse_operation_none, mb, nb, ci.size,
        1.0, _descr(base), hip.to_device(val), hip.to_device(rp), hip.to_device(ci),
        block_dim, None, hip.to_device(x), 1.0, d_y)
    _check(dense, R.rocsparse_operation_none, x, y, 1.0, 1.0, d_y.copy_to_host())


DATATYPE = {np.float32: R.rocsparse_datatype_f32_r, np.float64: R.rocsparse_datatype_f64_r,
            np.complex64: R.rocsparse_datatype_f32_c,
            np.complex128: R.rocsparse_datatype_f64_c}
I32 = R.rocsparse_indextype_i32


def _spmat(a, base, fmt):
    dt = DATATYPE[a.dtype.type]
    if fmt == "csr":
        rp, ci, val = upload_csr(a, base)
        return R.rocsparse_create_csr_descr(*a.shape, a.nnz, rp, ci, val, I32, I32, base, dt), \
            R.rocsparse_spmv_alg_csr_adaptive
    if fmt == "coo":
        ri, ci, val = upload_coo(a, base)
        return R.rocsparse_create_coo_descr(*a.shape, a.nnz, ri, ci, val, I32, base, dt), \
            R.rocsparse_spmv_alg_coo_atomic
    col, val, width = ell_arrays(a, base)
    return R.rocsparse_create_ell_descr(*a.shape, hip.to_device(col), hip.to_device(val),
                                        width, I32, base, dt), R.rocsparse_spmv_alg_ell


@SETTINGS
@given(case=matrices(), fmt=st.sampled_from(["csr", "coo", "ell"]),
       trans=st.sampled_from(OPS), default=st.booleans(), seed=st.integers(0, 99))
def test_generic_spmv_in_three_stages(case, fmt, trans, default, seed):
    a, base = case
    x, y = _vectors(a, trans, seed)
    h = R.rocsparse_create_handle()
    mat, alg = _spmat(a, base, fmt)
    alg = R.rocsparse_spmv_alg_default if default else alg
    dt = DATATYPE[a.dtype.type]
    d_y = hip.to_device(y)
    vx = R.rocsparse_create_dnvec_descr(x.size, hip.to_device(x), dt)
    vy = R.rocsparse_create_dnvec_descr(y.size, d_y, dt)
    args = (h, trans, 0.5, mat, vx, 2.0, vy, dt, alg)
    size = R.rocsparse_spmv(*args, R.rocsparse_spmv_stage_buffer_size, None, None)
    buffer = hip.hipMalloc(max(size, 1))
    R.rocsparse_spmv(*args, R.rocsparse_spmv_stage_preprocess, size, buffer)
    R.rocsparse_spmv(*args, R.rocsparse_spmv_stage_compute, size, buffer)
    _check(a, trans, x, y, 0.5, 2.0, d_y.copy_to_host())
    hip.hipFree(buffer)


@SETTINGS
@given(case=matrices(dtypes=[np.float64, np.complex128]), ncols=st.integers(1, 5),
       order=st.sampled_from([R.rocsparse_order_column, R.rocsparse_order_row]),
       fmt=st.sampled_from(["csr", "coo"]), seed=st.integers(0, 99))
def test_spmm_matches_scipy(case, ncols, order, fmt, seed):
    a, base = case
    rng = np.random.default_rng(seed)
    m, k = a.shape
    b = rng.standard_normal((k, ncols)).astype(a.dtype)
    c = rng.standard_normal((m, ncols)).astype(a.dtype)
    column = order == R.rocsparse_order_column
    layout = "F" if column else "C"
    d_b, d_c = hip.to_device(b.ravel(order=layout)), hip.to_device(c.ravel(order=layout))
    dt = DATATYPE[a.dtype.type]
    mat, _ = _spmat(a, base, fmt)
    mb = R.rocsparse_create_dnmat_descr(k, ncols, k if column else ncols, d_b, dt, order)
    mc = R.rocsparse_create_dnmat_descr(m, ncols, m if column else ncols, d_c, dt, order)
    args = (R.rocsparse_create_handle(), R.rocsparse_operation_none,
            R.rocsparse_operation_none, 1.0, mat, mb, 0.5, mc, dt, R.rocsparse_spmm_alg_default)
    R.rocsparse_spmm(*args, R.rocsparse_spmm_stage_compute, 0, None)
    got = d_c.copy_to_host().reshape((ncols, m) if column else (m, ncols))
    np.testing.assert_allclose(got.T if column else got, a @ b + 0.5 * c, rtol=1e-10,
                               atol=1e-10)


def _triangular(m, seed, lower, dtype):
    """A well-conditioned triangle (dominant diagonal) inside a full random matrix: the
    other triangle is noise csrsv must ignore."""
    a = random_matrix(m, m, 0.4, seed, dtype).toarray()
    a[np.diag_indices(m)] = m + 1.0
    return sp.csr_matrix(a), np.tril(a) if lower else np.triu(a)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("fill", [R.rocsparse_fill_mode_lower, R.rocsparse_fill_mode_upper])
@pytest.mark.parametrize("trans", OPS)
@pytest.mark.parametrize("unit", [False, True])
@pytest.mark.parametrize("base", [0, 1])
def test_csrsv_solves_the_triangle(fresh_system, dtype, fill, trans, unit, base):
    m = 17
    a, tri = _triangular(m, 3, fill == R.rocsparse_fill_mode_lower, dtype)
    if unit:
        tri[np.diag_indices(m)] = 1.0
    h, descr, info = R.rocsparse_create_handle(), _descr(base), R.rocsparse_create_mat_info()
    R.rocsparse_set_mat_fill_mode(descr, fill)
    R.rocsparse_set_mat_diag_type(descr, R.rocsparse_diag_type_unit if unit
                                  else R.rocsparse_diag_type_non_unit)
    rp, ci, val = upload_csr(a, base)
    p = PREFIX[dtype]
    args = (h, trans, m, a.nnz, descr, val, rp, ci, info)
    buffer = hip.hipMalloc(getattr(R, f"rocsparse_{p}csrsv_buffer_size")(*args))
    getattr(R, f"rocsparse_{p}csrsv_analysis")(*args, R.rocsparse_analysis_policy_force,
                                               R.rocsparse_solve_policy_auto, buffer)
    x = np.random.default_rng(1).standard_normal(m).astype(dtype)
    d_y = hip.device_array(m, dtype)
    getattr(R, f"rocsparse_{p}csrsv_solve")(h, trans, m, a.nnz, 2.0, descr, val, rp, ci, info,
                                            hip.to_device(x), d_y, R.rocsparse_solve_policy_auto,
                                            buffer)
    assert R.rocsparse_csrsv_zero_pivot(h, descr, info) is None
    np.testing.assert_allclose(d_y.copy_to_host(), np.linalg.solve(_op(tri, trans), 2.0 * x),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kind", ["missing", "zero"])
def test_csrsv_reports_the_first_zero_pivot(fresh_system, kind):
    m = 6
    a = np.tril(np.ones((m, m))) + np.eye(m)
    a[4, 4] = 0.0  # a stored zero, or (dropped from the pattern) a missing entry
    csr = sp.csr_matrix(a) if kind == "missing" else sp.csr_matrix(
        (a[np.tril_indices(m)], np.tril_indices(m)[1],
         np.concatenate([[0], np.cumsum(np.arange(1, m + 1))])), shape=(m, m))
    assert (csr.nnz == 20) == (kind == "missing")
    h, descr, info = R.rocsparse_create_handle(), _descr(0), R.rocsparse_create_mat_info()
    rp, ci, val = upload_csr(csr, 0)
    args = (h, R.rocsparse_operation_none, m, csr.nnz, descr, val, rp, ci, info)
    buffer = hip.hipMalloc(R.rocsparse_dcsrsv_buffer_size(*args))
    R.rocsparse_dcsrsv_analysis(*args, R.rocsparse_analysis_policy_reuse,
                                R.rocsparse_solve_policy_auto, buffer)
    d_y = hip.device_array(m)
    R.rocsparse_dcsrsv_solve(h, R.rocsparse_operation_none, m, csr.nnz, 1.0, descr, val, rp,
                             ci, info, hip.to_device(np.ones(m)), d_y,
                             R.rocsparse_solve_policy_auto, buffer)
    with pytest.raises(R.RocsparseError) as err:
        R.rocsparse_csrsv_zero_pivot(h, descr, info)
    assert err.value.status == R.rocsparse_status_zero_pivot and err.value.position == 4
    assert np.isnan(d_y.copy_to_host()).all()
    with pytest.raises(np.linalg.LinAlgError):  # scipy agrees the triangle is singular
        spla.spsolve_triangular(sp.csr_matrix(np.tril(a)), np.ones(m), lower=True)


@SETTINGS
@given(case=matrices(dtypes=[np.float32, np.complex128]), block_dim=st.integers(1, 3),
       by_columns=st.booleans(), seed=st.integers(0, 99))
def test_generic_spmv_and_spmm_on_bsr(case, block_dim, by_columns, seed):
    a, base = case
    rp, ci, val, mb, nb, padded = bsr_arrays(a, block_dim, base, by_columns)
    dense = sp.csr_matrix(padded)
    x, y = _vectors(dense, R.rocsparse_operation_none, seed)
    dt = DATATYPE[a.dtype.type]
    direction = R.rocsparse_direction_column if by_columns else R.rocsparse_direction_row
    mat = R.rocsparse_create_bsr_descr(mb, nb, ci.size, direction, block_dim,
                                       hip.to_device(rp), hip.to_device(ci),
                                       hip.to_device(val), I32, I32, base, dt)
    h, d_y = R.rocsparse_create_handle(), hip.to_device(y)
    vx = R.rocsparse_create_dnvec_descr(x.size, hip.to_device(x), dt)
    vy = R.rocsparse_create_dnvec_descr(y.size, d_y, dt)
    R.rocsparse_spmv(h, R.rocsparse_operation_none, 1.0, mat, vx, 1.0, vy, dt,
                     R.rocsparse_spmv_alg_bsr, R.rocsparse_spmv_stage_compute, 0, None)
    _check(dense, R.rocsparse_operation_none, x, y, 1.0, 1.0, d_y.copy_to_host())
    b = np.random.default_rng(seed).standard_normal((dense.shape[1], 2)).astype(a.dtype)
    d_c = hip.device_array(dense.shape[0] * 2, a.dtype)
    mb_ = R.rocsparse_create_dnmat_descr(b.shape[0], 2, b.shape[0], hip.to_device(b.ravel("F")),
                                         dt, R.rocsparse_order_column)
    mc = R.rocsparse_create_dnmat_descr(dense.shape[0], 2, dense.shape[0], d_c, dt,
                                        R.rocsparse_order_column)
    R.rocsparse_spmm(h, R.rocsparse_operation_none, R.rocsparse_operation_none, 1.0, mat, mb_,
                     0.0, mc, dt, R.rocsparse_spmm_alg_bsr, R.rocsparse_spmm_stage_compute, 0,
                     None)
    got = d_c.copy_to_host().reshape(2, -1).T
    np.testing.assert_allclose(got, dense @ b, rtol=TOL[a.dtype.type],
                               atol=10 * TOL[a.dtype.type])


def test_pointer_mode_device_reads_alpha_and_beta_when_the_kernel_runs(fresh_system):
    """alpha and beta are device memory written by a copy queued before the call: the
    kernel sees the copied values, which the host chose after the call returned."""
    a = random_matrix(5, 4, 0.5, 7, np.float64)
    s, h = hip.hipStreamCreate(), R.rocsparse_create_handle()
    R.rocsparse_set_stream(h, s)
    R.rocsparse_set_pointer_mode(h, R.rocsparse_pointer_mode_device)
    rp, ci, val = upload_csr(a, 0)
    x, y = np.ones(4), np.arange(5.0)
    d_x, d_y = hip.to_device(x), hip.to_device(y)  # (null-stream copies synchronise)
    scalars, d_scalars = hip.pinned_array(2), hip.device_array(2)
    hip.hipMemcpyAsync(d_scalars, scalars, 16, hip.hipMemcpyHostToDevice, s)
    R.rocsparse_dcsrmv(h, R.rocsparse_operation_none, 5, 4, a.nnz, d_scalars[0:], _descr(0),
                       val, rp, ci, None, d_x, d_scalars[1:], d_y)
    scalars[:] = [3.0, -1.0]  # the queued copy has not run yet
    hip.hipStreamSynchronize(s)
    np.testing.assert_allclose(d_y.copy_to_host(), 3.0 * (a @ x) - y)


def test_csrmv_analysis_selects_the_adaptive_kernel(fresh_system):
    a = random_matrix(40, 30, 0.2, 5, np.float64)
    h, descr, info = R.rocsparse_create_handle(), _descr(0), R.rocsparse_create_mat_info()
    rp, ci, val = upload_csr(a, 0)
    x, d_y = hip.to_device(np.ones(30)), hip.device_array(40)
    with gpusim.profile() as prof:
        R.rocsparse_dcsrmv(h, R.rocsparse_operation_none, 40, 30, a.nnz, 1.0, descr, val, rp,
                           ci, info, x, 0.0, d_y)
        R.rocsparse_dcsrmv_analysis(h, R.rocsparse_operation_none, 40, 30, a.nnz, descr, val,
                                    rp, ci, info)
        R.rocsparse_dcsrmv(h, R.rocsparse_operation_none, 40, 30, a.nnz, 1.0, descr, val, rp,
                           ci, info, x, 0.0, d_y)
        R.rocsparse_csrmv_clear(h, info)
        R.rocsparse_dcsrmv(h, R.rocsparse_operation_none, 40, 30, a.nnz, 1.0, descr, val, rp,
                           ci, info, x, 0.0, d_y)
        np.testing.assert_allclose(d_y.copy_to_host(), a @ np.ones(30))
    assert [k.name for k in prof.kernels] == [
        "csrmvn_general_kernel", "csrmvn_preprocess_kernel", "csrmvn_adaptive_kernel",
        "csrmvn_general_kernel"]


def test_generic_spmv_with_64_bit_indices(fresh_system):
    a = random_matrix(30, 20, 0.3, 11, np.float64)
    rp = hip.to_device(a.indptr.astype(np.int64) + 1)
    ci = hip.to_device(a.indices.astype(np.int64) + 1)
    i64 = R.rocsparse_indextype_i64
    mat = R.rocsparse_create_csr_descr(30, 20, a.nnz, rp, ci, hip.to_device(a.data), i64, i64,
                                       R.rocsparse_index_base_one, R.rocsparse_datatype_f64_r)
    x, d_y = np.arange(20.0), hip.device_array(30)
    f64 = R.rocsparse_datatype_f64_r
    R.rocsparse_spmv(R.rocsparse_create_handle(), R.rocsparse_operation_none, 1.0, mat,
                     R.rocsparse_create_dnvec_descr(20, hip.to_device(x), f64), 0.0,
                     R.rocsparse_create_dnvec_descr(30, d_y, f64), f64,
                     R.rocsparse_spmv_alg_csr_stream, R.rocsparse_spmv_stage_compute, 0, None)
    np.testing.assert_allclose(d_y.copy_to_host(), a @ x)
