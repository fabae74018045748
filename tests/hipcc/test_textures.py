"""HIP texture objects (gpusim/hipcc/textures.py, texfetch.py): arrays, linear and
pitch-2D resources, tex1Dfetch / tex1D / tex2D / tex3D / tex2DLayered; cubemap arrays
refused as ROCm refuses them.

The references are NumPy, written here from the sampling rules of the CUDA programming
guide's "Texture Fetching" appendix (which HIP's texture functions follow): normalized
coordinates scaled by the size, nearest-point ``T[floor(x)]``, linear filtering of
``T[i]`` and ``T[i+1]`` at ``xB = x - 0.5`` with weights of 8 fractional bits, the
address mode applied to each texel index per coordinate (wrap and mirror only with
normalized coordinates, else clamp)."""

import numpy as np
import pytest

from gpusim import hipcc

WRAP, CLAMP, MIRROR, BORDER = 0, 1, 2, 3
F32 = np.float32


def _address(i: np.ndarray, n: int, mode: int, normalized: bool) -> np.ndarray:
    """Texel indices after the address mode; -1 where the border colour (0) is read."""
    if mode == BORDER:
        return np.where((i >= 0) & (i < n), i, -1)
    if normalized and mode == WRAP:
        return np.mod(i, n)
    if normalized and mode == MIRROR:
        m = np.mod(i, 2 * n)
        return np.where(m >= n, 2 * n - 1 - m, m)
    return np.clip(i, 0, n - 1)


