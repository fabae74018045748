"""MT19937 and MTGP32 (engines, rocRAND's host layouts, cuRAND streams) and the scrambled
Sobol tables; how each is checked is in tests/libs/data/README.md."""

import numpy as np
import pytest

from gpusim import hip, rocrand
from gpusim.libs.rocrand import distributions as dist
from gpusim.libs.rocrand import mt19937, mtgp32, quasi, sobol_vectors
from tests.libs.rocrand_refs import curand_mt_rows, mt_refs

pytestmark = pytest.mark.usefixtures("fresh_system")
S = rocrand.rocrand_status
FULL = mt19937.STRIDE * mt19937.PER_THREAD  # groups of one width-1 block


def test_mt19937_engine_is_mt19937ar():
    # mt19937ar.out / the C++ standard ([rand.predef]): 10000th output of seed 5489
    assert mt19937.genrand(5489, 3).tolist() == [3499211612, 581869302, 3890346734]
    assert mt19937.genrand(5489, 10000)[-1] == 4123659995


def test_jump_polynomial_matches_rocrands_and_stepping():
    # rocRAND's test_rocrand_mt19937_prng.cpp: x^552552 mod P, made by its own tool
    c = mt19937.jump_coefficients(exponent=552552)
    words = np.packbits(np.resize(c, 624 * 32) * (np.arange(624 * 32) < c.size),
                        bitorder="little").view(np.uint32)
    assert np.array_equal(words, mt_refs()["jump_552552"])
    s = mt19937.init_genrand(np.uint32(1))
    stepped = mt19937.sequence(s, 552552 + 624)[552552:]
    jumped = mt19937.jump(s, c)
    assert np.array_equal(jumped[1:], stepped[1:]) and jumped[0] >> 31 == stepped[0] >> 31


def _block0(seed32, blocks):
    """Generator 0's tempered blocks (no jump needed)."""
    mt = mt19937.init_genrand(np.uint32(seed32))
    out = []
    for _ in range(blocks):
        mt19937.twist(mt)
        out.append(mt19937.temper(mt))
    return out


@pytest.mark.parametrize("seed", [0, 1, 1234])
def test_mt19937_generator_0_matches_curand_host(seed):
    # cuRAND's MT19937 shares rocRAND's eight-lane layout; threads 0-7 are generator 0
    rows = curand_mt_rows()
    blocks = _block0(seed, 2)
    for index in (0, 65536, 5111808, 5177344):
        block, r = divmod(index, FULL)
        j = r // mt19937.STRIDE
        assert np.array_equal(blocks[block][mt19937.PERM[:, j]],
                              rows[("host_mt19937", seed, index)][:8])
    assert np.array_equal(mt19937.MT19937Engine(seed).draw(8, 1),
                          rows[("host_mt19937", seed, 0)][:8])


def test_mt19937_seed_fold_differs_from_curand_as_documented():
    # rocRAND seeds with (seed >> 32) ^ seed, cuRAND with the low word
    row = curand_mt_rows()[("host_mt19937", 0xDEADBEEFDEADBEEF, 0)][:8]
    assert np.array_equal(_block0(0xDEADBEEF, 1)[0][mt19937.PERM[:, 0]], row)
    assert not np.array_equal(mt19937.MT19937Engine(0xDEADBEEFDEADBEEF).draw(8, 1), row)
    assert np.array_equal(mt19937.MT19937Engine(0xDEADBEEFDEADBEEF).draw(8, 1),
                          mt19937.MT19937Engine(0).draw(8, 1))


def test_mt19937_threads_of_generator_1_are_its_jumped_state():
    words = mt19937.MT19937Engine(7).draw(16, 1)
    g1 = mt19937.jump(mt19937.init_genrand(np.uint32(7)), mt19937.jump_coefficients())
    mt19937.twist(g1)
    assert np.array_equal(words[8:], mt19937.temper(g1)[mt19937.PERM[:, 0]])


def test_mt19937_position_carries_over_and_rounds_on_width_change():
    one = mt19937.MT19937Engine(5)
    parts = np.concatenate([one.draw(10, 1), one.draw(30, 1)])
    assert np.array_equal(parts, mt19937.MT19937Engine(5).draw(40, 1))
    # mt19937.hpp: 10 width-1 groups used value 0 of threads 0-9, so width-2 groups restart
    # at value pair (2, 3): position ceil(1 / 2) x 65536
    e = mt19937.MT19937Engine(5)
    e.draw(10, 1)
    pairs = e.draw(3, 2).reshape(3, 2)
    assert np.array_equal(pairs, e.lanes[:3, 2:4])
    assert e.start == mt19937.STRIDE + 3


