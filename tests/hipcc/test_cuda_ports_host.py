"""Host-side HIP that hipified CUDA samples need (tests/hipify/cuda_samples): the
stream-ordered allocator (streamOrderedAllocation), HIP's host min/max (transpose,
threadFenceReduction), hipDeviceGetAttribute with ROCm's enum numbers, template kernels
with bool arguments and the template device functions they call.

Expected values are worked out by hand from ROCm's semantics (CLR's hip::MemoryPool:
hipamd/src/hip_mempool_impl.cpp at ROCm/clr f9f995c) or computed here with C's rules."""

import numpy as np

from gpusim import hip, hipcc

MIB = 1 << 20

_POOL_PRELUDE = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdint>
static uint64_t attr(hipMemPool_t p, hipMemPoolAttr a) {
  uint64_t v = 12345;
  hipMemPoolGetAttribute(p, a, &v);
  return v;
}
static void sizes(const char* when, hipMemPool_t p) {
  printf("%s: used %llu reserved %llu\n", when,
         (unsigned long long)attr(p, hipMemPoolAttrUsedMemCurrent),
         (unsigned long long)attr(p, hipMemPoolAttrReservedMemCurrent));
}
"""


def _run(src: str, capsys, defines=()) -> list[str]:
    mod = hipcc.compile(src, defines=list(defines))
    assert mod.run() == 0
    return capsys.readouterr().out.splitlines()


def test_pool_keeps_freed_memory_up_to_its_release_threshold(capsys, fresh_system):
    out = _run(_POOL_PRELUDE + r"""
    int main() {
      hipMemPool_t pool;
      hipDeviceGetDefaultMemPool(&pool, 0);
      hipStream_t s;
      hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
      size_t free0, free1, total;
      hipMemGetInfo(&free0, &total);
      printf("threshold %llu\n", (unsigned long long)attr(pool, hipMemPoolAttrReleaseThreshold));
      void *a, *b;
      hipMallocAsync(&a, 1 << 20, s);
      sizes("allocated", pool);
      hipFreeAsync(a, s);
      sizes("freed", pool);
      hipMallocAsync(&b, 1 << 20, s);
      printf("same stream reuses it: %d\n", a == b);
      hipFreeAsync(b, s);
      hipStreamSynchronize(s);
      sizes("synchronized, threshold 0", pool);
      hipMemGetInfo(&free1, &total);
      printf("device memory back: %d\n", free1 == free0);

      uint64_t keep = UINT64_MAX;
      hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &keep);
      hipMallocAsync(&a, 1 << 20, s);
      hipFreeAsync(a, s);
      hipStreamSynchronize(s);
      sizes("synchronized, threshold max", pool);
      hipMallocAsync(&b, 1 << 20, s);
      printf("kept block reused: %d\n", a == b);
      hipFreeAsync(b, s);
      hipDeviceSynchronize();
      hipMemPoolTrimTo(pool, 0);
      sizes("trimmed to 0", pool);
      printf("high: used %llu reserved %llu\n",
             (unsigned long long)attr(pool, hipMemPoolAttrUsedMemHigh),
             (unsigned long long)attr(pool, hipMemPoolAttrReservedMemHigh));
      return 0;
    }""", capsys)
    assert out == [
        "threshold 0",
        f"allocated: used {MIB} reserved {MIB}",
        f"freed: used 0 reserved {MIB}",  # kept by the pool until a synchronisation
        "same stream reuses it: 1",
        "synchronized, threshold 0: used 0 reserved 0",
        "device memory back: 1",
        f"synchronized, threshold max: used 0 reserved {MIB}",
        "kept block reused: 1",
        "trimmed to 0: used 0 reserved 0",
        f"high: used {MIB} reserved {MIB}",
    ]


def test_block_freed_on_another_stream_is_reused_only_when_safe(capsys, fresh_system):
    out = _run(_POOL_PRELUDE + r"""
    int main() {
      hipMemPool_t pool;
      hipDeviceGetDefaultMemPool(&pool, 0);
      uint64_t keep = UINT64_MAX;
      hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &keep);
      hipStream_t s1, s2;
      hipStreamCreateWithFlags(&s1, hipStreamNonBlocking);
      hipStreamCreateWithFlags(&s2, hipStreamNonBlocking);
      void *a, *b, *c, *d, *e;
      hipMallocAsync(&a, 4096, s1);
      hipFreeAsync(a, s1);                 // not yet reached by s1
      hipMallocAsync(&b, 4096, s2);
      printf("pending free, other stream: %d\n", a == b);
      hipEvent_t ev;
      hipEventCreate(&ev);
      hipEventRecord(ev, s1);
      hipStreamWaitEvent(s2, ev, 0);       // s2 now follows s1's free
      hipMallocAsync(&c, 4096, s2);
      printf("after hipStreamWaitEvent: %d\n", a == c);

      int off = 0;
      hipMemPoolSetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &off);
      hipFreeAsync(b, s2);
      hipStreamSynchronize(s2);            // b's free has completed
      hipMallocAsync(&d, 4096, s1);
      printf("completed free, opportunism off: %d\n", d == b);
      int on = 1;
      hipMemPoolSetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &on);
      hipMallocAsync(&e, 4096, s1);
      printf("completed free, opportunism on: %d\n", e == b);
      int v = -1;
      hipMemPoolGetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &v);
      printf("opportunistic %d\n", v);
      return 0;
    }""", capsys)
    assert out == ["pending free, other stream: 0", "after hipStreamWaitEvent: 1",
                   "completed free, opportunism off: 0", "completed free, opportunism on: 1",
                   "opportunistic 1"]


def test_kernels_use_stream_ordered_memory(capsys, fresh_system):
    n = 1000
    out = _run(r"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    __global__ void axpb(const float* x, float* y, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] = 3.0f * x[i] + 1.0f;
    }
    int main() {
      const int n = 1000;
      static float h[n], r[n];
      for (int i = 0; i < n; ++i) h[i] = 0.5f * i;
      hipStream_t s;
      hipStreamCreate(&s);
      float *x, *y;
      hipMallocAsync(&x, n * sizeof(float), s);
      hipMallocAsync(&y, n * sizeof(float), s);
      hipMemcpyAsync(x, h, n * sizeof(float), hipMemcpyHostToDevice, s);
      axpb<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);
      hipFreeAsync(x, s);
      hipMemcpyAsync(r, y, n * sizeof(float), hipMemcpyDeviceToHost, s);
      hipFreeAsync(y, s);
      hipStreamSynchronize(s);
      for (int i = 0; i < n; ++i) printf("%.2f\n", r[i]);
      return 0;
    }""", capsys)
    x = np.float32(0.5) * np.arange(n, dtype=np.float32)
    assert out == [f"{v:.2f}" for v in np.float32(3) * x + np.float32(1)]


