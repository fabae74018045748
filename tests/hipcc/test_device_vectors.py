"""HIP vector types (float4, uchar4, uint2, ...) and structs of scalars in device code:
variables, make_<type>N(), brace initialisers, members, whole-struct assignment, by-value
parameters and results of device functions, and -- in memory -- pointers, __shared__
arrays and casts between pointer types. Every result is checked against NumPy doing the
same thing on the same bytes (a float4 array is an (n, 4) float32 array)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim import hip, hipcc

CPP = r"""
#include <hip/hip_runtime.h>

struct Body { float x, y, z, vx, vy, vz; };   // one scalar type: an array of 6 floats each
struct Mixed { int count; float value; };

__device__ float4 scaled(float4 a, float s) {
  return make_float4(a.x * s, a.y * s, a.z * s, a.w * s);
}
__device__ float first_plus_y(const float4* p, int i) { return p[i].x + p->y; }
__device__ float2 swap2(float2 v) { return {v.y, v.x}; }

// Locals, make_/brace init, members, whole assignment, device functions both ways.
__global__ void vectors_in_registers(const float4* in, float4* out, uint2 dims, int* ints) {
  int i = threadIdx.x;
  float4 v = in[i];
  uint2 d = {dims.x, 3};
  int2 pos = make_int2(threadIdx.x, -1);
  float4 w;                       // uninitialised fields are written before use
  w = scaled(v, 2.0f);
  w.w += (float)d.y + pos.y;      // 2 * in.w + 3 - 1
  float2 s = swap2(make_float2(v.x, v.y));
  w.x = s.x;                      // in.y
  out[i] = w;
  ints[2 * i] = d.x + pos.x;      // dims.x + i
  ints[2 * i + 1] = (int)first_plus_y(in, i);
}

// Pointers to vectors: p[i].x = ..., p->x, (*p).w, q = p + k, a float* view.
__global__ void vectors_in_memory(float4* p, const uchar4* img, float* flat) {
  int i = threadIdx.x;
  float4* q = p + i;
  q->x += (float)img[i].z;        // x + img.z
  (*q).w = p[i].y * 2.0f;         // 2 y
  float* f = (float*)p;           // the same floats, counted one by one
  f[4 * i + 2] = -f[4 * i + 2];   // -z
  flat[i] = reinterpret_cast<float4*>(flat)[0].y;  // everyone reads flat[1]
}

// __shared__ arrays of vectors; a vector view of a byte array; a 2-D vector array.
__global__ void shared_vectors(const float4* in, float4* out, unsigned char* bytes) {
  __shared__ float4 tile[64];
  __shared__ float2 grid2[4][16];
  int i = threadIdx.x;
  tile[i] = in[i];
  grid2[i / 16][i % 16] = make_float2((float)i, 0.5f);
  __syncthreads();
  float4 t = tile[(i + 1) % 64];  // the neighbour's
  out[i] = t;
  out[i].z = grid2[i % 4][i / 4].x;
  uchar4* quads = (uchar4*)bytes;  // the same scalar: the same array, offsets / 4
  uchar4 b = quads[i];
  quads[i] = make_uchar4(b.w, b.z, b.y, b.x);  // reverse each group of four bytes
}

// Structs of one scalar type through pointers (mini n-body's AoS).
__global__ void bodies(Body* p, Body* out, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float fx = 0.0f;
  for (int j = 0; j < n; j++) fx += p[j].x - p[i].x;
  p[i].vx += dt * fx;
  Body copy = p[i];
  copy.vy = copy.x + copy.y;
  out[i] = copy;
}

