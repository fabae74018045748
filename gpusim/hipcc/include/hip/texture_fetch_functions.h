// gpusim's texture fetch functions (HIP's texture_fetch_functions.h and
// texture_indirect_functions.h declare them for ROCm): the texture-object forms, a
// template on the result type (tex2D<float>(obj, x, y), tex2D<float4>(...)). Declared
// only: gpusim translates each call into its kernel language (gpusim/hipcc/textures.py,
// the sampling in gpusim/hipcc/texfetch.py).
#pragma once
#include <hip/hip_runtime_api.h>

template <class T> __device__ T tex1Dfetch(hipTextureObject_t obj, int x);
template <class T> __device__ T tex1D(hipTextureObject_t obj, float x);
template <class T> __device__ T tex2D(hipTextureObject_t obj, float x, float y);
template <class T> __device__ T tex3D(hipTextureObject_t obj, float x, float y, float z);
template <class T> __device__ T tex1DLayered(hipTextureObject_t obj, float x, int layer);
template <class T> __device__ T tex2DLayered(hipTextureObject_t obj, float x, float y,
                                             int layer);
template <class T> __device__ T texCubemap(hipTextureObject_t obj, float x, float y,
                                           float z);
