// gpusim's <hip/hip_fp16.h>: HIP's half precision types and functions, written for gpusim
// from HIP's documented API (ROCm's amd_hip_fp16.h names and signatures): __half,
// __half2 (members .x and .y), half/half2, conversions, arithmetic, comparisons and math.
//
// __half is clang's _Float16, so the C++ rules that HIP's __half class spells out with
// constructors and operators are the language's own: float <-> __half converts implicitly
// (round to nearest even), and + - * / and comparisons of two halves are half arithmetic,
// each result rounded once to half, as HIP's operators do. __half2 is a plain struct of two
// halves, as HIP lays it out ({x, y}: 4 bytes), with HIP's constructors and operators.
//
// Read twice, like <hip/hip_runtime.h>: by libclang as HIP (`__HIP__`), where gpusim
// translates each call by name to its kernel language (float16 numbers; see
// gpusim/hipcc/builtins.py HALF); and by the host compiler, which compiles the inline
// bodies below: host code may convert and combine halves too (HIP's __host__ __device__
// functions), e.g. to fill an array of __half2 that hipMemcpy copies to the device.
#pragma once
#include <hip/hip_vector_types.h>

#if defined(__HIP__)
#define __GPUSIM_HALF_HD __attribute__((host, device))
#define __GPUSIM_HALF_D __attribute__((device))
#else
#define __GPUSIM_HALF_HD
#endif
#define __GPUSIM_HALF_FN static inline __GPUSIM_HALF_HD

typedef _Float16 __half;

struct __half2 {
  __half x, y;
  __half2() = default;
  __GPUSIM_HALF_HD __half2(__half x_, __half y_) : x(x_), y(y_) {}
};

typedef __half half;
typedef __half2 half2;

// ---- conversions (float -> half rounds to nearest even; half -> float is exact)
__GPUSIM_HALF_FN __half __float2half(float a) { return (__half)a; }
__GPUSIM_HALF_FN __half __float2half_rn(float a) { return (__half)a; }
__GPUSIM_HALF_FN __half __double2half(double a) { return (__half)a; }
__GPUSIM_HALF_FN float __half2float(__half a) { return (float)a; }
__GPUSIM_HALF_FN __half __int2half_rn(int a) { return (__half)a; }
__GPUSIM_HALF_FN __half __uint2half_rn(unsigned int a) { return (__half)a; }
__GPUSIM_HALF_FN __half __short2half_rn(short a) { return (__half)a; }
__GPUSIM_HALF_FN __half __ushort2half_rn(unsigned short a) { return (__half)a; }
__GPUSIM_HALF_FN int __half2int_rz(__half a) { return (int)a; }
__GPUSIM_HALF_FN unsigned int __half2uint_rz(__half a) { return (unsigned int)a; }
__GPUSIM_HALF_FN short __half2short_rz(__half a) { return (short)a; }
__GPUSIM_HALF_FN unsigned short __half2ushort_rz(__half a) { return (unsigned short)a; }
__GPUSIM_HALF_FN __half2 __float2half2_rn(float a) { return __half2((__half)a, (__half)a); }
__GPUSIM_HALF_FN __half2 __floats2half2_rn(float a, float b) {
  return __half2((__half)a, (__half)b);
}
__GPUSIM_HALF_FN __half2 __float22half2_rn(float2 a) {
  return __half2((__half)a.x, (__half)a.y);
}
__GPUSIM_HALF_FN float2 __half22float2(__half2 a) { return float2{(float)a.x, (float)a.y}; }
__GPUSIM_HALF_FN float __low2float(__half2 a) { return (float)a.x; }
__GPUSIM_HALF_FN float __high2float(__half2 a) { return (float)a.y; }

// ---- building and taking apart __half2
__GPUSIM_HALF_FN __half2 make_half2(__half x, __half y) { return __half2(x, y); }
__GPUSIM_HALF_FN __half2 __halves2half2(__half x, __half y) { return __half2(x, y); }
__GPUSIM_HALF_FN __half2 __half2half2(__half a) { return __half2(a, a); }
__GPUSIM_HALF_FN __half __low2half(__half2 a) { return a.x; }
__GPUSIM_HALF_FN __half __high2half(__half2 a) { return a.y; }
__GPUSIM_HALF_FN __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
__GPUSIM_HALF_FN __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
__GPUSIM_HALF_FN __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__GPUSIM_HALF_FN __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__GPUSIM_HALF_FN __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }

// ---- arithmetic: each result rounded once to half (__hfma: a * b + c rounded once)
__GPUSIM_HALF_FN __half __hadd(__half a, __half b) { return a + b; }
__GPUSIM_HALF_FN __half __hsub(__half a, __half b) { return a - b; }
__GPUSIM_HALF_FN __half __hmul(__half a, __half b) { return a * b; }
__GPUSIM_HALF_FN __half __hdiv(__half a, __half b) { return a / b; }
// (exact in double: a product of halves has 22 bits, so one rounding, to half, remains)
__GPUSIM_HALF_FN __half __hfma(__half a, __half b, __half c) {
  return (__half)__builtin_fma((double)a, (double)b, (double)c);
}
__GPUSIM_HALF_FN __half __hneg(__half a) { return -a; }
__GPUSIM_HALF_FN __half __habs(__half a) { return (__half)__builtin_fabsf((float)a); }
// IEEE fmax/fmin, as ROCm's: a NaN operand gives the other one
__GPUSIM_HALF_FN __half __hmax(__half a, __half b) { return a != a || b > a ? b : a; }
__GPUSIM_HALF_FN __half __hmin(__half a, __half b) { return a != a || b < a ? b : a; }

