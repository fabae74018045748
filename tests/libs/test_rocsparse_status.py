"""Every rocsparse_status a call raises, with rocsparse-types.h's values; faults on bad
structure; kernels on the handle's stream with time modeled from bytes moved."""

import numpy as np
import pytest
import scipy.sparse as sp
from sparse_cases import upload_coo, upload_csr

import gpusim
from gpusim import hip
from gpusim import rocsparse as R

NONE = R.rocsparse_operation_none
F64 = R.rocsparse_datatype_f64_r
I32 = R.rocsparse_indextype_i32


def test_enum_values_are_rocsparse_types_h():
    assert [int(s) for s in R.rocsparse_status] == list(range(15))
    assert (R.rocsparse_status_zero_pivot, R.rocsparse_status_requires_sorted_storage) == (9, 12)
    assert [int(o) for o in R.rocsparse_operation] == [111, 112, 113]
    assert (R.rocsparse_datatype_f32_r, R.rocsparse_datatype_f64_c, R.rocsparse_format_bsr,
            R.rocsparse_spmv_stage_compute, R.rocsparse_spmv_alg_csr_lrb) == (151, 155, 6, 3, 7)
    assert R.rocsparse_spmm_alg_csr_nnz_split == R.rocsparse_spmm_alg_csr_merge == 5


def _raises(status, fn, *args):
    with pytest.raises(R.RocsparseError) as info:
        fn(*args)
    assert info.value.status == status and isinstance(info.value.status, R.rocsparse_status)
    return str(info.value)


@pytest.fixture
def csr(fresh_system):
    a = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 0, 0], [0, 3, 4]]))
    return (a, R.rocsparse_create_handle(), R.rocsparse_create_mat_descr(), *upload_csr(a, 0),
            hip.to_device(np.ones(3)), hip.device_array(3))


def _csrmv(h, descr, a, rp, ci, val, x, y, m=3, trans=NONE):
    R.rocsparse_dcsrmv(h, trans, m, 3, a.nnz, 1.0, descr, val, rp, ci, None, x, 0.0, y)


def test_invalid_handle(csr):
    a, h, descr, rp, ci, val, x, y = csr
    R.rocsparse_destroy_handle(h)
    _raises(R.rocsparse_status_invalid_handle, _csrmv, h, descr, a, rp, ci, val, x, y)
    _raises(R.rocsparse_status_invalid_handle, _csrmv, None, descr, a, rp, ci, val, x, y)


def test_not_implemented_for_other_matrix_types(csr):
    a, h, descr, rp, ci, val, x, y = csr
    R.rocsparse_set_mat_type(descr, R.rocsparse_matrix_type_symmetric)
    _raises(R.rocsparse_status_not_implemented, _csrmv, h, descr, a, rp, ci, val, x, y)


def test_invalid_pointer(csr):
    a, h, descr, rp, ci, val, x, y = csr
    msg = _raises(R.rocsparse_status_invalid_pointer, _csrmv, h, descr, a, rp, None, val, x, y)
    assert "csr_col_ind" in msg
    _raises(R.rocsparse_status_invalid_pointer, _csrmv, h, None, a, rp, ci, val, x, y)
    _raises(R.rocsparse_status_invalid_pointer, _csrmv, h, descr, a, rp, ci, val,
            np.ones(3), y)  # host memory where device memory is needed


def test_invalid_size(csr):
    a, h, descr, rp, ci, val, x, y = csr
    _raises(R.rocsparse_status_invalid_size, _csrmv, h, descr, a, rp, ci, val, x, y, -1)
    _raises(R.rocsparse_status_invalid_size, R.rocsparse_dcsr2dense, h, 3, 3, descr, val, rp,
            ci, hip.device_array(9), 2)  # ld < m


def test_invalid_value_for_enums_and_algorithms(csr):
    a, h, descr, rp, ci, val, x, y = csr
    _raises(R.rocsparse_status_invalid_value, _csrmv, h, descr, a, rp, ci, val, x, y, 3, 110)
    _raises(R.rocsparse_status_invalid_value, R.rocsparse_set_mat_index_base, descr, 2)
    mat = R.rocsparse_create_csr_descr(3, 3, a.nnz, rp, ci, val, I32, I32, 0, F64)
    vx, vy = (R.rocsparse_create_dnvec_descr(3, v, F64) for v in (x, y))
    msg = _raises(R.rocsparse_status_invalid_value, R.rocsparse_spmv, h, NONE, 1.0, mat, vx,
                  0.0, vy, F64, R.rocsparse_spmv_alg_ell, R.rocsparse_spmv_stage_compute, 0,
                  None)
    assert "rocsparse_spmv_alg_csr_adaptive" in msg


def test_zero_pivot_status(csr):
    a, h, descr, rp, ci, val, x, y = csr  # row 1 has no diagonal entry
    info = R.rocsparse_create_mat_info()
    args = (h, NONE, 3, a.nnz, descr, val, rp, ci, info)
    R.rocsparse_dcsrsv_analysis(*args, R.rocsparse_analysis_policy_reuse,
                                R.rocsparse_solve_policy_auto, hip.hipMalloc(12))
    with pytest.raises(R.RocsparseError) as err:
        R.rocsparse_csrsv_zero_pivot(h, descr, info)
    assert err.value.status == R.rocsparse_status_zero_pivot and err.value.position == 1


