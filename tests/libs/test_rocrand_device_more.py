"""rocRAND's device API for MRG31k3p, LFSR113, ThreeFry and (scrambled) Sobol states:
kernels give the host engines' numbers at the same seed, subsequence and offset, the
host generators' layouts, and skipahead equals stepping."""

import math

import numpy as np
import pytest

from gpusim import hip, rocrand
from gpusim.errors import KernelCompileError
from gpusim.libs.rocrand import device, device_bits, lfsr113, mrg, quasi, sobol_vectors, threefry
from gpusim.libs.rocrand import distributions as dist
from tests.libs.test_rocrand_device import host_words, run, words_and_skips

pytestmark = pytest.mark.usefixtures("fresh_system")

CASES = [(0, 0, 0), (1234, 5, 7), (0xDEADBEEFDEADBEEF, 1000, 8589934593), (2**64 - 1, 3, 1)]
SEEDS4 = [(2, 8, 16, 128), (5, 9, 17, 129), (0xDEADBEEF, 0x12345678, 0xFFFFFFFF, 1000),
          (3, 4000000000, 77, 0xCAFEF00D)]


@hip.jit
def mrg31k3p_kernel(out, seeds, subs, offs):
    for i in range(hip.grid(1), seeds.size, hip.gridsize(1)):  # (a grid-stride loop)
        st = rocrand.rocrand_state_mrg31k3p()
        rocrand.rocrand_init(seeds[i], subs[i], offs[i], st)
        words_and_skips(out, i, st)
        out[i, 10] = device_bits.f32_bits(rocrand.rocrand_uniform(st))
        a = rocrand.rocrand_normal(st)
        b = rocrand.rocrand_normal(st)
        out[i, 11] = device_bits.f32_bits(a)
        out[i, 12] = device_bits.f32_bits(b)


@hip.jit
def lfsr113_kernel(out, seeds, subs, offs):
    i = hip.grid(1)
    if i < subs.size:
        seed = hip.local.array(4, np.uint32)  # rocRAND's uint4 seed
        for w in range(4):
            seed[w] = seeds[i, w]
        st = rocrand.rocrand_state_lfsr113()
        rocrand.rocrand_init(seed, subs[i], offs[i], st)
        words_and_skips(out, i, st)
        out[i, 10] = device_bits.f32_bits(rocrand.rocrand_uniform(st))
        x, y = rocrand.rocrand_normal2(st)
        out[i, 11] = device_bits.f32_bits(x)
        out[i, 12] = device_bits.f32_bits(y)


def run64(kernel, cases, width=12):
    """``run`` with uint64 outputs (ThreeFry's 64-bit numbers)."""
    out = hip.to_device(np.zeros((len(cases), width), np.uint64))
    kernel[1, 64](out, *(hip.to_device(np.array(c, np.uint64)) for c in zip(*cases, strict=True)))
    return out.copy_to_host()


def test_mrg31k3p_kernel_matches_host_engine():
    out = run(mrg31k3p_kernel, *zip(*CASES, strict=True))
    fam = mrg.MRG31K3P
    for (seed, sub, off), row in zip(CASES, out, strict=True):
        raw = mrg.stream(fam, seed, sub, off, 8).astype(np.float64)
        assert np.array_equal(row[:8], ((raw - 1) * fam.uint_norm).astype(np.uint32))
        assert row[8] == np.uint32((float(mrg.stream(fam, seed, sub, off + 13, 1)[0]) - 1)
                                   * fam.uint_norm)
        nxt = mrg.stream(fam, seed, sub + 1, off + 14, 3).astype(np.float64)
        assert row[9] == np.uint32((nxt[0] - 1) * fam.uint_norm)
        assert row[10] == np.float32(nxt[1] * fam.norm_double).view(np.uint32)
        # rocrand_normal: Box-Muller of the next two numbers, x then the cached y
        st = rocrand.rocrand_state_mrg31k3p()
        rocrand.rocrand_init(seed, sub + 1, off + 16, st)
        x, y = rocrand.rocrand_normal2(st)
        assert list(row[11:13]) == [np.float32(x).view(np.uint32), np.float32(y).view(np.uint32)]
        u = np.float32(np.float32(mrg.stream(fam, seed, sub + 1, off + 16, 1)[0]
                                  * fam.norm_double))
        r = np.sqrt(np.float32(-2.0) * np.log(u))  # x = r sin(2 pi v): the same radius
        assert abs(abs(float(x)) - float(r) * abs(np.sin(2 * np.pi * float(
            mrg.stream(fam, seed, sub + 1, off + 17, 1)[0]) * fam.norm_double))) < 1e-4


