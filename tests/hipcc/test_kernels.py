"""HIP C++ kernels give the same results as Python kernels and NumPy."""

import cpp_kernels as ref
import numpy as np
import pytest

from gpusim import hip, hipcc


@pytest.fixture(scope="module")
def mod():
    return hipcc.compile(ref.CPP)


def test_saxpy_matches_the_python_kernel(mod, fresh_system):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    d_x, d_y, d_y2 = hip.to_device(x), hip.to_device(y), hip.to_device(y)
    mod.get_kernel("saxpy")[4, 256](1000, 2.5, d_x, d_y)
    ref.saxpy[4, 256](np.int32(1000), np.float32(2.5), d_x, d_y2)
    np.testing.assert_array_equal(d_y.copy_to_host(), d_y2.copy_to_host())
    np.testing.assert_allclose(d_y.copy_to_host(), np.float32(2.5) * x + y, rtol=1e-6)


def test_device_pointers_from_hipmalloc_are_accepted(mod, fresh_system):
    x = np.arange(64, dtype=np.float32)
    p = hip.hipMalloc(x.nbytes)
    hip.hipMemcpy(p, x, x.nbytes, hip.hipMemcpyHostToDevice)
    y = np.zeros(60, np.float32)
    d_y = hip.to_device(y)
    mod.get_kernel("saxpy")[1, 64](60, 1.0, p + 16, d_y)  # x + 4 elements, as C writes it
    np.testing.assert_array_equal(d_y.copy_to_host(), x[4:64])
    hip.hipFree(p)


def test_reduction_with_dynamic_lds_matches_python(mod, fresh_system):
    x = np.random.default_rng(1).standard_normal(3000).astype(np.float32)
    outs = []
    for kernel in (mod.get_kernel("block_sum"), ref.block_sum):
        out = hip.to_device(np.zeros(1, np.float32))
        kernel[12, 256, 0, 256 * 4](hip.to_device(x), out, np.int32(3000))
        outs.append(out.copy_to_host()[0])
    np.testing.assert_allclose(outs[0], np.sum(x.astype(np.float64) ** 2), rtol=1e-4)
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-5)


def test_tiled_matmul_with_static_lds(mod, fresh_system):
    n = 32
    rng = np.random.default_rng(2)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = hip.to_device(np.zeros(n * n, np.float32))
    mod.get_kernel("matmul")[(2, 2), (16, 16)](hip.to_device(a.ravel()),
                                               hip.to_device(b.ravel()), c, n)
    np.testing.assert_allclose(c.copy_to_host().reshape(n, n), a @ b, rtol=1e-4, atol=1e-4)


def test_wavefront_shuffles_ballot_and_atomics(mod, fresh_system):
    x = np.random.default_rng(3).integers(-1000, 1000, 256).astype(np.int32)
    out = hip.to_device(np.array([-10**9, 0], np.int32))
    mod.get_kernel("wave_max")[2, 128](hip.to_device(x), out)
    got = out.copy_to_host()
    assert got[0] == x.max()
    assert got[1] == np.count_nonzero(x[:64] > 0)  # block 0's first wavefront


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_template_instances(mod, fresh_system, dtype):
    m = np.arange(12, dtype=dtype).reshape(3, 4)
    name = "scale_rows<float>" if dtype == np.float32 else "scale_rows<double>"
    d = hip.to_device(m.ravel())
    mod.get_kernel(name)[3, 2](d, 4, 0.5)
    np.testing.assert_array_equal(d.copy_to_host().reshape(3, 4), m * dtype(0.5))


def test_loops_integer_division_and_local_arrays(mod, fresh_system):
    start = np.arange(1, 101, dtype=np.int32)
    steps = hip.to_device(np.zeros(100, np.int32))
    mod.get_kernel("collatz_steps")[1, 128](hip.to_device(start), steps, 100)
    np.testing.assert_array_equal(steps.copy_to_host(), ref.numpy_collatz(start))


def test_c_integer_division_truncates_toward_zero(fresh_system):
    m = hipcc.compile("""
    #include <hip/hip_runtime.h>
    __global__ void divs(const int* a, const int* b, int* q, int* r) {
      int i = threadIdx.x;
      q[i] = a[i] / b[i];
      r[i] = a[i] % b[i];
    }""")
    a = np.array([7, -7, 7, -7, 0, 9], np.int32)
    b = np.array([2, 2, -2, -2, 3, 3], np.int32)
    q, r = hip.to_device(np.zeros(6, np.int32)), hip.to_device(np.zeros(6, np.int32))
    m.get_kernel("divs")[1, 6](hip.to_device(a), hip.to_device(b), q, r)
    np.testing.assert_array_equal(q.copy_to_host(), np.trunc(a / b).astype(np.int32))
    np.testing.assert_array_equal(r.copy_to_host(), np.fmod(a, b))