__GPUSIM_HALF_FN __half2 __hadd2(__half2 a, __half2 b) { return __half2(a.x + b.x, a.y + b.y); }
__GPUSIM_HALF_FN __half2 __hsub2(__half2 a, __half2 b) { return __half2(a.x - b.x, a.y - b.y); }
__GPUSIM_HALF_FN __half2 __hmul2(__half2 a, __half2 b) { return __half2(a.x * b.x, a.y * b.y); }
__GPUSIM_HALF_FN __half2 __h2div(__half2 a, __half2 b) { return __half2(a.x / b.x, a.y / b.y); }
__GPUSIM_HALF_FN __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__GPUSIM_HALF_FN __half2 __hneg2(__half2 a) { return __half2(-a.x, -a.y); }
__GPUSIM_HALF_FN __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
__GPUSIM_HALF_FN __half2 __hmax2(__half2 a, __half2 b) {
  return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y));
}
__GPUSIM_HALF_FN __half2 __hmin2(__half2 a, __half2 b) {
  return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y));
}

// ---- comparisons. As ROCm's: __hne is C's != (true if either is NaN), the ...u forms
// are true for unordered operands; __heq2 ... give 1.0 or 0.0 per half, __hbeq2 ... true
// if both halves compare true.
__GPUSIM_HALF_FN bool __heq(__half a, __half b) { return a == b; }
__GPUSIM_HALF_FN bool __hne(__half a, __half b) { return a != b; }
__GPUSIM_HALF_FN bool __hlt(__half a, __half b) { return a < b; }
__GPUSIM_HALF_FN bool __hle(__half a, __half b) { return a <= b; }
__GPUSIM_HALF_FN bool __hgt(__half a, __half b) { return a > b; }
__GPUSIM_HALF_FN bool __hge(__half a, __half b) { return a >= b; }
__GPUSIM_HALF_FN bool __hequ(__half a, __half b) { return !(a < b) && !(a > b); }
__GPUSIM_HALF_FN bool __hneu(__half a, __half b) { return !(a == b); }
__GPUSIM_HALF_FN bool __hltu(__half a, __half b) { return !(a >= b); }
__GPUSIM_HALF_FN bool __hleu(__half a, __half b) { return !(a > b); }
__GPUSIM_HALF_FN bool __hgtu(__half a, __half b) { return !(a <= b); }
__GPUSIM_HALF_FN bool __hgeu(__half a, __half b) { return !(a < b); }
__GPUSIM_HALF_FN bool __hisnan(__half a) { return a != a; }
__GPUSIM_HALF_FN bool __hisinf(__half a) { return __builtin_isinf((float)a); }
#define __GPUSIM_HALF2_CMP(name, test)                                                  \
  __GPUSIM_HALF_FN __half2 name##2(__half2 a, __half2 b) {                              \
    return __half2(name(a.x, b.x) ? 1 : 0, name(a.y, b.y) ? 1 : 0); }                   \
  __GPUSIM_HALF_FN bool __hb##test##2(__half2 a, __half2 b) {                          \
    return name(a.x, b.x) && name(a.y, b.y); }
__GPUSIM_HALF2_CMP(__heq, eq) __GPUSIM_HALF2_CMP(__hne, ne) __GPUSIM_HALF2_CMP(__hlt, lt)
__GPUSIM_HALF2_CMP(__hle, le) __GPUSIM_HALF2_CMP(__hgt, gt) __GPUSIM_HALF2_CMP(__hge, ge)
__GPUSIM_HALF2_CMP(__hequ, equ) __GPUSIM_HALF2_CMP(__hneu, neu)
__GPUSIM_HALF2_CMP(__hltu, ltu) __GPUSIM_HALF2_CMP(__hleu, leu)
__GPUSIM_HALF2_CMP(__hgtu, gtu) __GPUSIM_HALF2_CMP(__hgeu, geu)
#undef __GPUSIM_HALF2_CMP

