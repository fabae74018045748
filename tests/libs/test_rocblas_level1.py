"""rocBLAS level 1 against NumPy on random sizes, increments (incl. negative), pointer modes."""

import numpy as np
import pytest
from blas_storage import dev, load_vector, rand, store_vector, tol
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusim import rocblas

PREFIX = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}
incs = st.sampled_from([1, 2, 3, -1, -2])
sizes = st.integers(0, 40)
prefixes = st.sampled_from(list(PREFIX))
SETTINGS = dict(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def fn(name):
    return getattr(rocblas, name)


@settings(**SETTINGS)
@given(p=prefixes, n=sizes, incx=incs, incy=incs, seed=st.integers(0, 2**16))
def test_axpy_copy_swap(handle, p, n, incx, incy, seed):
    rng = np.random.default_rng(seed)
    dt = PREFIX[p]
    x, y = rand(rng, n, dt), rand(rng, n, dt)
    alpha = dt(1.5 - 0.5j) if np.dtype(dt).kind == "c" else dt(1.5)
    bx, by = store_vector(x, incx), store_vector(y, incy)
    dx, dy = dev(bx), dev(by)
    fn(f"rocblas_{p}axpy")(handle, n, alpha, dx, incx, dy, incy)
    out = dy.copy_to_host()
    np.testing.assert_allclose(load_vector(out, n, incy), alpha * x + y, rtol=tol(dt),
                               atol=tol(dt))
    # elements between the strided ones are untouched (NaN padding stays NaN)
    assert np.isnan(out).sum() == np.isnan(by).sum()
    dy = dev(by)
    fn(f"rocblas_{p}copy")(handle, n, dx, incx, dy, incy)
    np.testing.assert_array_equal(load_vector(dy.copy_to_host(), n, incy), x)
    dx, dy = dev(bx), dev(by)
    fn(f"rocblas_{p}swap")(handle, n, dx, incx, dy, incy)
    np.testing.assert_array_equal(load_vector(dx.copy_to_host(), n, incx), y)
    np.testing.assert_array_equal(load_vector(dy.copy_to_host(), n, incy), x)


@settings(**SETTINGS)
@given(p=prefixes, n=sizes, incx=incs, incy=incs, seed=st.integers(0, 2**16))
def test_dot_and_reductions(handle, p, n, incx, incy, seed):
    rng = np.random.default_rng(seed)
    dt = PREFIX[p]
    x, y = rand(rng, n, dt), rand(rng, n, dt)
    dx, dy = dev(store_vector(x, incx)), dev(store_vector(y, incy))
    names = {"s": ("sdot", "snrm2", "sasum"), "d": ("ddot", "dnrm2", "dasum"),
             "c": ("cdotu", "scnrm2", "scasum"), "z": ("zdotu", "dznrm2", "dzasum")}[p]
    got = fn(f"rocblas_{names[0]}")(handle, n, dx, incx, dy, incy)
    ref = np.sum(x.astype(np.complex128) * y)
    assert abs(got - ref) <= tol(dt, n) * (1 + np.sum(np.abs(x) * np.abs(y)))
    if p in "cz":
        got = fn(f"rocblas_{p}dotc")(handle, n, dx, incx, dy, incy)
        ref = np.sum(np.conj(x.astype(np.complex128)) * y)
        assert abs(got - ref) <= tol(dt, n) * (1 + np.sum(np.abs(x) * np.abs(y)))
    if incx > 0:  # nrm2/asum/iamax return 0 for incx <= 0, as rocBLAS
        norm = fn(f"rocblas_{names[1]}")(handle, n, dx, incx)
        ref_norm = np.linalg.norm(x.astype(np.complex128))
        assert norm == pytest.approx(ref_norm, rel=tol(dt, n), abs=1e-30)
        asum = fn(f"rocblas_{names[2]}")(handle, n, dx, incx)
        ref_asum = np.sum(np.abs(x.real) + np.abs(x.imag))
        assert asum == pytest.approx(ref_asum, rel=tol(dt, n), abs=1e-30)
        key = np.abs(x.real) + np.abs(x.imag)
        imax = fn(f"rocblas_i{p}amax")(handle, n, dx, incx)
        imin = fn(f"rocblas_i{p}amin")(handle, n, dx, incx)
        assert imax == (np.argmax(key) + 1 if n else 0)
        assert imin == (np.argmin(key) + 1 if n else 0)


@settings(**SETTINGS)
@given(p=prefixes, n=sizes, incx=st.sampled_from([1, 2, 3]), seed=st.integers(0, 2**16))
def test_scal_and_rot(handle, p, n, incx, seed):
    rng = np.random.default_rng(seed)
    dt = PREFIX[p]
    x, y = rand(rng, n, dt), rand(rng, n, dt)
    dx = dev(store_vector(x, incx))
    fn(f"rocblas_{p}scal")(handle, n, 3, dx, incx)
    np.testing.assert_allclose(load_vector(dx.copy_to_host(), n, incx), 3 * x, rtol=tol(dt))
    dx, dy = dev(store_vector(x, incx)), dev(store_vector(y, 1))
    c, s = 0.6, 0.8
    fn(f"rocblas_{p}rot")(handle, n, dx, incx, dy, 1, c, s)
    np.testing.assert_allclose(load_vector(dx.copy_to_host(), n, incx), c * x + s * y,
                               rtol=tol(dt), atol=tol(dt))
    np.testing.assert_allclose(dy.copy_to_host()[:n], c * y - s * x, rtol=tol(dt), atol=tol(dt))


def test_real_scalar_variants(handle):
    x = np.array([1 + 2j, 3 - 1j], np.complex64)
    dx = dev(x)
    rocblas.rocblas_csscal(handle, 2, 2.0, dx, 1)
    np.testing.assert_array_equal(dx.copy_to_host(), 2 * x)
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_csscal(handle, 2, 1j, dx, 1)      # alpha is real in csscal
    assert err.value.status == rocblas.rocblas_status_invalid_value


def test_pointer_mode_device_reads_alpha_and_writes_result_on_device(handle):
    rocblas.rocblas_set_pointer_mode(handle, rocblas.rocblas_pointer_mode_device)
    x, y = np.arange(4, dtype=np.float64), np.ones(4)
    dx, dy = dev(x), dev(y)
    alpha, result = dev(np.array([2.0])), dev(np.zeros(1))
    rocblas.rocblas_daxpy(handle, 4, alpha, dx, 1, dy, 1)
    assert rocblas.rocblas_ddot(handle, 4, dx, 1, dy, 1, result) is None
    np.testing.assert_array_equal(result.copy_to_host(), [np.dot(x, 2 * x + y)])
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_daxpy(handle, 4, 2.0, dx, 1, dy, 1)    # a host number in device mode
    assert err.value.status == rocblas.rocblas_status_invalid_pointer
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_ddot(handle, 4, dx, 1, dy, 1)           # result must be device memory
    assert err.value.status == rocblas.rocblas_status_invalid_pointer


def test_host_mode_result_array_is_filled_too(handle):
    out = np.zeros(1, np.int32)
    value = rocblas.rocblas_isamax(handle, 3, dev(np.array([1, -7, 7], np.float32)), 1, out)
    assert value == 2 and out[0] == 2           # first of the equal magnitudes, 1-based


def test_empty_vectors_quick_return_and_zero_results(handle):
    x = dev(np.ones(2, np.float32))
    assert rocblas.rocblas_saxpy(handle, 0, 1.0, None, 1, None, 1) is None
    assert rocblas.rocblas_sdot(handle, 0, None, 1, None, 1) == 0
    assert rocblas.rocblas_snrm2(handle, 2, x, 0) == 0        # incx <= 0: result 0
    assert rocblas.rocblas_isamax(handle, 0, x, 1) == 0


@settings(**SETTINGS)
@given(p=st.sampled_from("sd"), n=sizes, incx=incs, incy=incs, flag=st.sampled_from(
    [-2.0, -1.0, 0.0, 1.0]), device_param=st.booleans(), seed=st.integers(0, 2**16))
def test_rotm_against_scipy(handle, p, n, incx, incy, flag, device_param, seed):
    """rotm's four flags, both pointer modes, any increments: SciPy's reference BLAS."""
    from scipy.linalg import blas

    rng = np.random.default_rng(seed)
    dt = PREFIX[p]
    x, y = rand(rng, n, dt), rand(rng, n, dt)
    param = np.array([flag, *rng.standard_normal(4)], dt)
    want_x, want_y = getattr(blas, f"{p}rotm")(x.copy(), y.copy(), param) if n else (x, y)
    dx, dy = dev(store_vector(x, incx)), dev(store_vector(y, incy))
    mode = (rocblas.rocblas_pointer_mode_device if device_param
            else rocblas.rocblas_pointer_mode_host)
    rocblas.rocblas_set_pointer_mode(handle, mode)
    try:
        fn(f"rocblas_{p}rotm")(handle, n, dx, incx, dy, incy,
                               dev(param) if device_param else param)
    finally:
        rocblas.rocblas_set_pointer_mode(handle, rocblas.rocblas_pointer_mode_host)
    np.testing.assert_allclose(load_vector(dx.copy_to_host(), n, incx), want_x,
                               rtol=tol(dt), atol=tol(dt))
    np.testing.assert_allclose(load_vector(dy.copy_to_host(), n, incy), want_y,
                               rtol=tol(dt), atol=tol(dt))


def test_rotm_refuses_a_missing_param(handle):
    dx, dy = dev(np.ones(3, np.float32)), dev(np.ones(3, np.float32))
    with pytest.raises(rocblas.RocblasError) as err:
        rocblas.rocblas_srotm(handle, 3, dx, 1, dy, 1, None)
    assert err.value.status == rocblas.rocblas_status_invalid_pointer
    assert "param" in str(err.value)


def test_rotm_identity_flag_launches_nothing_when_read_on_the_host(handle):
    """rocBLAS returns before launching when a host-mode param says flag -2; a device
    param is only read by the kernel, so that kernel runs."""
    import gpusim

    dx, dy = dev(np.ones(3)), dev(np.ones(3))
    identity = np.array([-2.0, 5, 5, 5, 5])
    with gpusim.profile() as prof:
        rocblas.rocblas_drotm(handle, 3, dx, 1, dy, 1, identity)
        rocblas.rocblas_set_pointer_mode(handle, rocblas.rocblas_pointer_mode_device)
        rocblas.rocblas_drotm(handle, 3, dx, 1, dy, 1, dev(identity))
        rocblas.rocblas_set_pointer_mode(handle, rocblas.rocblas_pointer_mode_host)
        np.testing.assert_array_equal(dx.copy_to_host(), 1.0)
    assert [k.name for k in prof.kernels] == ["rocblas_rotm_kernel<double>"]
