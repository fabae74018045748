// Runtime API, types, enums, error handling and a kernel launch.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t err_ = (call);                                         \
        if (err_ != cudaSuccess) {                                         \
            fprintf(stderr, "CUDA error %s at %s:%d\n",                    \
                    cudaGetErrorString(err_), __FILE__, __LINE__);         \
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
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("%s: %d SMs\n", prop.name, prop.multiProcessorCount);
    CHECK(cudaMallocHost(&h, n * sizeof(float)));
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    float one = 1.0f;
    CHECK(cudaMemcpyToSymbol(scale, &one, sizeof(float)));
    cudaStream_t stream;
    cudaEvent_t start, stop;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaMemcpyAsync(x, h, n * sizeof(float), cudaMemcpyHostToDevice, stream));
    cudaEventRecord(start, stream);
    fill<float><<<(n + 255) / 256, 256, 0, stream>>>(y, 2.0f, n);
    saxpy<<<dim3((n + 255) / 256), dim3(256), 0, stream>>>(n, 2.0f, x, y);
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    CHECK(cudaGetLastError());
    cudaEventRecord(stop, stream);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    CHECK(cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost));
    cudaStreamDestroy(stream);
    cudaFree(x);
    cudaFree(y);
    cudaFreeHost(h);
    return 0;
}
