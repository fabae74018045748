// gpusim's <hip/hip_runtime.h>: what ROCm's brings in (the runtime API, vector types,
// math, the C library's stdlib/stdint/stdio/assert) and the kernel language.
// Written for gpusim from HIP's documentation ("HIP C++ language extensions").
//
// It is read twice: by libclang as HIP (`__HIP__` defined) to translate device code into
// gpusim kernels, where the kernel language below is declared; and by the host C++
// compiler, for which a kernel is an ordinary function (gpusim.hipcc replaces its body
// with a stub that launches it on the emulator) and the attributes are empty.
#pragma once
#if defined(__GPUSIM_KEEP_ASSERT)  // zig defines NDEBUG when it optimises; hipcc does not
#undef NDEBUG
#endif
#include <assert.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>
#include <hip/math_functions.h>

#define __HIPCC__ 1
#define __HIP_ARCH_GFX942__ 0
#define HIP_KERNEL_NAME(...) __VA_ARGS__
// HIP's older spellings of the position built-ins (still in ROCm's amd_hip_runtime.h)
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((annotate("launch_bounds")))

#if defined(__HIP__)
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define hipLaunchKernelGGL(kernel, blocks, threads, shared, stream, ...)                \
  do { kernel<<<(blocks), (threads), (shared), (stream)>>>(__VA_ARGS__); } while (0)

struct __gpusim_xyz { uint32_t x, y, z; };
extern const __device__ __gpusim_xyz threadIdx, blockIdx, blockDim, gridDim;
extern const __device__ int warpSize;
extern "C" hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0,
                                                  hipStream_t stream = 0);

// ---- barriers, fences, atomics, wavefront functions, bit functions, clocks
__device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
#define __GPUSIM_ATOMIC(name)                                                           \
  __device__ int name(int*, int); __device__ unsigned name(unsigned*, unsigned);        \
  __device__ unsigned long long name(unsigned long long*, unsigned long long);          \
  __device__ long long name(long long*, long long);                                     \
  __device__ float name(float*, float); __device__ double name(double*, double);
__GPUSIM_ATOMIC(atomicAdd) __GPUSIM_ATOMIC(atomicSub) __GPUSIM_ATOMIC(atomicMax)
__GPUSIM_ATOMIC(atomicMin) __GPUSIM_ATOMIC(atomicExch) __GPUSIM_ATOMIC(atomicAnd)
__GPUSIM_ATOMIC(atomicOr) __GPUSIM_ATOMIC(atomicXor) __GPUSIM_ATOMIC(atomicInc)
__GPUSIM_ATOMIC(atomicDec)
// System scope (amd_hip_atomic.h): coherent with the host and peer GPUs as well; HIP has
// no atomicInc_system / atomicDec_system.
__GPUSIM_ATOMIC(atomicAdd_system) __GPUSIM_ATOMIC(atomicSub_system)
__GPUSIM_ATOMIC(atomicMax_system) __GPUSIM_ATOMIC(atomicMin_system)
__GPUSIM_ATOMIC(atomicExch_system) __GPUSIM_ATOMIC(atomicAnd_system)
__GPUSIM_ATOMIC(atomicOr_system) __GPUSIM_ATOMIC(atomicXor_system)
__device__ int atomicCAS_system(int*, int, int);
__device__ unsigned atomicCAS_system(unsigned*, unsigned, unsigned);
__device__ unsigned long long atomicCAS_system(unsigned long long*, unsigned long long,
                                               unsigned long long);
__device__ int atomicCAS(int*, int, int);
__device__ unsigned atomicCAS(unsigned*, unsigned, unsigned);
__device__ unsigned long long atomicCAS(unsigned long long*, unsigned long long,
                                        unsigned long long);
#define __GPUSIM_SHFL(name)                                                             \
  __device__ int name(int, int, int = 64); __device__ unsigned name(unsigned, int, int = 64); \
  __device__ float name(float, int, int = 64); __device__ double name(double, int, int = 64); \
  __device__ long long name(long long, int, int = 64);                                  \
  __device__ unsigned long long name(unsigned long long, int, int = 64);
