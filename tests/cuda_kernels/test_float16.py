"""float16 in numba.cuda kernels (issue 19): arithmetic, casts, ``cuda.fp16``, math,
mixed types and LDS, bit-exact against NumPy's float16 (which computes each operation in
float32 and rounds once, the IEEE result)."""

import math

import numpy as np
import pytest

from gpusim import cuda
from gpusim.compile.device.half import f16_bits, f16_round, f16_value
from gpusim.devices import get_spec
from gpusim.engine import launch

RNG = np.random.default_rng(19)


def _halves(n, scale=100.0):
    """Random float16 values of both signs, some subnormal, some tiny."""
    x = (RNG.standard_normal(n) * scale).astype(np.float16)
    x[:8] = np.array([0.0, -0.0, 6e-8, -3e-5, 65504, -65504, 1.0, 0.5], np.float16)
    return x


def test_round_matches_numpy_and_avoids_double_rounding():
    wide = np.concatenate([RNG.standard_normal(3000) * 10.0 ** RNG.integers(-9, 6, 3000),
                           [65519.9, 65520.0, -65520.0, 2.0 ** -25, 3 * 2.0 ** -26, 1e-300,
                            math.inf, -math.inf, 1 + 2.0 ** -11 + 2.0 ** -30]])
    got = np.array([f16_round(v) for v in wide], np.float32)
    np.testing.assert_array_equal(got, wide.astype(np.float16).astype(np.float32))
    # float64 -> float32 -> float16 would land on the tie 1 + 2**-11 and round it to 1.0
    assert f16_round(1 + 2.0 ** -11 + 2.0 ** -30) == np.float16(1 + 2.0 ** -10)
    assert math.isnan(f16_round(math.nan))


def test_bit_conversions_cover_every_pattern():
    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    ref = bits.view(np.float16).astype(np.float32)
    got = np.array([f16_value(b) for b in bits], np.float32)
    np.testing.assert_array_equal(got, ref)  # NaN == NaN for assert_array_equal
    finite = np.isfinite(ref)
    back = np.array([f16_bits(v) for v in ref[finite]], np.uint16)
    np.testing.assert_array_equal(back, bits[finite])
    assert f16_bits(math.nan) == 0x7E00 and f16_bits(-math.inf) == 0xFC00


@cuda.jit
def _arith(out, a, b):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = a[i] + b[i]
        out[1, i] = a[i] - b[i]
        out[2, i] = a[i] * b[i]
        out[3, i] = a[i] / b[i]
        out[4, i] = -a[i]
        out[5, i] = abs(b[i])
        t = a[i]
        t *= b[i]
        t += a[i]
        out[6, i] = t
        out[7, i] = a[i]
        out[7, i] -= b[i]


def test_operators_bit_exact():
    a, b = _halves(200), _halves(200, 3.0)
    out = np.zeros((8, 200), np.float16)
    _arith[4, 64](out, a, b)
    with np.errstate(all="ignore"):
        want = [a + b, a - b, a * b, a / b, -a, abs(b), a * b + a, a - b]
    np.testing.assert_array_equal(out, np.array(want))


@pytest.mark.parametrize("other", [np.int8, np.uint8, np.int16, np.int32, np.int64,
                                   np.float32, np.float64])
def test_mixed_types_follow_numpy_promotion(other):
    @cuda.jit
    def mixed(out, a, b):
        out[0] = a * b
        out[1] = a < b

    a, b = np.float16(1.2), other(77)
    res = np.zeros(2, np.result_type(np.float16, other))
    mixed[1, 1](res, a, b)
    assert res[0] == np.array([a]) * np.array([b])  # NumPy's promotion, computed its way
    assert res[0].dtype == np.result_type(np.float16, other)
    assert bool(res[1]) == (a < b)


def test_casts_to_and_from_float16():
    @cuda.jit
    def casts(h, i32, f64, x):
        k = cuda.grid(1)
        if k < x.size:
            h[k] = np.float16(x[k]) * np.float16(0.5)
            i32[k] = np.int32(np.float16(x[k]))
            f64[k] = np.float64(np.float16(x[k]))

    x = RNG.standard_normal(100) * 300
    h, i32, f64 = np.zeros(100, np.float16), np.zeros(100, np.int32), np.zeros(100)
    casts[2, 64](h, i32, f64, x)
    half = x.astype(np.float16)
    np.testing.assert_array_equal(h, half * np.float16(0.5))
    np.testing.assert_array_equal(i32, half.astype(np.int32))  # truncation, as NumPy
    np.testing.assert_array_equal(f64, half.astype(np.float64))