def test_lfsr113_kernel_matches_host_engine():
    out = run(lfsr113_kernel, np.array(SEEDS4, np.uint64), [0, 3, 1000, 2**40 + 1],
              [0, 11, 8589934593, 5])
    for seeds, sub, off, row in zip(SEEDS4, [0, 3, 1000, 2**40 + 1], [0, 11, 8589934593, 5],
                                    out, strict=True):
        sub &= 0xFFFFFFFF  # rocrand_init's subsequence is an unsigned int
        assert np.array_equal(row[:8], lfsr113.stream(seeds, sub, off, 8))
        assert row[8] == lfsr113.stream(seeds, sub, off + 13, 1)[0]
        nxt = lfsr113.stream(seeds, sub + 1, off + 14, 4)
        assert row[9] == nxt[0]
        assert row[10] == (np.float32(2.3283064e-10) + np.float32(nxt[1])
                           * np.float32(2.3283064e-10)).view(np.uint32)
        x, y = device._box_muller32(nxt[2], nxt[3])
        assert list(row[11:13]) == [np.float32(x).view(np.uint32), np.float32(y).view(np.uint32)]


def _threefry_kernel(state_type):
    @hip.jit
    def kernel(out, seeds, subs, offs):
        i = hip.grid(1)
        if i < seeds.size:
            st = state_type()
            rocrand.rocrand_init(seeds[i], subs[i], offs[i], st)
            for k in range(9):
                out[i, k] = rocrand.rocrand(st)
            out[i, 9] = device_bits.f64_bits(rocrand.rocrand_uniform_double(st))
            out[i, 10] = device_bits.f32_bits(rocrand.rocrand_normal(st))
            out[i, 11] = device_bits.f32_bits(rocrand.rocrand_log_normal(st, 0.5, 0.25))
    return kernel


@pytest.mark.usefixtures("no_sampled_estimate")
@pytest.mark.parametrize("n,bits", [(2, 32), (4, 32), (2, 64), (4, 64)])
def test_threefry_kernel_matches_host_stream(n, bits):
    state_type = getattr(rocrand, f"rocrand_state_threefry{n}x{bits}_20")
    cases = CASES + [(7, 2**40 + 3, 2**64 - 3)]
    out = run64(_threefry_kernel(state_type), cases)
    for (seed, sub, off), row in zip(cases, out, strict=True):
        want = threefry.stream(n, bits, seed, off, 12, subsequence=sub)
        assert np.array_equal(row[:9], want[:9])
        v = want[9]
        u = (2.0**-53 + float(v >> np.uint64(11)) * 2.0**-53 if bits == 64
             else 2.0**-32 + float(v) * 2.0**-32)
        assert row[9] == np.float64(u).view(np.uint64)
        hi = want[10:] >> np.uint64(32) if bits == 64 else want[10:]
        normal = np.empty(2, np.float32)  # the host generators' inverse-CDF normal
        dist.inverse_normal_float(dist.INV32 + hi.astype(np.float32) * dist.INV32, normal,
                                  0.0, 1.0, False)
        assert row[10] == normal[0].view(np.uint32)
        log = np.float32(math.exp(np.float32(0.5 + 0.25 * np.float64(normal[1]))))  # expf
        assert row[11] == log.view(np.uint32)  # double mean/stddev, as rocRAND's ThreeFry