def test_hipfree_of_a_pool_block_returns_it_to_the_pool(capsys, fresh_system):
    out = _run(_POOL_PRELUDE + r"""
    int main() {
      hipMemPool_t pool;
      hipDeviceGetDefaultMemPool(&pool, 0);
      void* a;
      hipMallocAsync(&a, 8192, 0);
      printf("%s\n", hipGetErrorName(hipFree(a)));
      sizes("hipFree", pool);
      hipDeviceSynchronize();
      sizes("synchronized", pool);
      return 0;
    }""", capsys)
    assert out == ["hipSuccess", "hipFree: used 0 reserved 8192",
                   "synchronized: used 0 reserved 0"]


def test_pool_calls_with_bad_arguments_return_rocms_codes(capsys, fresh_system):
    out = _run(_POOL_PRELUDE + r"""
    #define SHOW(call) printf("%s\n", hipGetErrorName(call))
    int main() {
      hipMemPool_t pool, other;
      hipStream_t s;
      hipStreamCreate(&s);
      SHOW(hipDeviceGetDefaultMemPool(&pool, 0));
      SHOW(hipDeviceGetDefaultMemPool(&other, 99));
      SHOW(hipDeviceGetMemPool(&other, 99));
      SHOW(hipDeviceGetDefaultMemPool(nullptr, 0));
      void* p = (void*)1;
      SHOW(hipMallocAsync(&p, 0, s));
      printf("zero bytes: %p\n", p);
      SHOW(hipMallocAsync((void**)nullptr, 64, s));
      SHOW(hipFreeAsync(nullptr, s));
      SHOW(hipMallocAsync(&p, 64, s));
      SHOW(hipFreeAsync(p, s));
      SHOW(hipFreeAsync(p, s));            // twice
      static int host[4];
      SHOW(hipFreeAsync(host, s));         // not device memory
      void* d;
      hipMalloc(&d, 64);
      SHOW(hipFreeAsync(d, s));            // hipMalloc memory: freed at once, as hipFree
      SHOW(hipFree(d));
      uint64_t v = 5, zero = 0;
      SHOW(hipMemPoolSetAttribute(pool, hipMemPoolAttrReservedMemCurrent, &v));
      SHOW(hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemHigh, &v));
      SHOW(hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemHigh, &zero));
      printf("used high %llu\n", (unsigned long long)attr(pool, hipMemPoolAttrUsedMemHigh));
      SHOW(hipMemPoolGetAttribute(pool, (hipMemPoolAttr)99, &v));
      SHOW(hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemHigh, nullptr));
      SHOW(hipMemPoolDestroy(pool));       // the default pool
      SHOW(hipMemPoolTrimTo(nullptr, 0));
      return 0;
    }""", capsys)
    # ROCm: hipMallocAsync of 0 bytes succeeds with NULL; hipFreeAsync of hipMalloc
    # memory falls back to hipFree; unknown memory is hipErrorInvalidValue. A second
    # hipFreeAsync of a pool block: see mempool.MemPool.free (ROCm frees it underneath).
    assert out == ["hipSuccess", "hipErrorInvalidDevice", "hipErrorInvalidValue",
                   "hipErrorInvalidValue", "hipSuccess", "zero bytes: (nil)",
                   "hipErrorInvalidValue", "hipErrorInvalidValue", "hipSuccess",
                   "hipSuccess", "hipErrorInvalidValue", "hipErrorInvalidValue",
                   "hipSuccess", "hipErrorInvalidValue", "hipErrorInvalidValue",
                   "hipErrorInvalidValue", "hipSuccess", "used high 0",
                   "hipErrorInvalidValue", "hipErrorInvalidValue", "hipErrorInvalidValue",
                   "hipErrorInvalidValue"]