// ---- __half2 operators, as HIP's: per half; == and < when both halves compare so,
// != <= >= their negations as ROCm writes them (!(a == b), !(b < a), !(a < b))
__GPUSIM_HALF_FN __half2 operator+(const __half2& a, const __half2& b) { return __hadd2(a, b); }
__GPUSIM_HALF_FN __half2 operator-(const __half2& a, const __half2& b) { return __hsub2(a, b); }
__GPUSIM_HALF_FN __half2 operator*(const __half2& a, const __half2& b) { return __hmul2(a, b); }
__GPUSIM_HALF_FN __half2 operator/(const __half2& a, const __half2& b) { return __h2div(a, b); }
__GPUSIM_HALF_FN __half2 operator-(const __half2& a) { return __hneg2(a); }
__GPUSIM_HALF_FN __half2 operator+(const __half2& a) { return a; }
__GPUSIM_HALF_FN __half2& operator+=(__half2& a, const __half2& b) { return a = a + b; }
__GPUSIM_HALF_FN __half2& operator-=(__half2& a, const __half2& b) { return a = a - b; }
__GPUSIM_HALF_FN __half2& operator*=(__half2& a, const __half2& b) { return a = a * b; }
__GPUSIM_HALF_FN __half2& operator/=(__half2& a, const __half2& b) { return a = a / b; }
__GPUSIM_HALF_FN bool operator==(const __half2& a, const __half2& b) { return __hbeq2(a, b); }
__GPUSIM_HALF_FN bool operator!=(const __half2& a, const __half2& b) { return !(a == b); }
__GPUSIM_HALF_FN bool operator<(const __half2& a, const __half2& b) { return __hblt2(a, b); }
__GPUSIM_HALF_FN bool operator>(const __half2& a, const __half2& b) { return b < a; }
__GPUSIM_HALF_FN bool operator<=(const __half2& a, const __half2& b) { return !(b < a); }
__GPUSIM_HALF_FN bool operator>=(const __half2& a, const __half2& b) { return !(a < b); }

#if defined(__HIP__)
// ---- device-only math (ROCm's: __device__ functions of the device library)
#define __GPUSIM_HALF_MATH(name)                                                        \
  __GPUSIM_HALF_D __half h##name(__half); __GPUSIM_HALF_D __half2 h2##name(__half2);
__GPUSIM_HALF_MATH(sqrt) __GPUSIM_HALF_MATH(rsqrt) __GPUSIM_HALF_MATH(rcp)
__GPUSIM_HALF_MATH(sin) __GPUSIM_HALF_MATH(cos) __GPUSIM_HALF_MATH(exp)
__GPUSIM_HALF_MATH(exp2) __GPUSIM_HALF_MATH(exp10) __GPUSIM_HALF_MATH(log)
__GPUSIM_HALF_MATH(log2) __GPUSIM_HALF_MATH(log10) __GPUSIM_HALF_MATH(floor)
__GPUSIM_HALF_MATH(ceil) __GPUSIM_HALF_MATH(trunc) __GPUSIM_HALF_MATH(rint)
#undef __GPUSIM_HALF_MATH
__GPUSIM_HALF_D __half2 __hisnan2(__half2);
__GPUSIM_HALF_D __half2 __hisinf2(__half2);
// Declared so that a program using them compiles to the point where gpusim says, at the
// line of the call, that it does not translate them yet: the saturating forms, directed
// rounding, reinterpretation of the bits, and the wavefront shuffles of halves.
#define __GPUSIM_HALF_SAT(name)                                                         \
  __GPUSIM_HALF_D __half name##_sat(__half, __half);                                   \
  __GPUSIM_HALF_D __half2 name##2_sat(__half2, __half2);
__GPUSIM_HALF_SAT(__hadd) __GPUSIM_HALF_SAT(__hsub) __GPUSIM_HALF_SAT(__hmul)
#undef __GPUSIM_HALF_SAT
__GPUSIM_HALF_D __half __hfma_sat(__half, __half, __half);
__GPUSIM_HALF_D __half2 __hfma2_sat(__half2, __half2, __half2);
__GPUSIM_HALF_D __half __hmax_nan(__half, __half);
__GPUSIM_HALF_D __half __hmin_nan(__half, __half);
__GPUSIM_HALF_D __half __float2half_rz(float);
__GPUSIM_HALF_D __half __float2half_rd(float);
__GPUSIM_HALF_D __half __float2half_ru(float);
__GPUSIM_HALF_D int __half2int_rn(__half);
__GPUSIM_HALF_D int __half2int_rd(__half);
__GPUSIM_HALF_D int __half2int_ru(__half);
__GPUSIM_HALF_D short __half_as_short(__half);
__GPUSIM_HALF_D unsigned short __half_as_ushort(__half);
__GPUSIM_HALF_D __half __short_as_half(short);
__GPUSIM_HALF_D __half __ushort_as_half(unsigned short);
#define __GPUSIM_HALF_SHFL(name, L)                                                     \
  __GPUSIM_HALF_D __half name(__half, L, int = 64);                                    \
  __GPUSIM_HALF_D __half2 name(__half2, L, int = 64);
__GPUSIM_HALF_SHFL(__shfl, int) __GPUSIM_HALF_SHFL(__shfl_up, unsigned int)
__GPUSIM_HALF_SHFL(__shfl_down, unsigned int) __GPUSIM_HALF_SHFL(__shfl_xor, int)
#undef __GPUSIM_HALF_SHFL
#undef __GPUSIM_HALF_D
#endif
#undef __GPUSIM_HALF_FN
#undef __GPUSIM_HALF_HD
