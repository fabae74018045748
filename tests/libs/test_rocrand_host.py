"""rocRAND host API: enums, statuses, layouts of each generator's output, the stream."""

import decimal

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest
import scipy.special
import scipy.stats

import gpusim
from gpusim import hip, rocrand
from gpusim.libs.rocrand import distributions as dist
from gpusim.libs.rocrand import lfsr113, mrg, philox, threefry, xorwow
from gpusim.libs.rocrand.pool import engines
from tests.libs.rocrand_refs import cases, curand_rows

pytestmark = pytest.mark.usefixtures("fresh_system")
S = rocrand.rocrand_status


def generate(rng_type, n, *, seed=None, offset=None, fn=rocrand.rocrand_generate,
             dtype=np.uint32, args=(), ordering=None):
    g = rocrand.rocrand_create_generator(rng_type)
    if seed is not None:
        rocrand.rocrand_set_seed(g, seed)
    if offset is not None:
        rocrand.rocrand_set_offset(g, offset)
    if ordering is not None:
        rocrand.rocrand_set_ordering(g, ordering)
    d = hip.device_array(n, dtype)
    fn(g, d, n, *args)
    return d.copy_to_host()


def test_enum_values_are_rocrands():
    assert rocrand.ROCRAND_STATUS_SUCCESS == 0 and rocrand.ROCRAND_STATUS_INTERNAL_ERROR == 108
    assert rocrand.ROCRAND_STATUS_LENGTH_NOT_MULTIPLE == 105
    assert rocrand.ROCRAND_RNG_PSEUDO_XORWOW == 401 and rocrand.ROCRAND_RNG_QUASI_SOBOL64 == 504
    assert rocrand.ROCRAND_RNG_PSEUDO_THREEFRY4_64_20 == 411
    assert rocrand.ROCRAND_ORDERING_PSEUDO_DYNAMIC == 104
    assert rocrand.ROCRAND_ORDERING_QUASI_DEFAULT == 201
    assert rocrand.rocrand_get_version() == 300200


def test_philox_host_output_is_one_stream_from_the_offset():
    out = generate(rocrand.ROCRAND_RNG_PSEUDO_PHILOX4_32_10, 1001, seed=1234, offset=7)
    assert np.array_equal(out, philox.stream_words(1234, 7, 1001))


@pytest.mark.parametrize("seed", [s for s, b, o in cases("philox4x32_10") if b == o == 0])
def test_philox_host_matches_curand_words(seed):
    out = generate(404, 64, seed=seed)
    assert np.array_equal(out, curand_rows()[("philox4x32_10", seed, 0, 0, "words")])


def test_consecutive_calls_continue_the_sequence():
    g = rocrand.rocrand_create_generator(404)
    d = hip.device_array(10, np.uint32)
    rocrand.rocrand_generate(g, d, 3)
    first = d.copy_to_host()[:3].copy()
    rocrand.rocrand_generate(g, d, 10)
    assert np.array_equal(np.r_[first, d.copy_to_host()], philox.stream_words(0, 0, 13))


