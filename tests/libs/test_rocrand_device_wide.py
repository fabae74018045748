"""rocRAND's 2/4-wide draws, double normals and Poisson inside kernels, recomputed from
the host engines' words with the host generators' maps (distributions.py) and, for the
Poisson numbers, Knuth's method, scipy.stats.poisson and moments."""

import numpy as np
import pytest
import scipy.stats

from gpusim import hip, rocrand
from gpusim.engine import estimate
from gpusim.libs.rocrand import device_bits, mrg, mtgp32, philox, xorwow
from gpusim.libs.rocrand import distributions as dist

pytestmark = pytest.mark.usefixtures("fresh_system")
SEED, OFF = 4242, 5


@pytest.fixture(autouse=True)
def _values_only(monkeypatch):
    """These kernels are about numbers: no sampled timing estimate (its traced variant
    would be compiled too, doubling the cold compile time of these large kernels)."""
    monkeypatch.setattr(estimate, "ENABLED", False)


@hip.jit
def philox_wide(out):
    i = hip.grid(1)
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(SEED, i, OFF, st)
    a, b, c, d = rocrand.rocrand4(st)                       # words 0-3
    out[i, 0], out[i, 1], out[i, 2], out[i, 3] = a, b, c, d
    w, x, y, z = rocrand.rocrand_uniform4(st)               # 4-7
    out[i, 4] = device_bits.f32_bits(w)
    out[i, 5] = device_bits.f32_bits(z)
    for k in range(2):                                      # 8-11, the second one cached
        out[i, 6 + k] = device_bits.f64_bits(rocrand.rocrand_normal_double(st))
    g, h = rocrand.rocrand_normal_double2(st)               # 12-15
    out[i, 8] = device_bits.f64_bits(h)


@hip.jit
def philox_poisson(out, lam):
    """Each thread: Poisson numbers at lambda ``lam`` (Knuth below 64, else rejection)."""
    i = hip.grid(1)
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(SEED, i, OFF, st)
    for j in range(out.shape[1]):
        out[i, j] = rocrand.rocrand_poisson(st, lam)


def _u53(w):
    """rocrand_uniform_double of two Philox/XORWOW words."""
    return dist.INV53_D + float(int(w[0]) | (int(w[1]) >> 11) << 32) * dist.INV53_D


def _knuth(doubles, lam, count):
    """Knuth's product method over a stream of uniform doubles: ``count`` numbers."""
    out, it = [], iter(doubles)
    for _ in range(count):
        k, product = 0, next(it)
        while product > np.exp(-lam):
            k, product = k + 1, product * next(it)
        out.append(k)
    return out


def test_philox_wide_draws_are_the_host_engines_words():
    n = 64
    out = hip.to_device(np.zeros((n, 9), np.uint64))
    philox_wide[1, n](out)
    got = out.copy_to_host()
    for i in (0, 1, 37, 63):
        w = philox.stream_words(SEED, OFF, 16, subsequence=i)
        row = got[i]
        assert list(row[:4]) == list(w[:4])
        uni = dist.INV32 + w.astype(np.float32) * dist.INV32
        assert [row[4], row[5]] == [uni[4].view(np.uint32), uni[7].view(np.uint32)]
        e, f = dist.box_muller_double(*w[8:12])
        assert list(row[6:8]) == [np.float64(e).view(np.uint64), np.float64(f).view(np.uint64)]
        assert row[8] == np.float64(dist.box_muller_double(*w[12:16])[1]).view(np.uint64)