def _texels(tex: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    inside = (i >= 0) & (j >= 0)
    return np.where(inside, tex[np.maximum(j, 0), np.maximum(i, 0)], 0.0)


def _fixed8(v: np.ndarray) -> np.ndarray:
    """``v`` to a multiple of 1/256: the fraction rounded half away from zero."""
    t = np.trunc(v)
    f = (v - t) * 256
    return t + np.sign(f) * np.floor(np.abs(f) + 0.5) / 256


def reference_2d(tex: np.ndarray, x: np.ndarray, y: np.ndarray, linear: bool, mode: int,
                 normalized: bool) -> np.ndarray:
    """tex2D<float> of a float texture ``tex[row, column]`` at every (x, y) pair."""
    h, w = tex.shape
    x, y = x.astype(F32), y.astype(F32)
    if normalized:
        x, y = x * F32(w), y * F32(h)
    if not linear:
        i = _address(np.floor(x).astype(np.int64), w, mode, normalized)
        j = _address(np.floor(y).astype(np.int64), h, mode, normalized)
        return _texels(tex, i, j)
    xb = _fixed8((x - F32(0.5)).astype(np.float64))
    yb = _fixed8((y - F32(0.5)).astype(np.float64))
    i0, j0 = np.floor(xb).astype(np.int64), np.floor(yb).astype(np.int64)
    a, b = xb - i0, yb - j0
    out = np.zeros(x.shape)
    for dj, wy in ((0, 1 - b), (1, b)):
        for di, wx in ((0, 1 - a), (1, a)):
            i = _address(i0 + di, w, mode, normalized)
            j = _address(j0 + dj, h, mode, normalized)
            out += wx * wy * _texels(tex, i, j)
    return out


def test_reference_wraps_and_mirrors_indices():
    i = np.arange(-6, 9)
    assert _address(i, 3, WRAP, True).tolist() == [0, 1, 2] * 5
    assert _address(i, 3, MIRROR, True).tolist() == [0, 1, 2, 2, 1, 0] * 2 + [0, 1, 2]
    assert _address(i, 3, WRAP, False).tolist() == [0] * 7 + [1] + [2] * 7
    assert _fixed8(np.array([0.3, -0.3])).tolist() == [77 / 256, -77 / 256]


_SAMPLER = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>
#define NX 23
#define NY 9
#define W 5
#define H 4

__global__ void sample(float* out, const float* xs, const float* ys,
                       hipTextureObject_t tex) {
  int i = threadIdx.x, j = threadIdx.y;
  out[j * NX + i] = tex2D<float>(tex, xs[i], ys[j]);
}

int main() {
  float texels[H * W];
  for (int k = 0; k < H * W; k++) texels[k] = k * 1.25f - 7.0f;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t arr;
  hipMallocArray(&arr, &cd, W, H);
  hipMemcpy2DToArray(arr, 0, 0, texels, W * 4, W * 4, H, hipMemcpyHostToDevice);
  float* pitched;
  size_t pitch;
  hipMallocPitch((void**)&pitched, &pitch, W * 4, H);
  hipMemcpy2D(pitched, pitch, texels, W * 4, W * 4, H, hipMemcpyHostToDevice);
  float *xs, *ys, *out;
  hipMalloc(&xs, NX * 4); hipMalloc(&ys, NY * 4); hipMalloc(&out, NX * NY * 4);
  for (int res = 0; res < 2; res++)
  for (int filter = 0; filter < 2; filter++)
  for (int norm = 0; norm < 2; norm++)
  for (int mode = 0; mode < 4; mode++) {
    float hx[NX], hy[NY];  // past both ends: normalized [-1.3, 2.5], else [-6.4, 12.3]
    for (int k = 0; k < NX; k++) hx[k] = norm ? (k - 12) / 9.7f : (k - 6) * 1.07f;
    for (int k = 0; k < NY; k++) hy[k] = norm ? (k - 3) / 3.3f : (k - 2) * 1.31f;
    hipMemcpy(xs, hx, sizeof(hx), hipMemcpyHostToDevice);
    hipMemcpy(ys, hy, sizeof(hy), hipMemcpyHostToDevice);
    hipResourceDesc rd;
    memset(&rd, 0, sizeof(rd));
    if (res == 0) {
      rd.resType = hipResourceTypeArray;
      rd.res.array.array = arr;
    } else {
      rd.resType = hipResourceTypePitch2D;
      rd.res.pitch2D.devPtr = pitched;
      rd.res.pitch2D.desc = cd;
      rd.res.pitch2D.width = W;
      rd.res.pitch2D.height = H;
      rd.res.pitch2D.pitchInBytes = pitch;
    }
    hipTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = (hipTextureAddressMode)mode;
    td.filterMode = filter ? hipFilterModeLinear : hipFilterModePoint;
    td.readMode = hipReadModeElementType;
    td.normalizedCoords = norm;
    hipTextureObject_t tex;
    if (hipCreateTextureObject(&tex, &rd, &td, nullptr) != hipSuccess) return 2;
    sample<<<1, dim3(NX, NY)>>>(out, xs, ys, tex);
    float o[NX * NY];
    hipMemcpy(o, out, sizeof(o), hipMemcpyDeviceToHost);
    printf("%d %d %d %d:", res, filter, norm, mode);
    for (int k = 0; k < NX * NY; k++) printf(" %a", o[k]);
    printf("\n");
    hipDestroyTextureObject(tex);
  }
  return 0;
}
"""


def test_tex2D_point_and_linear_in_every_address_mode(capsys, fresh_system):
    assert hipcc.compile(_SAMPLER).run() == 0
    tex = (np.arange(20, dtype=F32) * F32(1.25) - F32(7)).reshape(4, 5)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 32
    for line in lines:
        head, values = line.split(":")
        res, filt, norm, mode = map(int, head.split())
        got = np.array([float.fromhex(v) for v in values.split()]).reshape(9, 23)
        k, m = np.arange(23, dtype=F32), np.arange(9, dtype=F32)
        xs = (k - F32(12)) / F32(9.7) if norm else (k - F32(6)) * F32(1.07)
        ys = (m - F32(3)) / F32(3.3) if norm else (m - F32(2)) * F32(1.31)
        x, y = np.meshgrid(xs, ys)
        want = reference_2d(tex, x, y, bool(filt), mode, bool(norm))
        where = f"resource {res}, filter {filt}, normalized {norm}, address mode {mode}"
        if filt:
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-5, err_msg=where)
        else:
            assert got.tolist() == want.tolist(), where


_ONE_D = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>
__global__ void k(float* out, hipTextureObject_t t) { out[0] = tex1D<float>(t, 0.8f); }
int main() {
  float texels[2] = {0.0f, 256.0f};
  hipChannelFormatDesc cd = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  hipArray_t arr;
  hipMallocArray(&arr, &cd, 2);  // height 0: a 1D array
  hipMemcpyToArray(arr, 0, 0, texels, sizeof(texels), hipMemcpyHostToDevice);
  hipResourceDesc rd;
  memset(&rd, 0, sizeof(rd));
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = arr;
  hipTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = hipAddressModeClamp;
  td.filterMode = hipFilterModeLinear;
  hipTextureObject_t t;
  hipCreateTextureObject(&t, &rd, &td, nullptr);
  float* d;
  hipMalloc(&d, 4);
  k<<<1, 1>>>(d, t);
  float v;
  hipMemcpy(&v, d, 4, hipMemcpyDeviceToHost);
  printf("%.9g\n", v);
  return 0;
}
"""


def test_linear_filter_weights_have_8_fractional_bits(capsys, fresh_system):
    # x = 0.8: xB = 0.3, whose weight is held as 77/256, so the texels 0 and 256 give 77,
    # not the 76.8 of an exact weight
    assert hipcc.compile(_ONE_D).run() == 0
    assert capsys.readouterr().out == "77\n"


_FORMATS = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>
__global__ void k(float4* f, uchar4* u, float* s, hipTextureObject_t norm,
                  hipTextureObject_t raw, hipTextureObject_t sign) {
  int i = threadIdx.x;
  f[i] = tex2D<float4>(norm, i, 0);
  u[i] = tex2D<uchar4>(raw, i + 0.5f, 0.5f);
  s[i] = tex2D<float>(sign, i, 0);
}
hipTextureObject_t make(hipArray_t arr, hipTextureReadMode mode) {
  hipResourceDesc rd;
  memset(&rd, 0, sizeof(rd));
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = arr;
  hipTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.readMode = mode;
  hipTextureObject_t t;
  hipCreateTextureObject(&t, &rd, &td, nullptr);
  return t;
}
int main() {
  unsigned char px[4 * 4];
  for (int k = 0; k < 16; k++) px[k] = (unsigned char)(k * 17);
  signed char sx[4] = {-128, -127, 0, 127};
  hipChannelFormatDesc c4 = hipCreateChannelDesc<uchar4>(), c1 = hipCreateChannelDesc<char>();
  hipArray_t a4, a1;
  hipMallocArray(&a4, &c4, 4, 1);
  hipMallocArray(&a1, &c1, 4, 1);
  hipMemcpy2DToArray(a4, 0, 0, px, 16, 16, 1, hipMemcpyHostToDevice);
  hipMemcpy2DToArray(a1, 0, 0, sx, 4, 4, 1, hipMemcpyHostToDevice);
  hipTextureObject_t norm = make(a4, hipReadModeNormalizedFloat);
  hipTextureObject_t raw = make(a4, hipReadModeElementType);
  hipTextureObject_t sign = make(a1, hipReadModeNormalizedFloat);
  float4* f; uchar4* u; float* s;
  hipMalloc(&f, 64); hipMalloc(&u, 16); hipMalloc(&s, 16);
  k<<<1, 4>>>(f, u, s, norm, raw, sign);
  float hf[16], hs[4];
  unsigned char hu[16];
  hipMemcpy(hf, f, 64, hipMemcpyDeviceToHost);
  hipMemcpy(hu, u, 16, hipMemcpyDeviceToHost);
  hipMemcpy(hs, s, 16, hipMemcpyDeviceToHost);
  for (int k = 0; k < 16; k++) printf("%a %d\n", hf[k], hu[k]);
  for (int k = 0; k < 4; k++) printf("%a\n", hs[k]);
  return 0;
}
"""


def test_read_modes_and_vector_texels(capsys, fresh_system):
    assert hipcc.compile(_FORMATS).run() == 0
    lines = capsys.readouterr().out.splitlines()
    px = np.arange(16) * 17
    floats = [float.fromhex(line.split()[0]) for line in lines[:16]]
    # hipReadModeNormalizedFloat: an unsigned 8-bit channel reads as v / 255
    assert floats == (px.astype(F32) * F32(1 / 255)).astype(F32).tolist()
    assert [int(line.split()[1]) for line in lines[:16]] == px.tolist()  # as stored
    # signed: v / 127, and -128 is -1 (no lower)
    assert [float.fromhex(v) for v in lines[16:]] == [-1.0, -1.0, 0.0, 1.0]


_SHAPES = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>
__global__ void k(float* out, int* fetched, hipTextureObject_t vol,
                  hipTextureObject_t layers, hipTextureObject_t lin) {
  int i = threadIdx.x;  // 0..5
  out[i] = tex3D<float>(vol, 1.5f, 0.5f, i % 3 + 0.5f);
  out[6 + i] = tex2DLayered<float>(layers, 0.5f, 1.5f, i % 4);
  fetched[i] = tex1Dfetch<int>(lin, i * 3 - 4);
}
hipTextureObject_t make(hipResourceDesc rd, hipTextureAddressMode mode) {
  hipTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  hipTextureObject_t t;
  if (hipCreateTextureObject(&t, &rd, &td, nullptr) != hipSuccess) printf("create failed\n");
  return t;
}
hipTextureObject_t array_texture(hipArray_t arr) {
  hipResourceDesc rd;
  memset(&rd, 0, sizeof(rd));
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = arr;
  return make(rd, hipAddressModeClamp);
}
int main() {
  float h[2 * 2 * 6];  // texel (x, y, z) = 100 z + 10 y + x
  for (int z = 0; z < 6; z++)
    for (int y = 0; y < 2; y++)
      for (int x = 0; x < 2; x++) h[(z * 2 + y) * 2 + x] = 100 * z + 10 * y + x;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t vol, layers, cube = nullptr;
  hipMalloc3DArray(&vol, &cd, make_hipExtent(2, 2, 3), 0);
  hipMalloc3DArray(&layers, &cd, make_hipExtent(2, 2, 4), hipArrayLayered);
  // ROCm refuses cubemap arrays (hipArrayCubemap): hipErrorInvalidValue, no array
  int refused = hipMalloc3DArray(&cube, &cd, make_hipExtent(2, 2, 6), hipArrayCubemap);
  hipArray_t all[2] = {vol, layers};
  int depth[2] = {3, 4};
  for (int a = 0; a < 2; a++) {
    hipMemcpy3DParms p;
    memset(&p, 0, sizeof(p));
    p.srcPtr = make_hipPitchedPtr(h, 2 * sizeof(float), 2, 2);
    p.dstArray = all[a];
    p.extent = make_hipExtent(2, 2, depth[a]);
    p.kind = hipMemcpyHostToDevice;
    if (hipMemcpy3D(&p) != hipSuccess) printf("copy failed\n");
  }
  int ints[5] = {7, 8, 9, 10, 11};
  int* dints;
  hipMalloc(&dints, sizeof(ints));
  hipMemcpy(dints, ints, sizeof(ints), hipMemcpyHostToDevice);
  hipResourceDesc rd;
  memset(&rd, 0, sizeof(rd));
  rd.resType = hipResourceTypeLinear;
  rd.res.linear.devPtr = dints;
  rd.res.linear.desc = hipCreateChannelDesc<int>();
  rd.res.linear.sizeInBytes = sizeof(ints);
  hipTextureObject_t lin = make(rd, hipAddressModeBorder);
  float* out;
  int* fetched;
  hipMalloc(&out, 12 * 4);
  hipMalloc(&fetched, 6 * 4);
  k<<<1, 6>>>(out, fetched, array_texture(vol), array_texture(layers), lin);
  float o[12];
  int f[6];
  hipMemcpy(o, out, sizeof(o), hipMemcpyDeviceToHost);
  hipMemcpy(f, fetched, sizeof(f), hipMemcpyDeviceToHost);
  for (int i = 0; i < 12; i++) printf("%g ", o[i]);
  for (int i = 0; i < 6; i++) printf("%d ", f[i]);
  printf("%d %d\n", refused, cube == nullptr);
  return 0;
}
"""


def test_3d_layered_and_linear_fetch_and_no_cubemap(capsys, fresh_system):
    assert hipcc.compile(_SHAPES).run() == 0
    words = capsys.readouterr().out.split()
    values, fetched = [float(w) for w in words[:12]], [int(w) for w in words[12:18]]
    # hipArrayCubemap: hipErrorInvalidValue (1), as ROCm/clr's ihipArrayCreate refuses it
    assert words[18:] == ["1", "1"]
    # tex3D at texel (1, 0, z % 3); tex2DLayered at texel (0, 1) of layer i % 4
    assert values[:6] == [100 * (i % 3) + 1 for i in range(6)]
    assert values[6:12] == [100 * (i % 4) + 10 for i in range(6)]
    # tex1Dfetch of 5 ints with border addressing: indices -4, -1, 2, 5, 8, 11
    assert fetched == [0, 0, 9, 0, 0, 0]


def test_descriptors_read_back(capsys, fresh_system):
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    #include <cstring>
    int main() {
      hipChannelFormatDesc cd = hipCreateChannelDesc<short2>(), back;
      hipArray_t arr;
      hipMallocArray(&arr, &cd, 8, 3);
      hipGetChannelDesc(&back, arr);
      hipExtent e;
      unsigned flags;
      hipArrayGetInfo(nullptr, &e, &flags, arr);
      hipResourceDesc rd, rback;
      memset(&rd, 0, sizeof(rd));
      rd.resType = hipResourceTypeArray;
      rd.res.array.array = arr;
      hipTextureDesc td;
      memset(&td, 0, sizeof(td));
      td.addressMode[1] = hipAddressModeMirror;
      td.normalizedCoords = 1;
      hipTextureObject_t t;
      hipCreateTextureObject(&t, &rd, &td, nullptr);
      hipGetTextureObjectResourceDesc(&rback, t);
      printf("%d %d %d %d %d | %zu %zu %zu %u | %d %d\n", back.x, back.y, back.z, back.w,
             (int)back.f, e.width, e.height, e.depth, flags, (int)rback.resType,
             rback.res.array.array == arr);
      return 0;
    }""")
    assert mod.run() == 0
    assert capsys.readouterr().out == "16 16 0 0 0 | 8 3 0 0 | 0 1\n"


_BAD = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>
__global__ void k(float* out, hipTextureObject_t t) { out[0] = tex1Dfetch<float>(t, 0); }
int main() {
  hipArray_t arr;
  hipChannelFormatDesc three = hipCreateChannelDesc(32, 32, 32, 0, hipChannelFormatKindFloat);
  printf("3 channels: %s\n", hipGetErrorName(hipMallocArray(&arr, &three, 4, 4)));
  float* d;
  hipMalloc(&d, 16);
  hipResourceDesc rd;
  memset(&rd, 0, sizeof(rd));
  rd.resType = hipResourceTypeLinear;
  rd.res.linear.devPtr = d;
  rd.res.linear.desc = hipCreateChannelDesc<int>();
  rd.res.linear.sizeInBytes = 16;
  hipTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.filterMode = hipFilterModeLinear;
  hipTextureObject_t t;
  printf("linear ints: %s\n", hipGetErrorName(hipCreateTextureObject(&t, &rd, &td, nullptr)));
  td.filterMode = hipFilterModePoint;
  hipCreateTextureObject(&t, &rd, &td, nullptr);
  hipDestroyTextureObject(t);
  k<<<1, 1>>>(d, t);
  printf("destroyed: %s\n", hipGetErrorName(hipGetLastError()));
  return 0;
}
"""


def test_bad_formats_and_a_destroyed_texture_give_hip_errors(capsys, fresh_system):
    assert hipcc.compile(_BAD).run() == 0
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        "3 channels: hipErrorInvalidValue",
        "linear ints: hipErrorInvalidValue", "destroyed: hipErrorInvalidValue"]


