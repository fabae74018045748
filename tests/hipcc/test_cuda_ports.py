"""What hipified CUDA samples need beyond the basic runtime (tests/hipify/cuda_samples):
profiler control, 24-bit multiplies, the device's texture limits, occupancy queries after
the kernel's buffers are freed, the *_sync wavefront votes with HIP's 64-bit masks.
References are C's semantics, computed here."""

import numpy as np
import pytest

import gpusim
from gpusim import hip, hipcc


def test_profiler_start_and_stop_return_success(capsys, fresh_system):
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    int main() {
      printf("%d %d\n", (int)hipProfilerStart(), (int)hipProfilerStop());
      return 0;
    }""")
    assert mod.run() == 0
    assert capsys.readouterr().out == "0 0\n"


def _sext24(x: int) -> int:
    x &= 0xFFFFFF
    return x - (1 << 24) if x & 0x800000 else x


def test_mul24_and_umul24_multiply_the_low_24_bits(fresh_system):
    mod = hipcc.compile("""
    __global__ void m(const int* a, const int* b, int* s, unsigned* u, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) {
        s[i] = __mul24(a[i], b[i]);
        u[i] = __umul24((unsigned)a[i], (unsigned)b[i]);
      }
    }""")
    rng = np.random.default_rng(24)
    n = 200
    a = rng.integers(-2**31, 2**31, n).astype(np.int32)
    b = rng.integers(-2**31, 2**31, n).astype(np.int32)
    edge = [0x7FFFFF, -0x800000, -1, 0xFFFFFF, 0x12345678, 3]
    a[:6], b[:6] = edge, edge[::-1]
    s, u = hip.device_array(n, np.int32), hip.device_array(n, np.uint32)
    mod.get_kernel("m")[4, 64](hip.to_device(a), hip.to_device(b), s, u, n)
    # __mul24: the 24-bit operands sign-extended, the product's low 32 bits as an int
    pairs = list(zip(a.tolist(), b.tolist(), strict=True))
    low = [(_sext24(x) * _sext24(y)) & 0xFFFFFFFF for x, y in pairs]
    assert s.copy_to_host().tolist() == np.array(low, np.uint32).view(np.int32).tolist()
    # __umul24: the 24-bit operands unsigned
    ulow = [((x & 0xFFFFFF) * (y & 0xFFFFFF)) & 0xFFFFFFFF for x, y in pairs]
    assert u.copy_to_host().tolist() == ulow


def test_device_properties_report_texture_limits(capsys, fresh_system):
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    int main() {
      hipDeviceProp_t p;
      hipGetDeviceProperties(&p, 0);
      int engines = -1, timeout = -1;
      hipDeviceGetAttribute(&engines, hipDeviceAttributeAsyncEngineCount, 0);
      hipDeviceGetAttribute(&timeout, hipDeviceAttributeKernelExecTimeout, 0);
      printf("%d (%d,%d) (%d,%d,%d) (%d,%d) (%d,%d,%d) %zu %d %d\n", p.maxTexture1D,
             p.maxTexture2D[0], p.maxTexture2D[1], p.maxTexture3D[0], p.maxTexture3D[1],
             p.maxTexture3D[2], p.maxTexture1DLayered[0], p.maxTexture1DLayered[1],
             p.maxTexture2DLayered[0], p.maxTexture2DLayered[1], p.maxTexture2DLayered[2],
             p.textureAlignment, engines, timeout);
      printf("%s %d %d\n", p.gcnArchName, p.warpSize, p.multiProcessorCount);
      return 0;
    }""")
    assert mod.run() == 0
    props = hip.hipGetDeviceProperties(0)
    assert capsys.readouterr().out == (
        "16384 (16384,16384) (16384,16384,8192) (16384,8192) (16384,16384,8192) 256 "
        f"{props.asyncEngineCount} 0\n"
        # the fields before the new ones still land where the program reads them
        f"{props.gcnArchName} {props.warpSize} {props.multiProcessorCount}\n")


