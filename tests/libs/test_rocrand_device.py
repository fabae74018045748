"""rocRAND's device API inside kernels: the same numbers as the host engines, cuRAND's
Philox streams, rocRAND's state layout and Box-Muller cache, and a clear compile error."""

import numpy as np
import pytest

from gpusim import hip, rocrand
from gpusim.errors import KernelCompileError
from gpusim.libs.rocrand import device_bits, mrg, philox, xorwow
from tests.libs.rocrand_refs import cases, curand_rows

pytestmark = pytest.mark.usefixtures("fresh_system")

ROW = 16  # a row per thread: words, then normals and uniforms as bits



@hip.jit(device=True)
def words_and_skips(out, i, st):
    """8 words, skipahead(5), a word, skipahead_subsequence(1), a word (any state type:
    the overloads resolve through this device function)."""
    for k in range(8):
        out[i, k] = rocrand.rocrand(st)
    rocrand.skipahead(5, st)
    out[i, 8] = rocrand.rocrand(st)
    rocrand.skipahead_subsequence(1, st)
    out[i, 9] = rocrand.rocrand(st)


@hip.jit
def philox_kernel(out, seeds, subs, offs):
    i = hip.grid(1)
    if i < seeds.size:
        st = rocrand.rocrand_state_philox4x32_10()
        rocrand.rocrand_init(seeds[i], subs[i], offs[i], st)
        words_and_skips(out, i, st)
        rocrand.rocrand_init(seeds[i], subs[i], offs[i], st)
        a = rocrand.rocrand_normal(st)
        b = rocrand.rocrand_normal(st)
        out[i, 10] = device_bits.f32_bits(a)
        out[i, 11] = device_bits.f32_bits(b)
        x, y = rocrand.rocrand_normal2(st)
        out[i, 12] = device_bits.f32_bits(x)
        out[i, 13] = device_bits.f32_bits(y)
        out[i, 14] = device_bits.f32_bits(rocrand.rocrand_uniform(st))


def run(kernel, seeds, subs, offs):
    n = len(seeds)
    out = hip.to_device(np.zeros((n, ROW), np.uint32))
    kernel[(n + 63) // 64, 64](out, hip.to_device(np.array(seeds, np.uint64)),
                               hip.to_device(np.array(subs, np.uint64)),
                               hip.to_device(np.array(offs, np.uint64)))
    return out.copy_to_host()


def philox_expected(seed, sub, off):
    w = philox.stream_words(seed, off, 8, subsequence=sub)
    after = philox.stream_words(seed, off + 13, 1, subsequence=sub)
    sub1 = philox.stream_words(seed, off + 14, 1, subsequence=sub + 1)
    return np.r_[w, after, sub1]


def test_philox_kernel_matches_host_and_curand():
    cs = cases("philox4x32_10")
    out = run(philox_kernel, *zip(*cs, strict=True))
    rows = curand_rows()
    for (seed, sub, off), row in zip(cs, out, strict=True):
        assert np.array_equal(row[:10], philox_expected(seed, sub, off))
        assert np.array_equal(row[:8], rows[("philox4x32_10", seed, sub, off, "words")][:8])


def test_philox_normal_cache_and_pairs():
    out = run(philox_kernel, [7, 8], [0, 3], [0, 2])
    for (seed, sub, off), row in zip([(7, 0, 0), (8, 3, 2)], out, strict=True):
        w = philox.stream_words(seed, off, 6, subsequence=sub)
        st = rocrand.rocrand_state_philox4x32_10()
        rocrand.rocrand_init(seed, sub, off, st)
        a, b = rocrand.rocrand_normal2(st)  # host run of the same device functions
        assert row[10] == np.float32(a).view(np.uint32) and row[11] == np.float32(b).view(
            np.uint32)  # rocrand_normal returns x, then the cached y
        u = np.float32(2.3283064e-10) + np.float32(w[4]) * np.float32(2.3283064e-10)
        assert row[14] == u.view(np.uint32)  # after two normals and one normal2: word 4
        c, d = rocrand.rocrand_normal2(st)
        assert row[12] == np.float32(c).view(np.uint32)


