"""Every rocblas_status a family can return, in rocBLAS's check order, and the common
mistakes (row-major data, lda = n for an m x n matrix) giving what rocBLAS gives."""

import numpy as np
import pytest
from blas_storage import dev, load_matrix, store_matrix

import gpusim
from gpusim import hip, rocblas
from gpusim.errors import GpusimError

S = rocblas.rocblas_status
N, T = rocblas.rocblas_operation_none, rocblas.rocblas_operation_transpose
UP, NU = rocblas.rocblas_fill_upper, rocblas.rocblas_diagonal_non_unit
LEFT = rocblas.rocblas_side_left
F32 = rocblas.rocblas_datatype_f32_r


def x4():
    return dev(np.ones(16, np.float32))


HND, VAL, SIZE, PTR = (S.rocblas_status_invalid_handle, S.rocblas_status_invalid_value,
                      S.rocblas_status_invalid_size, S.rocblas_status_invalid_pointer)


def R(name):
    return getattr(rocblas, "rocblas_" + name)


# (family, call(h, x), expected status); x is a 16-float device buffer
CASES = [
    ("level1", lambda h, x: R("saxpy")(h, 4, 1.0, None, 1, x, 1), PTR),
    ("level1", lambda h, x: R("sscal")(h, 4, None, x, 1), PTR),
    ("level1", lambda h, x: R("sdot")(h, 4, x, 1, None, 1), PTR),
    ("level1", lambda h, x: R("snrm2")(h, 4, None, 1), PTR),
    ("level1", lambda h, x: R("ddot")(h, 4, x, 1, x, 1), VAL),
    ("level2", lambda h, x: R("sgemv")(h, 7, 2, 2, 1.0, x, 2, x, 1, 0.0, x, 1), VAL),
    ("level2", lambda h, x: R("sgemv")(h, N, 2, 2, 1.0, x, 2, x, 0, 0.0, x, 1), SIZE),
    ("level2", lambda h, x: R("sgemv")(h, N, 3, 2, 1.0, x, 2, x, 1, 0.0, x, 1), SIZE),
    ("level2", lambda h, x: R("sgemv")(h, N, 2, 2, 1.0, x, 2, x, 1, 0.0, None, 1), PTR),
    ("level2", lambda h, x: R("strsv")(h, 999, N, NU, 2, x, 2, x, 1), VAL),
    ("level2", lambda h, x: R("sger")(h, -1, 2, 1.0, x, 1, x, 1, x, 2), SIZE),
    ("level3", lambda h, x: R("sgemm")(h, N, 5, 2, 2, 2, 1.0, x, 2, x, 2, 0.0, x, 2), VAL),
    ("level3", lambda h, x: R("sgemm")(h, N, N, 2, 2, -1, 1.0, x, 2, x, 2, 0.0, x, 2), SIZE),
    ("level3", lambda h, x: R("sgemm")(h, N, N, 2, 2, 2, 1.0, x, 2, x, 2, 0.0, None, 2), PTR),
    ("level3", lambda h, x: R("strsm")(h, 143, UP, N, NU, 2, 2, 1.0, x, 2, x, 2), VAL),
    ("level3", lambda h, x: R("strsm")(h, LEFT, UP, N, NU, 2, 2, 1.0, x, 1, x, 2), SIZE),
    ("level3", lambda h, x: R("strmm")(h, LEFT, UP, N, NU, 2, 2, 1.0, x, 2, x, 2, x, 4), VAL),
    ("level3", lambda h, x: R("ssyrk")(h, UP, N, 2, 2, None, x, 2, 1.0, x, 2), PTR),
    ("level3", lambda h, x: R("ssymm")(h, LEFT, 123, 2, 2, 1.0, x, 2, x, 2, 0.0, x, 2), VAL),
    ("batched", lambda h, x: R("sgemm_strided_batched")(h, N, N, 2, 2, 2, 1.0, x, 2, 4, x, 2,
                                                         4, 0.0, x, 2, 4, -1), SIZE),
    ("batched", lambda h, x: R("sgemm_batched")(h, N, N, 2, 2, 2, 1.0, None, 2, None, 2, 0.0,
                                                 None, 2, 1), PTR),
    ("gemm_ex", lambda h, x: R("gemm_ex")(h, N, N, 2, 2, 2, 1.0, x, F32, 2, x, F32, 2, 0.0, x,
                                           F32, 2, x, F32, 1, F32, 0, 0, 0), SIZE),
    ("gemm_ex", lambda h, x: R("gemm_ex")(h, N, N, 2, 2, 2, 1.0, x, F32, 2, x, F32, 2, 0.0, x,
                                           F32, 2, None, F32, 2, F32, 0, 0, 0), PTR),
    ("gemm_ex", lambda h, x: R("gemm_ex")(h, N, N, 2, 2, 2, 1.0, x, F32, 2, x, F32, 2, 0.0, x,
                                           F32, 2, x, F32, 2, 999, 0, 0, 0),
     S.rocblas_status_not_implemented),
    ("auxiliary", lambda h, x: R("set_vector")(4, 4, np.ones(4, np.float32), 0, x, 1), SIZE),
    ("auxiliary", lambda h, x: R("set_vector")(4, 4, x, 1, x, 1), PTR),
    ("auxiliary", lambda h, x: R("get_matrix")(3, 2, 4, x, 2, np.zeros(6, np.float32), 3), SIZE),
    ("auxiliary", lambda h, x: R("get_matrix")(2, 2, 4, x, 2, None, 2), PTR),
    ("handle", lambda h, x: R("set_pointer_mode")(h, 5), VAL),
    ("handle", lambda h, x: R("set_stream")(h, "stream"), VAL),
    ("handle", lambda h, x: R("stop_device_memory_size_query")(h),
     S.rocblas_status_size_query_mismatch),
]


