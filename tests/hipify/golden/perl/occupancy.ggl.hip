// Driver API occupancy: the calculator's 4th argument is a callback giving the dynamic
// shared memory a block size needs; HIP's module API has no such parameter, so the
// port drops it (a null callback loses nothing; a real one loses its sizes).
#include <hip/hip_runtime.h>
#include <cstdio>

size_t smemForBlock(int blockSize) { return blockSize * sizeof(float); }

int main() {
    hipModule_t module;
    hipFunction_t kernel;
    hipInit(0);
    hipModuleLoad(&module, "scale.cubin");
    hipModuleGetFunction(&kernel, module, "scale");
    int minGrid = 0, block = 0;
    hipModuleOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, 256 * sizeof(float), 0);
    hipModuleOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, 0, 1024);
    hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&minGrid, &block, kernel, 512, hipOccupancyDefault);
    printf("%d %d\n", minGrid, block);
    return 0;
}
