// gpusim's <hip/texture_types.h>: HIP's arrays, resource and texture descriptors, as
// ROCm declares them (field order, enum values and flags from ROCm/HIP's
// include/hip/driver_types.h, texture_types.h and hip_runtime_api.h at c5e11fc). Written
// for gpusim, not copied; gpusim models the runtime and texture objects in
// gpusim/hipcc/textures.py and the sampling in gpusim/hipcc/texfetch.py.
#pragma once
#include <stddef.h>
#include <hip/hip_vector_types.h>

enum hipChannelFormatKind {
  hipChannelFormatKindSigned = 0, hipChannelFormatKindUnsigned = 1,
  hipChannelFormatKindFloat = 2, hipChannelFormatKindNone = 3
};
struct hipChannelFormatDesc {
  int x;
  int y;
  int z;
  int w;
  enum hipChannelFormatKind f;
};
enum hipArray_Format {
  HIP_AD_FORMAT_UNSIGNED_INT8 = 0x01, HIP_AD_FORMAT_UNSIGNED_INT16 = 0x02,
  HIP_AD_FORMAT_UNSIGNED_INT32 = 0x03, HIP_AD_FORMAT_SIGNED_INT8 = 0x08,
  HIP_AD_FORMAT_SIGNED_INT16 = 0x09, HIP_AD_FORMAT_SIGNED_INT32 = 0x0a,
  HIP_AD_FORMAT_HALF = 0x10, HIP_AD_FORMAT_FLOAT = 0x20
};
// An array is opaque to the program here: gpusim hands out handles (ROCm's struct has
// fields, but they are the runtime's, and "It is UB to call hipGet*()" on some of them).
typedef struct hipArray* hipArray_t;
typedef const struct hipArray* hipArray_const_t;
typedef struct hipMipmappedArray* hipMipmappedArray_t;

#define hipArrayDefault 0x00
#define hipArrayLayered 0x01
#define hipArraySurfaceLoadStore 0x02
#define hipArrayCubemap 0x04
#define hipArrayTextureGather 0x08

enum hipResourceType {
  hipResourceTypeArray = 0x00, hipResourceTypeMipmappedArray = 0x01,
  hipResourceTypeLinear = 0x02, hipResourceTypePitch2D = 0x03
};
struct hipResourceDesc {
  enum hipResourceType resType;
  union {
    struct {
      hipArray_t array;
    } array;
    struct {
      hipMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      struct hipChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      struct hipChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
};
enum hipResourceViewFormat { hipResViewFormatNone = 0x00 };
struct hipResourceViewDesc {
  enum hipResourceViewFormat format;
  size_t width;
  size_t height;
  size_t depth;
  unsigned int firstMipmapLevel;
  unsigned int lastMipmapLevel;
  unsigned int firstLayer;
  unsigned int lastLayer;
};

#define hipTextureType1D 0x01
#define hipTextureType2D 0x02
#define hipTextureType3D 0x03
#define hipTextureTypeCubemap 0x0C
#define hipTextureType1DLayered 0xF1
#define hipTextureType2DLayered 0xF2
#define hipTextureTypeCubemapLayered 0xFC
struct __hip_texture;
typedef struct __hip_texture* hipTextureObject_t;
enum hipTextureAddressMode {
  hipAddressModeWrap = 0, hipAddressModeClamp = 1, hipAddressModeMirror = 2,
  hipAddressModeBorder = 3
};
enum hipTextureFilterMode { hipFilterModePoint = 0, hipFilterModeLinear = 1 };
enum hipTextureReadMode { hipReadModeElementType = 0, hipReadModeNormalizedFloat = 1 };
struct hipTextureDesc {
  enum hipTextureAddressMode addressMode[3];
  enum hipTextureFilterMode filterMode;
  enum hipTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum hipTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
};

// 3D copies (hipMemcpy3D)
struct hipPitchedPtr {
  void* ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};
struct hipExtent {
  size_t width;  // elements for an array, bytes for linear memory
  size_t height;
  size_t depth;
};
struct hipPos {
  size_t x;
  size_t y;
  size_t z;
};
struct hipMemcpy3DParms {
  hipArray_t srcArray;
  struct hipPos srcPos;
  struct hipPitchedPtr srcPtr;
  hipArray_t dstArray;
  struct hipPos dstPos;
  struct hipPitchedPtr dstPtr;
  struct hipExtent extent;
  enum hipMemcpyKind kind;
};
static inline struct hipPitchedPtr make_hipPitchedPtr(void* d, size_t p, size_t xsz,
                                                      size_t ysz) {
  struct hipPitchedPtr s = {d, p, xsz, ysz};
  return s;
}
static inline struct hipPos make_hipPos(size_t x, size_t y, size_t z) {
  struct hipPos p = {x, y, z};
  return p;
}
static inline struct hipExtent make_hipExtent(size_t w, size_t h, size_t d) {
  struct hipExtent e = {w, h, d};
  return e;
}

// ROCm exports hipCreateChannelDesc from the runtime; a struct returned by value is
// written here instead (the shim forwards only scalars and pointers), with the same result.
static inline hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w,
                                                        hipChannelFormatKind f) {
  hipChannelFormatDesc d = {x, y, z, w, f};
  return d;
}
#if defined(__cplusplus)
// hipCreateChannelDesc<T>(): the channels of a texel type, as ROCm's
// amd_detail/amd_channel_descriptor.h defines them (bits per channel, kind).
template <class T> static inline hipChannelFormatDesc hipCreateChannelDesc() {
  return hipCreateChannelDesc(0, 0, 0, 0, hipChannelFormatKindNone);
}
#define __GPUSIM_CHANNELS(T, V, bits, kind)                                                \
  template <> inline hipChannelFormatDesc hipCreateChannelDesc<T>() {                    \
    return hipCreateChannelDesc(bits, 0, 0, 0, kind); }                                   \
  template <> inline hipChannelFormatDesc hipCreateChannelDesc<V##1>() {                 \
    return hipCreateChannelDesc(bits, 0, 0, 0, kind); }                                   \
  template <> inline hipChannelFormatDesc hipCreateChannelDesc<V##2>() {                 \
    return hipCreateChannelDesc(bits, bits, 0, 0, kind); }                                \
  template <> inline hipChannelFormatDesc hipCreateChannelDesc<V##4>() {                 \
    return hipCreateChannelDesc(bits, bits, bits, bits, kind); }
__GPUSIM_CHANNELS(char, char, 8, hipChannelFormatKindSigned)
__GPUSIM_CHANNELS(unsigned char, uchar, 8, hipChannelFormatKindUnsigned)
__GPUSIM_CHANNELS(short, short, 16, hipChannelFormatKindSigned)
__GPUSIM_CHANNELS(unsigned short, ushort, 16, hipChannelFormatKindUnsigned)
__GPUSIM_CHANNELS(int, int, 32, hipChannelFormatKindSigned)
__GPUSIM_CHANNELS(unsigned int, uint, 32, hipChannelFormatKindUnsigned)
__GPUSIM_CHANNELS(float, float, 32, hipChannelFormatKindFloat)
#undef __GPUSIM_CHANNELS
template <> inline hipChannelFormatDesc hipCreateChannelDesc<signed char>() {
  return hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindSigned);
}
#endif