def test_philox_two_and_four_wide_maps_on_the_host():
    """The other wide draws, run as plain Python on a host state (as rocRAND's __host__
    device functions run), against the host words and maps."""
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(SEED, 3, OFF, st)
    w = philox.stream_words(SEED, OFF, 30, subsequence=3)
    uni = dist.INV32 + w.astype(np.float32) * dist.INV32
    assert list(rocrand.rocrand_uniform2(st)) == list(uni[0:2])
    assert list(rocrand.rocrand_uniform_double2(st)) == [_u53(w[2:4]), _u53(w[4:6])]
    assert list(rocrand.rocrand_uniform_double4(st)) == [_u53(w[j:j + 2]) for j in (6, 8, 10, 12)]
    assert list(rocrand.rocrand_normal4(st)) == [*dist.box_muller(w[14], w[15]),
                                                 *dist.box_muller(w[16], w[17])]
    assert list(rocrand.rocrand_normal_double4(st)) == [*dist.box_muller_double(*w[18:22]),
                                                        *dist.box_muller_double(*w[22:26])]
    st = rocrand.rocrand_state_xorwow()  # Poisson above 4000: the cached double normal
    rocrand.rocrand_init(SEED, 0, OFF, st)
    huge = dist.box_muller_double(*xorwow.stream(SEED, 0, OFF, 4))[0]
    assert rocrand.rocrand_poisson(st, 9000.0) == np.floor(np.sqrt(9000.0) * huge + 9000.5)


def test_philox_poisson_knuth_draws_and_rejection_moments():
    out = hip.to_device(np.zeros((64, 3), np.uint32))
    philox_poisson[1, 64](out, 3.5)
    got = out.copy_to_host()
    for i in (0, 5, 63):
        w = philox.stream_words(SEED, OFF, 200, subsequence=i)
        assert list(got[i]) == _knuth([_u53(w[j:j + 2]) for j in range(0, 200, 2)], 3.5, 3)
    out = hip.to_device(np.zeros((64, 32), np.uint32))
    philox_poisson[1, 64](out, 200.0)
    draws = out.copy_to_host().ravel().astype(np.float64)  # 2048 Poisson(200) numbers
    assert abs(draws.mean() - 200) < 4 * np.sqrt(200 / draws.size)
    assert abs(draws.var() / 200 - 1) < 0.15
    assert scipy.stats.kstest(draws, scipy.stats.poisson(200).cdf).pvalue > 1e-3


def test_philox_four_wide_poisson_and_words_are_four_single_draws():
    """rocrand_poisson4 / rocrand4 on the host (plain Python): four single draws."""
    a, b = rocrand.rocrand_state_philox4x32_10(), rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(9, 2, 3, a)
    rocrand.rocrand_init(9, 2, 3, b)
    assert list(rocrand.rocrand_poisson4(a, 80.0)) == [rocrand.rocrand_poisson(b, 80.0)
                                                        for _ in range(4)]
    assert list(rocrand.rocrand4(a)) == [rocrand.rocrand(b) for _ in range(4)]


@hip.jit
def cached_doubles(out):
    """XORWOW and MRG31k3p: double normals (second one cached) and a pair."""
    i = hip.grid(1)
    a = rocrand.rocrand_state_xorwow()
    b = rocrand.rocrand_state_mrg31k3p()
    rocrand.rocrand_init(SEED, i, OFF, a)
    rocrand.rocrand_init(SEED, i, OFF, b)
    for k in range(2):                                                  # words 0-3
        out[i, k] = device_bits.f64_bits(rocrand.rocrand_normal_double(a))
    x, y = rocrand.rocrand_normal_double2(a)                            # 4-7
    out[i, 2] = device_bits.f64_bits(y)
    for k in range(2):                                                  # numbers 0-1
        out[i, 5 + k] = device_bits.f64_bits(rocrand.rocrand_normal_double(b))
    x, y = rocrand.rocrand_normal_double2(b)                            # 2-3
    out[i, 7] = device_bits.f64_bits(x)


def test_cached_double_normals_of_xorwow_and_mrg31k3p():
    out = hip.to_device(np.zeros((4, 8), np.uint64))
    cached_doubles[1, 4](out)
    got = out.copy_to_host()
    fam = mrg.MRG31K3P
    for i in range(4):
        w = xorwow.stream(SEED, i, OFF, 12)
        e, f = dist.box_muller_double(*w[0:4])
        assert list(got[i, :2]) == [np.float64(e).view(np.uint64), np.float64(f).view(np.uint64)]
        assert got[i, 2] == np.float64(dist.box_muller_double(*w[4:8])[1]).view(np.uint64)
        r = mrg.stream(fam, SEED, i, OFF, 4)
        e, f = dist.mrg_box_muller_double(r[0], r[1], fam.norm_double)
        assert list(got[i, 5:7]) == [np.float64(e).view(np.uint64), np.float64(f).view(np.uint64)]
        assert got[i, 7] == np.float64(dist.mrg_box_muller_double(r[2], r[3], fam.norm_double)[0]
                                       ).view(np.uint64)