@pytest.mark.usefixtures("no_sampled_estimate")
def test_threefry_threads_on_offsets_equal_the_host_generator():
    """Thread i at (seed, 0, i) is the ThreeFry2x32 host generator's number i."""
    n = 64
    out = run64(_threefry_kernel(rocrand.rocrand_state_threefry2x32_20),
                [(4242, 0, i) for i in range(n)])
    want = host_words(rocrand.ROCRAND_RNG_PSEUDO_THREEFRY2_32_20, 4242, n)
    assert np.array_equal(out[:, 0], want)


def _sobol_kernel(state_type, bits, scrambled):
    dtype = np.uint32 if bits == 32 else np.uint64
    if scrambled:
        @hip.jit(device=True)
        def start(v, constant, offset, st):
            rocrand.rocrand_init(v, constant, offset, st)
    else:
        @hip.jit(device=True)
        def start(v, constant, offset, st):
            rocrand.rocrand_init(v, offset, st)

    @hip.jit
    def kernel(out, vectors, constants, offset):
        d = hip.grid(1)  # one thread a dimension, as rocRAND's examples run Sobol
        if d < vectors.shape[0]:
            v = hip.local.array(bits, dtype)  # rocRAND passes vectors + d * bits
            for k in range(bits):
                v[k] = vectors[d, k]
            st = state_type()
            start(v, constants[d], offset, st)
            for j in range(6):
                out[d, j] = rocrand.rocrand(st)
            rocrand.skipahead(100, st)
            out[d, 6] = rocrand.rocrand(st)
            out[d, 7] = device_bits.f32_bits(rocrand.rocrand_uniform(st))
            start(v, constants[d], offset, st)
            out[d, 8] = device_bits.f32_bits(rocrand.rocrand_normal(st))
            out[d, 9] = device_bits.f32_bits(rocrand.rocrand_log_normal(st, 0.5, 0.25))
    return kernel


@pytest.mark.parametrize("rng,bits,scrambled", [
    (rocrand.ROCRAND_RNG_QUASI_SOBOL32, 32, False),
    (rocrand.ROCRAND_RNG_QUASI_SOBOL64, 64, False),
    (rocrand.ROCRAND_RNG_QUASI_SCRAMBLED_SOBOL32, 32, True),
    (rocrand.ROCRAND_RNG_QUASI_SCRAMBLED_SOBOL64, 64, True)])
def test_sobol_kernel_thread_per_dimension_equals_the_host_generator(rng, bits, scrambled):
    """Thread d on dimension d's vectors gives the host generator's row of dimension d:
    points offset .. offset + 5, then (after skipahead(100)) offset + 106 and + 107."""
    dims, offset, m = 5, 37, 108
    vectors = (sobol_vectors.vectors32 if bits == 32 else sobol_vectors.vectors64)(dims)
    constants = np.zeros(dims, vectors.dtype)
    if scrambled:
        vectors = vectors + vectors.dtype.type(quasi.SCRAMBLE_OFFSET[bits])
        constants = quasi.scramble_constants(bits, dims)
    g = rocrand.rocrand_create_generator(rng)
    rocrand.rocrand_set_quasi_random_generator_dimensions(g, dims)
    rocrand.rocrand_set_offset(g, offset)
    d_host = hip.device_array(dims * m, vectors.dtype)
    if bits == 32:
        rocrand.rocrand_generate(g, d_host, dims * m)
    else:
        rocrand.rocrand_generate_long_long(g, d_host, dims * m)
    want = d_host.copy_to_host().reshape(dims, m)
    normals = []
    for what, args in ((rocrand.rocrand_generate_normal, (0.0, 1.0)),
                       (rocrand.rocrand_generate_log_normal, (0.5, 0.25))):
        h = rocrand.rocrand_create_generator(rng)
        rocrand.rocrand_set_quasi_random_generator_dimensions(h, dims)
        rocrand.rocrand_set_offset(h, offset)
        d_f = hip.device_array(dims * 2, np.float32)
        what(h, d_f, dims * 2, *args)
        normals.append(d_f.copy_to_host().reshape(dims, 2))
    state_type = getattr(rocrand, f"rocrand_state_{'scrambled_' * scrambled}sobol{bits}")
    out = hip.to_device(np.zeros((dims, 10), vectors.dtype))
    _sobol_kernel(state_type, bits, scrambled)[1, 64](
        out, hip.to_device(vectors), hip.to_device(constants), offset)
    got = out.copy_to_host()
    assert np.array_equal(got[:, :6], want[:, :6])
    assert np.array_equal(got[:, 6], want[:, 106])
    hi = want[:, 107] >> 32 if bits == 64 else want[:, 107]
    u = np.float32(2.3283064e-10) + hi.astype(np.float32) * np.float32(2.3283064e-10)
    assert np.array_equal(got[:, 7].astype(np.uint32), u.view(np.uint32))
    assert np.array_equal(got[:, 8].astype(np.uint32), normals[0][:, 0].view(np.uint32))
    assert np.array_equal(got[:, 9].astype(np.uint32), normals[1][:, 1].view(np.uint32))


