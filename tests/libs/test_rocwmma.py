"""rocWMMA's fragment API (gpusim.rocwmma): whole GEMMs against NumPy, per fragment shape.

The reference is NumPy on the inputs rounded to the fragment's element type
(ml_dtypes for bfloat16), multiplied in float64: the matrix core's products are exact
and its f32 sums round once per instruction, so each K step adds at most one f32
rounding (tolerance: K/k roundings of the result's magnitude).
"""

import ml_dtypes
import numpy as np
import pytest

import gpusim
from gpusim import hip, rocwmma
from gpusim.errors import HipError, KernelCompileError


def make_gemm(m, n, k, elem, acc_dtype):
    FragA = rocwmma.fragment(rocwmma.matrix_a, m, n, k, elem)
    FragB = rocwmma.fragment(rocwmma.matrix_b, m, n, k, elem)
    FragC = rocwmma.fragment(rocwmma.accumulator, m, n, k, acc_dtype)

    @hip.jit
    def gemm(A, B, C):
        a, b, acc = FragA(), FragB(), FragC()
        row, col = hip.blockIdx.y * m, hip.blockIdx.x * n
        rocwmma.load_matrix_sync(acc, C, row, col)  # C += A @ B
        for kk in range(0, A.shape[1], k):
            rocwmma.load_matrix_sync(a, A, row, kk)
            rocwmma.load_matrix_sync(b, B, kk, col)
            rocwmma.mma_sync(acc, a, b, acc)
        rocwmma.store_matrix_sync(C, row, col, acc)

    return gemm


CASES = [  # device, (M, N, K), element type, NumPy input dtype, accumulator
    ("mi300x", (32, 32, 8), rocwmma.bfloat16, np.float32, np.float32),
    ("mi300x", (16, 16, 16), rocwmma.bfloat16, np.float32, np.float32),
    ("mi300x", (32, 32, 8), rocwmma.float16, np.float16, np.float32),
    ("mi300x", (16, 16, 16), rocwmma.float16, np.float16, np.float32),
    ("mi300x", (32, 32, 2), rocwmma.float32, np.float32, np.float32),
    ("mi300x", (16, 16, 4), rocwmma.float32, np.float32, np.float32),
    ("mi300x", (16, 16, 4), rocwmma.float64, np.float64, np.float64),
    ("mi300x", (32, 32, 16), rocwmma.int8, np.int8, np.int32),
    ("mi250x", (16, 16, 16), rocwmma.int8, np.int8, np.int32),
    ("mi250x", (32, 32, 8), rocwmma.bfloat16, np.float32, np.float32),
]


