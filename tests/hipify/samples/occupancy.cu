// Driver API occupancy: the calculator's 4th argument is a callback giving the dynamic
// shared memory a block size needs; HIP's module API has no such parameter, so the
// port drops it (a null callback loses nothing; a real one loses its sizes).
#include <cuda.h>
#include <cstdio>

size_t smemForBlock(int blockSize) { return blockSize * sizeof(float); }

int main() {
    CUmodule module;
    CUfunction kernel;
    cuInit(0);
    cuModuleLoad(&module, "scale.cubin");
    cuModuleGetFunction(&kernel, module, "scale");
    int minGrid = 0, block = 0;
    cuOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, 0, 256 * sizeof(float), 0);
    cuOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, smemForBlock, 0, 1024);
    cuOccupancyMaxPotentialBlockSizeWithFlags(&minGrid, &block, kernel,
                                              NULL,
                                              0, 512, CU_OCCUPANCY_DEFAULT);
    printf("%d %d\n", minGrid, block);
    return 0;
}