__GPUSIM_SHFL(__shfl) __GPUSIM_SHFL(__shfl_up) __GPUSIM_SHFL(__shfl_down)
__GPUSIM_SHFL(__shfl_xor)
__device__ unsigned long long __ballot(int);
__device__ int __any(int);
__device__ int __all(int);
__device__ unsigned long long __activemask();
// The *_sync forms, as ROCm 6.2 has them (amd_warp_sync_functions.h, ROCm/clr f9f995c):
// declared only when the program defines HIP_ENABLE_WARP_SYNC_BUILTINS (HIPIFY's table
// lists them as having no HIP 6.3 equivalent), and with a 64-bit mask: a 32-bit one, such
// as CUDA code's `unsigned mask = 0xffffffff`, is a compile error there and here, because
// widening it would silently leave lanes 32-63 out of the mask.
#ifdef HIP_ENABLE_WARP_SYNC_BUILTINS
#define __GPUSIM_MASK64(MaskT)                                                          \
  static_assert(__is_integral(MaskT) && sizeof(MaskT) == 8,                            \
                "The mask must be a 64-bit integer (unsigned long long): a 32-bit "     \
                "mask leaves lanes 32-63 of a 64-lane wavefront out")
template <typename MaskT> __device__ unsigned long long __ballot_sync(MaskT m, int p) {
  __GPUSIM_MASK64(MaskT); return 0; }
template <typename MaskT> __device__ int __any_sync(MaskT m, int p) {
  __GPUSIM_MASK64(MaskT); return 0; }
template <typename MaskT> __device__ int __all_sync(MaskT m, int p) {
  __GPUSIM_MASK64(MaskT); return 0; }
#define __GPUSIM_SHFL_SYNC(name, LaneT)                                                 \
  template <typename MaskT, typename T>                                                 \
  __device__ T name(MaskT m, T v, LaneT lane, int width = 64) {                         \
    __GPUSIM_MASK64(MaskT); return v; }
__GPUSIM_SHFL_SYNC(__shfl_sync, int) __GPUSIM_SHFL_SYNC(__shfl_up_sync, unsigned)
__GPUSIM_SHFL_SYNC(__shfl_down_sync, unsigned) __GPUSIM_SHFL_SYNC(__shfl_xor_sync, int)
#endif
__device__ int __lane_id();
__device__ int __popc(unsigned);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned __brev(unsigned);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned __bitextract_u32(unsigned, unsigned, unsigned);
__device__ int __mul24(int, int);
__device__ unsigned __umul24(unsigned, unsigned);
__device__ long long clock64();
__device__ long long wall_clock64();
__device__ int clock();
__device__ int printf(const char*, ...);
// assert() in device code: glibc's macro calls __assert_fail, which HIP declares for the
// device too (amd_device_functions.h); on the GPU a failed assert prints its message and
// traps, and ROCm's runtime then aborts the process.
extern "C" __device__ void __assert_fail(const char* assertion, const char* file,
                                         unsigned int line, const char* function);
#else  // the host compiler: attributes vanish, a launch is a call of the kernel's stub
#define __global__
#define __device__
#define __host__
#define __shared__
#define __constant__
#define __managed__
extern "C" int __gpusim_configure(dim3 grid, dim3 block, size_t shared = 0,
                                  hipStream_t stream = nullptr);
#define hipLaunchKernelGGL(kernel, blocks, threads, shared, stream, ...)                \
  ((void)__gpusim_configure(dim3(blocks), dim3(threads), (shared), (stream)),           \
   kernel(__VA_ARGS__))
#endif

#if !defined(__HIP__)
// ---- gpusim: what a kernel's host stub calls (shim.cpp)
extern "C" hipError_t __gpusim_launch_stub(const char* kernel, void** args);
#endif
#include <hip/texture_fetch_functions.h>