@pytest.mark.parametrize("name", ["saxpy", "block_sum"])
def test_same_resource_counts_as_the_python_kernel(mod, fresh_system, name):
    pytest.importorskip("llvmlite")
    x = hip.to_device(np.zeros(1024, np.float32))
    y = hip.to_device(np.zeros(1024, np.float32))
    cpp_args = (1024, 2.0, x, y) if name == "saxpy" else (x, y, 1024)
    py_args = ((np.int32(1024), np.float32(2.0), x, y) if name == "saxpy"
               else (x, y, np.int32(1024)))
    got = mod.get_kernel(name).resources(*cpp_args, device="mi300x", block_size=256)
    want = getattr(ref, name).resources(*py_args, device="mi300x", block_size=256)
    assert got["source"] == want["source"] == "llvm"
    for key in ("vgprs", "sgprs", "lds_bytes"):
        assert got[key] == want[key], key


def test_while_lowered_for_with_continue_break_shared_scalar_and_votes(fresh_system):
    m = hipcc.compile(r"""
    __global__ void odd_sum(const int* v, int n, int* out) {
      __shared__ int block_total;
      if (threadIdx.x == 0) block_total = 0;
      __syncthreads();
      int mine = 0;
      for (int i = threadIdx.x; i < n; i += blockDim.x) {  // stride not constant: a while
        if (v[i] < 0) break;
        if (v[i] % 2 == 0) continue;
        mine += v[i];
      }
      atomicAdd(&block_total, mine);
      __syncthreads();
      if (threadIdx.x == 0) out[0] = block_total;
      bool big = mine > 1000;
      int any_big = __any(big), all_positive = __all(mine >= 0);  // votes of all 64 lanes
      if (threadIdx.x == 0) { out[1] = any_big; out[2] = all_positive; }
    }""")
    v = np.arange(500, dtype=np.int32)
    v[300] = -1  # thread 300 % 64 = 44 stops at its 5th element
    out = hip.to_device(np.zeros(3, np.int32))
    m.get_kernel("odd_sum")[1, 64](hip.to_device(v), 500, out)
    sums = []
    for t in range(64):
        total = 0
        for i in range(t, 500, 64):
            if v[i] < 0:
                break
            total += v[i] if v[i] % 2 else 0
        sums.append(total)
    assert out.copy_to_host().tolist() == [sum(sums), int(max(sums) > 1000), 1]


def test_hipLaunchKernelGGL_from_python(mod, fresh_system):
    y = hip.to_device(np.ones(64, np.float32))
    hip.hipLaunchKernelGGL(mod.get_kernel("saxpy"), 1, 64, 0, 0, 64, 3.0,
                           hip.to_device(np.full(64, 2.0, np.float32)), y)
    np.testing.assert_array_equal(y.copy_to_host(), np.full(64, 7.0, np.float32))


def test_wrong_argument_types_are_named(mod, fresh_system):
    with pytest.raises(hip.HipError, match="parameter 'x' points to float32, got an array of "
                                           "float64"):
        mod.get_kernel("saxpy")[1, 64](4, 1.0, hip.to_device(np.zeros(4)),
                                       hip.to_device(np.zeros(4, np.float32)))
    with pytest.raises(hip.HipError, match="takes 4 arguments"):
        mod.get_kernel("saxpy")[1, 64](4, 1.0)


def test_sanitizer_finds_a_missing_barrier_in_cpp(fresh_system):
    m = hipcc.compile(r"""
    __global__ void shift(const int* in, int* out) {
      __shared__ int tile[64];
      tile[threadIdx.x] = in[threadIdx.x];
      out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];  // needs __syncthreads() first
    }""")
    kernel = m.get_kernel("shift")
    kernel.check = True
    with pytest.raises(hip.HipError) as info:
        kernel[1, 64](hip.to_device(np.arange(64, dtype=np.int32)),
                      hip.device_array(64, np.int32))
        hip.synchronize()
    assert "race" in str(info.value).lower()
    assert "# line 4" in str(info.value) and "# line 5" in str(info.value)