def test_fp16_intrinsics():
    @cuda.jit
    def intr(out, flags, a, b, c):
        i = cuda.grid(1)
        if i < a.size:
            out[0, i] = cuda.fp16.hadd(a[i], b[i])
            out[1, i] = cuda.fp16.hsub(a[i], b[i])
            out[2, i] = cuda.fp16.hmul(a[i], b[i])
            out[3, i] = cuda.fp16.hdiv(a[i], b[i])
            out[4, i] = cuda.fp16.hfma(a[i], b[i], c[i])
            out[5, i] = cuda.fp16.hmax(a[i], b[i])
            out[6, i] = cuda.fp16.hmin(a[i], b[i])
            out[7, i] = cuda.fp16.hneg(cuda.fp16.habs(a[i]))
            out[8, i] = cuda.fp16.hmul(a[i], 3)  # an int argument becomes float16 first
            flags[0, i] = cuda.fp16.hlt(a[i], b[i])
            flags[1, i] = cuda.fp16.hge(a[i], b[i])
            flags[2, i] = cuda.fp16.hne(a[i], b[i])

    a, b, c = _halves(100, 20.0), _halves(100, 2.0), _halves(100, 50.0)
    b[9], a[10] = np.float16(np.nan), np.float16(np.nan)
    out, flags = np.zeros((9, 100), np.float16), np.zeros((3, 100), np.bool_)
    intr[2, 64](out, flags, a, b, c)
    a32, b32, c32 = (v.astype(np.float64) for v in (a, b, c))
    with np.errstate(all="ignore"):
        want = [a + b, a - b, a * b, a / b, (a32 * b32 + c32).astype(np.float16),
                np.where(a > b, a, b), np.where(a < b, a, b), -abs(a), a * np.float16(3)]
    np.testing.assert_array_equal(out, np.array(want))
    ordered = ~(np.isnan(a) | np.isnan(b))
    np.testing.assert_array_equal(flags, [a < b, a >= b, (a != b) & ordered])


def test_fp16_math_and_math_module_on_float16():
    @cuda.jit
    def fns(out, x):
        i = cuda.grid(1)
        if i < x.size:
            out[0, i] = cuda.fp16.hsin(x[i])
            out[1, i] = cuda.fp16.hexp2(x[i])
            out[2, i] = cuda.fp16.hrsqrt(x[i])
            out[3, i] = cuda.fp16.hrcp(x[i])
            out[4, i] = cuda.fp16.hexp10(x[i])
            out[5, i] = cuda.fp16.hrint(x[i])
            out[6, i] = math.sqrt(x[i])
            out[7, i] = math.floor(x[i])
            out[8, i] = math.log(x[i])

    x = (RNG.random(64) * 4 + 0.01).astype(np.float16)
    out = np.zeros((9, 64), np.float16)
    fns[1, 64](out, x)
    w = x.astype(np.float64)
    want = np.array([np.sin(w), np.exp2(w), 1 / np.sqrt(w), 1 / w, 10 ** w, np.rint(w),
                     np.sqrt(w), np.floor(w), np.log(w)]).astype(np.float16)
    np.testing.assert_array_equal(out, want)  # computed in float64, rounded once


def test_float16_lds_across_barriers_and_reference_path():
    @cuda.jit
    def reverse(out, x):
        s = cuda.shared.array(64, np.float16)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        h = x[i] * np.float16(1.5)
        s[t] = h
        cuda.syncthreads()
        out[i] = s[63 - t] + h  # h lives across the barrier (a per-thread float32)

    x = _halves(128, 10.0)
    want = ((x * np.float16(1.5)).reshape(2, 64)[:, ::-1].ravel() + x * np.float16(1.5))
    out = np.zeros_like(x)
    reverse[2, 64](out, x)
    np.testing.assert_array_equal(out, want)
    ref = np.zeros_like(x)
    launch(reverse.py_func, grid=2, block=64, args=(ref, x), device=get_spec("mi300x"),
           reference=True)
    np.testing.assert_array_equal(ref, want)


def test_float16_device_array_and_scalar_argument():
    @cuda.jit("void(f2[:], f2)")
    def scale(a, s):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * s

    a = _halves(50, 4.0)
    d = cuda.to_device(a)
    scale[1, 64](d, 0.1)  # the signature converts 0.1 to float16
    np.testing.assert_array_equal(d.copy_to_host(), a * np.float16(0.1))


TABLE = np.array([0.1, 0.2, 0.3, 0.4], np.float16)
THIRD = np.float16(1 / 3)


def test_float16_const_local_globals_and_shuffles():
    @cuda.jit
    def k(out, x):
        c = cuda.const.array_like(TABLE)
        loc = cuda.local.array(4, np.float16)
        i = cuda.grid(1)
        for j in range(4):
            loc[j] = c[j] * x[i]
        v = loc[i % 4] + TABLE[i % 4] + THIRD
        out[i] = cuda.shfl_down_sync(0xFFFFFFFF, v, 1)

    x = np.arange(64).astype(np.float16)
    out = np.zeros_like(x)
    k[1, 64](out, x)
    t = TABLE[np.arange(64) % 4]
    v = t * x + t + THIRD
    np.testing.assert_array_equal(out, np.concatenate([v[1:], v[-1:]]))  # last lane: own v
