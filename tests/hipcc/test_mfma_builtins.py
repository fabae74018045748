"""``__builtin_amdgcn_mfma_*`` in HIP C++: clang vector types as private arrays, the
in-place (``acc = mfma(a, b, acc)``) and four-operand (``d = mfma(a, b, c)``) forms,
bf16 as short and __bf16 vectors, packed i8 and fp8 integers, f64, and the errors.

Each kernel is one wavefront that loads whole matrices with the lane layouts AMD
documents (the lab notes' comments, AMD's matrix instruction calculator): for an MFMA
of one block whose lanes hold ``kpack`` A elements, lane ``l`` holds row ``l % M`` of
A, columns ``(l / M) * kpack + e``; B likewise by column; 32-bit D register ``r`` is row
``4 * ((r / 4) * (64 / N) + l / N) + r % 4``, column ``l % N``, and 64-bit D register
``r`` row ``4 * r + l / 16``. The results must equal NumPy's ``A @ B + C`` (exact products
summed in float64 and rounded once to float32, as the matrix cores do; integers exact),
with bf16/fp8 inputs rounded by ml_dtypes.
"""

import ml_dtypes
import numpy as np
import pytest

import gpusim
from gpusim import hip, hipcc
from gpusim.errors import KernelCompileError

CPP = r"""
#include <hip/hip_runtime.h>
#include <stdint.h>

typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef float floatx16 __attribute__((ext_vector_type(16)));
typedef int int32x4 __attribute__((ext_vector_type(4)));
typedef int int32x16 __attribute__((ext_vector_type(16)));
typedef short bf16x4 __attribute__((ext_vector_type(4)));
typedef __bf16 bf16x4_t __attribute__((ext_vector_type(4)));
typedef char i8x8 __attribute__((ext_vector_type(8)));
typedef signed char i8v8 __attribute__((__vector_size__(8)));
using doublex4 = __attribute__((__vector_size__(4 * sizeof(double)))) double;

__device__ int a_at(int lane, int e, int M, int K, int kpack) {   // A[i][k], row-major
  return (lane % M) * K + (lane / M) * kpack + e;
}
__device__ int b_at(int lane, int e, int N, int kpack) {          // B[k][j], row-major
  return ((lane / N) * kpack + e) * N + lane % N;
}
__device__ int d_at(int lane, int r, int N) {                     // 32-bit C/D[i][j]
  return (4 * ((r / 4) * (64 / N) + lane / N) + r % 4) * N + lane % N;
}

// bf16 bit patterns in short vectors; a K loop (K = 16: two MFMAs) in place on acc.
__global__ void bf16_in_place(const unsigned short* A, const unsigned short* B,
                              const float* C, float* D) {
  int lane = threadIdx.x;
  floatx16 acc;
  for (int r = 0; r < 16; r++) acc[r] = C[d_at(lane, r, 32)];
  for (int k0 = 0; k0 < 16; k0 += 8) {
    bf16x4 a, b;
    for (int e = 0; e < 4; e++) {
      a[e] = A[a_at(lane, e, 32, 16, 4) + k0];
      b[e] = B[b_at(lane, e, 32, 4) + k0 * 32];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++) D[d_at(lane, r, 32)] = acc[r];
}

// __bf16 vectors: A's bit patterns loaded as a vector (and one copied as an element),
// B's floats rounded; D = A B + C into d, C left as it was (written back to show it).
__global__ void bf16_four_operands(const __bf16* A, const float* B, float* C, float* D) {
  int lane = threadIdx.x;
  bf16x4_t a = *(const bf16x4_t*)(A + a_at(lane, 0, 32, 8, 4)), b;
  a.w = A[a_at(lane, 3, 32, 8, 4)];
  for (int e = 0; e < 4; e++) b[e] = (__bf16)B[b_at(lane, e, 32, 4)];
  floatx16 c, d = {};
  for (int r = 0; r < 16; r++) c[r] = C[d_at(lane, r, 32)];
  d = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0);
  for (int r = 0; r < 16; r++) {
    D[d_at(lane, r, 32)] = d[r];
    C[d_at(lane, r, 32)] = c[r];
  }
}

// i8, 4 per lane in an int (gfx90a): A's 4 bytes read as one int, B's gathered in int8_t b[4].
__global__ void i8_packed_int(const int8_t* A, const int8_t* B, const int* C, int* D) {
  int lane = threadIdx.x;
  int a = *reinterpret_cast<const int*>(A + a_at(lane, 0, 32, 8, 4));
  int8_t b[4];
  for (int e = 0; e < 4; e++) b[e] = B[b_at(lane, e, 32, 4)];
  int32x16 c;
  for (int r = 0; r < 16; r++) c[r] = C[d_at(lane, r, 32)];
  int32x16 d = __builtin_amdgcn_mfma_i32_32x32x8i8(a, *reinterpret_cast<int*>(b), c, 0, 0, 0);
  for (int r = 0; r < 16; r++) D[d_at(lane, r, 32)] = d[r];
}

// i8, 8 per lane in a long (gfx942): a GCC vector cast to long, an ext_vector bit cast.
__global__ void i8_packed_long(const int8_t* A, const int8_t* B, int* D) {
  int lane = threadIdx.x;
  i8v8 a;
  i8x8 b;
  for (int e = 0; e < 8; e++) {
    a[e] = A[a_at(lane, e, 16, 32, 8)];
    b[e] = B[b_at(lane, e, 16, 8)];
  }
  int32x4 acc = {0};
  acc = __builtin_amdgcn_mfma_i32_16x16x32_i8((long)a, __builtin_bit_cast(long, b), acc,
                                              0, 0, 0);
  D[d_at(lane, 0, 16)] = acc.x;
  D[d_at(lane, 1, 16)] = acc.y;
  D[d_at(lane, 2, 16)] = acc.z;
  D[d_at(lane, 3, 16)] = acc.w;
}

// fp8 (gfx942): 8 bytes of E4M3 bit patterns per lane in a long.
__global__ void fp8_packed_long(const unsigned char* A, const unsigned char* B, float* D) {
  int lane = threadIdx.x;
  long a = *reinterpret_cast<const long*>(A + a_at(lane, 0, 16, 32, 8));
  unsigned char b[8];
  for (int e = 0; e < 8; e++) b[e] = B[b_at(lane, e, 16, 8)];
  floatx4 d = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, *(long*)b, floatx4{}, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[d_at(lane, r, 16)] = d[r];
}

// Initialisers, splats, swizzles (read and assigned), copies and element updates.
__global__ void vector_basics(float* out) {
  int t = threadIdx.x;
  floatx4 a = {1.0f, 2.0f};           // 1 2 0 0
  floatx4 b{};                         // 0 0 0 0
  floatx4 s = (float)t;                // t t t t
  b = a.wzyx;                          // 0 0 2 1
  b.xy = s.xy;                         // t t 2 1
  a = a.yxwz;                          // 2 1 0 0: every element read before any is stored
  floatx4 c = b;                       // a copy
  c.s3 += 10.0f;                       // t t 2 11
  c.lo = a.hi;                         // 0 0 2 11
  floatx4 z = {};
  z.wy = 7.0f;                         // 0 7 0 7: a splat into a swizzle
  for (int i = 0; i < 4; i++) {
    out[t * 16 + i] = a[i];
    out[t * 16 + 4 + i] = b[i];
    out[t * 16 + 8 + i] = c[i];
    out[t * 16 + 12 + i] = z[i];
  }
}

// Vectors in memory: loads through cast pointers, stores through a cast and a subscript.
__global__ void vector_memory(const float* in, const unsigned short* bits, float* out,
                              short* copy) {
  int t = threadIdx.x;
  floatx4 v = *(const floatx4*)(in + 4 * t);
  ((floatx4*)out)[t] = v.wzyx;
  bf16x4 b = *reinterpret_cast<const bf16x4*>(bits + 4 * t);
  *(bf16x4*)(copy + 4 * t) = b;
}

// f64: a K loop (K = 16: four MFMAs); the first writes A B + C into d (4 operands),
// the next accumulate in place.
__global__ void f64_loop(const double* A, const double* B, const double* C, double* D) {
  int lane = threadIdx.x;
  doublex4 c, d;
  for (int r = 0; r < 4; r++) c[r] = C[(4 * r + lane / 16) * 16 + lane % 16];
  for (int k0 = 0; k0 < 16; k0 += 4) {
    double a = A[(lane % 16) * 16 + k0 + lane / 16];
    double b = B[(k0 + lane / 16) * 16 + lane % 16];
    if (k0 == 0)
      d = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, c, 0, 0, 0);
    else
      d = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, d, 0, 0, 0);
  }
  for (int r = 0; r < 4; r++) D[(4 * r + lane / 16) * 16 + lane % 16] = d[r];
}
"""