@pytest.mark.parametrize("family, call, status", CASES,
                         ids=[f"{c[0]}-{c[2].name.removeprefix('rocblas_status_')}-{i}"
                              for i, c in enumerate(CASES)])
def test_status(handle, family, call, status):
    with pytest.raises(rocblas.RocblasError) as err:
        call(handle, x4())
    assert err.value.status is status
    assert err.value.function.startswith("rocblas_")


@pytest.mark.parametrize("call", [
    lambda h: rocblas.rocblas_saxpy(h, 1, 1.0, x4(), 1, x4(), 1),
    lambda h: rocblas.rocblas_sgemv(h, N, 1, 1, 1.0, x4(), 1, x4(), 1, 0.0, x4(), 1),
    lambda h: rocblas.rocblas_sgemm(h, N, N, 1, 1, 1, 1.0, x4(), 1, x4(), 1, 0.0, x4(), 1),
    lambda h: rocblas.rocblas_sgemm_strided_batched(h, N, N, 1, 1, 1, 1.0, x4(), 1, 1, x4(),
                                                    1, 1, 0.0, x4(), 1, 1, 1),
    lambda h: rocblas.rocblas_gemm_ex(h, N, N, 1, 1, 1, 1.0, x4(), F32, 1, x4(), F32, 1, 0.0,
                                      x4(), F32, 1, x4(), F32, 1, F32, 0, 0, 0),
    lambda h: rocblas.rocblas_get_pointer_mode(h),
])
@pytest.mark.parametrize("how", ["destroyed", "not a handle", "old system"])
def test_invalid_handle_in_every_family(call, how):
    gpusim.set_system()
    h = rocblas.rocblas_create_handle()
    if how == "destroyed":
        rocblas.rocblas_destroy_handle(h)
    elif how == "not a handle":
        h = None
    else:
        gpusim.set_system()
    with pytest.raises(rocblas.RocblasError) as err:
        call(h)
    assert err.value.status is S.rocblas_status_invalid_handle


