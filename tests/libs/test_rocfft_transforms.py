"""rocFFT transforms against numpy.fft: complex and real, 1-3 dimensions, random sizes
including primes (Bluestein lengths), batches, in place and not, strides, distances,
offsets, planar data, scale factors, precisions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim import hip
from gpusim import rocfft as F

RNG = np.random.default_rng(15)
FWD, INV = F.rocfft_transform_type_complex_forward, F.rocfft_transform_type_complex_inverse
R2C, C2R = F.rocfft_transform_type_real_forward, F.rocfft_transform_type_real_inverse
IP, OP = F.rocfft_placement_inplace, F.rocfft_placement_notinplace
SINGLE, DOUBLE = F.rocfft_precision_single, F.rocfft_precision_double
TOL = {SINGLE: dict(rtol=1e-4, atol=1e-3), DOUBLE: dict(rtol=1e-10, atol=1e-8)}


def _complex(shape, dtype=np.complex128):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)


def _plan(kind, precision, lengths, batch, placement=OP, desc=None):
    return F.rocfft_plan_create(placement, kind, precision, len(lengths), lengths, batch, desc)


def _numpy_shape(lengths, batch):
    """NumPy shape of packed data: batch first, fastest dimension (lengths[0]) last."""
    return (batch, *lengths[::-1])


def _axes(lengths):
    return tuple(range(-len(lengths), 0))


CASES = [([n], b) for n in (1, 2, 7, 16, 17, 23, 97, 100, 210, 509) for b in (1, 3)] + [
    ([6, 5], 2), ([13, 8], 1), ([31, 4], 3), ([4, 4, 4], 1), ([5, 7, 3], 2), ([19, 2, 3], 1)]


@pytest.mark.parametrize("lengths,batch", CASES)
@pytest.mark.parametrize("precision", [SINGLE, DOUBLE])
def test_complex_forward_and_inverse_are_unnormalised(fresh_system, lengths, batch, precision):
    dtype = np.complex64 if precision == SINGLE else np.complex128
    x = _complex(_numpy_shape(lengths, batch), dtype)
    d_x, d_y = hip.to_device(x), hip.device_array(x.shape, dtype)
    F.rocfft_execute(_plan(FWD, precision, lengths, batch), [d_x], [d_y], None)
    want = np.fft.fftn(x.astype(np.complex128), axes=_axes(lengths))
    np.testing.assert_allclose(d_y.copy_to_host(), want, **TOL[precision])
    F.rocfft_execute(_plan(INV, precision, lengths, batch, IP), [d_y], None, None)
    n = int(np.prod(lengths))
    np.testing.assert_allclose(d_y.copy_to_host() / n, x, **TOL[precision])


@pytest.mark.parametrize("lengths,batch", CASES)
def test_real_forward_gives_n_over_2_plus_1_outputs(fresh_system, lengths, batch):
    x = RNG.standard_normal(_numpy_shape(lengths, batch))
    half = [lengths[0] // 2 + 1, *lengths[1:]]
    d_x, d_y = hip.to_device(x), hip.device_array(_numpy_shape(half, batch), np.complex128)
    F.rocfft_execute(_plan(R2C, DOUBLE, lengths, batch), [d_x], [d_y], None)
    np.testing.assert_allclose(d_y.copy_to_host(), np.fft.rfftn(x, axes=_axes(lengths)),
                               **TOL[DOUBLE])
    d_back = hip.device_array(x.shape, np.float64)
    F.rocfft_execute(_plan(C2R, DOUBLE, lengths, batch), [d_y], [d_back], None)
    np.testing.assert_allclose(d_back.copy_to_host(), x * np.prod(lengths), rtol=1e-9,
                               atol=1e-8)


@pytest.mark.parametrize("lengths,batch", [([8], 1), ([9], 3), ([6, 4], 2), ([7, 3, 2], 2)])
def test_in_place_real_transform_uses_padded_rows(fresh_system, lengths, batch):
    """In place, each real row is padded to 2 * (n0 // 2 + 1) reals: the complex row
    written there has n0 // 2 + 1 values."""
    h0 = lengths[0] // 2 + 1
    x = RNG.standard_normal(_numpy_shape(lengths, batch))
    padded = np.zeros(_numpy_shape([2 * h0, *lengths[1:]], batch))
    padded[..., :lengths[0]] = x
    d = hip.to_device(padded)
    F.rocfft_execute(_plan(R2C, DOUBLE, lengths, batch, IP), [d], None, None)
    got = d.copy_to_host().view(np.complex128)  # rows of h0 complex values
    np.testing.assert_allclose(got, np.fft.rfftn(x, axes=_axes(lengths)), **TOL[DOUBLE])
    F.rocfft_execute(_plan(C2R, DOUBLE, lengths, batch, IP), [d], None, None)
    back = d.copy_to_host()[..., :lengths[0]]
    np.testing.assert_allclose(back, x * np.prod(lengths), rtol=1e-9, atol=1e-8)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 300), batch=st.integers(1, 4), real=st.booleans())
