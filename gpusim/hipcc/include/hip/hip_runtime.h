// gpusim's own stand-in for <hip/hip_runtime.h>: just the declarations clang needs to
// parse HIP C++ (names and signatures as in ROCm's HIP headers). Nothing here is
// compiled: gpusim.hipcc translates the parsed code to kernels for the emulator.
#pragma once
#include <cstddef>
#include <cstdio>
#include <__gpusim_enums.h>

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_KERNEL_NAME(...) __VA_ARGS__

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1)
      : x(x_), y(y_), z(z_) {}
};
struct __gpusim_xyz { unsigned x, y, z; };
extern const __device__ __gpusim_xyz threadIdx, blockIdx, blockDim, gridDim;
extern const __device__ int warpSize;

typedef struct __gpusim_stream* hipStream_t;
typedef struct __gpusim_event* hipEvent_t;
extern "C" hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0,
                                                  hipStream_t stream = 0);
extern "C" hipError_t hipConfigureCall(dim3 grid, dim3 block, size_t shared = 0,
                                       hipStream_t stream = 0);

// ---- device side: barriers, fences, atomics, wavefront functions, bit tricks
__device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
#define __GPUSIM_ATOMIC(name) \
  __device__ int name(int*, int); __device__ unsigned name(unsigned*, unsigned); \
  __device__ unsigned long long name(unsigned long long*, unsigned long long); \
  __device__ float name(float*, float); __device__ double name(double*, double);
__GPUSIM_ATOMIC(atomicAdd) __GPUSIM_ATOMIC(atomicSub) __GPUSIM_ATOMIC(atomicMax)
__GPUSIM_ATOMIC(atomicMin) __GPUSIM_ATOMIC(atomicExch) __GPUSIM_ATOMIC(atomicAnd)
__GPUSIM_ATOMIC(atomicOr) __GPUSIM_ATOMIC(atomicXor) __GPUSIM_ATOMIC(atomicInc)
__GPUSIM_ATOMIC(atomicDec)
__device__ int atomicCAS(int*, int, int);
__device__ unsigned atomicCAS(unsigned*, unsigned, unsigned);
__device__ unsigned long long atomicCAS(unsigned long long*, unsigned long long,
                                        unsigned long long);
#define __GPUSIM_SHFL(name) \
  __device__ int name(int, int, int = 64); __device__ unsigned name(unsigned, int, int = 64); \
  __device__ float name(float, int, int = 64); __device__ double name(double, int, int = 64); \
  __device__ long long name(long long, int, int = 64);
__GPUSIM_SHFL(__shfl) __GPUSIM_SHFL(__shfl_up) __GPUSIM_SHFL(__shfl_down)
__GPUSIM_SHFL(__shfl_xor)
__device__ unsigned long long __ballot(int);
__device__ int __any(int);
__device__ int __all(int);
__device__ unsigned long long __activemask();
__device__ int __lane_id();
__device__ int __popc(unsigned);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned __brev(unsigned);
__device__ unsigned long long __brevll(unsigned long long);

#include <cmath>

// ---- host side: the runtime API
enum hipMemcpyKind {
  hipMemcpyHostToHost = 0, hipMemcpyHostToDevice = 1, hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3, hipMemcpyDefault = 4
};
struct hipDeviceProp_t {
  char name[256]; char gcnArchName[256]; size_t totalGlobalMem; size_t sharedMemPerBlock;
  int regsPerBlock; int warpSize; int maxThreadsPerBlock; int maxThreadsDim[3];
  int maxGridSize[3]; int clockRate; int multiProcessorCount; int l2CacheSize;
  int maxThreadsPerMultiProcessor; int major; int minor; int memoryClockRate;
  int memoryBusWidth; size_t totalConstMem; int computeMode; int integrated;
  int concurrentKernels; int pciBusID; int pciDeviceID; size_t sharedMemPerMultiprocessor;
};
#define hipStreamDefault 0
#define hipStreamNonBlocking 1
#define hipEventDefault 0
#define hipEventDisableTiming 2
#define hipHostMallocDefault 0
hipError_t hipGetDeviceCount(int*);
hipError_t hipSetDevice(int);
hipError_t hipGetDevice(int*);
hipError_t hipGetDeviceProperties(hipDeviceProp_t*, int);
hipError_t hipDeviceSynchronize();
hipError_t hipDeviceReset();
hipError_t hipMalloc(void**, size_t);
template <class T> hipError_t hipMalloc(T** ptr, size_t bytes);
hipError_t hipHostMalloc(void**, size_t, unsigned = 0);
template <class T> hipError_t hipHostMalloc(T** ptr, size_t bytes, unsigned = 0);
hipError_t hipMallocManaged(void**, size_t, unsigned = 1);
template <class T> hipError_t hipMallocManaged(T** ptr, size_t bytes, unsigned = 1);
hipError_t hipFree(void*);
hipError_t hipHostFree(void*);
hipError_t hipMemcpy(void*, const void*, size_t, hipMemcpyKind);
hipError_t hipMemcpyAsync(void*, const void*, size_t, hipMemcpyKind, hipStream_t = 0);
hipError_t hipMemset(void*, int, size_t);
hipError_t hipMemsetAsync(void*, int, size_t, hipStream_t = 0);
hipError_t hipStreamCreate(hipStream_t*);
hipError_t hipStreamCreateWithFlags(hipStream_t*, unsigned);
hipError_t hipStreamDestroy(hipStream_t);
hipError_t hipStreamSynchronize(hipStream_t);
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned = 0);
hipError_t hipEventCreate(hipEvent_t*);
hipError_t hipEventCreateWithFlags(hipEvent_t*, unsigned);
hipError_t hipEventDestroy(hipEvent_t);
hipError_t hipEventRecord(hipEvent_t, hipStream_t = 0);
hipError_t hipEventSynchronize(hipEvent_t);
hipError_t hipEventElapsedTime(float*, hipEvent_t, hipEvent_t);
hipError_t hipGetLastError();
hipError_t hipPeekAtLastError();
const char* hipGetErrorString(hipError_t);
const char* hipGetErrorName(hipError_t);
template <class F, class... Args>
void hipLaunchKernelGGL(F kernel, dim3 grid, dim3 block, unsigned shared, hipStream_t stream,
                        Args... args);