@hip.jit
def mtgp_kernel(states, out):
    """One MTGP32 state a block: two words, a uniform, a normal, a double-normal pair and
    a Poisson number (the CDF walk) per thread and call; the engine is copied back."""
    st = rocrand.rocrand_state_mtgp32()
    b = hip.blockIdx.x
    rocrand.rocrand_mtgp32_block_copy(states[b], st)
    g = hip.grid(1)
    out[g, 0] = rocrand.rocrand(st)                               # call 0
    out[g, 1] = rocrand.rocrand(st)                               # call 1
    out[g, 2] = device_bits.f32_bits(rocrand.rocrand_uniform(st))  # 2
    out[g, 3] = device_bits.f32_bits(rocrand.rocrand_normal(st))   # 3
    x, y = rocrand.rocrand_normal_double2(st)                     # 4-7
    out[g, 4] = device_bits.f64_bits(y)
    out[g, 5] = rocrand.rocrand_poisson(st, 20.0)                 # 8
    rocrand.rocrand_mtgp32_block_copy(st, states[b])


def test_mtgp32_blocks_share_a_state_and_draw_the_engines_sequence():
    """Thread t's k-th call is element 64 k + t of engine b's sequence (64 threads a
    block), as mtgp32.py's engine (the host generator's) makes it; a second launch goes
    on from where the first left the states."""
    nb, nt, calls = 2, 64, 9
    d = hip.device_array((nb, rocrand.rocrand_state_mtgp32.size), np.uint32)
    rocrand.rocrand_make_state_mtgp32(d, rocrand.mtgp32dc_params_fast_11213, nb, 1234)
    eng = mtgp32.MTGP32Engine(1234, nb)
    out = hip.to_device(np.zeros((nb * nt, 6), np.uint64))
    for _launch in range(2):
        mtgp_kernel[nb, nt](d, out)
        got = out.copy_to_host()
        for b in range(nb):
            w = eng.words(b, calls * nt).reshape(calls, nt)
            row = got[b * nt:(b + 1) * nt]
            assert np.array_equal(row[:, 0], w[0]) and np.array_equal(row[:, 1], w[1])
            u = dist.INV32 + w[2].astype(np.float32) * dist.INV32
            assert np.array_equal(row[:, 2], u.view(np.uint32))
            normal = np.empty(nt, np.float32)  # normal_distribution: the inverse CDF
            dist.inverse_normal_float(dist.INV32 + w[3].astype(np.float32) * dist.INV32,
                                      normal, 0.0, 1.0, False)
            assert np.array_equal(row[:, 3], normal.view(np.uint32))
            pairs = [dist.box_muller_double(*w[4:8, t])[1] for t in range(nt)]
            assert np.array_equal(row[:, 4], np.array(pairs).view(np.uint64))
            ud = dist.INV32_D + w[8].astype(np.float64) * dist.INV32_D
            want = scipy.stats.poisson(20.0).ppf(ud - dist.INV32_D / 2)  # the CDF walk
            assert np.array_equal(row[:, 5], want)


def test_make_state_mtgp32_checks_its_arguments():
    params = rocrand.mtgp32dc_params_fast_11213
    with pytest.raises(rocrand.RocrandError, match="parameter sets") as e:
        rocrand.rocrand_make_state_mtgp32(hip.device_array((1, 1078), np.uint32), params,
                                          513, 0)
    assert e.value.status == rocrand.ROCRAND_STATUS_OUT_OF_RANGE
    with pytest.raises(rocrand.RocrandError, match="host NumPy array"):
        rocrand.rocrand_make_state_mtgp32(np.zeros((1, 1078), np.uint32), params, 1, 0)