def test_random_1d_sizes_match_numpy(n, batch, real):
    x = RNG.standard_normal((batch, n)) if real else _complex((batch, n))
    d_x = hip.to_device(x)
    d_y = hip.device_array((batch, n // 2 + 1 if real else n), np.complex128)
    F.rocfft_execute(_plan(R2C if real else FWD, DOUBLE, [n], batch), [d_x], [d_y], None)
    want = np.fft.rfft(x) if real else np.fft.fft(x)
    np.testing.assert_allclose(d_y.copy_to_host(), want, rtol=1e-9, atol=1e-8 * n)


def test_strides_and_distance_transform_the_columns_of_a_matrix(fresh_system):
    """A row-major m x n matrix: the columns are n transforms of length m with stride n
    and distance 1; the output goes to a packed (column, frequency) layout."""
    m, n = 12, 5
    a = _complex((m, n))
    desc = F.rocfft_plan_description_create()
    F.rocfft_plan_description_set_data_layout(
        desc, F.rocfft_array_type_complex_interleaved, F.rocfft_array_type_complex_interleaved,
        None, None, 1, [n], 1, 1, [1], m)
    d_a, d_y = hip.to_device(a), hip.device_array((n, m), np.complex128)
    F.rocfft_execute(_plan(FWD, DOUBLE, [m], n, OP, desc), [d_a], [d_y], None)
    np.testing.assert_allclose(d_y.copy_to_host(), np.fft.fft(a, axis=0).T, **TOL[DOUBLE])


def test_offsets_skip_leading_elements(fresh_system):
    x = _complex(10)
    desc = F.rocfft_plan_description_create()
    F.rocfft_plan_description_set_data_layout(
        desc, F.rocfft_array_type_complex_interleaved, F.rocfft_array_type_complex_interleaved,
        [3], [1], 1, None, 0, 1, None, 0)
    d_x, d_y = hip.to_device(x), hip.device_array(8, np.complex128)
    F.rocfft_execute(_plan(FWD, DOUBLE, [7], 1, OP, desc), [d_x], [d_y], None)
    got = d_y.copy_to_host()
    assert got[0] == 0 and np.allclose(got[1:], np.fft.fft(x[3:]))


def test_planar_data_is_two_buffers(fresh_system):
    x = _complex((2, 9))
    desc = F.rocfft_plan_description_create()
    F.rocfft_plan_description_set_data_layout(
        desc, F.rocfft_array_type_complex_planar, F.rocfft_array_type_complex_planar,
        None, None, 1, None, 0, 1, None, 0)
    re, im = hip.to_device(x.real.copy()), hip.to_device(x.imag.copy())
    out_re, out_im = hip.device_array((2, 9)), hip.device_array((2, 9))
    F.rocfft_execute(_plan(FWD, DOUBLE, [9], 2, OP, desc), [re, im], [out_re, out_im], None)
    got = out_re.copy_to_host() + 1j * out_im.copy_to_host()
    np.testing.assert_allclose(got, np.fft.fft(x), **TOL[DOUBLE])


def test_scale_factor_normalises_the_inverse(fresh_system):
    x = _complex((3, 4, 5))
    desc = F.rocfft_plan_description_create()
    F.rocfft_plan_description_set_scale_factor(desc, 1 / 20)
    d = hip.to_device(x)
    F.rocfft_execute(_plan(FWD, DOUBLE, [5, 4], 3, IP), [d], None, None)
    F.rocfft_execute(_plan(INV, DOUBLE, [5, 4], 3, IP, desc), [d], None, None)
    np.testing.assert_allclose(d.copy_to_host(), x, **TOL[DOUBLE])


def test_half_precision_interleaved_pairs(fresh_system):
    x = _complex(16)
    pairs = np.stack([x.real, x.imag], axis=-1).astype(np.float16).ravel()
    d = hip.to_device(pairs)
    F.rocfft_execute(_plan(FWD, F.rocfft_precision_half, [16], 1, IP), [d], None, None)
    got = d.copy_to_host().astype(np.float32).view(np.complex64)
    want = np.fft.fft(pairs.astype(np.float64).view(np.complex128))
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=5e-2)


def test_hip_malloc_pointers_are_accepted(fresh_system):
    x = _complex(32)
    p = hip.hipMalloc(x.nbytes)
    hip.hipMemcpy(p, x, x.nbytes, hip.hipMemcpyHostToDevice)
    F.rocfft_execute(_plan(FWD, DOUBLE, [32], 1, IP), [p], None, None)
    out = np.empty_like(x)
    hip.hipMemcpy(out, p, x.nbytes, hip.hipMemcpyDeviceToHost)
    np.testing.assert_allclose(out, np.fft.fft(x), **TOL[DOUBLE])
    hip.hipFree(p)


def _strided(lengths, pads, gap, batch):
    """Strides (fastest first) with ``pads`` extra elements after each dimension, and a
    distance with ``gap`` more after each transform."""
    strides, step = [], 1
    for n, pad in zip(lengths, pads, strict=True):
        strides.append(step)
        step *= n + pad
    return strides, step + gap


def _indices(lengths, strides, distance, batch):
    """Element index of every value, shaped (batch, n[rank-1], ..., n[0])."""
    grids = np.meshgrid(*[np.arange(n) for n in lengths[::-1]], indexing="ij")
    inner = sum(g * s for g, s in zip(grids, strides[::-1], strict=True))
    return np.arange(batch).reshape(-1, *[1] * len(lengths)) * distance + inner


@settings(max_examples=30, deadline=None)
@given(lengths=st.lists(st.integers(1, 9), min_size=1, max_size=3), batch=st.integers(1, 3),
       pads=st.lists(st.integers(0, 3), min_size=6, max_size=6), gaps=st.tuples(
           st.integers(0, 5), st.integers(0, 5)), real=st.booleans())
def test_random_strides_and_distances_match_numpy(lengths, batch, pads, gaps, real):
    rank = len(lengths)
    out_lengths = [lengths[0] // 2 + 1, *lengths[1:]] if real else lengths
    in_strides, in_dist = _strided(lengths, pads[:rank], gaps[0], batch)
    out_strides, out_dist = _strided(out_lengths, pads[3:3 + rank], gaps[1], batch)
    in_idx = _indices(lengths, in_strides, in_dist, batch)
    out_idx = _indices(out_lengths, out_strides, out_dist, batch)
    x = RNG.standard_normal(in_idx.shape) if real else _complex(in_idx.shape)
    buf = np.zeros(in_idx.max() + 1, x.dtype)
    buf[in_idx] = x
    desc = F.rocfft_plan_description_create()
    in_type = F.rocfft_array_type_real if real else F.rocfft_array_type_complex_interleaved
    out_type = F.rocfft_array_type_hermitian_interleaved if real else \
        F.rocfft_array_type_complex_interleaved
    F.rocfft_plan_description_set_data_layout(desc, in_type, out_type, None, None, rank,
                                              in_strides, in_dist, rank, out_strides,
                                              out_dist)
    d_out = hip.device_array(out_idx.max() + 1, np.complex128)
    F.rocfft_execute(_plan(R2C if real else FWD, DOUBLE, lengths, batch, OP, desc),
                     [hip.to_device(buf)], [d_out], None)
    want = (np.fft.rfftn if real else np.fft.fftn)(x, axes=_axes(lengths))
    np.testing.assert_allclose(d_out.copy_to_host()[out_idx], want, rtol=1e-9, atol=1e-9)


def test_planar_in_place_2d_inverse_and_planar_hermitian_3d(fresh_system):
    x = _complex((2, 6, 5))
    desc = F.rocfft_plan_description_create()
    cp = F.rocfft_array_type_complex_planar
    F.rocfft_plan_description_set_data_layout(desc, cp, cp, None, None, 2, None, 0, 2, None, 0)
    re, im = hip.to_device(x.real.copy()), hip.to_device(x.imag.copy())
    F.rocfft_execute(_plan(INV, DOUBLE, [5, 6], 2, IP, desc), [re, im], None, None)
    got = re.copy_to_host() + 1j * im.copy_to_host()
    np.testing.assert_allclose(got, np.fft.ifftn(x, axes=(1, 2)) * 30, **TOL[DOUBLE])
    y = RNG.standard_normal((1, 3, 4, 6))
    spectrum = np.fft.rfftn(y, axes=(1, 2, 3))
    desc = F.rocfft_plan_description_create()
    F.rocfft_plan_description_set_data_layout(desc, F.rocfft_array_type_hermitian_planar,
                                              F.rocfft_array_type_real, None, None, 3, None, 0,
                                              3, None, 0)
    out = hip.device_array(y.shape)
    F.rocfft_execute(_plan(C2R, DOUBLE, [6, 4, 3], 1, OP, desc),
                     [hip.to_device(spectrum.real.copy()), hip.to_device(spectrum.imag.copy())],
                     [out], None)
    np.testing.assert_allclose(out.copy_to_host(), y * 72, **TOL[DOUBLE])


def test_planar_offsets_apply_to_each_buffer(fresh_system):
    x = _complex(6)
    re, im = np.zeros(8), np.zeros(9)
    re[2:], im[3:] = x.real, x.imag
    desc = F.rocfft_plan_description_create()
    cp = F.rocfft_array_type_complex_planar
    F.rocfft_plan_description_set_data_layout(desc, cp, F.rocfft_array_type_complex_interleaved,
                                              [2, 3], None, 1, None, 0, 1, None, 0)
    d_y = hip.device_array(6, np.complex128)
    F.rocfft_execute(_plan(FWD, DOUBLE, [6], 1, OP, desc), [hip.to_device(re),
                                                           hip.to_device(im)], [d_y], None)
    np.testing.assert_allclose(d_y.copy_to_host(), np.fft.fft(x), **TOL[DOUBLE])