def test_mt19937_new_block_after_a_full_one():
    e = mt19937.MT19937Engine(11)
    words = e.draw(FULL + 16, 1)
    block2 = _block0(11, 2)[1]
    assert np.array_equal(words[FULL:FULL + 8], block2[mt19937.PERM[:, 0]])
    assert e.start == 16


@pytest.mark.parametrize("seed", [0, 1, 1234, 0xDEADBEEFDEADBEEF])
def test_mtgp32_engine_matches_curand_device_with_curands_parameters(seed):
    # cuRAND ships other parameter sets than rocRAND; run gpusim's engine on cuRAND's
    ref = mt_refs()
    params = {k: ref["curand_mtgp_" + k] for k in ("pos", "sh1", "sh2", "tbl", "tmp_tbl",
                                                    "mask")}
    # engine b is seeded with seed32 + b + 1: engine 0 of seed32 + b is engine b
    seed32 = (seed ^ (seed >> 32)) & 0xFFFFFFFF
    rows = curand_mt_rows()
    for i, b in enumerate(ref["curand_mtgp_sets"].tolist()):
        one = {k: v[i:i + 1] for k, v in params.items()}
        eng = mtgp32.MTGP32Engine((seed32 + b) & 0xFFFFFFFF, 1, one)
        assert np.array_equal(eng.words(0, 1024), rows[("mtgp32_block", seed, b)])


def test_mtgp32_parameter_table_is_rocrands():
    p = mtgp32.PARAMS
    assert p["tbl"].shape == (512, 16) and p["mask"][0] == 0xFFF80000
    # rocrand_mtgp32_11213.h, "No.0 delta:1924 weight:1595": 11213, 19, 13, 4, {0, 0x4f909277..
    assert (p["pos"][0], p["sh1"][0], p["sh2"][0]) == (19, 13, 4)
    assert p["tbl"][0, 1] == 0x4F909277 and p["flt_tmp_tbl"][0, 0] == 0x3F800000
    assert int(p["pos"].max()) < mtgp32.N - mtgp32.THREADS  # reads never meet writes


def test_mtgp32_host_layout_blocks_of_256():
    nb = mtgp32.BLOCKS
    stride = nb * mtgp32.THREADS
    n = stride + 300  # blocks 0 and 1 run a second step, block 1's cut after 44 groups
    words = mtgp32.MTGP32Engine(3, nb).draw(n, 1)
    ref = mtgp32.MTGP32Engine(3, nb)
    expect = np.empty(n, np.uint32)
    for b in range(nb):
        steps = 2 if b < 2 else 1
        w = ref.words(b, steps * 256)
        for k in range(steps):
            base = b * 256 + k * stride
            take = min(256, n - base)
            expect[base:base + take] = w[k * 256:k * 256 + take]
    assert np.array_equal(words, expect)


def test_mtgp32_normal_tail_comes_from_the_extra_step():
    g = rocrand.rocrand_create_generator_host(rocrand.ROCRAND_RNG_PSEUDO_MTGP32)
    rocrand.rocrand_set_seed(g, 9)
    out = np.empty(5, np.float32)
    rocrand.rocrand_generate_normal(g, out, 5, 0.0, 1.0)
    # 2 whole pairs (block 0, threads 0-1); the fifth number is the first of block 1's
    # thread 1 in its (extra) step: words 1 and 257 of engine 1
    e = mtgp32.MTGP32Engine(9, mtgp32.BLOCKS)
    w0 = e.words(0, 512)
    w1 = e.words(1, 512)
    want = np.empty(6, np.float32)
    dist.normal_float(np.array([w0[0], w0[256], w0[1], w0[257], w1[1], w1[257]], np.uint32),
                      want, 0.0, 1.0, False)
    assert np.array_equal(out, want[:5])


def test_offsets_and_orderings_rocrand_rejects():
    for rng in (rocrand.ROCRAND_RNG_PSEUDO_MT19937, rocrand.ROCRAND_RNG_PSEUDO_MTGP32):
        g = rocrand.rocrand_create_generator(rng)
        with pytest.raises(rocrand.RocrandError) as e:
            rocrand.rocrand_set_offset(g, 10)
        assert e.value.status == S.ROCRAND_STATUS_TYPE_ERROR
        with pytest.raises(rocrand.RocrandError) as e:
            rocrand.rocrand_set_ordering(g, rocrand.ROCRAND_ORDERING_PSEUDO_SEEDED)
        assert e.value.status == S.ROCRAND_STATUS_OUT_OF_RANGE
        with pytest.raises(rocrand.RocrandError) as e:
            rocrand.rocrand_generate_long_long(g, hip.device_array(2, np.uint64), 2)
        assert e.value.status == S.ROCRAND_STATUS_TYPE_ERROR
    mt = rocrand.rocrand_create_generator(rocrand.ROCRAND_RNG_PSEUDO_MT19937)
    with pytest.raises(rocrand.RocrandError):
        rocrand.rocrand_set_ordering(mt, rocrand.ROCRAND_ORDERING_PSEUDO_DYNAMIC)
    dev = rocrand.rocrand_create_generator(rocrand.ROCRAND_RNG_PSEUDO_MTGP32)
    rocrand.rocrand_set_ordering(dev, rocrand.ROCRAND_ORDERING_PSEUDO_DYNAMIC)  # device: fine
    host = rocrand.rocrand_create_generator_host(rocrand.ROCRAND_RNG_PSEUDO_MTGP32)
    with pytest.raises(rocrand.RocrandError) as e:
        rocrand.rocrand_set_ordering(host, rocrand.ROCRAND_ORDERING_PSEUDO_DYNAMIC)
    assert e.value.status == S.ROCRAND_STATUS_OUT_OF_RANGE


