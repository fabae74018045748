"""hipLaunchCooperativeKernel and grid groups: ``this_grid().sync()`` is a barrier across
the whole launch, and a grid larger than the device holds at once is refused as HIP does
(hipErrorCooperativeLaunchTooLarge). References: the host's own C++ and NumPy."""

import numpy as np

from gpusim import hipcc

PROGRAM = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

// Each block sums its slice into partial[blockIdx]; after the grid sync, every thread
// reads all the partials (written by other blocks) and stores the total.
__global__ void two_phase(const int* in, int* partial, int* total, unsigned* ranks) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int s[64];
  unsigned r = block.thread_rank();
  s[r] = in[(blockIdx.y * gridDim.x + blockIdx.x) * 64 + r];
  block.sync();
  if (r == 0) {
    int sum = 0;
    for (int k = 0; k < 64; k++) sum += s[k];
    partial[blockIdx.y * gridDim.x + blockIdx.x] = sum;
  }
  ranks[grid.thread_rank()] = grid.size();
  grid.sync();
  int t = 0;
  for (unsigned b = 0; b < gridDim.x * gridDim.y; b++) t += partial[b];
  total[grid.thread_rank()] = t;
}

__global__ void plain(int* a) { a[blockIdx.x] = 1; }

int main() {
  int coop = 0;
  hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0);
  const int nb = 8, n = nb * 64;
  int h[n], expected = 0;
  for (int i = 0; i < n; i++) { h[i] = (i * 37) % 101 - 50; }
  int *in, *partial, *total;
  unsigned* ranks;
  hipMalloc(&in, sizeof(h)); hipMalloc(&partial, nb * sizeof(int));
  hipMalloc(&total, sizeof(h)); hipMalloc(&ranks, n * sizeof(unsigned));
  hipMemcpy(in, h, sizeof(h), hipMemcpyHostToDevice);
  void* args[] = {&in, &partial, &total, &ranks};
  hipError_t e = hipLaunchCooperativeKernel(two_phase, dim3(4, 2), dim3(64), args, 0, 0);
  int t[n];
  unsigned rk[n];
  hipMemcpy(t, total, sizeof(t), hipMemcpyDeviceToHost);
  hipMemcpy(rk, ranks, sizeof(rk), hipMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) expected += h[i];
  int bad = 0;
  for (int i = 0; i < n; i++) bad += t[i] != expected || rk[i] != (unsigned)n;
  printf("coop %d launch %d expected %d bad %d\n", coop, (int)e, expected, bad);

  // HIP's limit: blocks per CU (the occupancy calculator) times the CU count.
  int per_cu = 0, cus = 0;
  hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, plain, 1024, 0);
  hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0);
  int* a;
  hipMalloc(&a, (per_cu * cus + 1) * sizeof(int));
  void* pargs[] = {&a};
  hipError_t fits = hipLaunchCooperativeKernel(plain, dim3(per_cu * cus), dim3(1024), pargs,
                                               0, 0);
  hipError_t over = hipLaunchCooperativeKernel(plain, dim3(per_cu * cus + 1), dim3(1024),
                                               pargs, 0, 0);
  printf("fits %d over %d %d last %d\n", (int)fits, (int)over,
         (int)(over == hipErrorCooperativeLaunchTooLarge), (int)hipGetLastError());
  return 0;
}
"""


def test_grid_sync_in_a_cooperative_launch(capfd, fresh_system):
    mod = hipcc.compile(PROGRAM)
    assert mod.run() == 0
    first, second = capfd.readouterr().out.splitlines()
    h = (np.arange(8 * 64) * 37) % 101 - 50
    assert first == f"coop 1 launch 0 expected {int(h.sum())} bad 0"
    assert second == "fits 0 over 720 1 last 720"
