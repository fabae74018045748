"""The same kernels in HIP C++ and in the Python kernel language (written the way a
learner would, independently of the translator's output)."""

import math

import numpy as np

from gpusim import hip

CPP = r"""
#include <hip/hip_runtime.h>
#define TILE 16

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__device__ float square(float v) { return v * v; }

__device__ void accumulate(float* dst, float v) { atomicAdd(dst, v); }

__global__ void block_sum(const float* in, float* out, int n) {
  extern __shared__ float partial[];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? square(in[i]) : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) accumulate(&out[0], partial[0]);
}

__global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[TILE][TILE];
  __shared__ float tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

__global__ void wave_max(const int* in, int* out) {
  int orig = in[blockIdx.x * blockDim.x + threadIdx.x];
  int v = orig;
  for (int d = warpSize / 2; d > 0; d /= 2) v = max(v, __shfl_xor(v, d));
  if (threadIdx.x % warpSize == 0) atomicMax(&out[0], v);
  unsigned long long votes = __ballot(orig > 0);
  if (blockIdx.x == 0 && threadIdx.x == 0) out[1] = __popcll(votes);
}

template <typename T>
__global__ void scale_rows(T* m, int cols, T factor) {
  T* row = m + blockIdx.x * cols;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) row[j] = row[j] * factor;
}
template __global__ void scale_rows<float>(float*, int, float);
template __global__ void scale_rows<double>(double*, int, double);

__global__ void collatz_steps(const int* start, int* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = start[i];
  int count = 0;
  while (x != 1) {
    if (x % 2 == 0) x = x / 2;
    else x = 3 * x + 1;
    count++;
  }
  int local[4] = {1, 2, 3, 4};
  int extra = 0;
  int k = 0;
  do { extra += local[k]; k++; } while (k < 4);
  steps[i] = count + extra - 10 + (int)sqrtf((float)(count * count));
}
"""


@hip.jit
def saxpy(n, a, x, y):
    i = hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x
    if i < n:
        y[i] = a * x[i] + y[i]


@hip.jit(device=True)
def square(v):
    return v * v


@hip.jit
def block_sum(inp, out, n):
    partial = hip.shared.array(0, hip.float32)
    tid = hip.threadIdx.x
    i = hip.blockIdx.x * hip.blockDim.x + tid
    partial[tid] = square(inp[i]) if i < n else np.float32(0.0)
    hip.syncthreads()
    s = hip.blockDim.x // 2
    while s > 0:
        if tid < s:
            partial[tid] += partial[tid + s]
        hip.syncthreads()
        s >>= 1
    if tid == 0:
        hip.atomic.add(out, 0, partial[0])


def numpy_collatz(start):
    steps = []
    for x in start:
        count = 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            count += 1
        steps.append(count + math.isqrt(count * count))
    return np.array(steps)