def test_default_seeds_are_zero():
    for rng, kind in ((403, mtgp32), (407, mt19937)):
        a = np.empty(64, np.uint32)
        b = np.empty(64, np.uint32)
        g = rocrand.rocrand_create_generator_host(rng)
        rocrand.rocrand_generate(g, a, 64)
        g = rocrand.rocrand_create_generator_host(rng)
        rocrand.rocrand_set_seed(g, 0)
        rocrand.rocrand_generate(g, b, 64)
        assert kind.DEFAULT_SEED == 0 and np.array_equal(a, b)


@pytest.mark.parametrize("bits", [32, 64])
def test_scrambled_tables_match_rocrands(bits):
    ref = mt_refs()
    c = quasi.scramble_constants(bits, 20000)
    assert np.array_equal(c[ref["scrambled_index"]], ref[f"scrambled{bits}_constants"])
    e = quasi.QuasiEngine(quasi.QUASI[502 if bits == 32 else 505], 64, 0)
    plain = (sobol_vectors.vectors32 if bits == 32 else sobol_vectors.vectors64)(64)
    assert np.array_equal(e.vectors - plain, np.full(plain.shape, quasi.SCRAMBLE_OFFSET[bits],
                                                     plain.dtype))
    if bits == 32:  # rocRAND's own scrambled Sobol32 table, first 64 dimensions
        with np.load("tests/libs/data/rocrand_scrambled_sobol32_slice.npz") as z:
            assert np.array_equal(e.vectors, z["vectors"])
            assert np.array_equal(e.constants.ravel(), z["constants"])


def test_scrambled_sobol64_points_through_the_api():
    g = rocrand.rocrand_create_generator_host(rocrand.ROCRAND_RNG_QUASI_SCRAMBLED_SOBOL64)
    rocrand.rocrand_set_quasi_random_generator_dimensions(g, 3)
    out = np.empty(12, np.uint64)
    rocrand.rocrand_generate_long_long(g, out, 12)
    c = quasi.scramble_constants(64, 3)
    v = sobol_vectors.vectors64(3) + np.uint64(1280000)
    pts = out.reshape(3, 4)
    assert np.array_equal(pts[:, 0], c)                      # point 0 is 0 ^ constant
    assert np.array_equal(pts[:, 1], c ^ v[:, 0])            # Gray code 1: vector 0
    assert np.array_equal(pts[:, 2], c ^ v[:, 0] ^ v[:, 1])  # Gray code 3


def test_engines_take_device_memory_and_a_full_device_is_allocation_failed(monkeypatch):
    from gpusim.runtime.system import current_device

    d = hip.device_array(8, np.uint32)
    free0, _ = hip.hipMemGetInfo()
    g = rocrand.rocrand_create_generator(rocrand.ROCRAND_RNG_PSEUDO_MT19937)
    rocrand.rocrand_generate(g, d, 8)
    assert free0 - hip.hipMemGetInfo()[0] >= 8192 * 624 * 4  # mt19937.hpp's m_engines
    rocrand.rocrand_destroy_generator(g)
    assert hip.hipMemGetInfo()[0] == free0
    mem = current_device().memory
    monkeypatch.setattr(mem, "capacity_bytes", mem.used_bytes + (1 << 20))
    for rng in (rocrand.ROCRAND_RNG_PSEUDO_MT19937, rocrand.ROCRAND_RNG_PSEUDO_MTGP32):
        g = rocrand.rocrand_create_generator(rng)
        with pytest.raises(rocrand.RocrandError) as e:
            rocrand.rocrand_generate(g, d, 8)
        assert e.value.status == S.ROCRAND_STATUS_ALLOCATION_FAILED
    host = np.empty(8, np.uint32)  # a host generator keeps its engines in host memory
    rocrand.rocrand_generate(rocrand.rocrand_create_generator_host(403), host, 8)
