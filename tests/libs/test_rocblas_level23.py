"""rocBLAS levels 2 and 3 against NumPy: random shapes, transposes, ld > rows, pointer modes."""

import numpy as np
from blas_storage import dev, load_matrix, load_vector, rand, store_matrix, store_vector, tol
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpusim
from gpusim import rocblas

PREFIX = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}
N, T, C = (rocblas.rocblas_operation_none, rocblas.rocblas_operation_transpose,
           rocblas.rocblas_operation_conjugate_transpose)
OPS = {N: lambda M: M, T: lambda M: M.T, C: lambda M: M.conj().T}
SETTINGS = dict(max_examples=30, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
dims = st.integers(0, 9)
pads = st.integers(0, 3)


def close(got, ref, dt, k):
    scale = 1 + np.max(np.abs(ref), initial=0)
    np.testing.assert_allclose(got, ref, rtol=0, atol=tol(dt, k) * scale * 4)


@settings(**SETTINGS)
@given(p=st.sampled_from(list(PREFIX)), ta=st.sampled_from([N, T, C]),
       tb=st.sampled_from([N, T, C]), m=dims, n=dims, k=dims, pad=pads,
       beta=st.sampled_from([0.0, 1.0, -0.5]), seed=st.integers(0, 2**16))
def test_gemm_matches_numpy(handle, p, ta, tb, m, n, k, pad, beta, seed):
    rng = np.random.default_rng(seed)
    dt = PREFIX[p]
    A = rand(rng, (m, k) if ta == N else (k, m), dt)
    B = rand(rng, (k, n) if tb == N else (n, k), dt)
    Cm = rand(rng, (m, n), dt)
    lda, ldb, ldc = A.shape[0] + pad, B.shape[0] + pad, m + pad
    dC = dev(store_matrix(Cm, max(ldc, 1), fill=0))
    rocblas.__dict__[f"rocblas_{p}gemm"](
        handle, ta, tb, m, n, k, 0.75, dev(store_matrix(A, max(lda, 1))), max(lda, 1),
        dev(store_matrix(B, max(ldb, 1))), max(ldb, 1), beta, dC, max(ldc, 1))
    ref = 0.75 * OPS[ta](A.astype(np.complex128)) @ OPS[tb](B) + beta * Cm
    close(load_matrix(dC.copy_to_host(), m, n, max(ldc, 1)), ref, dt, k)


def test_gemm_blas_rules_for_zero_scalars(handle):
    A = np.full(4, np.nan, np.float32)
    dC = dev(np.array([np.nan, 1, 2, 3], np.float32))
    rocblas.rocblas_sgemm(handle, N, N, 2, 2, 2, 0.0, dev(A), 2, dev(A), 2, 0.0, dC, 2)
    np.testing.assert_array_equal(dC.copy_to_host(), 0)   # alpha = beta = 0: nothing read
    dC = dev(np.array([5, 6, 7, 8], np.float32))
    rocblas.rocblas_sgemm(handle, N, N, 2, 2, 0, 1.0, None, 2, None, 2, 1.0, dC, 2)
    np.testing.assert_array_equal(dC.copy_to_host(), [5, 6, 7, 8])   # k = 0, beta = 1


@settings(**SETTINGS)
@given(p=st.sampled_from(list(PREFIX)), trans=st.sampled_from([N, T, C]), m=dims, n=dims,
       pad=pads, incx=st.sampled_from([1, 2, -1]), incy=st.sampled_from([1, -2]),
       seed=st.integers(0, 2**16))
def test_gemv_and_ger(handle, p, trans, m, n, pad, incx, incy, seed):
    rng = np.random.default_rng(seed)
    dt = PREFIX[p]
    A = rand(rng, (m, n), dt)
    lx, ly = (n, m) if trans == N else (m, n)
    x, y = rand(rng, lx, dt), rand(rng, ly, dt)
    lda = max(m + pad, 1)
    dA, dy = dev(store_matrix(A, lda)), dev(store_vector(y, incy))
    getattr(rocblas, f"rocblas_{p}gemv")(handle, trans, m, n, 2.0, dA, lda,
                                          dev(store_vector(x, incx)), incx, 0.5, dy, incy)
    ref = 2 * OPS[trans](A) @ x + 0.5 * y if m and n else y   # BLAS: m or n = 0 -> no-op
    close(load_vector(dy.copy_to_host(), ly, incy), ref, dt, m + n)
    u, v = rand(rng, m, dt), rand(rng, n, dt)
    names = [f"rocblas_{p}ger"] if p in "sd" else [f"rocblas_{p}geru", f"rocblas_{p}gerc"]
    for name in names:
        dA = dev(store_matrix(A, lda))
        getattr(rocblas, name)(handle, m, n, 2.0, dev(store_vector(u, incx)), incx,
                               dev(store_vector(v, incy)), incy, dA, lda)
        vv = np.conj(v) if name.endswith("gerc") else v
        close(load_matrix(dA.copy_to_host(), m, n, lda), A + 2 * np.outer(u, vv), dt, 1)


def _triangular(rng, n, dt, lower, unit):
    M = rand(rng, (n, n), dt) * 0.1 + 2 * np.eye(n, dtype=dt)
    T_ = np.tril(M) if lower else np.triu(M)
    if unit:
        np.fill_diagonal(T_, 1)
    return M, T_     # M: what is stored (other triangle full of junk), T_: what is used


@settings(**SETTINGS)
@given(p=st.sampled_from(list(PREFIX)), lower=st.booleans(), unit=st.booleans(),
       trans=st.sampled_from([N, T, C]), left=st.booleans(), m=st.integers(0, 7),
       n=st.integers(0, 7), pad=pads, seed=st.integers(0, 2**16))
def test_trsv_trsm_trmm(handle, p, lower, unit, trans, left, m, n, pad, seed):
    rng = np.random.default_rng(seed)
    dt = PREFIX[p]
    uplo = rocblas.rocblas_fill_lower if lower else rocblas.rocblas_fill_upper
    diag = rocblas.rocblas_diagonal_unit if unit else rocblas.rocblas_diagonal_non_unit
    side = rocblas.rocblas_side_left if left else rocblas.rocblas_side_right
    ka = m if left else n
    stored, tri = _triangular(rng, ka, dt, lower, unit)
    lda, ldb = ka + pad or 1, m + pad or 1
    B = rand(rng, (m, n), dt)
    opA = OPS[trans](tri.astype(np.complex128))
    dB = dev(store_matrix(B, ldb))
    getattr(rocblas, f"rocblas_{p}trsm")(handle, side, uplo, trans, diag, m, n, 2.0,
                                          dev(store_matrix(stored, lda)), lda, dB, ldb)
    X = load_matrix(dB.copy_to_host(), m, n, ldb)
    close(opA @ X if left else X @ opA, 2 * B, dt, ka)
    dC = dev(np.zeros(max(ldb * n, 1), dt))
    getattr(rocblas, f"rocblas_{p}trmm")(handle, side, uplo, trans, diag, m, n, 2.0,
                                          dev(store_matrix(stored, lda)), lda,
                                          dev(store_matrix(B, ldb)), ldb, dC, ldb)
    close(load_matrix(dC.copy_to_host(), m, n, ldb), 2 * (opA @ B if left else B @ opA),
          dt, ka)
    if left:
        x = rand(rng, m, dt)
        dx = dev(store_vector(x, -2))
        getattr(rocblas, f"rocblas_{p}trsv")(handle, uplo, trans, diag, m,
                                              dev(store_matrix(stored, lda)), lda, dx, -2)
        close(opA @ load_vector(dx.copy_to_host(), m, -2), x, dt, m)


@settings(**SETTINGS)
@given(p=st.sampled_from(list(PREFIX)), lower=st.booleans(), left=st.booleans(),
       trans=st.sampled_from([N, T]), m=dims, n=dims, k=dims, seed=st.integers(0, 2**16))
def test_symm_and_syrk(handle, p, lower, left, trans, m, n, k, seed):
    rng = np.random.default_rng(seed)
    dt = PREFIX[p]
    uplo = rocblas.rocblas_fill_lower if lower else rocblas.rocblas_fill_upper
    ka = m if left else n
    M = rand(rng, (ka, ka), dt)
    S = np.tril(M) + np.tril(M, -1).T if lower else np.triu(M) + np.triu(M, 1).T
    B, Cm = rand(rng, (m, n), dt), rand(rng, (m, n), dt)
    dC = dev(store_matrix(Cm, max(m, 1)))
    side = rocblas.rocblas_side_left if left else rocblas.rocblas_side_right
    lda = max(ka, 1)
    getattr(rocblas, f"rocblas_{p}symm")(handle, side, uplo, m, n, 1.5,
                                          dev(store_matrix(M, lda)), lda,
                                          dev(store_matrix(B, max(m, 1))), max(m, 1),
                                          -1.0, dC, max(m, 1))
    close(load_matrix(dC.copy_to_host(), m, n, max(m, 1)),
          1.5 * (S @ B if left else B @ S) - Cm, dt, ka)
    A = rand(rng, (n, k) if trans == N else (k, n), dt)
    Cn = rand(rng, (n, n), dt)
    dC = dev(store_matrix(Cn, max(n, 1)))
    getattr(rocblas, f"rocblas_{p}syrk")(handle, uplo, trans, n, k, 1.0,
                                          dev(store_matrix(A, max(A.shape[0], 1))),
                                          max(A.shape[0], 1), 2.0, dC, max(n, 1))
    opA = OPS[trans](A)
    full = opA @ opA.T + 2 * Cn
    mask = np.tril(np.ones((n, n), bool)) if lower else np.triu(np.ones((n, n), bool))
    close(load_matrix(dC.copy_to_host(), n, n, max(n, 1)), np.where(mask, full, Cn), dt, k)


def test_gemm_device_pointer_mode_reads_scalars_from_device(handle):
    rocblas.rocblas_set_pointer_mode(handle, rocblas.rocblas_pointer_mode_device)
    A = np.array([1, 2, 3, 4], np.float64)
    dC = dev(np.ones(4))
    rocblas.rocblas_dgemm(handle, N, N, 2, 2, 2, dev(np.array([2.0])), dev(A), 2, dev(A), 2,
                          dev(np.array([1.0])), dC, 2)
    ref = 2 * load_matrix(A, 2, 2, 2) @ load_matrix(A, 2, 2, 2) + 1
    np.testing.assert_array_equal(load_matrix(dC.copy_to_host(), 2, 2, 2), ref)


def test_work_goes_on_the_handles_stream_and_into_the_profiler(handle):
    from gpusim import hip
    s = hip.hipStreamCreate()
    rocblas.rocblas_set_stream(handle, s)
    assert rocblas.rocblas_get_stream(handle) is s
    n = 256
    A = dev(np.ones(n * n, np.float32))
    with gpusim.profile() as prof:
        rocblas.rocblas_sgemm(handle, N, T, n, n, n, 1.0, A, n, A, n, 0.0, A, n)
        hip.hipStreamSynchronize(s)
    (k,) = prof.kernels
    assert k.name.startswith("Cijk_Ailk_Bjlk_SB_MT") and k.stream == s.handle
    assert k.breakdown["unit"] == "matrix cores" and k.duration_ns > 0
    assert A.copy_to_host()[0] == n
