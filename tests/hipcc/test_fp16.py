"""<hip/hip_fp16.h> in device and host code: __half and __half2, conversions, arithmetic,
comparisons, math, operators, __shared__ arrays of __half2, and a host program that fills
__half arrays on the host and copies them with hipMemcpy.

Every result is checked bit for bit against NumPy's float16 doing the same operation in
the test: NumPy rounds each float16 + - * / once (to nearest even), as HIP does; a fused
multiply-add is computed exactly in float64 and rounded once; comparisons and NaN rules
are ROCm's (amd_hip_fp16.h: __hne is C's !=, true where either side is NaN)."""

import numpy as np
import pytest

from gpusim import hip, hipcc

F16, F32, F64 = np.float16, np.float32, np.float64

CPP = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

// One result per row of `out` (n columns): the intrinsics and the C++ operators.
__global__ void scalar_ops(const __half* a, const __half* b, const __half* c, __half* out,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i], z = c[i];
  out[0 * n + i] = __hadd(x, y);
  out[1 * n + i] = __hsub(x, y);
  out[2 * n + i] = __hmul(x, y);
  out[3 * n + i] = __hdiv(x, y);
  out[4 * n + i] = __hfma(x, y, z);
  out[5 * n + i] = __hneg(x);
  out[6 * n + i] = __habs(x);
  out[7 * n + i] = x + y;
  out[8 * n + i] = x - y;
  out[9 * n + i] = x * y;
  out[10 * n + i] = x / y;
  out[11 * n + i] = -x;
  out[12 * n + i] = __hmax(x, y);
  out[13 * n + i] = __hmin(x, y);
  out[14 * n + i] = hsqrt(__habs(x));
  half h = x;
  h += y;                        // half += half: rounded to half
  h *= z;
  out[15 * n + i] = h;
  half g = x;
  g += 0.1f;                     // half += float: computed in float, then rounded once
  out[16 * n + i] = g;
  out[17 * n + i] = x * 2;       // the int converts to half
  half k = y;
  k++;
  out[18 * n + i] = k;
}

__global__ void compare(const __half* a, const __half* b, int* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  __half x = a[i], y = b[i];
  out[0 * n + i] = __heq(x, y);
  out[1 * n + i] = __hne(x, y);
  out[2 * n + i] = __hlt(x, y);
  out[3 * n + i] = __hle(x, y);
  out[4 * n + i] = __hgt(x, y);
  out[5 * n + i] = __hge(x, y);
  out[6 * n + i] = __hequ(x, y);
  out[7 * n + i] = __hneu(x, y);
  out[8 * n + i] = __hltu(x, y);
  out[9 * n + i] = __hleu(x, y);
  out[10 * n + i] = __hgtu(x, y);
  out[11 * n + i] = __hgeu(x, y);
  out[12 * n + i] = __hisnan(x);
  out[13 * n + i] = __hisinf(x);
  out[14 * n + i] = x < y;
  out[15 * n + i] = x != y;
}

__global__ void convert(const float* f, const int* ints, const __half* a, __half* h,
                        float* back, int* trunc, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  h[0 * n + i] = __float2half(f[i]);
  h[1 * n + i] = __float2half_rn(f[i]);
  h[2 * n + i] = f[i];                  // implicit: the same rounding
  h[3 * n + i] = __int2half_rn(ints[i]);
  h[4 * n + i] = (__half)ints[i];
  h[5 * n + i] = __double2half((double)f[i] * 3.0);
  back[0 * n + i] = __half2float(a[i]);
  back[1 * n + i] = a[i];               // implicit: exact
  back[2 * n + i] = (float)a[i] * 0.5f;
  trunc[i] = __half2int_rz(a[i]);
}

__device__ half2 twice(half2 v) { return v + v; }

