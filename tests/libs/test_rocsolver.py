"""rocSOLVER against NumPy: factorizations reconstruct A, solves match, pivots are 1-based,
info reports singular / non-positive-definite matrices, batched layouts agree."""

import numpy as np
import pytest
from blas_storage import dev, load_matrix, rand, store_matrix
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpusim
from gpusim import hip, rocblas, rocsolver

PREFIX = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}
N, T, C = (rocblas.rocblas_operation_none, rocblas.rocblas_operation_transpose,
           rocblas.rocblas_operation_conjugate_transpose)
LOWER, UPPER = rocblas.rocblas_fill_lower, rocblas.rocblas_fill_upper
SETTINGS = dict(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
S = rocblas.rocblas_status


def fn(name):
    return getattr(rocsolver, "rocsolver_" + name)


def rtol(dt):
    return 1e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10


def ints(n):
    return hip.to_device(np.full(max(n, 1), -7, np.int32))


def apply_pivots(M, ipiv):
    """P M for LAPACK pivots (1-based): row i swapped with row ipiv[i], in order."""
    M = M.copy()
    for i, p in enumerate(ipiv):
        M[[i, p - 1]] = M[[p - 1, i]]
    return M


@settings(**SETTINGS)
@given(p=st.sampled_from(list(PREFIX)), m=st.integers(0, 8), n=st.integers(0, 8),
       pad=st.integers(0, 2), seed=st.integers(0, 2**16))
def test_getrf_reconstructs_a_with_one_based_pivots(handle, p, m, n, pad, seed):
    dt = PREFIX[p]
    A = rand(np.random.default_rng(seed), (m, n), dt)
    lda = m + pad
    dA, ipiv, info = dev(store_matrix(A, max(lda, 1))), ints(min(m, n)), ints(1)
    fn(f"{p}getrf")(handle, m, n, dA, lda, ipiv, info)
    assert info.copy_to_host()[0] == 0
    k = min(m, n)
    if not k:
        return
    LU = load_matrix(dA.copy_to_host(), m, n, lda)
    L = np.tril(LU, -1)[:, :k] + np.eye(m, k)
    U = np.triu(LU)[:k, :]
    piv = ipiv.copy_to_host()[:k]
    assert np.all((piv >= np.arange(1, k + 1)) & (piv <= m))
    # partial pivoting: |l_ij| <= 1 (complex pivots maximise |re| + |im|: <= sqrt 2)
    assert np.all(np.abs(L) <= (np.sqrt(2) if p in "cz" else 1) + 1e-6)
    np.testing.assert_allclose(L @ U, apply_pivots(A, piv), atol=rtol(dt) * 10, rtol=rtol(dt))


def test_getrf_info_names_the_first_zero_pivot_and_getrs_getri_solve(handle):
    A = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], np.float64)   # rank 2
    dA, ipiv, info = dev(store_matrix(A, 3)), ints(3), ints(1)
    rocsolver.rocsolver_dgetrf(handle, 3, 3, dA, 3, ipiv, info)
    assert info.copy_to_host()[0] == 3                            # U[3, 3] = 0, 1-based
    rng = np.random.default_rng(3)
    A = rand(rng, (5, 5), np.complex128) + 5 * np.eye(5)
    B = rand(rng, (5, 2), np.complex128)
    for trans, op in ((N, A), (T, A.T), (C, A.conj().T)):
        dA, dB = dev(store_matrix(A, 6)), dev(store_matrix(B, 7))
        rocsolver.rocsolver_zgetrf(handle, 5, 5, dA, 6, ipiv := ints(5), info)
        rocsolver.rocsolver_zgetrs(handle, trans, 5, 2, dA, 6, ipiv, dB, 7)
        np.testing.assert_allclose(load_matrix(dB.copy_to_host(), 5, 2, 7),
                                   np.linalg.solve(op, B), rtol=1e-10)
    rocsolver.rocsolver_zgetri(handle, 5, dA, 6, ipiv, info)
    np.testing.assert_allclose(load_matrix(dA.copy_to_host(), 5, 5, 6), np.linalg.inv(A),
                               rtol=1e-10, atol=1e-12)


@settings(**SETTINGS)
@given(p=st.sampled_from(list(PREFIX)), n=st.integers(0, 8), lower=st.booleans(),
       seed=st.integers(0, 2**16))
