// gpusim's <hip/math_functions.h>: the C math library on host and device. The host uses
// the C/C++ library as it is; for device code (read by libclang as HIP) the same names
// are declared __device__, as ROCm's device math headers do, so a kernel may call
// sqrtf, std::sqrt, fmaxf, min, ...
#pragma once
#include <math.h>
#include <cmath>
// Newer clang (llvm-project PR #133590, "Reland [HIP] fix host min/max in header", after
// ROCm 6.2) adds host min/max behind two macros, both off by default as there:
// __HIP_DEFINE_EXTENDED_HOST_MIN_MAX__, same-type unsigned/long/long long overloads, and
// __HIP_DEFINE_MIXED_HOST_MIN_MAX__, CUDA's mixed signed/unsigned ones, which return the
// unsigned type and so compare unsigned (min(-1, 1u) is 1u): why they are opt-in.
#if defined(__HIP_DEFINE_EXTENDED_HOST_MIN_MAX__) && __HIP_DEFINE_EXTENDED_HOST_MIN_MAX__
#define __GPUSIM_HOST_EXTENDED(M)                                                       \
  M(unsigned int, unsigned int, unsigned int) M(long, long, long)                       \
  M(unsigned long, unsigned long, unsigned long) M(long long, long long, long long)     \
  M(unsigned long long, unsigned long long, unsigned long long)
#else
#define __GPUSIM_HOST_EXTENDED(M)
#endif
#if defined(__HIP_DEFINE_MIXED_HOST_MIN_MAX__) && __HIP_DEFINE_MIXED_HOST_MIN_MAX__
#define __GPUSIM_HOST_MIXED(M)                                                          \
  M(unsigned int, int, unsigned int) M(unsigned int, unsigned int, int)                 \
  M(unsigned long, long, unsigned long) M(unsigned long, unsigned long, long)           \
  M(unsigned long long, long long, unsigned long long)                                  \
  M(unsigned long long, unsigned long long, long long)
#else
#define __GPUSIM_HOST_MIXED(M)
#endif
#define __GPUSIM_HOST_EXTRA_MINMAX(M) __GPUSIM_HOST_EXTENDED(M) __GPUSIM_HOST_MIXED(M)
#if defined(__HIP__)
#define __GPUSIM_MATH1(fn)                                                              \
  __attribute__((device)) float fn##f(float); __attribute__((device)) double fn(double); \
  namespace std { __attribute__((device)) float fn(float); }
#define __GPUSIM_MATH2(fn)                                                              \
  __attribute__((device)) float fn##f(float, float);                                    \
  __attribute__((device)) double fn(double, double);                                    \
  namespace std { __attribute__((device)) float fn(float, float); }
__GPUSIM_MATH1(sqrt) __GPUSIM_MATH1(rsqrt) __GPUSIM_MATH1(cbrt) __GPUSIM_MATH1(exp)
__GPUSIM_MATH1(exp2) __GPUSIM_MATH1(expm1) __GPUSIM_MATH1(log) __GPUSIM_MATH1(log2)
__GPUSIM_MATH1(log10) __GPUSIM_MATH1(log1p) __GPUSIM_MATH1(sin) __GPUSIM_MATH1(cos)
__GPUSIM_MATH1(tan) __GPUSIM_MATH1(asin) __GPUSIM_MATH1(acos) __GPUSIM_MATH1(atan)
__GPUSIM_MATH1(sinh) __GPUSIM_MATH1(cosh) __GPUSIM_MATH1(tanh) __GPUSIM_MATH1(fabs)
__GPUSIM_MATH1(floor) __GPUSIM_MATH1(ceil) __GPUSIM_MATH1(trunc) __GPUSIM_MATH1(round)
__GPUSIM_MATH1(rint) __GPUSIM_MATH1(erf) __GPUSIM_MATH1(erfc)
__GPUSIM_MATH2(pow) __GPUSIM_MATH2(atan2) __GPUSIM_MATH2(fmin) __GPUSIM_MATH2(fmax)
__GPUSIM_MATH2(fmod) __GPUSIM_MATH2(hypot) __GPUSIM_MATH2(copysign)
#undef __GPUSIM_MATH1
#undef __GPUSIM_MATH2
__attribute__((device)) float fmaf(float, float, float);
__attribute__((device)) double fma(double, double, double);
__attribute__((device)) float __fdividef(float, float);
__attribute__((device)) float __expf(float);
__attribute__((device)) float __logf(float);
__attribute__((device)) float __sinf(float);
__attribute__((device)) float __cosf(float);
__attribute__((device)) float __powf(float, float);
__attribute__((device)) int abs(int);
#define __GPUSIM_MINMAX(T) \
  __attribute__((device)) T min(T, T); __attribute__((device)) T max(T, T);
__GPUSIM_MINMAX(int) __GPUSIM_MINMAX(unsigned) __GPUSIM_MINMAX(long)
__GPUSIM_MINMAX(unsigned long) __GPUSIM_MINMAX(long long) __GPUSIM_MINMAX(unsigned long long)
__GPUSIM_MINMAX(float) __GPUSIM_MINMAX(double)
#undef __GPUSIM_MINMAX
// Host code's min/max, as clang's __clang_hip_math.h declares them by default for ROCm:
// only `int min(int, int)` / `int max(int, int)`, so host code's `max(1, n / 2)` builds,
// and `max(a_float, 1.0f)` builds too, converting to int, as ROCm's clang does. (The host
// compiler, below, also has the float overloads, for device code: there it stays float.)
#define __GPUSIM_HOST_MINMAX(R, A, B)                                                   \
  __attribute__((host)) R min(A, B); __attribute__((host)) R max(A, B);
__GPUSIM_HOST_MINMAX(int, int, int)
__GPUSIM_HOST_EXTRA_MINMAX(__GPUSIM_HOST_MINMAX)
#undef __GPUSIM_HOST_MINMAX
namespace std {
__attribute__((device)) bool isnan(float); __attribute__((device)) bool isinf(float);
__attribute__((device)) bool isfinite(float);
__attribute__((device)) bool isnan(double); __attribute__((device)) bool isinf(double);
__attribute__((device)) bool isfinite(double);
__attribute__((device)) float abs(float); __attribute__((device)) double abs(double);
__attribute__((device)) int abs(int);
}
#else
// The host compiler also compiles the device functions (their attributes vanish), so it
// declares the device overloads too, as host functions; and the opt-in mixed ones.
#define __GPUSIM_MINMAX(T) \
  inline T min(T a, T b) { return b < a ? b : a; } inline T max(T a, T b) { return a < b ? b : a; }
__GPUSIM_MINMAX(int) __GPUSIM_MINMAX(unsigned) __GPUSIM_MINMAX(long)
__GPUSIM_MINMAX(unsigned long) __GPUSIM_MINMAX(long long) __GPUSIM_MINMAX(unsigned long long)
__GPUSIM_MINMAX(float) __GPUSIM_MINMAX(double)
#undef __GPUSIM_MINMAX
// Usual arithmetic conversions: a mixed pair compares as the unsigned type, as CUDA's do.
#define __GPUSIM_HOST_MINMAX(R, A, B)                                                   \
  inline R min(A a, B b) { return b < a ? b : a; }                                      \
  inline R max(A a, B b) { return a < b ? b : a; }
__GPUSIM_HOST_MIXED(__GPUSIM_HOST_MINMAX)
#undef __GPUSIM_HOST_MINMAX
#endif