__global__ void pairs(const half2* a, const half2* b, const half2* c, half2* out,
                      float* f, int* flags, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  half2 x = a[i], y = b[i];
  out[0 * n + i] = __hadd2(x, y);
  out[1 * n + i] = __hsub2(x, y);
  out[2 * n + i] = __hmul2(x, y);
  out[3 * n + i] = __h2div(x, y);
  out[4 * n + i] = __hfma2(a[i], b[i], c[i]);
  out[5 * n + i] = __hneg2(x);
  out[6 * n + i] = __habs2(x);
  out[7 * n + i] = x + y;
  out[8 * n + i] = x - y;
  out[9 * n + i] = x * y;
  out[10 * n + i] = x / y;
  out[11 * n + i] = -x;
  out[12 * n + i] = __lowhigh2highlow(x);
  out[13 * n + i] = __halves2half2(__low2half(x), __high2half(y));
  out[14 * n + i] = __lows2half2(x, y);
  out[15 * n + i] = __highs2half2(x, y);
  out[16 * n + i] = __low2half2(x);
  out[17 * n + i] = __high2half2(y);
  out[18 * n + i] = __heq2(x, y);
  out[19 * n + i] = __hlt2(x, y);
  out[20 * n + i] = __hmax2(x, y);
  half2 v = x;
  v += y;                          // (x + y) * c, each half rounded twice
  v *= c[i];
  out[21 * n + i] = v;
  out[22 * n + i] = twice(x * y + c[i]);
  half2 w(__low2float(x), 0.25f);  // the constructor: floats convert to half
  out[23 * n + i] = w;
  out[24 * n + i] = make_half2(y.y, x.x);
  f[0 * n + i] = __low2float(x);
  f[1 * n + i] = __high2float(x);
  float2 g = __half22float2(y);
  f[2 * n + i] = g.x;
  f[3 * n + i] = g.y;
  half2 back = __float22half2_rn(g);
  f[4 * n + i] = (float)back.x + (float)back.y;
  flags[0 * n + i] = __hbeq2(x, y);
  flags[1 * n + i] = __hblt2(x, y);
  flags[2 * n + i] = x == y;
  flags[3 * n + i] = x != y;
  flags[4 * n + i] = x < y;
  flags[5 * n + i] = x > y;
  flags[6 * n + i] = x <= y;
  flags[7 * n + i] = x >= y;
}

__global__ void from_floats(const float* f, half2* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  out[i] = __floats2half2_rn(f[i], f[i] * 2.0f);
  out[n + i] = __float2half2_rn(f[i]);
}

// A dot product of half2s: a fused multiply-add per thread, a tree in __shared__ memory
// through a device function, as NVIDIA's fp16ScalarProduct sample does.
__device__ void tree(half2* v) {
  for (int s = 64; s > 0; s /= 2) {
    if (threadIdx.x < s) v[threadIdx.x] = __hadd2(v[threadIdx.x], v[threadIdx.x + s]);
    __syncthreads();
  }
}

__global__ void dot(const half2* a, const half2* b, float* out, int n) {
  __shared__ half2 sh[128];
  half2 acc = __float2half2_rn(0.f);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc = __hfma2(a[i], b[i], acc);
  sh[threadIdx.x] = acc;
  __syncthreads();
  tree(sh);
  if (threadIdx.x == 0) out[blockIdx.x] = __low2float(sh[0]) + __high2float(sh[0]);
}

