#include "hip/hip_runtime.h"
// A block reduction written for 32-lane warps: every wave64 hazard in one place.
#include <hip/hip_runtime.h>

__inline__ __device__ float warpReduceSum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void blockSum(const float* in, float* out, int n) {
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x >> 5;
    float v = i < n ? in[i] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    int nwarps = blockDim.x / warpSize;
    v = threadIdx.x < nwarps ? partial[lane] : 0.0f;
    if (warp == 0) v = warpReduceSum(v);
    unsigned int positive = __ballot_sync(0xffffffff, v > 0.0f);
    if (threadIdx.x == 0) atomicAdd(out, v + __popc(positive) * 0.0f);
    int first = __shfl_sync(0xffffffff, lane, 0, 32);
}
