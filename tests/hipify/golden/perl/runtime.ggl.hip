#include "hip/hip_runtime.h"
// Runtime API, types, enums, error handling and a kernel launch.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(call)                                                        \
    do {                                                                   \
        hipError_t err_ = (call);                                         \
        if (err_ != hipSuccess) {                                         \
            fprintf(stderr, "CUDA error %s at %s:%d\n",                    \
                    hipGetErrorString(err_), __FILE__, __LINE__);         \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

__constant__ float scale[1];

__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * scale[0] * x[i] + y[i];
}

template <typename T>
__global__ void fill(T* p, T v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

int main() {
    const int n = 1 << 20;
    float *x, *y, *h;
    hipDeviceProp_t prop;
    CHECK(hipGetDeviceProperties(&prop, 0));
    printf("%s: %d SMs\n", prop.name, prop.multiProcessorCount);
    CHECK(hipHostMalloc(&h, n * sizeof(float)));
    CHECK(hipMalloc(&x, n * sizeof(float)));
    CHECK(hipMalloc(&y, n * sizeof(float)));
    float one = 1.0f;
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(scale), &one, sizeof(float)));
    hipStream_t stream;
    hipEvent_t start, stop;
    CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
    CHECK(hipEventCreate(&start));
    CHECK(hipEventCreate(&stop));
    CHECK(hipMemcpyAsync(x, h, n * sizeof(float), hipMemcpyHostToDevice, stream));
    hipEventRecord(start, stream);
    fill<float><<<(n + 255) / 256, 256, 0, stream>>>(y, 2.0f, n);
    hipLaunchKernelGGL(saxpy, dim3((n + 255) / 256), dim3(256), 0, stream, n, 2.0f, x, y);
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    CHECK(hipGetLastError());
    hipEventRecord(stop, stream);
    hipEventSynchronize(stop);
    float ms = 0.0f;
    hipEventElapsedTime(&ms, start, stop);
    CHECK(hipMemcpy(h, y, n * sizeof(float), hipMemcpyDeviceToHost));
    hipStreamDestroy(stream);
    hipFree(x);
    hipFree(y);
    hipHostFree(h);
    return 0;
}
