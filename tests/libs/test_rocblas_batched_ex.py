"""Batched GEMMs (both layouts) and gemm_ex with 16-bit inputs and f32 accumulation."""

import numpy as np
import pytest
from blas_storage import dev, load_matrix, rand, store_matrix
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusim import hip, rocblas
from gpusim.libs.rocblas.gemm_ex import bfloat16_to_float, float_to_bfloat16

N, T = rocblas.rocblas_operation_none, rocblas.rocblas_operation_transpose
DT = rocblas.rocblas_datatype
SETTINGS = dict(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings(**SETTINGS)
@given(batch=st.integers(0, 4), m=st.integers(1, 6), n=st.integers(1, 6),
       k=st.integers(1, 6), stride_pad=st.integers(0, 5), share_a=st.booleans(),
       seed=st.integers(0, 2**16))
def test_strided_batched_matches_a_loop_of_gemms(handle, batch, m, n, k, stride_pad, share_a,
                                                  seed):
    rng = np.random.default_rng(seed)
    As, Bs = rand(rng, (max(batch, 1), m, k), np.float64), rand(rng, (max(batch, 1), k, n),
                                                                   np.float64)
    sa = 0 if share_a else m * k + stride_pad          # stride 0: one A for every product
    sb, sc = k * n + stride_pad, m * n + stride_pad
    bufA = np.zeros(max(sa * (batch - 1) + m * k, 1))
    bufB, bufC = np.zeros(max(sb * batch, 1)), np.zeros(max(sc * batch, 1))
    for i in range(batch):
        bufA[i * sa:i * sa + m * k] = store_matrix(As[0 if share_a else i], m)
        bufB[i * sb:i * sb + k * n] = store_matrix(Bs[i], k)
    dC = dev(bufC)
    rocblas.rocblas_dgemm_strided_batched(handle, N, N, m, n, k, 1.0, dev(bufA), m, sa,
                                          dev(bufB), k, sb, 0.0, dC, m, sc, batch)
    out = dC.copy_to_host()
    for i in range(batch):
        ref = As[0 if share_a else i] @ Bs[i]
        np.testing.assert_allclose(load_matrix(out[i * sc:], m, n, m), ref, atol=1e-12)


@pytest.mark.parametrize("as_list", [False, True])
def test_batched_takes_an_array_of_device_pointers(handle, as_list):
    rng = np.random.default_rng(1)
    mats = [rand(rng, (3, 3), np.complex64) for _ in range(3)]
    dA = [dev(store_matrix(M, 3)) for M in mats]
    dC = [hip.device_array(9, np.complex64) for _ in mats]

    def pointers(arrays):
        return arrays if as_list else dev(np.array([int(a.ptr) for a in arrays], np.uint64))

    rocblas.rocblas_cgemm_batched(handle, N, T, 3, 3, 3, 1.0, pointers(dA), 3, pointers(dA),
                                  3, 0.0, pointers(dC), 3, 3)
    for M, C in zip(mats, dC, strict=True):
        np.testing.assert_allclose(load_matrix(C.copy_to_host(), 3, 3, 3), M @ M.T,
                                   atol=1e-5)


def test_passing_the_matrices_where_pointers_belong_says_which_layout_to_use(handle):
    block = dev(np.zeros(18, np.float32))
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_sgemm_batched(handle, N, N, 3, 3, 3, 1.0, block, 3, block, 3, 0.0,
                                      block, 3, 2)
    assert err.value.status == rocblas.rocblas_status_invalid_pointer
    assert "_strided_batched" in str(err.value)


def test_bfloat16_conversion_known_bits():
    assert bfloat16_to_float(np.array([0x3F80, 0x4049, 0xFF80], np.uint16)).tolist() == [
        1.0, 3.140625, -np.inf]
    x = np.array([1.0, 1 + 2**-8, 1 + 3 * 2**-8, 3.14159265, -0.0, np.inf], np.float32)
    assert float_to_bfloat16(x).tolist() == [0x3F80, 0x3F80, 0x3F82, 0x4049, 0x8000, 0x7F80]
    assert np.isnan(bfloat16_to_float(float_to_bfloat16(np.array([np.nan], np.float32))))


@pytest.mark.parametrize("a_type, c_type, compute", [
    (DT.rocblas_datatype_f16_r, DT.rocblas_datatype_f16_r, DT.rocblas_datatype_f32_r),
    (DT.rocblas_datatype_f16_r, DT.rocblas_datatype_f32_r, DT.rocblas_datatype_f32_r),
    (DT.rocblas_datatype_bf16_r, DT.rocblas_datatype_bf16_r, DT.rocblas_datatype_f32_r),
    (DT.rocblas_datatype_bf16_r, DT.rocblas_datatype_f32_r, DT.rocblas_datatype_f32_r),
    (DT.rocblas_datatype_f32_r, DT.rocblas_datatype_f32_r, DT.rocblas_datatype_f32_r),
    (DT.rocblas_datatype_f64_r, DT.rocblas_datatype_f64_r, DT.rocblas_datatype_f64_r),
])
def test_gemm_ex_accumulates_in_f32_and_rounds_once(handle, a_type, c_type, compute):
    rng = np.random.default_rng(7)
    m, n, k = 17, 9, 300
    encode = {DT.rocblas_datatype_f16_r: lambda x: x.astype(np.float16),
              DT.rocblas_datatype_bf16_r: lambda x: float_to_bfloat16(x.astype(np.float32)),
              DT.rocblas_datatype_f32_r: lambda x: x.astype(np.float32),
              DT.rocblas_datatype_f64_r: lambda x: x.astype(np.float64)}
    decode = {DT.rocblas_datatype_bf16_r: bfloat16_to_float}
    A, B, Cm = (encode[a_type](rng.standard_normal(s)) for s in ((m, k), (k, n), (m, n)))
    Cm = encode[c_type](rng.standard_normal((m, n)))
    dD = dev(np.zeros(m * n, Cm.dtype))
    rocblas.rocblas_gemm_ex(handle, N, N, m, n, k, 0.5, dev(store_matrix(A, m)), a_type, m,
                            dev(store_matrix(B, k)), a_type, k, 2.0, dev(store_matrix(Cm, m)),
                            c_type, m, dD, c_type, m, compute,
                            rocblas.rocblas_gemm_algo_standard, 0, 0)
    wide = lambda X, t: decode.get(t, lambda y: y)(X).astype(np.float64)  # noqa: E731
    exact = 0.5 * wide(A, a_type) @ wide(B, a_type) + 2 * wide(Cm, c_type)
    got = wide(load_matrix(dD.copy_to_host(), m, n, m), c_type)
    # f32 sums (k terms) plus one rounding to the output type
    acc = np.finfo(np.float64 if a_type == DT.rocblas_datatype_f64_r else np.float32).eps
    out_eps = {DT.rocblas_datatype_f16_r: 2**-11, DT.rocblas_datatype_bf16_r: 2**-8}.get(
        c_type, 0)
    scale = np.abs(wide(A, a_type)) @ np.abs(wide(B, a_type)) + np.abs(exact)
    assert np.all(np.abs(got - exact) <= (k * acc + out_eps) * scale + 1e-30)
    if c_type in (DT.rocblas_datatype_f16_r,):   # f16 output: rounded from the f32 result
        f32 = (0.5 * A.astype(np.float32) @ B.astype(np.float32) + 2 * Cm.astype(np.float32))
        assert np.mean(got == f32.astype(np.float16)) > 0.9


def test_gemm_ex_unsupported_combination_is_not_implemented(handle):
    d = dev(np.zeros(4, np.float16))
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_gemm_ex(handle, N, N, 2, 2, 2, 1.0, d, DT.rocblas_datatype_f16_r, 2, d,
                                DT.rocblas_datatype_f16_r, 2, 0.0, d,
                                DT.rocblas_datatype_f16_r, 2, d, DT.rocblas_datatype_f16_r, 2,
                                DT.rocblas_datatype_f64_r, 0, 0, 0)
    assert err.value.status == rocblas.rocblas_status_not_implemented


def test_gemm_ex_in_place_needs_matching_ld_and_type(handle):
    c = dev(np.zeros(16, np.float32))
    f32 = DT.rocblas_datatype_f32_r
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_gemm_ex(handle, N, N, 2, 2, 2, 1.0, c, f32, 2, c, f32, 2, 1.0, c, f32,
                                2, c, f32, 4, f32, 0, 0, 0)
    assert err.value.status == rocblas.rocblas_status_invalid_size


def test_gemm_ex_int8_accumulates_in_int32(handle):
    A = np.full((2, 200), 100, np.int8)
    d = dev(np.zeros(4, np.int32))
    i8, i32 = DT.rocblas_datatype_i8_r, DT.rocblas_datatype_i32_r
    rocblas.rocblas_gemm_ex(handle, N, T, 2, 2, 200, 1, dev(store_matrix(A, 2)), i8, 2,
                            dev(store_matrix(A, 2)), i8, 2, 0, d, i32, 2, d, i32, 2, i32, 0, 0, 0)
    assert d.copy_to_host().tolist() == [2_000_000] * 4