// A view of words as bytes, &p[i].y as a float*, references, local vector arrays.
__global__ void views_and_references(unsigned int* words, float4* p, float* out) {
  int i = threadIdx.x;
  uchar4* quads = (uchar4*)words;   // another scalar type: a view of the same bytes
  uchar4 q = quads[i];
  out[i] = (float)(q.x + q.y + q.z + q.w);
  float* y = &p[i].y;
  *y = 10.0f * i;
  float4& r = p[i];
  r.z = r.y + 1.0f;
  float2 local[2] = {{1.0f, 2.0f}, {3.0f, 4.0f}};
  out[64 + i] = local[i % 2].y + (i % 2 ? local[0].x : local[1].x);
}
"""


@pytest.fixture(scope="module")
def mod():
    return hipcc.compile(CPP)


def _floats(rng, *shape):
    return rng.integers(-50, 50, shape).astype(np.float32) / 4  # exact in float32


def test_vector_locals_make_brace_members_and_device_functions(mod, fresh_system):
    assert not mod.errors
    rng = np.random.default_rng(0)
    a = _floats(rng, 64, 4)
    out = hip.to_device(np.zeros((64, 4), np.float32).ravel())
    ints = hip.to_device(np.zeros(128, np.int32))
    mod.get_kernel("vectors_in_registers")[1, 64](hip.to_device(a.ravel()), out, (7, 9), ints)
    want = a * 2
    want[:, 3] += 3 - 1
    want[:, 0] = a[:, 1]
    np.testing.assert_array_equal(out.copy_to_host().reshape(64, 4), want)
    got = ints.copy_to_host().reshape(64, 2)
    np.testing.assert_array_equal(got[:, 0], 7 + np.arange(64))
    np.testing.assert_array_equal(got[:, 1], np.trunc(a[:, 0] + a[0, 1]).astype(np.int32))


def test_vector_pointers_members_and_float_views(mod, fresh_system):
    rng = np.random.default_rng(1)
    p = _floats(rng, 64, 4)
    img = rng.integers(0, 256, (64, 4)).astype(np.uint8)
    flat = _floats(rng, 64)
    d_p, d_flat = hip.to_device(p.ravel()), hip.to_device(flat)
    mod.get_kernel("vectors_in_memory")[1, 64](d_p, hip.to_device(img.ravel()), d_flat)
    want = p.copy()
    want[:, 0] += img[:, 2]
    want[:, 3] = 2 * p[:, 1]
    want[:, 2] = -p[:, 2]
    np.testing.assert_array_equal(d_p.copy_to_host().reshape(64, 4), want)
    np.testing.assert_array_equal(d_flat.copy_to_host(), np.full(64, flat[1]))


def test_shared_vector_arrays_and_same_scalar_casts(mod, fresh_system):
    rng = np.random.default_rng(2)
    a = _floats(rng, 64, 4)
    data = rng.integers(0, 256, 256).astype(np.uint8)
    out, d_bytes = hip.to_device(np.zeros(256, np.float32)), hip.to_device(data)
    mod.get_kernel("shared_vectors")[1, 64](hip.to_device(a.ravel()), out, d_bytes)
    want = np.roll(a, -1, axis=0)
    i = np.arange(64)
    want[:, 2] = (i % 4) * 16 + i // 4  # grid2[i % 4][i / 4].x
    np.testing.assert_array_equal(out.copy_to_host().reshape(64, 4), want)
    np.testing.assert_array_equal(d_bytes.copy_to_host(), data.reshape(64, 4)[:, ::-1].ravel())


def test_struct_of_floats_through_pointers_like_nbody(mod, fresh_system):
    rng = np.random.default_rng(3)
    n = 100
    b = _floats(rng, n, 6)
    d, out = hip.to_device(b.ravel()), hip.to_device(np.zeros(n * 6, np.float32))
    mod.get_kernel("bodies")[2, 64](d, out, 0.5, n)
    want = b.copy()
    want[:, 3] += np.float32(0.5) * (b[:, 0].sum() - n * b[:, 0])
    np.testing.assert_allclose(d.copy_to_host().reshape(n, 6), want, rtol=1e-6)
    want[:, 4] = b[:, 0] + b[:, 1]
    np.testing.assert_allclose(out.copy_to_host().reshape(n, 6), want, rtol=1e-6)


def test_byte_views_of_words_addresses_of_members_and_references(mod, fresh_system):
    rng = np.random.default_rng(4)
    words = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    p = _floats(rng, 64, 4)
    d_p, out = hip.to_device(p.ravel()), hip.to_device(np.zeros(128, np.float32))
    mod.get_kernel("views_and_references")[1, 64](hip.to_device(words), d_p, out)
    got = out.copy_to_host()
    np.testing.assert_array_equal(got[:64], words.view(np.uint8).reshape(64, 4).sum(axis=1))
    i = np.arange(64)
    np.testing.assert_array_equal(got[64:], np.where(i % 2, 4 + 1, 2 + 3))
    want = p.copy()
    want[:, 1] = 10 * i
    want[:, 2] = 10 * i + 1
    np.testing.assert_array_equal(d_p.copy_to_host().reshape(64, 4), want)


def test_vector_launch_from_host_code(capfd):
    """A program passes float4/uint2 by value and float4 arrays made with hipMalloc."""
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    #include <stdio.h>
    __global__ void axpy4(float4 a, const float4* x, float4* y, uint2 n) {
      unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n.x * n.y) return;
      float4 v = x[i];
      y[i] = make_float4(a.x * v.x + y[i].x, a.y * v.y + y[i].y, a.z * v.z + y[i].z,
                         a.w * v.w + y[i].w);
    }
    int main() {
      const int n = 100;
      float4 hx[n], hy[n];
      for (int i = 0; i < n; i++) { hx[i] = make_float4(i, 1, 2, 3); hy[i] = {1, 1, 1, 1}; }
      float4 *x, *y;
      hipMalloc(&x, sizeof(hx)); hipMalloc(&y, sizeof(hy));
      hipMemcpy(x, hx, sizeof(hx), hipMemcpyHostToDevice);
      hipMemcpy(y, hy, sizeof(hy), hipMemcpyHostToDevice);
      axpy4<<<2, 64>>>(make_float4(2, 3, 4, 5), x, y, make_uint2(10, 10));
      hipMemcpy(hy, y, sizeof(hy), hipMemcpyDeviceToHost);
      printf("%g %g %g %g\n", hy[99].x, hy[99].y, hy[99].z, hy[99].w);
      return 0;
    }""")
    assert mod.run() == 0
    assert capfd.readouterr().out.strip().endswith("199 4 9 16")