def test_potrf_potrs(handle, p, n, lower, seed):
    dt = PREFIX[p]
    rng = np.random.default_rng(seed)
    X = rand(rng, (n, n), dt)
    A = (X @ X.conj().T + n * np.eye(n)).astype(dt)
    junk = np.where(np.tril(np.ones((n, n), bool), -1) if not lower
                    else np.triu(np.ones((n, n), bool), 1), 99, A).astype(dt)
    uplo = LOWER if lower else UPPER
    dA, info = dev(store_matrix(junk, max(n, 1))), ints(1)
    fn(f"{p}potrf")(handle, uplo, n, dA, max(n, 1), info)
    assert info.copy_to_host()[0] == 0
    F = load_matrix(dA.copy_to_host(), n, n, max(n, 1))
    other = np.triu(F, 1) if lower else np.tril(F, -1)
    assert np.all((other == 99) | (other == 0))                   # the other half untouched
    L = np.tril(F) if lower else np.triu(F).conj().T
    np.testing.assert_allclose(L @ L.conj().T, A, rtol=rtol(dt) * 10, atol=rtol(dt) * 10 * n)
    B = rand(rng, (n, 3), dt)
    dB = dev(store_matrix(B, max(n, 1)))
    fn(f"{p}potrs")(handle, uplo, n, 3, dA, max(n, 1), dB, max(n, 1))
    if n:
        np.testing.assert_allclose(load_matrix(dB.copy_to_host(), n, 3, n),
                                   np.linalg.solve(A.astype(np.complex128), B),
                                   rtol=rtol(dt) * 100, atol=rtol(dt) * 100)


def test_potrf_reports_the_first_non_positive_definite_minor(handle):
    A = np.diag([4.0, 1.0, -1.0, 2.0])
    dA, info = dev(store_matrix(A, 4)), ints(1)
    rocsolver.rocsolver_dpotrf(handle, LOWER, 4, dA, 4, info)
    assert info.copy_to_host()[0] == 3


@pytest.mark.parametrize("p", list(PREFIX))
@pytest.mark.parametrize("m, n", [(6, 4), (4, 4), (5, 1)])
def test_geqrf_orgqr_and_gels(handle, p, m, n):
    dt = PREFIX[p]
    rng = np.random.default_rng(11)
    A = rand(rng, (m, n), dt)
    dA, tau = dev(store_matrix(A, m + 1)), hip.device_array(n, dt)
    fn(f"{p}geqrf")(handle, m, n, dA, m + 1, tau)
    R = np.triu(load_matrix(dA.copy_to_host(), m, n, m + 1))[:n]
    fn(f"{p}{'orgqr' if p in 'sd' else 'ungqr'}")(handle, m, n, n, dA, m + 1, tau)
    Q = load_matrix(dA.copy_to_host(), m, n, m + 1)
    np.testing.assert_allclose(Q.conj().T @ Q, np.eye(n), atol=rtol(dt) * 10)
    np.testing.assert_allclose(Q @ R, A, atol=rtol(dt) * 10)
    B = rand(rng, (m, 2), dt)
    dA, dB, info = dev(store_matrix(A, m)), dev(store_matrix(B, m)), ints(1)
    fn(f"{p}gels")(handle, N, m, n, 2, dA, m, dB, m, info)
    ref = np.linalg.lstsq(A.astype(np.complex128), B, rcond=None)[0]
    np.testing.assert_allclose(load_matrix(dB.copy_to_host(), n, 2, m), ref,
                               rtol=rtol(dt) * 100, atol=rtol(dt) * 100)


def test_gels_minimum_norm_for_wide_systems_and_rank_deficiency(handle):
    A = np.array([[1.0, 1.0, 0.0]])                      # 1 x 3: x1 + x2 = 2
    dB, info = dev(np.array([2.0, 0, 0])), ints(1)
    rocsolver.rocsolver_dgels(handle, N, 1, 3, 1, dev(store_matrix(A, 1)), 1, dB, 3, info)
    np.testing.assert_allclose(dB.copy_to_host(), [1, 1, 0])
    A = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])    # rank 1: R[2, 2] is exactly 0
    rocsolver.rocsolver_dgels(handle, N, 3, 2, 1, dev(store_matrix(A, 3)), 3,
                              dev(np.ones(3)), 3, info)
    assert info.copy_to_host()[0] == 2