@hip.jit
def xorwow_kernel(out, seeds, subs, offs):
    i = hip.grid(1)
    if i < seeds.size:
        st = rocrand.rocrand_state_xorwow()
        rocrand.rocrand_init(seeds[i], subs[i], offs[i], st)
        words_and_skips(out, i, st)


@hip.jit
def mrg_kernel(out, seeds, subs, offs):
    i = hip.grid(1)
    if i < seeds.size:
        st = rocrand.rocrand_state_mrg32k3a()
        rocrand.rocrand_init(seeds[i], subs[i], offs[i], st)
        words_and_skips(out, i, st)
        out[i, 10] = device_bits.f32_bits(rocrand.rocrand_uniform(st))


CASES = [(0, 0, 0), (1234, 5, 7), (0xDEADBEEFDEADBEEF, 1000, 8589934593), (2**64 - 1, 3, 1)]


def test_xorwow_kernel_matches_host_engine():
    out = run(xorwow_kernel, *zip(*CASES, strict=True))
    for (seed, sub, off), row in zip(CASES, out, strict=True):
        assert np.array_equal(row[:8], xorwow.stream(seed, sub, off, 8))
        assert row[8] == xorwow.stream(seed, sub, off + 13, 1)[0]
        assert row[9] == xorwow.stream(seed, sub + 1, off + 14, 1)[0]


def test_mrg32k3a_kernel_matches_host_engine():
    out = run(mrg_kernel, *zip(*CASES, strict=True))
    for (seed, sub, off), row in zip(CASES, out, strict=True):
        raw = mrg.stream(mrg.MRG32K3A, seed, sub, off, 8).astype(np.float64)
        assert np.array_equal(row[:8], ((raw - 1) * 1.000000048661607).astype(np.uint32))
        nxt = mrg.stream(mrg.MRG32K3A, seed, sub + 1, off + 14, 2)
        assert row[9] == np.uint32((float(nxt[0]) - 1) * 1.000000048661607)
        u = np.float32(float(nxt[1]) * 2.3283065498378288e-10)
        assert row[10] == u.view(np.uint32)


def test_device_and_host_generators_agree():
    """Thread i of a kernel on subsequence i gives the XORWOW host generator's number i."""
    n = 128
    out = run(xorwow_kernel, [77] * n, list(range(n)), [0] * n)
    assert np.array_equal(out[:, 0], host_words(rocrand.ROCRAND_RNG_PSEUDO_XORWOW, 77, n))


def host_words(rng_type, seed: int, n: int) -> np.ndarray:
    """The first ``n`` words of a host generator (rocrand_generate)."""
    g = rocrand.rocrand_create_generator(rng_type)
    rocrand.rocrand_set_seed(g, seed)
    d = hip.device_array(n, np.uint32)
    rocrand.rocrand_generate(g, d, n)
    return d.copy_to_host()


def test_state_layout_is_rocrands_struct():
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(0x1122334455667788, 0x99, 6, st)
    assert list(st[8:10]) == [0x55667788, 0x11223344]          # key = seed halves
    assert list(st[0:4]) == [1, 0, 0x99, 0] and st[10] == 2      # counter, substate
    row = curand_rows()[("philox4x32_10", 1234, 5, 5, "state0")]
    rocrand.rocrand_init(1234, 5, 5, st)
    assert np.array_equal(st[:11], row[:11])  # cuRAND's philox state has the same words


def test_state_from_elsewhere_is_a_clear_compile_error():
    @hip.jit
    def bad(out, st):
        out[0] = rocrand.rocrand(st)

    with pytest.raises(KernelCompileError, match="must be a state made in this kernel"):
        bad[1, 1](hip.device_array(1, np.uint32), hip.device_array(17, np.uint32))