def test_mixed_struct_pointer_is_refused_with_advice():
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    struct Mixed { int count; float value; };
    __global__ void k(Mixed* m) { m[threadIdx.x].count = 1; }
    __global__ void fine(Mixed m, int* out) { out[0] = m.count; }""")
    err = mod.errors["k"]
    assert "not all one scalar type" in str(err) and "Instead:" in str(err)
    assert "fine" in mod.kernels  # a mixed struct by value is fine


@settings(max_examples=5, deadline=None)
@given(perm=st.permutations(range(4)), scale=st.integers(-3, 3),
       kind=st.sampled_from(["float", "int", "uchar", "double"]))
def test_random_swizzles_match_numpy(perm, scale, kind):
    """out[i] = make_T4(in[i].<perm0>, ...) * scale for random field orders and types."""
    dtype = {"float": np.float32, "int": np.int32, "uchar": np.uint8, "double": np.float64}[kind]
    names = "xyzw"
    scalar = "unsigned char" if kind == "uchar" else kind
    fields = ", ".join(f"({scalar})(v.{names[k]} * s)" for k in perm)
    mod = hipcc.compile(f"""
    #include <hip/hip_runtime.h>
    __global__ void swz(const {kind}4* in, {kind}4* out, int s) {{
      {kind}4 v = in[threadIdx.x];
      out[threadIdx.x] = make_{kind}4({fields});
    }}""")
    rng = np.random.default_rng(sum(perm) + scale)
    a = rng.integers(0, 100, (32, 4)).astype(dtype)
    out = hip.to_device(np.zeros(128, dtype))
    mod.get_kernel("swz")[1, 32](hip.to_device(a.ravel()), out, scale)
    want = (a[:, list(perm)].astype(np.int64) * scale).astype(dtype) if kind in ("int", "uchar") \
        else a[:, list(perm)] * dtype(scale)
    np.testing.assert_array_equal(out.copy_to_host().reshape(32, 4), want)


def test_the_checked_path_takes_views_and_vector_arrays(mod, fresh_system, monkeypatch):
    """The sanitizer's path (shadow memory per array) runs the same kernels: views of
    words as bytes, __shared__ vector arrays, struct element stores; no finding."""
    from gpusim.config import config

    monkeypatch.setattr(config, "check", True)
    test_byte_views_of_words_addresses_of_members_and_references(mod, None)
    test_shared_vector_arrays_and_same_scalar_casts(mod, None)
    test_struct_of_floats_through_pointers_like_nbody(mod, None)


def test_const_reference_parameters_are_values(fresh_system):
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    __device__ float len2(const float3& v) { return v.x * v.x + v.y * v.y + v.z * v.z; }
    __device__ float twice(const float& x) { return 2 * x; }
    __device__ void set(float& x) { x = 1; }
    __global__ void k(const float3* p, float* out) {
      int i = threadIdx.x;
      out[i] = len2(p[i]) + twice(p[i].x);
    }
    __global__ void writes_through_a_reference(float* out) { set(out[0]); }""")
    p = np.arange(12, dtype=np.float32)
    out = hip.to_device(np.zeros(4, np.float32))
    mod.get_kernel("k")[1, 4](hip.to_device(p), out)
    q = p.reshape(4, 3)
    np.testing.assert_array_equal(out.copy_to_host(), (q ** 2).sum(axis=1) + 2 * q[:, 0])
    assert "a pointer parameter" in str(mod.errors["writes_through_a_reference"])