@pytest.mark.parametrize("device,shape,elem,in_dtype,acc_dtype", CASES)
def test_gemm_matches_numpy(device, shape, elem, in_dtype, acc_dtype):
    gpusim.set_system(device, ngpus=1)
    m, n, k = shape
    rng = np.random.default_rng(m * n + k)
    M, N, K = 2 * m, 3 * n, 4 * k
    if np.dtype(in_dtype).kind == "i":
        A = rng.integers(-128, 128, (M, K)).astype(in_dtype)
        B = rng.integers(-128, 128, (K, N)).astype(in_dtype)
        C = rng.integers(-1000, 1000, (M, N)).astype(acc_dtype)
    else:
        A = rng.standard_normal((M, K)).astype(in_dtype)
        B = rng.standard_normal((K, N)).astype(in_dtype)
        C = rng.standard_normal((M, N)).astype(acc_dtype)
    want = C.astype(np.float64) + _rounded(A, elem) @ _rounded(B, elem)
    out = C.copy()
    make_gemm(m, n, k, elem, acc_dtype)[(N // n, M // m), 64](A, B, out)
    if np.dtype(acc_dtype).kind == "i":
        np.testing.assert_array_equal(out, want.astype(np.int64))
    else:
        eps = np.finfo(acc_dtype).eps
        scale = np.abs(C) + np.abs(_rounded(A, elem)) @ np.abs(_rounded(B, elem))
        assert np.all(np.abs(out - want) <= (K // k + 1) * eps * scale)


def _rounded(x: np.ndarray, elem: str) -> np.ndarray:
    if elem == rocwmma.bfloat16:
        return x.astype(ml_dtypes.bfloat16).astype(np.float64)
    return x.astype(np.float64)


def test_bf16_fragments_read_bit_patterns_and_floats_alike():
    """A uint16 array of bfloat16 patterns and the float32 array they round from give
    the same product, bit for bit."""
    gpusim.set_system("mi300x", ngpus=1)
    rng = np.random.default_rng(3)
    A = rng.standard_normal((32, 64)).astype(np.float32)
    B = rng.standard_normal((64, 32)).astype(np.float32)
    gemm = make_gemm(32, 32, 8, rocwmma.bfloat16, np.float32)
    from_floats, from_bits = np.zeros((32, 32), np.float32), np.zeros((32, 32), np.float32)
    gemm[1, 64](A, B, from_floats)
    bits = [x.astype(ml_dtypes.bfloat16).view(np.uint16) for x in (A, B)]
    gemm[1, 64](*bits, from_bits)
    np.testing.assert_array_equal(from_floats, from_bits)


def test_fragment_api_equals_the_hand_written_mfma_kernel():
    """The readable version and the one written with hip.mfma_* and the layout by hand
    compute the same bits (same instruction, same layout)."""
    gpusim.set_system("mi300x", ngpus=1)

    @hip.jit
    def by_hand(A, B, C):
        t = hip.threadIdx.x
        a = hip.local.array(4, np.uint16)
        b = hip.local.array(4, np.uint16)
        acc = hip.local.array(16, np.float32)
        for kk in range(0, A.shape[1], 8):
            for e in range(4):
                a[e] = hip.bf16(A[t % 32, kk + 4 * (t // 32) + e])
                b[e] = hip.bf16(B[kk + 4 * (t // 32) + e, t % 32])
            hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
        for e in range(16):
            C[8 * (e // 4) + 4 * (t // 32) + e % 4, t % 32] = acc[e]

    rng = np.random.default_rng(4)
    A = rng.standard_normal((32, 32)).astype(np.float32)
    B = rng.standard_normal((32, 32)).astype(np.float32)
    c1, c2 = np.zeros((32, 32), np.float32), np.zeros((32, 32), np.float32)
    by_hand[1, 64](A, B, c1)
    make_gemm(32, 32, 8, rocwmma.bfloat16, np.float32)[1, 64](A, B, c2)
    np.testing.assert_array_equal(c1, c2)


def test_unknown_fragment_shape_lists_the_shapes():
    with pytest.raises(ValueError, match=r"no MFMA computes a matrix_a fragment of 8x8x8 bf16"
                                         r".*32x32x8 bf16"):
        rocwmma.fragment(rocwmma.matrix_a, 8, 8, 8, rocwmma.bfloat16)


def test_tile_past_the_array_is_out_of_bounds_at_the_load():
    gpusim.set_system("mi300x", ngpus=1)
    A = np.zeros((32, 12), np.float32)  # K = 12 is not a multiple of 8
    with pytest.raises(HipError, match=r"out-of-bounds read of global array 'A' \(shape "
                                       r"\(32, 12\)\).*load_matrix_a_32x32x8_bf16"):
        make_gemm(32, 32, 8, rocwmma.bfloat16, np.float32)[1, 64](
            A, np.zeros((12, 32), np.float32), np.zeros((32, 32), np.float32))


def test_an_rdna_gpu_has_no_matrix_fragments_of_this_kind():
    gpusim.set_system("rx7900xtx", ngpus=1)
    with pytest.raises(KernelCompileError, match=r"gfx1100.*no MFMA"):
        make_gemm(32, 32, 8, rocwmma.bfloat16, np.float32)[1, 64](
            np.zeros((32, 8), np.float32), np.zeros((8, 32), np.float32),
            np.zeros((32, 32), np.float32))