def test_created_pool_caps_its_size_and_can_be_made_current(capsys, fresh_system):
    out = _run(_POOL_PRELUDE + r"""
    #define SHOW(call) printf("%s\n", hipGetErrorName(call))
    int main() {
      hipMemPoolProps props = {};
      props.allocType = hipMemAllocationTypePinned;
      props.location.type = hipMemLocationTypeDevice;
      props.location.id = 0;
      props.maxSize = 2 << 20;
      hipMemPool_t pool, dflt, cur;
      SHOW(hipMemPoolCreate(&pool, &props));
      hipDeviceGetDefaultMemPool(&dflt, 0);
      printf("new pool: %d\n", pool != dflt);
      void *a, *b, *c;
      SHOW(hipMallocFromPoolAsync(&a, 1 << 20, pool, 0));
      SHOW(hipMallocFromPoolAsync(&b, 2 << 20, pool, 0));   // past maxSize
      SHOW(hipDeviceSetMemPool(0, pool));
      SHOW(hipMallocAsync(&c, 1 << 20, 0));
      sizes("pool", pool);
      sizes("default", dflt);
      hipFreeAsync(a, 0);
      hipFreeAsync(c, 0);
      SHOW(hipMemPoolDestroy(pool));
      hipDeviceGetMemPool(&cur, 0);
      printf("current is default again: %d\n", cur == dflt);
      SHOW(hipMemPoolDestroy(pool));       // already destroyed
      props.allocType = hipMemAllocationTypeInvalid;
      SHOW(hipMemPoolCreate(&pool, &props));
      props.allocType = hipMemAllocationTypePinned;
      props.location.id = 99;
      SHOW(hipMemPoolCreate(&pool, &props));
      return 0;
    }""", capsys)
    assert out == ["hipSuccess", "new pool: 1", "hipSuccess", "hipErrorOutOfMemory",
                   "hipSuccess", "hipSuccess", f"pool: used {2 * MIB} reserved {2 * MIB}",
                   "default: used 0 reserved 0", "hipSuccess",
                   "current is default again: 1", "hipErrorInvalidValue",
                   "hipErrorInvalidValue", "hipErrorInvalidValue"]