def test_structs_with_vector_members(fresh_system):
    """struct { float3 pos; float3 vel; float mass; }: seven floats in a row, members of
    members (p[i].vel.y), nested brace lists, a struct member passed and assigned whole."""
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    struct Particle { float3 pos; float3 vel; float mass; };
    struct Inner { char a; double b; };
    struct Outer { char c; Inner in; };
    __device__ float3 add3(float3 a, float3 b) {
      return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
    }
    __global__ void step(Particle* p, float dt, Particle kick) {
      int i = threadIdx.x;
      Particle q = p[i];
      q.pos = add3(q.pos, make_float3(q.vel.x * dt, q.vel.y * dt, q.vel.z * dt));
      p[i].pos = q.pos;
      p[i].vel.y += kick.mass + kick.vel.z;
      float* m = &p[i].mass;
      *m *= 2.0f;
      Particle z = {{1, 2, 3}, {4, 5, 6}, 7};
      if (i == 0) p[64] = z;
    }
    __global__ void by_value(Outer o, int* out) { out[0] = o.c; }""")
    rng = np.random.default_rng(6)
    p = rng.integers(-10, 10, (65, 7)).astype(np.float32)
    d = hip.to_device(p.ravel())
    kick = {"pos_x": 0, "pos_y": 0, "pos_z": 0, "vel_x": 0, "vel_y": 0, "vel_z": 3, "mass": 2}
    mod.get_kernel("step")[1, 64](d, 0.5, kick)
    want = p.copy()
    want[:64, :3] += p[:64, 3:6] * np.float32(0.5)
    want[:64, 4] += 5
    want[:64, 6] *= 2
    want[64] = [1, 2, 3, 4, 5, 6, 7]
    np.testing.assert_array_equal(d.copy_to_host().reshape(65, 7), want)
    # C puts Outer.in at offset 8; its members, read one by one, would not be there
    assert "separate arguments" in str(mod.errors["by_value"])
