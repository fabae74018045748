"""Cooperative groups within a block (this_thread_block, tiled_partition, thread_group
parameters, tile shuffles) and lambdas in device code, against NumPy."""

import numpy as np
import pytest

from gpusim import hip, hipcc

CPP = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;

// The rocm-examples reduction: one function for a whole block or a tile of it.
__device__ unsigned reduce_sum(cg::thread_group g, unsigned* x, unsigned val) {
  const unsigned rank = g.thread_rank();
  for (unsigned i = g.size() / 2; i > 0; i /= 2) {
    x[rank] = val;
    g.sync();
    if (rank < i) val += x[rank + i];
    g.sync();
  }
  return g.thread_rank() == 0 ? val : 0;
}

__global__ void block_and_tiles(const unsigned* in, unsigned* block_sum, unsigned* tile_sum,
                                unsigned* ranks) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ unsigned work[256];
  unsigned r = block.thread_rank();            // x + y * blockDim.x
  unsigned v = in[blockIdx.x * block.size() + r];
  unsigned total = reduce_sum(block, work, v);
  if (r == 0) block_sum[blockIdx.x] = total;
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  unsigned base = r - tile.thread_rank();
  unsigned part = reduce_sum(tile, &work[base], v);
  if (tile.thread_rank() == 0)
    tile_sum[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = part;
  ranks[blockIdx.x * block.size() + r] = block.thread_index().y * 1000 + tile.thread_rank();
  cg::sync(block);
}

__global__ void tile_shuffles(const float* in, float* out) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<8>(block);
  float v = in[block.group_index().x * block.size() + block.thread_rank()];
  for (int d = tile.size() / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
  float first = tile.shfl(v, 0);
  cg::thread_group g4 = cg::tiled_partition(block, 4);
  if (g4.thread_rank() == 0)
    out[block.group_index().x * block.size() + block.thread_rank()] = first;
  else
    out[block.group_index().x * block.size() + block.thread_rank()] = -1.0f;
}