def test_xorwow_host_layout_is_one_engine_per_subsequence():
    n_eng = engines(401, 101, "gfx942")
    out = generate(401, n_eng + 5, seed=99)
    for j in (0, 1, 2, n_eng - 1, n_eng, n_eng + 4):
        assert out[j] == xorwow.stream(99, j % n_eng, j // n_eng, 1)[0]


def test_mrg32k3a_host_layout_and_uint_map():
    n_eng = engines(402, 101, "gfx942")
    out = generate(402, 3, seed=5)
    for j in range(3):
        raw = int(mrg.stream(mrg.MRG32K3A, 5, j, 0, 1)[0])
        assert out[j] == np.uint32((raw - 1) * 1.000000048661607)
    assert n_eng == 256 * 512


@pytest.mark.parametrize("rng", [404, 401, 402, 405, 406, 408, 410])
def test_offset_skips_numbers(rng):
    base = generate(rng, 300, seed=11)
    assert np.array_equal(generate(rng, 200, seed=11, offset=100), base[100:])


def test_dynamic_ordering_uses_the_architectures_engine_count():
    legacy = generate(401, 10, seed=3, ordering=rocrand.ROCRAND_ORDERING_PSEUDO_LEGACY)
    dynamic = generate(401, 10, seed=3, ordering=rocrand.ROCRAND_ORDERING_PSEUDO_DYNAMIC)
    assert np.array_equal(legacy, generate(401, 10, seed=3))  # same E: same numbers
    assert np.array_equal(legacy, dynamic)  # group j < E is engine j's first number either way
    n = engines(401, 101, "gfx942") + 1
    assert engines(401, 104, "gfx942") == 524288 != n - 1
    legacy = generate(401, n, seed=3, ordering=rocrand.ROCRAND_ORDERING_PSEUDO_LEGACY)
    dynamic = generate(401, n, seed=3, ordering=rocrand.ROCRAND_ORDERING_PSEUDO_DYNAMIC)
    assert legacy[-1] == xorwow.stream(3, 0, 1, 1)[0]  # engine 0's second number
    assert dynamic[-1] == xorwow.stream(3, n - 1, 0, 1)[0]  # engine n-1's first


def test_default_generator_is_xorwow_with_seed_0():
    assert np.array_equal(generate(rocrand.ROCRAND_RNG_PSEUDO_DEFAULT, 4), generate(401, 4))
    assert generate(401, 1)[0] == xorwow.stream(0, 0, 0, 1)[0]


def test_mrg_seed_zero_is_the_default_seed():
    assert np.array_equal(generate(402, 4, seed=0), generate(402, 4, seed=12345))


def test_uniform_float_is_rocrands_formula():
    words = philox.stream_words(8, 0, 1000)
    u = generate(404, 1000, seed=8, fn=rocrand.rocrand_generate_uniform, dtype=np.float32)
    expect = np.float32(2.3283064e-10) + words.astype(np.float32) * np.float32(2.3283064e-10)
    assert np.array_equal(u, expect) and u.min() > 0 and u.max() <= 1


def test_uniform_double_takes_two_words():
    w = philox.stream_words(8, 0, 20).astype(np.uint64)
    u = generate(404, 10, seed=8, fn=rocrand.rocrand_generate_uniform_double, dtype=np.float64)
    v = w[0::2] | ((w[1::2] >> np.uint64(11)) << np.uint64(32))
    assert np.array_equal(u, 2.0**-53 + v.astype(np.float64) * 2.0**-53)


def test_normal_is_box_muller_pairs_and_odd_lengths_are_accepted():
    w = philox.stream_words(21, 0, 10)
    z = generate(404, 9, seed=21, fn=rocrand.rocrand_generate_normal, dtype=np.float32,
                 args=(1.0, 2.0))
    f32 = np.float32
    u = f32(2.3283064e-10) + w[0::2].astype(f32) * f32(2.3283064e-10)
    v = f32(1.46291807e-09) + w[1::2].astype(f32) * f32(1.46291807e-09)
    s = np.sqrt(f32(-2.0) * np.log(u))
    pairs = np.stack([f32(1) + np.sin(v) * s * f32(2), f32(1) + np.cos(v) * s * f32(2)], 1)
    np.testing.assert_allclose(z, pairs.reshape(-1)[:9], rtol=2e-6)  # libm vs NumPy ulps


def test_log_normal_is_exp_of_normal():
    z = generate(404, 100, seed=4, fn=rocrand.rocrand_generate_normal, dtype=np.float32,
                 args=(0.5, 0.25))
    ln = generate(404, 100, seed=4, fn=rocrand.rocrand_generate_log_normal,
                  dtype=np.float32, args=(0.5, 0.25))
    np.testing.assert_allclose(ln, np.exp(z), rtol=1e-6)


def test_poisson_alias_table_sums_to_one_and_huge_lambda_is_normal():
    p, offset = dist.poisson_probabilities(3.0)
    p = dist.normalize(p)
    prob, alias = dist.alias_table(p)
    recon = prob.copy()
    np.add.at(recon, alias, 1.0 - prob)
    np.testing.assert_allclose(recon / p.size, p, atol=1e-12)
    assert offset == 0
    out = generate(404, 20000, fn=rocrand.rocrand_generate_poisson, args=(1e5,))
    assert abs(out.mean() - 1e5) < 20 and abs(out.std() - 316) < 10


def test_char_and_short_are_the_words_bytes():
    w = philox.stream_words(0, 0, 3)
    c = generate(404, 10, seed=0, fn=rocrand.rocrand_generate_char, dtype=np.uint8)
    s = generate(404, 5, seed=0, fn=rocrand.rocrand_generate_short, dtype=np.uint16)
    assert np.array_equal(c, w.view(np.uint8)[:10]) and np.array_equal(s, w.view(np.uint16)[:5])


def test_sobol_layout_is_dimension_major_and_offset_moves_by_points():
    g = rocrand.rocrand_create_generator(rocrand.ROCRAND_RNG_QUASI_SOBOL32)
    rocrand.rocrand_set_quasi_random_generator_dimensions(g, 2)
    d = hip.device_array(8, np.uint32)
    rocrand.rocrand_generate(g, d, 8)
    rocrand.rocrand_generate(g, d, 8)
    second = d.copy_to_host().reshape(2, 4)
    from gpusim.libs.rocrand.quasi import QUASI, QuasiEngine
    assert np.array_equal(second, QuasiEngine(QUASI[501], 2, 4).points(4))


def test_host_generator_writes_numpy_arrays():
    g = rocrand.rocrand_create_generator_host(404)
    out = np.zeros(8, np.uint32)
    rocrand.rocrand_generate(g, out, 8)
    assert np.array_equal(out, philox.stream_words(0, 0, 8))


def test_generation_is_queued_on_the_generators_stream():
    g = rocrand.rocrand_create_generator(402)
    s = hip.hipStreamCreate()
    rocrand.rocrand_set_stream(g, s)
    d = hip.device_array(1 << 16, np.float32)
    with gpusim.profile() as prof:
        rocrand.rocrand_generate_uniform(g, d, 1 << 16)
        hip.hipStreamSynchronize(s)
    rec = [k for k in prof.kernels if "generate_mrg32k3a" in k.name]
    assert rec and rec[0].stream == s.handle and rec[0].duration_ns > 0


# -- one test per status code ------------------------------------------------------------
def raises(status, fn, *args):
    with pytest.raises(rocrand.RocrandError) as err:
        fn(*args)
    assert err.value.status == status
    return err.value


def test_status_not_created():
    g = rocrand.rocrand_create_generator(404)
    rocrand.rocrand_destroy_generator(g)
    d = hip.device_array(4, np.uint32)
    raises(S.ROCRAND_STATUS_NOT_CREATED, rocrand.rocrand_generate, g, d, 4)
    raises(S.ROCRAND_STATUS_NOT_CREATED, rocrand.rocrand_set_seed, None, 1)


def test_status_type_error():
    raises(S.ROCRAND_STATUS_TYPE_ERROR, rocrand.rocrand_create_generator, 999)
    g = rocrand.rocrand_create_generator(404)
    d = hip.device_array(4, np.uint64)
    raises(S.ROCRAND_STATUS_TYPE_ERROR, rocrand.rocrand_generate_long_long, g, d, 4)
    raises(S.ROCRAND_STATUS_TYPE_ERROR, rocrand.rocrand_set_quasi_random_generator_dimensions,
           g, 2)
    wrong = hip.device_array(4, np.float64)  # a double array to the float routine
    raises(S.ROCRAND_STATUS_TYPE_ERROR, rocrand.rocrand_generate_uniform, g, wrong, 4)


def test_status_out_of_range():
    g = rocrand.rocrand_create_generator(404)
    d = hip.device_array(4, np.uint32)
    raises(S.ROCRAND_STATUS_OUT_OF_RANGE, rocrand.rocrand_generate_poisson, g, d, 4, 0.0)
    raises(S.ROCRAND_STATUS_OUT_OF_RANGE, rocrand.rocrand_set_ordering, g,
           rocrand.ROCRAND_ORDERING_QUASI_DEFAULT)
    q = rocrand.rocrand_create_generator(501)
    raises(S.ROCRAND_STATUS_OUT_OF_RANGE, rocrand.rocrand_set_quasi_random_generator_dimensions,
           q, 20001)


def test_status_length_not_multiple():
    q = rocrand.rocrand_create_generator(501)
    rocrand.rocrand_set_quasi_random_generator_dimensions(q, 3)
    d = hip.device_array(10, np.float32)
    err = raises(S.ROCRAND_STATUS_LENGTH_NOT_MULTIPLE, rocrand.rocrand_generate_uniform, q, d,
                 10)
    assert "multiple of the 3 dimensions" in str(err)


def test_status_launch_failure_for_a_bad_pointer():
    g = rocrand.rocrand_create_generator(404)
    raises(S.ROCRAND_STATUS_LAUNCH_FAILURE, rocrand.rocrand_generate, g, None, 4)


def test_every_rng_type_makes_a_generator():
    for t in rocrand.rocrand_rng_type:
        g = rocrand.rocrand_create_generator(t)
        d = hip.device_array(8, np.uint32)
        rocrand.rocrand_generate(g, d, 8)
        assert len(set(d.copy_to_host().tolist())) > 1


@pytest.mark.parametrize("rng,n", [(409, 2), (411, 4)])
def test_64_bit_threefry_offsets_count_64_bit_numbers(rng, n):
    base = generate(rng, 40, seed=9, fn=rocrand.rocrand_generate_long_long, dtype=np.uint64)
    assert np.array_equal(base, threefry.stream(n, 64, 9, 0, 40))
    moved = generate(rng, 30, seed=9, offset=10, fn=rocrand.rocrand_generate_long_long,
                     dtype=np.uint64)
    assert np.array_equal(moved, base[10:])
    words = generate(rng, 8, seed=9)  # 32-bit output: both halves, low first
    assert np.array_equal(words, base[:4].view(np.uint32))


def test_lfsr113_host_layout_and_default_seeds():
    out = generate(rocrand.ROCRAND_RNG_PSEUDO_LFSR113, 3)
    for j in range(3):
        assert out[j] == lfsr113.stream(lfsr113.DEFAULT_SEEDS, j, 0, 1)[0]
    seeded = generate(406, 2, seed=0x0001000200030004)
    assert seeded[1] == lfsr113.stream((0x30004, 0x20003, 0x10002, 1), 1, 0, 1)[0]


def test_threefry2x32_doubles_take_one_word_each():
    w = threefry.stream(2, 32, 3, 0, 6).astype(np.float64)
    z = generate(408, 6, seed=3, fn=rocrand.rocrand_generate_normal_double,
                 dtype=np.float64, args=(0.0, 1.0))
    p = 2.0**-32 + w * 2.0**-32
    np.testing.assert_allclose(z, scipy.special.erfinv(2 * p - 1) * np.sqrt(2), atol=2e-3)


def test_scrambled_sobol32_is_sobol_on_scrambled_vectors_xor_constants():
    g = rocrand.rocrand_create_generator(rocrand.ROCRAND_RNG_QUASI_SCRAMBLED_SOBOL32)
    rocrand.rocrand_set_quasi_random_generator_dimensions(g, 2)
    d = hip.device_array(8, np.uint32)
    rocrand.rocrand_generate(g, d, 8)
    pts = d.copy_to_host().reshape(2, 4)
    # rocrand_scrambled_sobol32_constants.h: the first two constants; point 0 is 0 ^ constant
    assert list(pts[:, 0]) == [0xD091BB5C, 0x22AE9EF6]
    assert pts[0, 1] ^ pts[0, 0] == 2148123648  # its dimension 0's first scrambled vector
    rocrand.rocrand_set_quasi_random_generator_dimensions(g, 20000)  # every dimension
    d = hip.device_array(40000, np.uint32)
    rocrand.rocrand_generate(g, d, 40000)
    assert d.copy_to_host()[-2] == 0xAAAA2BC1  # the last constant; point 0 of the last one


def test_settings_after_a_queued_call_do_not_reach_it():
    g = rocrand.rocrand_create_generator(404)
    s = hip.hipStreamCreate()
    rocrand.rocrand_set_stream(g, s)
    a, b = hip.device_array(4, np.uint32), hip.device_array(4, np.uint32)
    rocrand.rocrand_generate(g, a, 4)        # queued, not yet run
    rocrand.rocrand_set_seed(g, 99)
    rocrand.rocrand_generate(g, b, 4)
    hip.hipStreamSynchronize(s)
    assert np.array_equal(a.copy_to_host(), philox.stream_words(0, 0, 4))
    assert np.array_equal(b.copy_to_host(), philox.stream_words(99, 0, 4))


def test_discrete_distributions_hold_rocrands_tables():
    d = rocrand.rocrand_create_discrete_distribution([0.1, 0.0, 0.6, 0.3], 4, 5)
    prob, alias = d.probability.copy_to_host(), d.alias.copy_to_host()
    recon = prob.copy()
    np.add.at(recon, alias, 1.0 - prob)  # the alias table gives back p
    np.testing.assert_allclose(recon / 4, [0.1, 0.0, 0.6, 0.3], atol=1e-15)
    np.testing.assert_allclose(d.cdf.copy_to_host(), [0.1, 0.1, 0.7, 1.0])
    pd = rocrand.rocrand_create_poisson_distribution(100.0)
    values = pd.offset + np.arange(pd.size)
    np.testing.assert_allclose(np.diff(np.r_[0, pd.cdf.copy_to_host()]),
                               scipy.stats.poisson.pmf(values, 100.0), atol=1e-11)
    rocrand.rocrand_destroy_discrete_distribution(d)
    raises(S.ROCRAND_STATUS_OUT_OF_RANGE, rocrand.rocrand_destroy_discrete_distribution, d)
    raises(S.ROCRAND_STATUS_OUT_OF_RANGE, rocrand.rocrand_create_discrete_distribution, [], 0,
           0)
    raises(S.ROCRAND_STATUS_OUT_OF_RANGE, rocrand.rocrand_create_poisson_distribution, -1.0)


def test_set_seed_uint4_is_for_lfsr113():
    g = rocrand.rocrand_create_generator(406)
    rocrand.rocrand_set_seed_uint4(g, (0, 9, 1, 200))
    d = hip.device_array(1, np.uint32)
    rocrand.rocrand_generate(g, d, 1)
    assert d.copy_to_host()[0] == lfsr113.stream((2, 9, 17, 200), 0, 0, 1)[0]
    p = rocrand.rocrand_create_generator(404)
    raises(S.ROCRAND_STATUS_TYPE_ERROR, rocrand.rocrand_set_seed_uint4, p, (1, 2, 3, 4))


def test_statuses_rocrand_never_returns_are_declared_with_their_values():
    # rocrand.h declares them; rocRAND 3.2.0's library/src returns neither (status.py)
    assert S.ROCRAND_STATUS_VERSION_MISMATCH == 100
    assert S.ROCRAND_STATUS_DOUBLE_PRECISION_REQUIRED == 106
    assert rocrand.RocrandError(106, "f", "x").status is S.ROCRAND_STATUS_DOUBLE_PRECISION_REQUIRED


@hypothesis.given(st.one_of(st.floats(0, 2**52, allow_nan=False),
                            st.integers(0, 2**40).map(lambda k: k + 0.5)))
def test_huge_poisson_rounds_halves_away_from_zero_as_c(x):
    # rocRAND's poisson for lambda > 4000 is C's round(); Decimal's ROUND_HALF_UP is that rule
    want = float(decimal.Decimal(x).quantize(decimal.Decimal(1), decimal.ROUND_HALF_UP))
    assert dist.c_round(x) == want