@pytest.mark.parametrize("p", list(PREFIX))
@pytest.mark.parametrize("m, n", [(5, 3), (3, 5), (4, 4)])
def test_gesvd_returns_v_transposed(handle, p, m, n):
    dt = PREFIX[p]
    real = np.dtype(dt).type().real.dtype
    A = rand(np.random.default_rng(5), (m, n), dt)
    k = min(m, n)
    dS, dU, dV, dE, info = (hip.device_array(k, real), hip.device_array(m * m, dt),
                            hip.device_array(n * n, dt), hip.device_array(k, real), ints(1))
    fn(f"{p}gesvd")(handle, rocsolver.rocblas_svect_all, rocsolver.rocblas_svect_singular,
                    m, n, dev(store_matrix(A, m)), m, dS, dU, m, dV, k, dE,
                    rocsolver.rocblas_outofplace, info)
    s = dS.copy_to_host()
    np.testing.assert_allclose(s, np.linalg.svd(A, compute_uv=False), rtol=rtol(dt) * 10)
    U = load_matrix(dU.copy_to_host(), m, m, m)
    Vh = load_matrix(dV.copy_to_host(), k, n, k)                # rows are right vectors
    np.testing.assert_allclose(U[:, :k] * s @ Vh, A, atol=rtol(dt) * 20)
    assert info.copy_to_host()[0] == 0


@pytest.mark.parametrize("p, routine", [("s", "ssyevd"), ("d", "dsyevd"), ("c", "cheevd"),
                                         ("z", "zheevd")])
def test_syevd_heevd(handle, p, routine):
    dt = PREFIX[p]
    real = np.dtype(dt).type().real.dtype
    X = rand(np.random.default_rng(9), (6, 6), dt)
    A = (X + X.conj().T).astype(dt)
    dA, dD, dE, info = dev(store_matrix(A, 6)), hip.device_array(6, real), \
        hip.device_array(6, real), ints(1)
    fn(routine)(handle, rocsolver.rocblas_evect_original, UPPER, 6, dA, 6, dD, dE, info)
    D = dD.copy_to_host()
    V = load_matrix(dA.copy_to_host(), 6, 6, 6)
    np.testing.assert_allclose(D, np.linalg.eigvalsh(A), rtol=rtol(dt) * 10, atol=rtol(dt) * 10)
    np.testing.assert_allclose(A @ V, V * D, atol=rtol(dt) * 50)


@pytest.mark.parametrize("p", ["s", "z"])
def test_batched_and_strided_batched_layouts_agree(handle, p):
    dt, n, batch = PREFIX[p], 4, 3
    rng = np.random.default_rng(2)
    mats = [rand(rng, (n, n), dt) + 4 * np.eye(n, dtype=dt) for _ in range(batch)]
    mats[1][:, 2] = 0                                           # singular: info 3 for it
    strideA, strideP = n * n + 2, n + 1
    block = np.zeros(strideA * batch, dt)
    for i, M in enumerate(mats):
        block[i * strideA:i * strideA + n * n] = store_matrix(M, n)
    dblock, piv_s, info_s = dev(block), ints(strideP * batch), ints(batch)
    fn(f"{p}getrf_strided_batched")(handle, n, n, dblock, n, strideA, piv_s, strideP, info_s,
                                    batch)
    singles = [dev(store_matrix(M, n)) for M in mats]
    ptrs = dev(np.array([int(d.ptr) for d in singles], np.uint64))
    piv_b, info_b = ints(strideP * batch), ints(batch)
    fn(f"{p}getrf_batched")(handle, n, n, ptrs, n, piv_b, strideP, info_b, batch)
    assert info_s.copy_to_host().tolist() == info_b.copy_to_host().tolist() == [0, 3, 0]
    out = dblock.copy_to_host()
    for i in range(batch):
        np.testing.assert_array_equal(out[i * strideA:i * strideA + n * n],
                                      singles[i].copy_to_host())
        assert (piv_s.copy_to_host()[i * strideP:(i + 1) * strideP - 1].tolist()
                == piv_b.copy_to_host()[i * strideP:(i + 1) * strideP - 1].tolist())
    B = rand(rng, (n, 1), dt)
    dBs = [dev(store_matrix(B, n)) for _ in range(batch)]
    fn(f"{p}getrs_batched")(handle, N, n, 1, ptrs, n, piv_b, strideP,
                            dev(np.array([int(d.ptr) for d in dBs], np.uint64)), n, batch)
    np.testing.assert_allclose(dBs[2].copy_to_host(), np.linalg.solve(mats[2], B).ravel(),
                               rtol=rtol(dt) * 10)
    Bblock = dev(np.concatenate([store_matrix(B, n)] * batch))
    fn(f"{p}getrs_strided_batched")(handle, N, n, 1, dblock, n, strideA, piv_s, strideP,
                                    Bblock, n, n, batch)
    np.testing.assert_allclose(Bblock.copy_to_host()[2 * n:], dBs[2].copy_to_host(),
                               rtol=rtol(dt))