def test_device_attributes_answer_to_rocms_numbers(capsys, fresh_system):
    # The numbers of ROCm's hipDeviceAttribute_t (hip_runtime_api.h, rocm-6.2.0), typed
    # here rather than taken from gpusim's header.
    rocm = {3: "canMapHostMemory", 8: "concurrentKernels", 10: "cooperativeLaunch",
            16: "integrated", 19: "l2CacheSize", 24: "managedMemory",
            60: "memoryClockRate", 63: "multiProcessorCount", 67: "pciBusID",
            68: "pciDeviceID", 83: "totalConstMem", 87: "warpSize"}
    calls = "".join(f'hipDeviceGetAttribute(&v, (hipDeviceAttribute_t){k}, 0); '
                    f'printf("%d\\n", v);\n' for k in rocm)
    out = _run(r"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    int main() {
      int v = -1;
      """ + calls + r"""
      hipDeviceGetAttribute(&v, (hipDeviceAttribute_t)88, 0);  // MemoryPoolsSupported
      printf("%d\n", v);
      return 0;
    }""", capsys)
    props = hip.hipGetDeviceProperties(0)
    # sizes over INT_MAX (an MI300X's 2 GiB totalConstMem) are clamped, as ROCm's
    # hipDeviceGetAttribute does (std::min(prop.totalConstMem, int32_max))
    assert out == [str(min(int(getattr(props, f)), 2**31 - 1)) for f in rocm.values()] + ["1"]


_MINMAX = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
int main(int argc, char**) {
  int n = 7 * argc;
  printf("%d %d\n", max(1, n / 2), min(3, -2));
#ifdef MIXED
  printf("%u %u\n", min(-1, 1u), max(-1, 1u));
  printf("%llu\n", max(-2ll, 3ull));
#endif
  return 0;
}"""


def test_host_min_max_of_ints_as_hip_declares_them(capsys, fresh_system):
    assert _run(_MINMAX, capsys) == ["3 -2"]


def test_mixed_signed_unsigned_min_max_are_opt_in_and_compare_unsigned(capsys, fresh_system):
    # __HIP_DEFINE_MIXED_HOST_MIN_MAX__ (newer clang): the usual arithmetic conversions
    # make -1 the unsigned maximum, so min(-1, 1u) is 1u.
    u32, u64 = (1 << 32) - 1, (1 << 64) - 1
    out = _run(_MINMAX, capsys, defines=["-DMIXED", "-D__HIP_DEFINE_MIXED_HOST_MIN_MAX__=1"])
    assert out == ["3 -2", f"{min(u32, 1)} {max(u32, 1)}", f"{max(u64 - 1, 3)}"]


def test_template_device_function_called_by_a_template_kernel(fresh_system):
    # threadFenceReduction: reduceMultiPass<N, P> calls reduceBlocks<N, P>, an instance
    # only the kernel's instance names.
    mod = hipcc.compile(r"""
    template <unsigned B, int P> __device__ void put(float* o) { o[threadIdx.x] = B * 10 + P; }
    template <unsigned B, int P> __global__ void k(float* o) { put<B, P>(o); }
    template __global__ void k<4, 1>(float*);
    """)
    out = hip.device_array(4, np.float32)
    mod.get_kernel("k<4, 1>")[1, 4](out)
    assert out.copy_to_host().tolist() == [41.0] * 4


def test_template_kernel_with_a_bool_argument_launched_from_host(capsys, fresh_system):
    out = _run(r"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    template <unsigned B, bool P> __global__ void k(float* o) { o[threadIdx.x] = B + (P ? 1 : 0); }
    int main() {
      float *d, h[2];
      hipMalloc(&d, 2 * sizeof(float));
      k<4, true><<<1, 1>>>(d);
      k<4, false><<<1, 1>>>(d + 1);
      printf("%s\n", hipGetErrorName(hipGetLastError()));
      hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);
      printf("%g %g\n", h[0], h[1]);
      return 0;
    }""", capsys)
    assert out == ["hipSuccess", "5 4"]