def test_occupancy_query_after_the_kernels_buffer_is_freed(capsys, fresh_system):
    # simpleOccupancy: launch, hipFree, then ask for a block size: the query compiles the
    # kernel for its parameter types only, so a freed buffer is no use after free.
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    __global__ void square(int* a, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) a[i] *= a[i];
    }
    int main() {
      int before_grid = 0, before_block = 0, grid = 0, block = 0;
      hipOccupancyMaxPotentialBlockSize(&before_grid, &before_block, square, 0, 0);
      int* d;
      hipMalloc(&d, 256 * sizeof(int));
      hipMemset(d, 0, 256 * sizeof(int));
      square<<<1, 256>>>(d, 256);
      hipDeviceSynchronize();
      hipFree(d);
      hipError_t e = hipOccupancyMaxPotentialBlockSize(&grid, &block, square, 0, 0);
      printf("%s %d\n", hipGetErrorString(e), grid == before_grid && block == before_block);
      return 0;
    }""")
    assert mod.run() == 0
    assert capsys.readouterr().out == "no error 1\n"


# ROCm 6.2 declares the *_sync forms only with this defined (hipcc -D...)
SYNC_OPT_IN = ["-DHIP_ENABLE_WARP_SYNC_BUILTINS"]
_SYNC_VOTES = r"""
__global__ void votes(const int* in, unsigned long long mask, unsigned long long* ballot,
                      int* any, int* all, int* shfl) {
  int t = threadIdx.x;
  ballot[t] = __ballot_sync(mask, in[t]);
  any[t] = __any_sync(mask, in[t]);
  all[t] = __all_sync(mask + 0ull, in[t]);  // a mask that is an expression, read once
  shfl[t] = __shfl_xor_sync(~0ull, t * 10, 3);
}"""


@pytest.mark.parametrize("device", ["mi300x", "rx7900xtx"])
@pytest.mark.parametrize("mask", [0xFFFFFFFFFFFFFFFF, 0xFFFFFFFF, 0xF0])
def test_sync_votes_are_ballot_and_mask_as_hip_defines_them(device, mask, fresh_system):
    gpusim.set_system(device, ngpus=1)
    wave = 64 if device == "mi300x" else 32
    rng = np.random.default_rng(mask % 97)
    pred = (rng.random(64) < 0.8).astype(np.int32)
    pred[:8] = 1  # lanes 4-7 all true: __all_sync over mask 0xF0 is true
    outs = [hip.device_array(64, np.uint64)] + [hip.device_array(64, np.int32) for _ in "aas"]
    votes = hipcc.compile(_SYNC_VOTES, defines=SYNC_OPT_IN).get_kernel("votes")
    votes[1, 64](hip.to_device(pred), mask, *outs)
    ballot, any_, all_, shfl = (o.copy_to_host() for o in outs)
    # amd_warp_sync_functions.h: the mask's upper half is dropped on a wave32 device,
    # __ballot_sync = __ballot & mask, any = != 0, all = == mask
    m = mask & (0xFFFFFFFF if wave == 32 else 0xFFFFFFFFFFFFFFFF)
    for lane in range(64):
        first = lane - lane % wave
        bits = sum(int(pred[first + i]) << i for i in range(wave)) & m
        assert (int(ballot[lane]), any_[lane], all_[lane]) == (bits, bits != 0, bits == m)
    assert shfl.tolist() == [(t ^ 3) * 10 for t in range(64)]


def test_a_32_bit_mask_is_a_compile_error_at_the_users_line(fresh_system):
    # CUDA samples write `unsigned mask = 0xffffffff;`: ROCm 6.3's static_assert refuses it
    src = ("__global__ void k(int* a) {\n  unsigned mask = 0xffffffff;\n"
           "  a[threadIdx.x] = __any_sync(mask, a[threadIdx.x]);\n}\n")
    with pytest.raises(hipcc.ClangError, match="mask must be a 64-bit integer") as err:
        hipcc.compile(src, defines=SYNC_OPT_IN)
    assert err.value.lineno == 3
    assert "__any_sync<unsigned int>" in str(err.value)
    assert "hip/hip_runtime.h:" in str(err.value) and str(hipcc.__file__)[:5] not in str(
        err.value)  # the header named as included, not by this checkout's path


def test_without_the_opt_in_the_sync_forms_are_undeclared_as_in_rocm_6_2(fresh_system):
    src = "__global__ void k(int* a) {\n  a[0] = __any_sync(~0ull, a[0]);\n}\n"
    with pytest.raises(hipcc.ClangError, match="undeclared identifier '__any_sync'"):
        hipcc.compile(src)


_SHARED_MEMORY_T = r"""
template <typename T> struct SharedMemory {  // simpleTemplates' sharedmem.cuh idiom
  __device__ T* getPointer() { extern __device__ void error(void); error(); return NULL; }
};
template <> struct SharedMemory<int> {
  __device__ int* getPointer() { extern __shared__ int s_int[]; return s_int; }
};
template <> struct SharedMemory<double> {
  __device__ double* getPointer() { extern __shared__ double s_double[]; return s_double; }
};
template <class T> struct Lds {  // the reduction sample's idiom: a conversion operator
  __device__ inline operator T*() { extern __shared__ int __smem[]; return (T*)__smem; }
};
template <class T> __global__ void reverse(const T* in, T* out) {
  SharedMemory<T> smem;
  T* s = smem.getPointer();
  T* s2 = Lds<T>();
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s2[blockDim.x - 1 - t] * (T)2;  // the same bytes through the other name
}
__global__ void bytes(const float* in, float* out) {
  extern __shared__ char raw[];
  float* f = (float*)raw;  // kept across the barrier below
  f[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = f[(threadIdx.x + 1) % blockDim.x];
}
template __global__ void reverse<int>(const int*, int*);
template __global__ void reverse<double>(const double*, double*);
"""


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_shared_memory_accessor_structs_name_the_dynamic_lds(dtype, fresh_system):
    mod = hipcc.compile(_SHARED_MEMORY_T)
    n = 64
    x = np.arange(n, dtype=dtype) * 3 - 50
    out = hip.device_array(n, dtype)
    name = "reverse<int>" if dtype == np.int32 else "reverse<double>"
    mod.get_kernel(name)[1, n, 0, n * x.itemsize](hip.to_device(x), out)
    np.testing.assert_array_equal(out.copy_to_host(), x[::-1] * 2)


def test_a_cast_of_the_dynamic_lds_is_kept_across_a_barrier(fresh_system):
    mod = hipcc.compile(_SHARED_MEMORY_T)
    x = np.linspace(-1, 1, 64, dtype=np.float32)
    out = hip.device_array(64, np.float32)
    mod.get_kernel("bytes")[1, 64, 0, 256](hip.to_device(x), out)
    np.testing.assert_array_equal(out.copy_to_host(), np.roll(x, -1))


def test_a_method_that_is_not_an_accessor_is_refused_at_its_line(fresh_system):
    src = ("struct Acc { float v;\n  __device__ float get() { return v; } };\n"
           "__global__ void k(float* a) {\n  Acc c; c.v = 1.0f;\n  float* p = a;\n"
           "  p[0] = c.get();\n}\n")
    with pytest.raises(hipcc.UnsupportedCpp, match="calling `get` in device code") as err:
        hipcc.compile(src).get_kernel("k")
    assert str(err.value).startswith("line 6, column 10")


@pytest.mark.parametrize("fn", ["clock", "clock64", "wall_clock64"])
def test_reading_the_cycle_counter_is_refused_with_what_to_use(fn, fresh_system):
    src = f"__global__ void k(long long* t) {{\n  t[0] = {fn}();\n}}\n"
    with pytest.raises(hipcc.UnsupportedCpp, match="no cycle counter") as err:
        hipcc.compile(src).get_kernel("k")
    assert str(err.value).startswith("line 2") and "hipEventElapsedTime" in str(err.value)


_ASSERTING = r"""
#include <cassert>
#include <cstdio>
__global__ void k(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  a[i] = 2 * i;
}
int main(int argc, char** argv) {
  int n = atoi(argv[1]), h[64];
  int* a; hipMalloc(&a, 64 * sizeof(int));
  k<<<2, 32>>>(a, n);
  hipError_t e = hipDeviceSynchronize();
  hipMemcpy(h, a, sizeof h, hipMemcpyDeviceToHost);
  printf("%s %d\n", hipGetErrorString(e), h[63]);
  return 0;
}
"""


def test_a_device_assert_that_holds_changes_nothing(capsys, fresh_system):
    assert hipcc.compile(_ASSERTING).run(["64"]) == 0
    assert capsys.readouterr().out == "no error 126\n"


def test_a_failed_device_assert_aborts_the_program_as_rocm_does(capsys, fresh_system):
    # ROCm prints "file:line: ... Device-side assertion `cond' failed." and the runtime
    # aborts the process (HSA_STATUS_ERROR_EXCEPTION); CUDA would return cudaErrorAssert
    assert hipcc.compile(_ASSERTING).run(["60"]) == 134
    out, err = capsys.readouterr()
    assert out == ""  # main never got past the synchronisation
    assert "hipErrorAssert" in err and "hip_cell.hip:6" in err
    assert "Device-side assertion `i < n' failed" in err
    assert "blockIdx=(1, 0, 0)" in err  # threads 60-63 are in the second block


def test_a_python_kernels_assert_message_is_reported(fresh_system):
    @hip.jit
    def k(a):
        i = hip.grid(1)
        assert a[i] >= 0, "inputs must not be negative"
        a[i] += 1

    x = hip.to_device(np.array([3, 1, -2, 5], np.int32))
    k[1, 4](x)
    with pytest.raises(gpusim.errors.HipError, match="threadIdx=.2, 0, 0.* inputs must not"):
        hip.synchronize()  # the launch is asynchronous: its fault is told here


def test_system_scope_atomics_are_hips_nine(fresh_system):
    mod = hipcc.compile("""
    __global__ void k(int* a, unsigned* u, unsigned* old) {
      int t = threadIdx.x;
      atomicAdd_system(&a[0], 3); atomicSub_system(&a[1], 2); atomicMax_system(&a[2], t);
      atomicMin_system(&a[3], -t); atomicOr_system(&a[4], 1 << (t % 31));
      atomicAnd_system(&a[5], ~(1 << (t % 31))); atomicXor_system(&a[6], t);
      old[t] = atomicCAS_system(&u[0], 0u, (unsigned)t + 1); atomicExch_system(&u[1], 7u);
    }""")
    a = hip.to_device(np.array([0, 0, -1, 0, 0, -1, 0], np.int32))
    u = hip.to_device(np.zeros(2, np.uint32))
    old = hip.device_array(64, np.uint32)
    mod.get_kernel("k")[1, 64](a, u, old)
    t = np.arange(64)
    xor = 0
    for v in t.tolist():
        xor ^= v
    bits = np.bitwise_or.reduce(1 << (t % 31))
    assert a.copy_to_host().tolist() == [192, -128, 63, -63, bits, ~bits, xor]
    # compare-and-swap from 0: exactly one thread finds 0 and stores its t + 1, every
    # other thread finds that value
    old, (swapped, exch) = old.copy_to_host(), u.copy_to_host()
    (winner,) = np.flatnonzero(old == 0)
    assert swapped == winner + 1 and (np.delete(old, winner) == swapped).all() and exch == 7


def test_hip_has_no_system_scope_inc_or_dec(fresh_system):
    src = "__global__ void k(unsigned* u) {\n  atomicInc_system(u, 17u);\n}\n"
    with pytest.raises(hipcc.ClangError, match="atomicInc_system"):
        hipcc.compile(src)


def test_a_kernel_moves_its_pointer_parameters(fresh_system):
    # SobolQRNG's `d_directions = d_directions + n * blockIdx.y`, and the other spellings
    mod = hipcc.compile(r"""
    __global__ void k(const float* in, float* out, int n) {
      in = in + n * blockIdx.x;
      out += n * blockIdx.x;
      for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = 2.0f * in[i];
      __syncthreads();
      out++;
      if (threadIdx.x == 0) *out = -1.0f;
    }""")
    x = np.arange(64, dtype=np.float32)
    out = hip.to_device(np.zeros(64, np.float32))
    mod.get_kernel("k")[4, 8](hip.to_device(x), out, 16)
    want = 2 * x
    want[1::16] = -1  # element 1 of each block's 16
    np.testing.assert_array_equal(out.copy_to_host(), want)