@pytest.fixture(scope="module")
def mod():
    gpusim.set_system("mi300x", ngpus=1)
    m = hipcc.compile(CPP)
    yield m
    gpusim.set_system()


@pytest.fixture
def mi300x():
    gpusim.set_system("mi300x", ngpus=1)
    yield
    gpusim.set_system()


@pytest.fixture
def mi250x():
    """gfx90a: the MFMAs gfx942 dropped (4-per-lane i8 ones) run here."""
    gpusim.set_system("mi250x", ngpus=1)
    yield
    gpusim.set_system()


def _bf16(rng, shape):
    return rng.standard_normal(shape).astype(ml_dtypes.bfloat16)


def _launch(mod, name, *arrays):
    """One wavefront of kernel ``name`` on the arrays as flat C arrays (views: what the
    kernel writes lands in ``arrays``)."""
    mod.get_kernel(name)[1, 64](*(a.reshape(-1) for a in arrays))


def _gemm(A, B, C):
    """A @ B + C with exact products summed in float64, rounded once (as the MFMA)."""
    return (A.astype(np.float64) @ B.astype(np.float64) + C.astype(np.float64))


def test_vector_initialisers_swizzles_and_copies(mod, mi300x):
    out = np.zeros((64, 4, 4), np.float32)
    _launch(mod, "vector_basics", out)
    t = np.arange(64, dtype=np.float32)
    want = np.zeros((64, 4, 4), np.float32)
    want[:, 3] = [0, 7, 0, 7]
    want[:, 0] = [2, 1, 0, 0]
    want[:, 1, 2:], want[:, 1, 0], want[:, 1, 1] = [2, 1], t, t
    want[:, 2] = [0, 0, 2, 11]
    np.testing.assert_array_equal(out, want)