__global__ void math(const __half* a, __half* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  half x = a[i];
  out[0 * n + i] = hsqrt(x);
  out[1 * n + i] = hexp(x);
  out[2 * n + i] = hlog(x);
  out[3 * n + i] = hsin(x);
  out[4 * n + i] = hrcp(x);
  out[5 * n + i] = hfloor(x);
  half2 s = h2sqrt(__halves2half2(x, x));
  out[6 * n + i] = s.y;
}
"""


@pytest.fixture(scope="module")
def mod():
    return hipcc.compile(CPP)


def _same(got, want):
    """float16 results equal bit for bit (any NaN matches any NaN: HIP leaves the NaN's
    payload to the hardware)."""
    got, want = np.asarray(got, F16), np.asarray(want, F16)
    assert got.shape == want.shape
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    bad = np.flatnonzero(got.view(np.uint16)[~nan] != want.view(np.uint16)[~nan])
    assert bad.size == 0, (f"{bad.size} differ; first at {bad[0]}: got "
                           f"{got[~nan][bad[0]]!r}, want {want[~nan][bad[0]]!r}")


def _halves(rng, n, nan=False):
    """n float16 values from random bit patterns: normals, subnormals, zeros of both
    signs, the largest finite values (whose sums overflow), and NaN/inf if asked."""
    top = 0x7E01 if nan else 0x7C00
    bits = rng.integers(0, top, n).astype(np.uint16) | (rng.integers(0, 2, n) << 15).astype(
        np.uint16)
    h = bits.view(F16)
    h[:4] = [F16(0.0), F16(-0.0), F16(65504), F16(2.0**-24)]
    return h


def _run(mod, name, n, *args):
    devs = [hip.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
    mod.get_kernel(name)[(n + 63) // 64, 64](*devs, n)
    return [d.copy_to_host() if isinstance(d, hip.DeviceArray) else d for d in devs]


def test_half_arithmetic_is_rounded_once_like_numpy(mod, fresh_system):
    rng = np.random.default_rng(0)
    n = 1000
    a, b, c = (_halves(rng, n) for _ in range(3))
    b[4:40] = a[4:40]  # x - x, x / x
    b[40:50] = 0  # x / 0
    a[50:55], b[55:60] = np.nan, np.nan  # __hmax/__hmin give the other operand
    with np.errstate(all="ignore"):
        want = {
            0: a + b, 1: a - b, 2: a * b, 3: a / b,
            4: (a.astype(F64) * b.astype(F64) + c.astype(F64)).astype(F16),
            5: -a, 6: np.abs(a), 7: a + b, 8: a - b, 9: a * b, 10: a / b, 11: -a,
            12: np.fmax(a, b), 13: np.fmin(a, b),
            14: np.sqrt(np.abs(a).astype(F64)).astype(F16),
            15: (a + b) * c, 16: (a.astype(F32) + F32(0.1)).astype(F16),
            17: a * F16(2), 18: b + F16(1),
        }
    out = np.zeros(19 * n, F16)
    *_, got = _run(mod, "scalar_ops", n, a, b, c, out)
    got = got.reshape(19, n)
    for row, expected in want.items():
        _same(got[row], expected)
    # the fused multiply-add differs from a * b + c rounded twice somewhere in the data
    with np.errstate(all="ignore"):
        assert np.any((a * b + c).view(np.uint16) != got[4].view(np.uint16))


def test_comparisons_with_nan_inf_and_signed_zeros(mod, fresh_system):
    rng = np.random.default_rng(1)
    n = 512
    a, b = _halves(rng, n, nan=True), _halves(rng, n, nan=True)
    b[:64] = a[:64]
    a[64:80], b[80:96] = np.nan, np.nan
    a[96:100], b[96:100] = F16(0.0), F16(-0.0)
    a[100:104], b[100:104] = np.inf, -np.inf
    out = np.zeros(16 * n, np.int32)
    *_, got = _run(mod, "compare", n, a, b, out)
    got = got.reshape(16, n)
    with np.errstate(invalid="ignore"):
        want = [a == b, a != b, a < b, a <= b, a > b, a >= b,
                ~(a < b) & ~(a > b), ~(a == b), ~(a >= b), ~(a > b), ~(a <= b), ~(a < b),
                np.isnan(a), np.isinf(a), a < b, a != b]
    for row, expected in enumerate(want):
        np.testing.assert_array_equal(got[row], expected.astype(np.int32), err_msg=f"row {row}")


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # to inf, as HIP
def test_conversions_round_to_nearest_even(mod, fresh_system):
    rng = np.random.default_rng(2)
    n = 1024
    lo = _halves(rng, n)
    nxt = np.nextafter(lo, F16(np.inf))
    f = ((lo.astype(F32) + nxt.astype(F32)) / 2).astype(F32)  # exact midpoints: ties
    f[n // 2:] = rng.standard_normal(n // 2).astype(F32) * F32(10.0) ** rng.integers(
        -8, 6, n // 2)
    f[:3] = [70000.0, 65519.0, 65520.0]  # overflow rounds to inf from 65520 on
    ints = rng.integers(-100000, 100000, n).astype(np.int32)
    a = _halves(rng, n)
    h, back, trunc = np.zeros(6 * n, F16), np.zeros(3 * n, F32), np.zeros(n, np.int32)
    *_, got_h, got_back, got_trunc = _run(mod, "convert", n, f, ints, a, h, back, trunc)
    got_h = got_h.reshape(6, n)
    for row in range(3):
        _same(got_h[row], f.astype(F16))
    _same(got_h[3], ints.astype(F16))
    _same(got_h[4], ints.astype(F16))
    _same(got_h[5], (f.astype(F64) * 3.0).astype(F16))
    got_back = got_back.reshape(3, n)
    np.testing.assert_array_equal(got_back[0].view(np.uint32), a.astype(F32).view(np.uint32))
    np.testing.assert_array_equal(got_back[1].view(np.uint32), a.astype(F32).view(np.uint32))
    np.testing.assert_array_equal(got_back[2], a.astype(F32) * F32(0.5))
    np.testing.assert_array_equal(got_trunc, np.trunc(a.astype(F64)).astype(np.int32))


def test_half2_functions_operators_and_compound_assignment(mod, fresh_system):
    rng = np.random.default_rng(3)
    n = 500
    a, b, c = (_halves(rng, 2 * n).reshape(n, 2) for _ in range(3))
    b[:50] = a[:50]  # equal pairs
    b[50:60, 0] = a[50:60, 0]  # one half equal
    out = np.zeros((25 * n, 2), F16)
    f, flags = np.zeros(5 * n, F32), np.zeros(8 * n, np.int32)
    got = _run(mod, "pairs", n, a.ravel(), b.ravel(), c.ravel(), out.ravel(), f, flags)
    got_out = got[3].reshape(25, n, 2)
    got_f, got_flags = got[4].reshape(5, n), got[5].reshape(8, n)
    one, zero = F16(1), F16(0)
    with np.errstate(all="ignore"):
        want = {
            0: a + b, 1: a - b, 2: a * b, 3: a / b,
            4: (a.astype(F64) * b.astype(F64) + c.astype(F64)).astype(F16),
            5: -a, 6: np.abs(a), 7: a + b, 8: a - b, 9: a * b, 10: a / b, 11: -a,
            12: a[:, ::-1],
            13: np.stack([a[:, 0], b[:, 1]], 1), 14: np.stack([a[:, 0], b[:, 0]], 1),
            15: np.stack([a[:, 1], b[:, 1]], 1), 16: a[:, [0, 0]], 17: b[:, [1, 1]],
            18: np.where(a == b, one, zero), 19: np.where(a < b, one, zero),
            20: np.fmax(a, b), 21: (a + b) * c, 22: (a * b + c) + (a * b + c),
            23: np.stack([a[:, 0], np.full(n, F16(0.25))], 1),
            24: np.stack([b[:, 1], a[:, 0]], 1),
        }
    for row, expected in want.items():
        _same(got_out[row], expected)
    np.testing.assert_array_equal(got_f[0], a[:, 0].astype(F32))
    np.testing.assert_array_equal(got_f[1], a[:, 1].astype(F32))
    np.testing.assert_array_equal(got_f[2], b[:, 0].astype(F32))
    np.testing.assert_array_equal(got_f[3], b[:, 1].astype(F32))
    np.testing.assert_array_equal(got_f[4], b[:, 0].astype(F32) + b[:, 1].astype(F32))
    both_eq, both_lt = np.all(a == b, 1), np.all(a < b, 1)
    both_gt = np.all(b < a, 1)
    want_flags = [both_eq, both_lt, both_eq, ~both_eq, both_lt, both_gt, ~both_gt, ~both_lt]
    for row, expected in enumerate(want_flags):
        np.testing.assert_array_equal(got_flags[row], expected.astype(np.int32),
                                      err_msg=f"flag row {row}")


def test_floats_to_half2(mod, fresh_system):
    rng = np.random.default_rng(4)
    n = 256
    f = (rng.standard_normal(n) * 1000).astype(F32)
    got = _run(mod, "from_floats", n, f, np.zeros(4 * n, F16))[1].reshape(2, n, 2)
    _same(got[0], np.stack([f.astype(F16), (f * F32(2)).astype(F16)], 1))
    _same(got[1], np.stack([f.astype(F16)] * 2, 1))


def test_half2_dot_product_in_shared_memory_like_the_cuda_sample(mod, fresh_system):
    rng = np.random.default_rng(5)
    blocks, n = 8, 8 * 128 * 4
    a = (rng.integers(-8, 8, (n, 2)) / 4).astype(F16)
    b = (rng.standard_normal((n, 2))).astype(F16)
    out = hip.to_device(np.zeros(blocks, F32))
    mod.get_kernel("dot")[blocks, 128](hip.to_device(a.ravel()), hip.to_device(b.ravel()),
                                       out, n)
    # the same operations in the same order, in NumPy: per thread a strided fused
    # multiply-add chain, then the tree over 128 threads
    acc = np.zeros((blocks, 128, 2), F16)
    stride = blocks * 128
    for start in range(0, n, stride):
        idx = start + np.arange(stride).reshape(blocks, 128)
        acc = (a[idx].astype(F64) * b[idx].astype(F64) + acc.astype(F64)).astype(F16)
    s = 64
    while s > 0:
        acc[:, :s] = acc[:, :s] + acc[:, s:2 * s]
        s //= 2
    want = acc[:, 0, 0].astype(F32) + acc[:, 0, 1].astype(F32)
    np.testing.assert_array_equal(out.copy_to_host(), want)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # hexp: inf
def test_half_math_is_the_correctly_rounded_result(mod, fresh_system):
    rng = np.random.default_rng(6)
    n = 512
    a = np.abs(_halves(rng, n))
    a[4] = F16(0)  # hrcp(0) = inf, hlog(0) = -inf
    got = _run(mod, "math", n, a, np.zeros(7 * n, F16))[1].reshape(7, n)
    w = a.astype(F64)
    with np.errstate(all="ignore"):
        want = [np.sqrt(w), np.exp(w), np.log(w), np.sin(w), 1.0 / w, np.floor(w), np.sqrt(w)]
    for row, expected in enumerate(want):
        _same(got[row], expected.astype(F16))


HOST_PROGRAM = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <stdio.h>

__global__ void axpy(__half s, const __half* x, __half2* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma2(__half2half2(s), __halves2half2(x[i], x[i]), y[i]);
}

int main() {
  const int n = 100;
  __half hx[n];
  half2 hy[n];
  for (int i = 0; i < n; i++) {
    hx[i] = __float2half(0.1f * i);        // host conversions, as HIP allows
    hy[i] = __floats2half2_rn(1.0f, -i);
  }
  __half* x;
  half2* y;
  hipMalloc(&x, sizeof(hx));
  hipMalloc(&y, sizeof(hy));
  hipMemcpy(x, hx, sizeof(hx), hipMemcpyHostToDevice);
  hipMemcpy(y, hy, sizeof(hy), hipMemcpyHostToDevice);
  axpy<<<2, 64>>>(__float2half(3.0f), x, y, n);
  hipMemcpy(hy, y, sizeof(hy), hipMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("%.17g %.17g %.17g\n", __half2float(hy[i].x), (float)hy[i].y, __low2float(hy[i]));
  printf("sizes %d %d\n", (int)sizeof(__half), (int)sizeof(half2));
  hipFree(x);
  hipFree(y);
  return 0;
}
"""


