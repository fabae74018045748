"""Half-precision generation (rocrand_generate_*_half): rocRAND's formulas recomputed
here in float64 from the generators' own words."""

import numpy as np
import pytest

from gpusim import hip, rocrand

pytestmark = pytest.mark.usefixtures("fresh_system")
S = rocrand.rocrand_status


def host(rng, fn, n, dtype, *args, seed=77, dims=None):
    g = rocrand.rocrand_create_generator_host(rng)
    rocrand.rocrand_set_seed(g, seed)
    if dims:
        rocrand.rocrand_set_quasi_random_generator_dimensions(g, dims)
    out = np.empty(n, dtype)
    fn(g, out, n, *args)
    return out


def ulps(a, b):
    """Distance in half-precision steps."""
    a, b = a.astype(np.float16).view(np.int16), b.astype(np.float16).view(np.int16)
    return np.abs(a.astype(np.int64) - b.astype(np.int64))


@pytest.mark.parametrize("rng,word_type,fn", [
    (404, np.uint32, rocrand.rocrand_generate),       # two halves per 32-bit word
    (402, np.uint32, rocrand.rocrand_generate),       # MRG: of its 32-bit map
    (407, np.uint32, rocrand.rocrand_generate),
    (403, np.uint32, rocrand.rocrand_generate),
    (411, np.uint64, rocrand.rocrand_generate_long_long)])  # four per 64-bit number
def test_uniform_half_is_each_16_bits(rng, word_type, fn):
    n = 4096
    words = host(rng, fn, n // (2 * np.dtype(word_type).itemsize // 4), word_type)
    h = host(rng, rocrand.rocrand_generate_uniform_half, n, np.float16)
    v = words.view(np.uint16).astype(np.float64)
    assert np.array_equal(h, ((v + 1) / 65536).astype(np.float16))  # exact, then one rounding


def test_uniform_half_of_sobol_is_the_top_16_bits():
    pts = host(501, rocrand.rocrand_generate, 64, np.uint32, dims=2)
    h = host(501, rocrand.rocrand_generate_uniform_half, 64, np.float16, dims=2)
    assert np.array_equal(h, (((pts >> 16) + 1) / 65536).astype(np.float16))


@pytest.mark.parametrize("rng", [404, 401, 407])
def test_normal_half_is_box_muller_on_16_bit_pieces(rng):
    n = 2048
    words = host(rng, rocrand.rocrand_generate, n // 2, np.uint32)
    z = host(rng, rocrand.rocrand_generate_normal_half, n, np.float16, 1.5, 0.25)
    x = (words & 0xFFFF).astype(np.float64)
    y = (words >> 16).astype(np.float64)
    u = (x + 1) / 65536
    v = (y + 1) * float(np.float32(9.58738e-05))
    s = np.sqrt(-2 * np.log(u))
    pair = np.empty(n)
    pair[0::2], pair[1::2] = np.sin(v) * s, np.cos(v) * s
    ref = 1.5 + 0.25 * pair.astype(np.float16).astype(np.float64)
    assert ulps(z, ref).max() <= 1 and (ulps(z, ref) == 0).mean() > 0.95


def test_log_normal_half_and_odd_lengths():
    z = host(404, rocrand.rocrand_generate_normal_half, 9, np.float16, 0.5, 0.5)
    x = host(404, rocrand.rocrand_generate_log_normal_half, 9, np.float16, 0.5, 0.5)
    assert ulps(x, np.exp(z.astype(np.float64))).max() <= 2  # exp of a rounded normal


def test_device_half_math_rounds_each_step():
    g = rocrand.rocrand_create_generator(404)
    d = hip.device_array(4096, np.float16)
    rocrand.rocrand_generate_normal_half(g, d, 4096, 0.0, 1.0)
    dev = d.copy_to_host()
    on_host = host(404, rocrand.rocrand_generate_normal_half, 4096, np.float16, 0.0, 1.0,
                   seed=0)
    err = np.abs(dev.astype(np.float64) - on_host)
    step = np.spacing(np.abs(on_host)).astype(np.float64)  # one half step at each value
    # the angle rounded to half moves by up to 2pi 2^-12, i.e. 0.0015 s (s <= 4.7) absolute;
    # u within 2^-12 of 1 rounds to 1 in half, so log u = 0: half math gives exact zeros
    assert ((err <= 8 * step + 0.0075) | (dev == 0)).all()
    assert (dev == 0).sum() > (on_host == 0).sum()
    assert 0 < (err > 0).mean() < 0.9      # close, not the same numbers


def test_half_outputs_take_float16_arrays_and_quasi_lengths():
    g = rocrand.rocrand_create_generator(501)
    rocrand.rocrand_set_quasi_random_generator_dimensions(g, 3)
    with pytest.raises(rocrand.RocrandError) as e:
        rocrand.rocrand_generate_uniform_half(g, hip.device_array(10, np.float16), 10)
    assert e.value.status == S.ROCRAND_STATUS_LENGTH_NOT_MULTIPLE
    g = rocrand.rocrand_create_generator(404)
    with pytest.raises(rocrand.RocrandError):
        rocrand.rocrand_generate_uniform_half(g, hip.device_array(8, np.float32), 8)