def test_vectors_loaded_and_stored_through_cast_pointers(mod, mi300x):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((64, 4)).astype(np.float32)
    bits = rng.integers(0, 2**16, (64, 4)).astype(np.uint16)
    out, copy = np.zeros((64, 4), np.float32), np.zeros((64, 4), np.int16)
    _launch(mod, "vector_memory", x, bits, out, copy)
    np.testing.assert_array_equal(out, x[:, ::-1])
    np.testing.assert_array_equal(copy.view(np.uint16), bits)


def test_bf16_short_vectors_accumulate_in_place_over_a_k_loop(mod, mi300x):
    rng = np.random.default_rng(0)
    A, B = _bf16(rng, (32, 16)), _bf16(rng, (16, 32))
    C = rng.standard_normal((32, 32)).astype(np.float32)
    D = np.zeros((32, 32), np.float32)
    _launch(mod, "bf16_in_place", A.view(np.uint16), B.view(np.uint16), C, D)
    # two MFMAs: each rounds its A B + acc to float32 once
    half = _gemm(A[:, :8], B[:8], C).astype(np.float32)
    np.testing.assert_array_equal(D, _gemm(A[:, 8:], B[8:], half).astype(np.float32))
    assert "hip.mfma_f32_32x32x8bf16_1k(__v" in mod.python_source  # signed: copied
    assert ", acc)  # line" in mod.python_source  # in place: no fourth operand