def test_workspace_query_and_user_owned_memory(handle):
    x = x4()
    rocblas.rocblas_start_device_memory_size_query(handle)
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_start_device_memory_size_query(handle)
    assert err.value.status is S.rocblas_status_size_query_mismatch
    assert rocblas.rocblas_is_device_memory_size_query(handle)
    assert rocblas.rocblas_sdot(handle, 4096, x, 0, x, 0) is S.rocblas_status_size_increased
    assert rocblas.rocblas_sdot(handle, 8, x, 1, x, 1) is S.rocblas_status_size_unchanged
    assert rocblas.rocblas_saxpy(handle, 4, 1.0, x, 1, x, 1) is S.rocblas_status_size_unchanged
    size = rocblas.rocblas_stop_device_memory_size_query(handle)
    assert size == 64 and size % 64 == 0        # (ceil(4096/512) + 1) floats, rounded to 64 B
    assert rocblas.rocblas_is_managing_device_memory(handle)
    rocblas.rocblas_set_device_memory_size(handle, 16)
    assert not rocblas.rocblas_is_managing_device_memory(handle)
    assert rocblas.rocblas_get_device_memory_size(handle) == 64
    rocblas.rocblas_sdot(handle, 4, x, 1, x, 1)              # fits
    rocblas.rocblas_set_workspace(handle, x.ptr, 8)
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_sdot(handle, 4096, x, 0, x, 0)
    assert err.value.status is S.rocblas_status_memory_error
    rocblas.rocblas_set_device_memory_size(handle, 0)
    assert rocblas.rocblas_is_managing_device_memory(handle)


def test_wrong_element_type_and_reading_past_the_buffer(handle):
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_sscal(handle, 2, 2.0, dev(np.ones(2)), 1)    # float64 to an s routine
    assert err.value.status is S.rocblas_status_invalid_value and "float64" in str(err.value)
    with pytest.raises(GpusimError, match="leading dimension and increment"):
        rocblas.rocblas_sscal(handle, 9, 2.0, x4(), 2)               # 17 elements needed
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_sscal(handle, 2, 2.0, np.ones(2, np.float32), 1)   # host array
    assert err.value.status is S.rocblas_status_invalid_pointer and "to_device" in str(err.value)


# ---- the common mistakes ---------------------------------------------------------------

def test_lda_equal_to_n_for_a_tall_matrix_is_invalid_size(handle):
    """A 4 x 2 matrix stored column-major needs lda >= 4; lda = n = 2 is what rocBLAS
    rejects with rocblas_status_invalid_size (the message explains lda)."""
    x = x4()
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_sgemm(handle, N, N, 4, 3, 2, 1.0, x, 2, x, 2, 0.0, x, 4)
    assert err.value.status is S.rocblas_status_invalid_size
    assert "lda=2 < m=4" in str(err.value) and "column-major" in str(err.value)


def test_row_major_data_passed_as_column_major_is_silently_misread(handle):
    """Row-major A with lda = 3 passes every check, and rocBLAS reads the column-major
    matrix that memory describes (A^T), as the real library does; the fix is to say A^T
    (transA = T) or to compute C^T = B^T A^T."""
    A = np.arange(1, 10, dtype=np.float32).reshape(3, 3)    # row-major, as NumPy stores it
    b = np.array([1, 0, 0], np.float32)
    dA, db, dc = dev(A.ravel()), dev(b), dev(np.zeros(3, np.float32))
    rocblas.rocblas_sgemm(handle, N, N, 3, 1, 3, 1.0, dA, 3, db, 3, 0.0, dc, 3)
    np.testing.assert_array_equal(dc.copy_to_host(), load_matrix(A.ravel(), 3, 3, 3) @ b)
    np.testing.assert_array_equal(dc.copy_to_host(), A.T @ b)          # A^T b, not A b
    rocblas.rocblas_sgemm(handle, T, N, 3, 1, 3, 1.0, dA, 3, db, 3, 0.0, dc, 3)   # the fix
    np.testing.assert_array_equal(dc.copy_to_host(), A @ b)


def test_set_get_matrix_round_trip_with_padding(handle):
    A = np.arange(12, dtype=np.float64).reshape(3, 4)
    d = hip.device_array(5 * 4, np.float64)
    rocblas.rocblas_set_matrix(3, 4, 8, store_matrix(A, 3), 3, d, 5)
    out = np.zeros(12)
    rocblas.rocblas_get_matrix(3, 4, 8, d, 5, out, 3)
    np.testing.assert_array_equal(load_matrix(out, 3, 4, 3), A)
    s = hip.hipStreamCreate()
    pinned = hip.pinned_array(12, np.float64)
    rocblas.rocblas_get_matrix_async(3, 4, 8, d, 5, pinned, 3, s)
    hip.hipStreamSynchronize(s)
    np.testing.assert_array_equal(pinned, out)