def test_host_program_converts_and_copies_half_arrays(capfd, fresh_system):
    mod = hipcc.compile(HOST_PROGRAM)
    assert mod.run() == 0
    lines = capfd.readouterr().out.splitlines()
    assert lines[-1] == "sizes 2 4"
    i = np.arange(100)
    x = (F32(0.1) * i.astype(F32)).astype(F16)
    fma = lambda u, v, w: (u.astype(F64) * v.astype(F64) + w.astype(F64)).astype(F16)  # noqa: E731
    want_x = fma(np.full(100, F16(3)), x, np.full(100, F16(1)))
    want_y = fma(np.full(100, F16(3)), x, (-i).astype(F16))
    got = np.array([[float(v) for v in ln.split()] for ln in lines[:100]])
    np.testing.assert_array_equal(got[:, 0], want_x.astype(F64))
    np.testing.assert_array_equal(got[:, 1], want_y.astype(F64))
    np.testing.assert_array_equal(got[:, 2], want_x.astype(F64))


@pytest.mark.parametrize("call, name", [
    ("__hadd_sat(a[0], a[1])", "__hadd_sat"),
    ("__ushort_as_half(7)", "__ushort_as_half"),
    ("__shfl_down(a[0], 1u)", "__shfl_down"),
])
def test_an_untranslated_half_function_names_its_line(call, name):
    mod = hipcc.compile("#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n"
                        "__global__ void k(__half* a) {\n"
                        f"  a[2] = {call};\n"
                        "}\n")
    with pytest.raises(hipcc.UnsupportedCpp) as info:
        mod.get_kernel("k")
    err = info.value
    assert err.construct == f"`{name}` of <hip/hip_fp16.h> in device code"
    assert err.lineno == 4
    assert "Instead:" in str(err) and "__hfma2" in str(err)
