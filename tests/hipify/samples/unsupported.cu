// APIs with no HIP equivalent, and names HIPIFY does not know.
#include <cuda_runtime.h>
#include <cuda/barrier>

int main() {
    cudaInitDevice(0, 0, 0);
    cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                       cudaFlushGPUDirectRDMAWritesToOwner);
    cudaMyHomegrownHelper();
    void* p;
    cudaMalloc(&p, 64);
    cudaFree(p);
    return 0;
}