@pytest.mark.parametrize("state_type,per_sequence", [
    (rocrand.rocrand_state_mrg32k3a, 2**51),    # 2^127 = 2^51 subsequences of 2^76
    (rocrand.rocrand_state_mrg31k3p, 2**62),    # 2^134 = 2^62 subsequences of 2^72
    (rocrand.rocrand_state_lfsr113, 1),         # rocRAND: a sequence is a subsequence
    (rocrand.rocrand_state_philox4x32_10, 1)])
def test_skipahead_sequence_is_subsequences(state_type, per_sequence):
    """skipahead_sequence(3) equals 3 x per_sequence subsequences (host runs of the device
    functions), and skipahead(n) equals n steps."""
    seed = np.array([5, 9, 17, 129], np.uint32) if state_type is rocrand.rocrand_state_lfsr113 \
        else 1234
    a, b, c = state_type(), state_type(), state_type()
    for st in (a, b, c):
        rocrand.rocrand_init(seed, 2, 3, st)
    rocrand.skipahead_sequence(3, a)
    for _ in range(3):
        rocrand.skipahead_subsequence(per_sequence, b)
    assert np.array_equal(a, b)
    stepped = [int(rocrand.rocrand(c)) for _ in range(41)][-1]
    rocrand.rocrand_init(seed, 2, 3, a)
    rocrand.skipahead(40, a)
    assert int(rocrand.rocrand(a)) == stepped


def test_rocrand_init_without_a_state_is_a_clear_compile_error():
    """rocrand_init's state is its last argument, whatever the generator's signature."""
    @hip.jit
    def bad(out, vectors):
        rocrand.rocrand_init(vectors, 0, out)

    with pytest.raises(KernelCompileError, match="the last argument must be a state made in "
                       "this kernel by rocrand_state_philox4x32_10"):
        bad[1, 1](hip.device_array(35, np.uint32), hip.device_array(32, np.uint32))


def test_threads_on_subsequences_equal_the_host_generators():
    """Thread i on subsequence i gives host generator number i (MRG31k3p, LFSR113), as
    for XORWOW: rocRAND's host generators run one engine a subsequence."""
    n = 128
    out = run(mrg31k3p_kernel, [77] * n, list(range(n)), [0] * n)
    assert np.array_equal(out[:, 0], host_words(rocrand.ROCRAND_RNG_PSEUDO_MRG31K3P, 77, n))
    seeds = np.array([lfsr113.seeds_of(77)] * n, np.uint64)  # set_seed's four words
    out = run(lfsr113_kernel, seeds, list(range(n)), [0] * n)
    assert np.array_equal(out[:, 0], host_words(rocrand.ROCRAND_RNG_PSEUDO_LFSR113, 77, n))