__global__ void lambdas(const float* in, float* out, int n, float bias) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto load = [&](int k) { return k < n ? in[k] : bias; };   // captures in, n, bias
  auto sq = [](float x) { return x * x; };
  if (i < n + 5) out[i] = sq(load(i)) + sq(load(i + 1) - 1.0f);
  if (i < n) out[64 + i] = (i & 1) ? sq(in[i] + 1.0f) : 0.0f;  // evaluated only sometimes
}
"""


@pytest.fixture(scope="module")
def mod():
    return hipcc.compile(CPP)


def test_block_and_tile_reductions_through_a_thread_group_parameter(mod, fresh_system):
    assert not mod.errors
    rng = np.random.default_rng(0)
    data = rng.integers(0, 1000, 2 * 128).astype(np.uint32)
    block_sum = hip.to_device(np.zeros(2, np.uint32))
    tile_sum = hip.to_device(np.zeros(16, np.uint32))
    ranks = hip.to_device(np.zeros(256, np.uint32))
    mod.get_kernel("block_and_tiles")[2, (32, 4)](hip.to_device(data), block_sum, tile_sum,
                                                   ranks)
    np.testing.assert_array_equal(block_sum.copy_to_host(), data.reshape(2, 128).sum(axis=1))
    np.testing.assert_array_equal(tile_sum.copy_to_host(), data.reshape(16, 16).sum(axis=1))
    r = np.arange(128)
    want = (r // 32) * 1000 + r % 16  # threadIdx.y and the rank within the 16-thread tile
    np.testing.assert_array_equal(ranks.copy_to_host(), np.tile(want, 2))


def test_tile_shuffles_and_dynamic_tiles(mod, fresh_system):
    data = np.arange(128, dtype=np.float32)
    out = hip.to_device(np.zeros(128, np.float32))
    mod.get_kernel("tile_shuffles")[2, 64](hip.to_device(data), out)
    sums = data.reshape(16, 8).sum(axis=1)  # shfl_down leaves each tile's sum in rank 0
    want = np.where(np.arange(128) % 4 == 0, np.repeat(sums, 8), -1.0)
    np.testing.assert_array_equal(out.copy_to_host(), want)


def test_lambdas_with_and_without_captures(mod, fresh_system):
    n = 50
    x = np.random.default_rng(1).integers(-9, 9, n).astype(np.float32)
    out = hip.to_device(np.zeros(128, np.float32))
    mod.get_kernel("lambdas")[1, 64](hip.to_device(x), out, n, 2.0)
    padded = np.concatenate([x, np.full(10, 2.0, np.float32)])
    want = padded[:n + 5] ** 2 + (padded[1:n + 6] - 1) ** 2
    got = out.copy_to_host()
    np.testing.assert_array_equal(got[:n + 5], want)
    np.testing.assert_array_equal(got[64:64 + n], np.where(np.arange(n) & 1, (x + 1) ** 2, 0))


def test_device_lambda_passed_to_a_template_kernel_from_main(capfd):
    """The reduction tutorial's pattern: a __device__ lambda made in main() is the
    kernel's operation; its type picks the kernel instance."""
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    #include <stdio.h>
    template <typename T, typename F>
    __global__ void reduce(const T* in, T* out, F op, T zero, unsigned n) {
      extern __shared__ T s[];
      unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid;
      s[tid] = gid < n ? in[gid] : zero;
      __syncthreads();
      for (unsigned i = blockDim.x / 2; i > 0; i /= 2) {
        if (tid < i) s[tid] = op(s[tid], s[tid + i]);
        __syncthreads();
      }
      if (tid == 0) out[blockIdx.x] = s[0];
    }
    int main() {
      const unsigned n = 1000;
      unsigned h[n];
      for (unsigned i = 0; i < n; i++) h[i] = (i * 7919u) % 1000u;
      unsigned *in, *out, r[4];
      hipMalloc(&in, sizeof(h)); hipMalloc(&out, sizeof(r));
      hipMemcpy(in, h, sizeof(h), hipMemcpyHostToDevice);
      auto biggest = [] __device__(unsigned a, unsigned b) { return a > b ? a : b; };
      reduce<<<4, 256, 256 * sizeof(unsigned)>>>(in, out, biggest, 0u, n);
      hipMemcpy(r, out, sizeof(r), hipMemcpyDeviceToHost);
      printf("%u %u %u %u\n", r[0], r[1], r[2], r[3]);
      return 0;
    }""")
    assert mod.run() == 0
    h = (np.arange(1000, dtype=np.uint64) * 7919) % 1000
    want = [int(h[k * 256:(k + 1) * 256].max()) for k in range(4)]
    assert capfd.readouterr().out.split() == [str(w) for w in want]


@pytest.mark.parametrize("body, construct", [
    ("auto f = [](int k) { int j = k; return j; }; a[0] = f(1);",
     "calling a lambda whose body is more than `return expr;`"),
    ("cg::coalesced_group g = cg::coalesced_threads(); g.sync();",
     "a `cg::coalesced_group` variable"),
])
def test_unsupported_group_and_lambda_forms_say_what_to_write(body, construct):
    mod = hipcc.compile("#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n"
                        "namespace cg = cooperative_groups;\n"
                        f"__global__ void k(int* a) {{ {body} }}")
    err = mod.errors["k"]
    assert err.construct == construct
    assert "Instead:" in str(err)


def _barrier_chosen_at_run_time(a, n):
    s = hip.shared.array(64, np.int32)
    t = hip.threadIdx.x
    s[t] = a[t]
    if n > 32:  # both branches hold only a barrier: the generated code needs `pass`
        hip.syncthreads()
    else:
        hip.syncwarp()
    a[t] = s[63 - t]


def test_uniform_branches_holding_only_barriers(fresh_system):
    kernel = hip.jit(_barrier_chosen_at_run_time)
    for n in (64, 16):
        a = np.arange(64, dtype=np.int32)
        kernel[1, 64](a, np.int32(n))
        np.testing.assert_array_equal(a, np.arange(64)[::-1])
