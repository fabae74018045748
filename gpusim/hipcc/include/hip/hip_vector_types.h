// gpusim's <hip/hip_vector_types.h>: HIP's short vector types (float4, int2, uint2, ...)
// with their .x .y .z .w members and make_<type>() constructors (HIP's documentation,
// "Vector types"). Plain structs here; gpusim translates their use in kernels field by field.
#pragma once
#if defined(__HIP__)
#define __GPUSIM_VEC_HD __attribute__((host, device))
#else
#define __GPUSIM_VEC_HD
#endif
// == and != compare every component (ROCm's vector types have them: a test that checks
// texels, hip-tests' texture2dDrv.cpp, compares char4 values with !=)
#define __GPUSIM_VEC_EQ(V, all)                                                          \
  static inline __GPUSIM_VEC_HD bool operator==(const V& a, const V& b) { return all; } \
  static inline __GPUSIM_VEC_HD bool operator!=(const V& a, const V& b) { return !(a == b); }
#define __GPUSIM_VECTOR(T, name)                                                        \
  struct name##1 { T x; };                                                              \
  struct name##2 { T x, y; };                                                           \
  struct name##3 { T x, y, z; };                                                        \
  struct name##4 { T x, y, z, w; };                                                     \
  static inline __GPUSIM_VEC_HD name##1 make_##name##1(T x) { return name##1{x}; }      \
  static inline __GPUSIM_VEC_HD name##2 make_##name##2(T x, T y) { return name##2{x, y}; } \
  static inline __GPUSIM_VEC_HD name##3 make_##name##3(T x, T y, T z) {                 \
    return name##3{x, y, z}; }                                                          \
  static inline __GPUSIM_VEC_HD name##4 make_##name##4(T x, T y, T z, T w) {            \
    return name##4{x, y, z, w}; }                                                       \
  __GPUSIM_VEC_EQ(name##1, a.x == b.x) __GPUSIM_VEC_EQ(name##2, a.x == b.x && a.y == b.y) \
  __GPUSIM_VEC_EQ(name##3, a.x == b.x && a.y == b.y && a.z == b.z)                      \
  __GPUSIM_VEC_EQ(name##4, a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w)
__GPUSIM_VECTOR(char, char) __GPUSIM_VECTOR(unsigned char, uchar)
__GPUSIM_VECTOR(short, short) __GPUSIM_VECTOR(unsigned short, ushort)
__GPUSIM_VECTOR(int, int) __GPUSIM_VECTOR(unsigned int, uint)
__GPUSIM_VECTOR(long, long) __GPUSIM_VECTOR(unsigned long, ulong)
__GPUSIM_VECTOR(long long, longlong) __GPUSIM_VECTOR(unsigned long long, ulonglong)
__GPUSIM_VECTOR(float, float) __GPUSIM_VECTOR(double, double)
#undef __GPUSIM_VECTOR
#undef __GPUSIM_VEC_EQ