def test_solve_without_analysis(csr):
    a, h, descr, rp, ci, val, x, y = csr
    msg = _raises(R.rocsparse_status_invalid_pointer, R.rocsparse_dcsrsv_solve, h, NONE, 3,
                  a.nnz, 1.0, descr, val, rp, ci, R.rocsparse_create_mat_info(), x, y,
                  R.rocsparse_solve_policy_auto, hip.hipMalloc(12))
    assert "csrsv_analysis first" in msg


def test_not_initialized_descriptor(csr):
    a, h, descr, rp, ci, val, x, y = csr
    mat = R.rocsparse_create_csr_descr(3, 3, a.nnz, rp, ci, val, I32, I32, 0, F64)
    vx, vy = (R.rocsparse_create_dnvec_descr(3, v, F64) for v in (x, y))
    R.rocsparse_destroy_dnvec_descr(vx)
    _raises(R.rocsparse_status_not_initialized, R.rocsparse_spmv, h, NONE, 1.0, mat, vx, 0.0,
            vy, F64, R.rocsparse_spmv_alg_default, R.rocsparse_spmv_stage_compute, 0, None)


def test_type_mismatch(csr):
    a, h, descr, rp, ci, val, x, y = csr
    msg = _raises(R.rocsparse_status_type_mismatch, _csrmv, h, descr, a, rp,
                  hip.to_device(np.array([0, 2, 1, 2], np.int64)), val, x, y)
    assert "int64" in msg and "int32" in msg
    _raises(R.rocsparse_status_type_mismatch, R.rocsparse_scsrmv, h, NONE, 3, 3, a.nnz, 1.0,
            descr, val, rp, ci, None, x, 0.0, y)  # double data to the s routine


def test_unsupported_type_combination_is_not_implemented(csr):
    a, h, descr, rp, ci, val, x, y = csr
    mat = R.rocsparse_create_csr_descr(3, 3, a.nnz, rp, ci, val, I32, I32, 0, F64)
    vx = R.rocsparse_create_dnvec_descr(3, hip.device_array(3, np.float32),
                                        R.rocsparse_datatype_f32_r)
    vy = R.rocsparse_create_dnvec_descr(3, y, F64)
    _raises(R.rocsparse_status_not_implemented, R.rocsparse_spmv, h, NONE, 1.0, mat, vx, 0.0,
            vy, F64, R.rocsparse_spmv_alg_default, R.rocsparse_spmv_stage_compute, 0, None)


def test_requires_sorted_storage(fresh_system):
    h = R.rocsparse_create_handle()
    rows = hip.to_device(np.array([1, 0, 2], np.int32))
    R.rocsparse_coo2csr(h, rows, 3, 3, hip.device_array(4, np.int32), 0)
    with pytest.raises(R.RocsparseError) as err:
        hip.hipDeviceSynchronize()  # the kernel finds it when it runs, as on a GPU
    assert err.value.status == R.rocsparse_status_requires_sorted_storage


def test_bad_column_index_faults_instead_of_reading_out_of_bounds(csr):
    a, h, descr, rp, ci, val, x, y = csr
    bad = hip.to_device(np.array([0, 2, 1, 5], np.int32))
    _csrmv(h, descr, a, rp, bad, val, x, y)
    with pytest.raises(gpusim.HipError, match=r"csr_col_ind\[3\] = 5 is outside"):
        y.copy_to_host()
    _csrmv(h, descr, a, rp, ci, val, x, y)  # the library and the system stay usable
    np.testing.assert_allclose(y.copy_to_host(), a @ np.ones(3))


def test_one_based_indices_with_a_zero_based_descriptor_fault(csr):
    a, h, descr, rp, ci, val, x, y = csr
    rp1, ci1, val1 = upload_csr(a, 1)
    _csrmv(h, descr, a, rp1, ci1, val1, x, y)
    with pytest.raises(gpusim.HipError, match="index base 0"):
        y.copy_to_host()


def test_kernels_run_on_the_handle_stream_and_time_follows_bytes(fresh_system):
    s = hip.hipStreamCreate()
    h = R.rocsparse_create_handle()
    R.rocsparse_set_stream(h, s)
    assert R.rocsparse_get_stream(h) is s
    durations = []
    for n in (1000, 100_000):
        a = sp.diags([1.0, 2.0, 1.0], [-1, 0, 1], shape=(n, n), format="csr")
        ri, ci, val = upload_coo(a, 0)
        with gpusim.profile() as prof:
            R.rocsparse_dcoomv(h, NONE, n, n, a.nnz, 1.0, R.rocsparse_create_mat_descr(),
                               val, ri, ci, hip.to_device(np.ones(n)), 0.0,
                               hip.device_array(n))
            hip.hipStreamSynchronize(s)
        (record,) = prof.kernels
        assert record.stream == s.handle and record.name == "coomvn_segmented_kernel"
        assert record.breakdown["bytes"] == a.nnz * (8 + 4 + 4) + n * 8 + 2 * n * 8
        durations.append(record.duration_ns)
    assert 0 < durations[0] < durations[1]
