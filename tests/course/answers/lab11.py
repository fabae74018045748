"""Lab 11 (HIP C++): students' block reductions and padded transposes, as C++ source
built with gpusim.hipcc (what a %%hip cell does)."""

from __future__ import annotations

from answers import right, wrong

HEAD = """#include <hip/hip_runtime.h>
__global__ void block_sum(const float* in, float* total, int n) {
    __shared__ float part[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
"""


def _kernel(source: str, name: str):
    def build():
        from gpusim import hipcc
        return (hipcc.compile(source).get_kernel(name),)
    return build


def _sum(body: str):
    return _kernel(HEAD + body + "}\n", "block_sum")


SOLUTION = """    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, part[0]);
"""
SHIFTS = """    unsigned t = threadIdx.x;
    for (unsigned s = blockDim.x >> 1; s != 0; s >>= 1) {
        if (t < s) {
            part[t] = part[t] + part[t + s];
        }
        __syncthreads();
    }
    if (t == 0) { atomicAdd(&total[0], part[0]); }
"""
WHILE = """    int s = 128;
    while (s >= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
        s = s / 2;
    }
    if (threadIdx.x == 0) atomicAdd(total, part[0]);
"""
NO_SYNC = SOLUTION.replace("        __syncthreads();\n", "")
EVERY_THREAD = SOLUTION.replace("if (threadIdx.x == 0) ", "")
PLAIN_ADD = SOLUTION.replace("atomicAdd(total, part[0]);", "*total += part[0];")
STARTER = ""
OFF_BY_ONE = SOLUTION.replace("s > 0", "s > 1")

TRANSPOSE = """#include <hip/hip_runtime.h>
__global__ void transpose_padded(const float* a, float* out, int n) {
    __shared__ float tile[32][WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = a[(blockIdx.y * 32 + ty) * n + blockIdx.x * 32 + tx];
    SYNC
    out[(blockIdx.x * 32 + ty) * n + blockIdx.y * 32 + tx] = tile[tx][ty];
}
"""
FLAT = """#include <hip/hip_runtime.h>
#define TILE 32
__global__ void transpose_padded(const float* a, float* out, int n) {
    __shared__ float tile[TILE * (TILE + 1)];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty * (TILE + 1) + tx] = a[(blockIdx.y * TILE + ty) * n + blockIdx.x * TILE + tx];
    __syncthreads();
    out[(blockIdx.x * TILE + ty) * n + blockIdx.y * TILE + tx] = tile[tx * (TILE + 1) + ty];
}
"""


def _t(width: str, sync: str = "__syncthreads();", swap: bool = False):
    src = TRANSPOSE.replace("WIDTH", width).replace("SYNC", sync)
    if swap:
        src = src.replace("= tile[tx][ty];", "= tile[ty][tx];")
    return _kernel(src, "transpose_padded")


ANSWERS = [
    right("11.1", "the solution", _sum(SOLUTION)),
    right("11.1", "unsigned shifts, braces", _sum(SHIFTS)),
    right("11.1", "while loop from 128", _sum(WHILE)),
    wrong("11.1", "no barrier in the loop", ["race", "C++ line 8", "__syncthreads()"],
          _sum(NO_SYNC)),
    wrong("11.1", "starter: no reduction", ["*total is 0", "too small"], _sum(STARTER)),
    wrong("11.1", "every thread adds", ["*total", "too large"], _sum(EVERY_THREAD)),
    wrong("11.1", "plain add instead of atomicAdd", ["race", "total"], _sum(PLAIN_ADD)),
    wrong("11.1", "loop stops at s = 2", ["*total", "too small"], _sum(OFF_BY_ONE)),
    right("11.2", "rows of 33", _t("33")),
    right("11.2", "rows of 32 + 1", _t("32 + 1")),
    right("11.2", "a flat tile with a padded pitch", _kernel(FLAT, "transpose_padded")),
    wrong("11.2", "starter: rows of 32", ["32-way bank conflicts"], _t("32")),
    wrong("11.2", "rows of 34", ["2-way bank conflicts"], _t("34")),
    wrong("11.2", "no barrier", ["race", "tile", "C++ line 7", "C++ line 5"], _t("33", "")),
    wrong("11.2", "tile read as written", ["not itself transposed", "tile[tx][ty]"],
          _t("33", swap=True)),
]
