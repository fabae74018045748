"""rocRAND engines against outside references: Random123 known answers, cuRAND's device
streams (tests/libs/data), rocRAND's Sobol table, SciPy's Sobol, the published MRG31k3p."""

import numpy as np
import pytest
import scipy.stats

from gpusim.libs.rocrand import lfsr113, mrg, philox, sobol_vectors, threefry, xorwow
from gpusim.libs.rocrand.quasi import QUASI, QuasiEngine
from tests.libs.rocrand_refs import DATA, cases, curand_rows

# Random123 kat_vectors, philox4x32_10 (counter, key -> output); the issue quotes them.
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


@pytest.mark.parametrize("counter,key,expected", KAT)
def test_philox_known_answers(counter, key, expected):
    assert tuple(int(w) for w in philox.philox_block(*counter, *key)) == expected


@pytest.mark.parametrize("seed,sub,off", cases("philox4x32_10"))
def test_philox_matches_curand_stream(seed, sub, off):
    rows = curand_rows()
    words = rows[("philox4x32_10", seed, sub, off, "words")]
    assert np.array_equal(philox.stream_words(seed, off, 64, subsequence=sub), words)
    skipped = rows[("philox4x32_10", seed, sub, off, "skipahead")]
    assert np.array_equal(skipped, words[:16])  # cuRAND's own skipahead agrees


@pytest.mark.parametrize("seed,sub,off", cases("xorwow"))
def test_xorwow_jumps_and_steps_match_curand(seed, sub, off):
    rows = curand_rows()
    offs, subs = xorwow.jump_tables()
    st = rows[("xorwow", seed, 0, 0, "state0")][:6].reshape(1, 6).copy()  # d, v[5]
    xorwow.jump(subs, st, 0, np.uint64(sub))
    xorwow.jump(offs, st, 0, np.uint64(off))
    st[0, 0] = np.uint32((int(st[0, 0]) + off * 362437) & 0xFFFFFFFF)
    assert np.array_equal(st[0], rows[("xorwow", seed, sub, off, "state0")][:6])
    out = np.empty(64, np.uint32)
    xorwow._one_engine(st, out)
    assert np.array_equal(out, rows[("xorwow", seed, sub, off, "words")])


@pytest.mark.parametrize("seed,sub,off", cases("mrg32k3a"))
def test_mrg32k3a_jumps_and_steps_match_curand(seed, sub, off):
    rows = curand_rows()
    offs, subs = mrg.jump_tables(mrg.MRG32K3A)
    st = rows[("mrg32k3a", seed, 0, 0, "state0")][:6].reshape(1, 6).copy()  # s1[3], s2[3]
    mrg.jump(subs, st, 0, np.uint64(sub), mrg.M1A, mrg.M2A)
    mrg.jump(offs, st, 0, np.uint64(off), mrg.M1A, mrg.M2A)
    assert np.array_equal(st[0], rows[("mrg32k3a", seed, sub, off, "state0")][:6])
    for _ in range(64):
        mrg.next_32k3a(st, 0)
    assert np.array_equal(st[0], rows[("mrg32k3a", seed, sub, off, "state1")][:6])


def test_xorwow_and_mrg_seeding_differs_from_curand_as_documented():
    rows = curand_rows()
    assert not np.array_equal(xorwow.seeded(1234), rows[("xorwow", 1234, 0, 0, "state0")][:6])
    assert not np.array_equal(mrg.seeded(mrg.MRG32K3A, 1234)[0],
                              rows[("mrg32k3a", 1234, 0, 0, "state0")][:6])


def test_xorwow_seeding_follows_rocrand_constants():
    m = 0xFFFFFFFF
    t0, t1 = (1228688033 * (5 ^ 0x2C7F967F)) & m, (2073658381 * (0 ^ 0xA03697CB)) & m
    assert list(xorwow.seeded(5)) == [(6615241 + t0 + t1) & m, (123456789 + t0) & m,
                                      362436069 ^ t0, (521288629 + t1) & m, 88675123 ^ t1,
                                      (5783321 + t0) & m]


def test_mrg31k3p_follows_the_published_recurrence():
    m1, m2 = 2**31 - 1, 2**31 - 21069
    st = mrg.seeded(mrg.MRG31K3P, 987654321)
    x1 = [int(v) for v in st[0, 2::-1]]  # oldest first
    x2 = [int(v) for v in st[0, 5:2:-1]]
    words = mrg.stream(mrg.MRG31K3P, 987654321, 0, 0, 50)
    for w in words:
        x1.append((2**22 * x1[-2] + (2**7 + 1) * x1[-3]) % m1)
        x2.append((2**15 * x2[-1] + (2**15 + 1) * x2[-3]) % m2)
        expect = (x1[-1] - x2[-1]) % m1 or m1
        assert int(w) == expect


@pytest.mark.parametrize("fam", [mrg.MRG32K3A, mrg.MRG31K3P])
def test_mrg_jumps_equal_stepping(fam):
    run = mrg.stream(fam, 42, 3, 0, 300)
    assert np.array_equal(mrg.stream(fam, 42, 3, 123, 177), run[123:])