def test_bf16_vectors_copy_bits_and_round_floats_four_operand_form(mod, mi300x):
    rng = np.random.default_rng(1)
    A = _bf16(rng, (32, 8))
    B = rng.standard_normal((8, 32)).astype(np.float32)
    B[0, :3] = [1 + 2**-8, 1 + 3 * 2**-8, -(1 + 2**-8)]  # ties: to even
    C = rng.standard_normal((32, 32)).astype(np.float32)
    c_dev, D = C.copy(), np.zeros((32, 32), np.float32)
    _launch(mod, "bf16_four_operands", A.view(np.uint16), B, c_dev, D)
    want = _gemm(A, B.astype(ml_dtypes.bfloat16), C).astype(np.float32)
    np.testing.assert_array_equal(D, want)
    np.testing.assert_array_equal(c_dev, C)  # C is an input of the 4-operand form


def test_i8_in_an_int_and_in_a_byte_array(mod, mi250x):
    rng = np.random.default_rng(2)
    A = rng.integers(-128, 128, (32, 8)).astype(np.int8)
    B = rng.integers(-128, 128, (8, 32)).astype(np.int8)
    C = rng.integers(-2**20, 2**20, (32, 32)).astype(np.int32)
    D = np.zeros((32, 32), np.int32)
    _launch(mod, "i8_packed_int", A, B, C, D)
    np.testing.assert_array_equal(D, A.astype(np.int64) @ B + C)
    # `*reinterpret_cast<int*>(b)` of the int8_t b[4] passes b itself
    assert "hip.mfma_i32_32x32x8i8(__v" in mod.python_source and ", b, c, d)" in \
        mod.python_source


def test_i8_in_a_long_from_char_vectors(mod, mi300x):
    rng = np.random.default_rng(3)
    A = rng.integers(-128, 128, (16, 32)).astype(np.int8)
    B = rng.integers(-128, 128, (32, 16)).astype(np.int8)
    D = np.zeros((16, 16), np.int32)
    _launch(mod, "i8_packed_long", A, B, D)
    np.testing.assert_array_equal(D, A.astype(np.int64) @ B)


def test_fp8_bit_patterns_in_a_long(mod, mi300x):
    rng = np.random.default_rng(4)
    fp8 = ml_dtypes.float8_e4m3fnuz  # gfx942's E4M3 (no negative zero, bias 8)
    A = (rng.standard_normal((16, 32)) * 4).astype(fp8)
    B = (rng.standard_normal((32, 16)) * 4).astype(fp8)
    D = np.zeros((16, 16), np.float32)
    _launch(mod, "fp8_packed_long", A.view(np.uint8), B.view(np.uint8), D)
    np.testing.assert_array_equal(D, _gemm(A, B, np.zeros((16, 16))).astype(np.float32))


def test_f64_four_operands_then_in_place(mod, mi300x):
    rng = np.random.default_rng(5)
    A, B, C = (rng.standard_normal((16, 16)) for _ in range(3))
    D = np.zeros((16, 16))
    _launch(mod, "f64_loop", A, B, C, D)
    np.testing.assert_allclose(D, A @ B + C, rtol=1e-13, atol=1e-13)
    src = mod.python_source
    assert "hip.mfma_f64_16x16x4f64(a, b, c, d)" in src
    assert "hip.mfma_f64_16x16x4f64(a, b, d)" in src


