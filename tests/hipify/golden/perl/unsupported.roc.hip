// APIs with no HIP equivalent, and names HIPIFY does not know.
#include <hip/hip_runtime.h>
#include <cuda/barrier>

int main() {
    cudaInitDevice(0, 0, 0);
    cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                       cudaFlushGPUDirectRDMAWritesToOwner);
    cudaMyHomegrownHelper();
    void* p;
    hipMalloc(&p, 64);
    hipFree(p);
    return 0;
}