def test_mrg32k3a_subsequence_is_2_to_76_steps():
    a = mrg.engine(mrg.MRG32K3A, 7, 1, 0)
    b = mrg.engine(mrg.MRG32K3A, 7, 0, 0)
    offs, _ = mrg.jump_tables(mrg.MRG32K3A)
    for _ in range(2 ** 13):  # 2^76 = 2^63 * 2^13: the offset table's last power, 8192 times
        mrg.apply_matrix(offs[63], b, 0, mrg.M1A, mrg.M2A)
    assert np.array_equal(a, b)


def test_sobol32_vectors_match_rocrands_table():
    with np.load(DATA / "rocrand_sobol32_slice.npz") as z:
        dims, ref = z["dims"], z["vectors"]
    table = sobol_vectors.vectors32(int(dims.max()) + 1)
    assert np.array_equal(table[dims], ref)


def test_sobol32_points_match_scipy():
    eng = QuasiEngine(QUASI[501], 5, 0)
    pts = eng.points(64)
    ref = scipy.stats.qmc.Sobol(5, scramble=False, bits=32).random(64)
    assert np.array_equal(pts.T.astype(np.float64) / 2**32, ref)


def test_sobol64_high_bits_are_sobol32():
    a = QuasiEngine(QUASI[504], 3, 17).points(100)
    b = QuasiEngine(QUASI[501], 3, 17).points(100)
    assert np.array_equal((a >> np.uint64(32)).astype(np.uint32), b)


# Random123 kat_vectors, 20 rounds: (N, bits, counter word, key word, expected).
THREEFRY_KAT = [
    (2, 32, 0, 0, (0x6B200159, 0x99BA4EFE)),
    (2, 32, 0xFFFFFFFF, 0xFFFFFFFF, (0x1CB996FC, 0xBB002BE7)),
    (2, 64, 0, 0, (0xC2B6E3A8C2C69865, 0x6F81ED42F350084D)),
    (4, 32, 0, 0, (0x9C6CA96A, 0xE17EAE66, 0xFC10ECD4, 0x5256A7D8)),
    (4, 64, 0, 0, (0x09218EBDE6C85537, 0x55941F5266D86105, 0x4BD25E16282434DC,
                   0xEE29EC846BD2E40B)),
]


@pytest.mark.parametrize("n,bits,c,k,expected", THREEFRY_KAT)
def test_threefry_known_answers(n, bits, c, k, expected):
    ctr, key = np.full(n, c, np.uint64), np.full(n, k, np.uint64)
    # rocRAND pairs the 4-word MIX steps by round & 2 (not Random123's round & 1)
    got = threefry.block(ctr, key, bits, pairing=1)
    assert tuple(int(v) for v in got) == expected
    if n == 2:  # two words have a single pairing: rocRAND's function is Random123's
        assert np.array_equal(threefry.block(ctr, key, bits), got)
    else:
        assert not np.array_equal(threefry.block(ctr, key, bits), got)


@pytest.mark.parametrize("n,bits", [(2, 32), (2, 64), (4, 32), (4, 64)])
def test_threefry_streams_are_consistent(n, bits):
    run = threefry.stream(n, bits, 12345, 0, 50, subsequence=3)
    assert np.array_equal(threefry.stream(n, bits, 12345, 9, 41, subsequence=3), run[9:])
    key = threefry.key_of(0x0123456789ABCDEF, n, bits)
    block = threefry.block(threefry.counter_of(n, bits, 3, 0), key, bits)
    assert np.array_equal(threefry.stream(n, bits, 0x0123456789ABCDEF, 0, n, 3), block)


def test_threefry_keys_follow_rocrands_seed_split():
    s = 0x1122334455667788
    assert list(threefry.key_of(s, 2, 32)) == [0x55667788, 0x11223344]
    assert list(threefry.key_of(s, 2, 64)) == [s, s >> 32]
    assert list(threefry.key_of(s, 4, 32)) == [0x55667788, 0x33445566, 0x11223344, 0x1122]


def test_gf2_jump_matrices_match_rocrands_tables():
    with np.load(DATA / "rocrand_jump_slices.npz") as z:
        ref = dict(z)
    for name, module in (("lfsr113", lfsr113), ("xorwow", xorwow)):
        offs, subs = module.jump_tables()
        for i in range(3):  # rocRAND's entry i is the base-4 power A^(4^i) = our 2^(2i)
            assert np.array_equal(offs[2 * i], ref[f"{name}_jump"][i])
            assert np.array_equal(subs[2 * i], ref[f"{name}_sequence_jump"][i])


def test_lfsr113_steps_and_seeds():
    z = [2, 8, 16, 128]
    words = lfsr113.stream(tuple(z), 0, 0, 20)
    for w in words:  # the Tausworthe recurrences, written out with Python integers
        z = [((((v & m) << c) & 0xFFFFFFFF) ^ ((((v << a) & 0xFFFFFFFF) ^ v) >> b))
             for v, m, (a, b, c) in zip(z, (4294967294, 4294967288, 4294967280, 4294967168),
                                        ((6, 13, 18), (2, 27, 2), (13, 21, 7), (3, 12, 13)),
                                        strict=True)]
        assert int(w) == z[0] ^ z[1] ^ z[2] ^ z[3]
    assert lfsr113.seeds_of(0) == (2, 8, 0, 0)
    assert lfsr113.seeds_of(0x0001000200030004) == (0x00030004, 0x00020003, 0x00010002, 1)