def test_potrf_batched_layouts_report_info_per_matrix(handle):
    good, bad = np.diag([2.0, 3.0]), np.diag([2.0, -3.0])
    ptrs_mats = [dev(store_matrix(M, 2)) for M in (good, bad)]
    info = ints(2)
    rocsolver.rocsolver_dpotrf_batched(handle, LOWER, 2, ptrs_mats, 2, info, 2)
    assert info.copy_to_host().tolist() == [0, 2]
    block, info = dev(np.concatenate([store_matrix(bad, 2), store_matrix(good, 2)])), ints(2)
    rocsolver.rocsolver_dpotrf_strided_batched(handle, LOWER, 2, block, 2, 4, info, 2)
    assert info.copy_to_host().tolist() == [2, 0]
    np.testing.assert_allclose(block.copy_to_host()[4:], store_matrix(np.sqrt(good), 2))


SO = rocsolver
SIZE, PTR, VAL = (S.rocblas_status_invalid_size, S.rocblas_status_invalid_pointer,
                  S.rocblas_status_invalid_value)


@pytest.mark.parametrize("call, status", [
    (lambda h, x, i: SO.rocsolver_sgetrf(h, 3, 3, x, 2, i, i), SIZE),
    (lambda h, x, i: SO.rocsolver_sgetrf(h, 2, 2, x, 2, i, None), PTR),
    (lambda h, x, i: SO.rocsolver_sgetrs(h, 7, 2, 1, x, 2, i, x, 2), VAL),
    (lambda h, x, i: SO.rocsolver_spotrf(h, 123, 2, x, 2, i), VAL),
    (lambda h, x, i: SO.rocsolver_spotrf_strided_batched(h, LOWER, 2, x, 2, 4, i, -1), SIZE),
    (lambda h, x, i: SO.rocsolver_sorgqr(h, 2, 3, 1, x, 2, x), SIZE),
    (lambda h, x, i: SO.rocsolver_sgels(h, C, 2, 2, 1, x, 2, x, 2, i), VAL),
    (lambda h, x, i: SO.rocsolver_sgesvd(h, 193, 193, 2, 2, x, 2, x, x, 2, x, 2, x, 201, i),
     VAL),
    (lambda h, x, i: SO.rocsolver_ssyevd(h, SO.rocblas_evect_tridiagonal, LOWER, 2, x, 2, x,
                                         x, i), VAL),
    (lambda h, x, i: SO.rocsolver_sgetrf_batched(h, 2, 2, x, 2, i, 2, i, 1), PTR),
    (lambda h, x, i: SO.rocsolver_sgetrf(None, 2, 2, x, 2, i, i),
     S.rocblas_status_invalid_handle),
])
def test_rocsolver_statuses(handle, call, status):
    with pytest.raises(rocblas.RocblasError) as err:
        call(handle, dev(np.ones(16, np.float32)), ints(8))
    assert err.value.status is status


def test_size_query_and_profile_of_a_blocked_factorization(handle):
    n = 512
    dA, ipiv, info = dev(np.eye(n).ravel()), ints(n), ints(1)
    rocblas.rocblas_start_device_memory_size_query(handle)
    assert rocsolver.rocsolver_dgetrf(handle, n, n, dA, n, ipiv, info) is \
        S.rocblas_status_size_increased
    assert rocblas.rocblas_stop_device_memory_size_query(handle) > 0
    with gpusim.profile() as prof:
        rocsolver.rocsolver_dgetrf(handle, n, n, dA, n, ipiv, info)
        hip.hipDeviceSynchronize()
    names = [k.name for k in prof.kernels]
    assert names[0] == "rocsolver_getrf_panel_kernel<double>"
    assert sum(name.startswith("Cijk_") for name in names) == n // 64 - 1
    assert info.copy_to_host()[0] == 0