def test_half_textures_are_refused_by_name(capsys, fresh_system):
    # a format HIP has but gpusim does not model: the program stops, naming the call
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    int main() {
      hipArray_t arr;
      hipChannelFormatDesc half = hipCreateChannelDesc(16, 0, 0, 0, hipChannelFormatKindFloat);
      return hipMallocArray(&arr, &half, 4, 4);
    }""")
    assert mod.run() != 0
    assert "hipMallocArray: 16-bit float (half) textures are not modelled" in \
        capsys.readouterr().err


def test_a_texture_argument_that_is_not_one_names_the_kernel(fresh_system):
    mod = hipcc.compile("""
    __global__ void k(float* out, hipTextureObject_t t) { out[0] = tex1D<float>(t, 0.5f); }
    """)
    with pytest.raises(Exception, match=r"kernel 'k' argument 't': 0x1234 is not a texture"):
        mod.get_kernel("k")[1, 1](np.zeros(1, F32), 0x1234)


def test_tex_cubemap_is_refused_at_its_line(fresh_system):
    src = ("__global__ void k(float* o, hipTextureObject_t t) {\n"
           "  o[0] = texCubemap<float>(t, 1.0f, 0.0f, 0.0f);\n}\n")
    with pytest.raises(hipcc.UnsupportedCpp, match="hipArrayCubemap is refused") as err:
        hipcc.compile(src).get_kernel("k")
    assert str(err.value).startswith("line 2")
