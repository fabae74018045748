"""What hipified CUDA samples need beyond the basic runtime (tests/hipify/cuda_samples):
profiler control, 24-bit multiplies, the device's texture limits, occupancy queries after
the kernel's buffers are freed. References are C's semantics, computed here."""

import numpy as np

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