ERRORS = [
    ("acc = __builtin_amdgcn_mfma_f32_16x16x4f32(x, x, acc, 0, 2, 0);",
     "abid = 2: the MFMA broadcast modifiers (cbsz, abid, blgp) are not modelled"),
    ("acc = acc + acc;", "this vector expression"),
    ("acc += acc;", "`+=` on a whole vector"),
    ('printf("%f", acc);', "used as a whole"),
    ("out[0] = (acc * 2.0f).x;", "an element of this vector expression"),
    ("floatx4 many[2];", "an array of vectors"),
    ("bf16v h; h[0] = (__bf16)x; out[0] = h[0];", "reading a __bf16 as a number"),
    ("bf16v h; h[0] = (__bf16)x; out[0] = (float)h[0] + 1;", "reading a __bf16 as a number"),
    ("__builtin_amdgcn_mfma_f32_16x16x4f32(x, x, acc, 0, 0, 0);", "used as a number, or "
     "discarded"),
    ("acc = __builtin_amdgcn_smfmac_f32_16x16x32_f16(h4, h8, acc, 0, 0, 0);",
     "the matrix-core builtin `__builtin_amdgcn_smfmac_f32_16x16x32_f16`"),
]


@pytest.mark.parametrize("stmt,message", ERRORS, ids=[m.split(":")[0][:30] for _, m in ERRORS])
def test_unsupported_vector_uses_name_their_line(stmt, message):
    src = ("#include <hip/hip_runtime.h>\n"
           "typedef float floatx4 __attribute__((ext_vector_type(4)));\n"
           "typedef __bf16 bf16v __attribute__((ext_vector_type(4)));\n"
           "typedef _Float16 h4v __attribute__((ext_vector_type(4)));\n"
           "typedef _Float16 h8v __attribute__((ext_vector_type(8)));\n"
           "__global__ void k(float* out) {\n"
           "  float x = out[1]; h4v h4 = {}; h8v h8 = {};\n"
           "  floatx4 acc = {0};\n"
           f"  {stmt}\n"
           "  out[2] = acc[0];\n"
           "}\n")
    mod = hipcc.compile(src)
    with pytest.raises(hipcc.UnsupportedCpp) as info:
        mod.get_kernel("k")
    assert message in str(info.value)
    assert str(info.value).startswith("line 9, column ") and "(hip_cell.hip): " in str(
        info.value)
    assert info.value.lineno == 9 and "Instead:" in str(info.value)


def test_vector_parameter_of_a_device_function_is_refused():
    mod = hipcc.compile("#include <hip/hip_runtime.h>\n"
                        "typedef float floatx4 __attribute__((ext_vector_type(4)));\n"
                        "__device__ float first(floatx4 v) { return v.x; }\n"
                        "__global__ void k(float* out) { floatx4 v = {1}; out[0] = first(v); }\n")
    with pytest.raises(hipcc.UnsupportedCpp, match="a vector parameter") as info:
        mod.get_kernel("k")  # the kernel stops at its call of `first`, at line 4
    assert info.value.lineno == 4 and "Instead: a pointer to its elements" in str(info.value)
    assert "line 3" in str(mod.errors["first"]) and "a vector parameter" in str(
        mod.errors["first"])


def test_mfma_on_a_gpu_without_matrix_cores_names_the_cpp_line():
    """The architecture check is the kernel compiler's (gfx1100 has no MFMA); the
    error points at the builtin's C++ line."""
    gpusim.set_system("rx7900xtx", ngpus=1)
    try:
        mod = hipcc.compile("#include <hip/hip_runtime.h>\n"
                            "typedef float floatx4 __attribute__((ext_vector_type(4)));\n"
                            "__global__ void k(float* out) {\n"
                            "  floatx4 acc = {0};\n"
                            "  acc = __builtin_amdgcn_mfma_f32_16x16x4f32(1.0f, 1.0f, acc,"
                            " 0, 0, 0);\n"
                            "  out[threadIdx.x] = acc[0];\n"
                            "}\n")
        with pytest.raises(KernelCompileError, match=r"gfx1100.*no MFMA") as info:
            mod.get_kernel("k")[1, 64](hip.to_device(np.zeros(64, np.float32)))
        assert "hip_cell.hip:5:" in str(info.value)
    finally:
        gpusim.set_system()
