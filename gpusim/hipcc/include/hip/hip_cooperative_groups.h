// gpusim's <hip/hip_cooperative_groups.h>: HIP's cooperative groups within a thread block,
// declared from HIP's documentation ("Cooperative groups" in the HIP programming guide):
// thread_group, thread_block, thread_block_tile<N>, this_thread_block(), tiled_partition,
// and the group operations thread_rank(), size(), sync(), meta_group_rank(), shuffles.
//
// Only libclang reads the declarations (`__HIP__`), to translate device code: gpusim maps
// each call to its kernel language (a group is its size; ranks come from threadIdx; sync()
// is __syncthreads() or a wavefront barrier). The host compiler sees an empty namespace,
// so `using namespace cooperative_groups;` compiles in host code.
#pragma once
#include <hip/hip_runtime.h>

#if defined(__HIP__)
namespace cooperative_groups {

class thread_group {
 public:
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ bool is_valid() const;
  __device__ void sync() const;
};

class thread_block : public thread_group {
 public:
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};

class grid_group : public thread_group {
 public:
  __device__ dim3 group_dim() const;
};

class coalesced_group : public thread_group {
 public:
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
};

template <unsigned int Size>
class thread_block_tile : public thread_group {
 public:
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T var, int src_rank) const;
  template <class T> __device__ T shfl_down(T var, unsigned int lane_delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int lane_delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int lane_mask) const;
};

__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
__device__ thread_group tiled_partition(const thread_group& parent, unsigned int tile_size);
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size> tiled_partition(const ParentT& parent);

template <class GroupT> __device__ void sync(GroupT const& g);
template <class GroupT> __device__ unsigned int group_size(GroupT const& g);
template <class GroupT> __device__ unsigned int thread_rank(GroupT const& g);

}  // namespace cooperative_groups
#else
namespace cooperative_groups {}
#endif
