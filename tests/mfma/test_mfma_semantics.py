"""D = A @ B + C per block, with each input type's rounding, against NumPy.

Registers are filled straight from AMD's calculator tables (not through gpusim's own
layout), so a wrong layout and a wrong product would both show here.
"""

import zlib

import ml_dtypes
import numpy as np
import pytest

import gpusim.devices.mfma as mfma
from gpusim.devices.mfma_math import element_dtype, pack_a, pack_b, pack_d, unpack_d
from gpusim.devices.mfma_math import mfma as run

CASES = [(arch, name) for arch in mfma.ARCHS for name in mfma.list_mfma(arch)
         if "xf32" not in name]


def _registers(layout: dict, matrices: np.ndarray, per_lane: int) -> np.ndarray:
    regs = np.zeros((64, per_lane), dtype=matrices.dtype)
    for (lane, column), (block, r, c) in layout.items():
        regs[lane, column] = matrices[block, r, c]
    return regs


def _random(rng, type_name: str, shape) -> np.ndarray:
    dtype = element_dtype(type_name)
    if dtype.kind == "i":
        return rng.integers(-128 if type_name == "i8" else -2**20, 128 if type_name == "i8"
                            else 2**20, size=shape).astype(dtype)
    x = rng.standard_normal(shape) * {"fp8": 4.0, "bf8": 4.0}.get(type_name, 1.0)
    # normal numbers only: subnormals (flushed on gfx90a) have tests of their own below
    return np.where(np.abs(x) < 2**-6, np.copysign(2**-6, x), x).astype(dtype)


@pytest.mark.parametrize("arch,name", CASES)
def test_random_tiles_match_numpy(arch, name, calc_layout):
    inst = mfma.get_mfma(arch, name)
    rng = np.random.default_rng(zlib.crc32(f"{arch} {name}".encode()))
    A = _random(rng, inst.a_type, (inst.blocks, inst.m, inst.k))
    B = _random(rng, inst.b_type, (inst.blocks, inst.k, inst.n))
    C = _random(rng, inst.d_type, (inst.blocks, inst.m, inst.n))
    a = _registers(calc_layout(arch, name, "A"), A, inst.a_per_lane)
    b = _registers(calc_layout(arch, name, "B"), B, inst.b_per_lane)
    c = _registers(calc_layout(arch, name, "D"), C, inst.d_per_lane)
    d = run(inst, a, b, c)
    assert d.dtype == element_dtype(inst.d_type) and d.shape == (64, inst.d_per_lane)
    got = np.zeros_like(C)
    for (lane, column), (block, i, j) in calc_layout(arch, name, "D").items():
        got[block, i, j] = d[lane, column]
    if inst.d_type == "i32":
        want = A.astype(np.int64) @ B.astype(np.int64) + C
        np.testing.assert_array_equal(got, want)
    else:
        want = A.astype(np.float64) @ B.astype(np.float64) + C.astype(np.float64)
        tol = 1e-13 if inst.d_type == "f64" else 1e-6
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("arch,name", CASES)
def test_pack_unpack_round_trip(arch, name):
    inst = mfma.get_mfma(arch, name)
    C = np.arange(inst.blocks * inst.m * inst.n).reshape(inst.blocks, inst.m, inst.n)
    back = unpack_d(inst, pack_d(inst, C))
    np.testing.assert_array_equal(back.reshape(C.shape), C)


def _one_product(arch, name, a_value, b_value, c_value=0.0):
    """D[0][0] of a tile whose only non-zero products are A[0][0] * B[0][0]."""
    inst = mfma.get_mfma(arch, name)
    A = np.zeros((inst.blocks, inst.m, inst.k), np.float32)
    B = np.zeros((inst.blocks, inst.k, inst.n), np.float32)
    C = np.zeros((inst.blocks, inst.m, inst.n), np.float32)
    A[0, 0, 0], B[0, 0, 0], C[0, 0, 0] = a_value, b_value, c_value
    d = run(inst, pack_a(inst, A), pack_b(inst, B), pack_d(inst, C))
    return float(unpack_d(inst, d).reshape(C.shape)[0, 0, 0])


@pytest.mark.parametrize("arch,name", [("gfx942", "v_mfma_f32_32x32x8_bf16"),
                                       ("gfx90a", "v_mfma_f32_32x32x8bf16_1k"),
                                       ("gfx942", "v_mfma_f32_4x4x4_16b_bf16")])
def test_bf16_inputs_round_to_nearest_even(arch, name):
    # bf16 keeps 7 fraction bits: 1 + 2**-8 is a tie -> 1 (even); 1 + 3 * 2**-8 -> 1 + 2**-6
    assert _one_product(arch, name, 1 + 2**-8, 1.0) == 1.0
    assert _one_product(arch, name, 1 + 3 * 2**-8, 1.0) == 1 + 2**-6
    assert _one_product(arch, name, 1 + 2**-8 + 2**-20, 1.0) == 1 + 2**-7  # above the tie
    assert _one_product(arch, name, -(1 + 2**-8), 1.0) == -1.0


@pytest.mark.parametrize("arch,name", [("gfx942", "v_mfma_f32_16x16x16_f16"),
                                       ("gfx90a", "v_mfma_f32_16x16x16f16")])
def test_f16_inputs_round_to_nearest_even(arch, name):
    # f16 keeps 10 fraction bits; 65520 overflows to inf, as a float -> half conversion does
    assert _one_product(arch, name, 1 + 2**-11, 1.0) == 1.0
    assert _one_product(arch, name, 1 + 3 * 2**-11, 1.0) == 1 + 2**-9
    assert _one_product(arch, name, 65520.0, 1.0) == np.inf


def test_products_are_exact_and_accumulate_in_f32():
    # (1 + 2**-7)**2 = 1 + 2**-6 + 2**-14: exact as a product; bf16 would have lost 2**-14
    assert _one_product("gfx942", "v_mfma_f32_32x32x8_bf16", 1 + 2**-7, 1 + 2**-7) == (
        1 + 2**-6 + 2**-14)
    # accumulated into f32: 2**-30 added to C = 1 is below f32's half ulp and is lost
    assert _one_product("gfx942", "v_mfma_f32_32x32x8_bf16", 2**-15, 2**-15, 1.0) == 1.0


def test_f16_subnormal_inputs_kept_on_gfx942_flushed_on_gfx90a():
    sub = 2.0**-20                                  # f16 subnormal (smallest normal 2**-14)
    assert np.float16(sub) == sub
    assert _one_product("gfx942", "v_mfma_f32_16x16x16_f16", sub, 1.0) == sub
    assert _one_product("gfx90a", "v_mfma_f32_16x16x16f16", sub, 1.0) == 0.0
    assert _one_product("gfx90a", "v_mfma_f32_16x16x16f16", 2.0**-14, 1.0) == 2.0**-14


def test_bf16_subnormal_products_kept_on_gfx942_flushed_on_gfx90a():
    # 2**-70 * 2**-70 = 2**-140: an f32 subnormal output (bf16 has f32's exponent range)
    tiny = 2.0**-70
    assert _one_product("gfx942", "v_mfma_f32_16x16x16_bf16", tiny, tiny) == 2.0**-140
    assert _one_product("gfx90a", "v_mfma_f32_16x16x16bf16_1k", tiny, tiny) == 0.0
    # bf16 subnormal input 2**-130: kept on gfx942, flushed on gfx90a
    assert float(ml_dtypes.bfloat16(2.0**-130)) == 2.0**-130
    assert _one_product("gfx942", "v_mfma_f32_16x16x16_bf16", 2.0**-130, 2.0**6) == 2.0**-124
    assert _one_product("gfx90a", "v_mfma_f32_16x16x16bf16_1k", 2.0**-130, 2.0**6) == 0.0


def test_f32_mfma_keeps_subnormals_on_both():
    for arch, name in [("gfx90a", "v_mfma_f32_32x32x2f32"), ("gfx942", "v_mfma_f32_32x32x2_f32")]:
        assert _one_product(arch, name, 2.0**-140, 1.0) == 2.0**-140


def test_int8_sums_wrap_to_int32():
    inst = mfma.get_mfma("gfx942", "v_mfma_i32_32x32x16_i8")
    A = np.full((32, 16), -128, np.int8)
    B = np.full((16, 32), -128, np.int8)
    C = np.full((32, 32), 2**31 - 2**18, np.int64)     # + 16 * 2**14 = 2**31 -> wraps
    d = run(inst, pack_a(inst, A), pack_b(inst, B), pack_d(inst, C.astype(np.int32)))
    assert (unpack_d(inst, d) == -2**31).all()


def test_fp8_inputs_are_cdna3_fnuz_formats():
    name = "v_mfma_f32_32x32x16_fp8_bf8"
    # e4m3fnuz keeps 3 fraction bits and has no inf: 1 + 2**-4 is a tie -> 1
    assert _one_product("gfx942", name, 1 + 2**-4, 1.0) == 1.0
    assert _one_product("gfx942", name, 240.0, 1.0) == 240.0        # e4m3fnuz max
    # B is bf8 = e5m2fnuz: 2 fraction bits, 1.25 exact, 1.125 a tie -> 1
    assert _one_product("gfx942", name, 1.0, 1.25) == 1.25
    assert _one_product("gfx942", name, 1.0, 1.125) == 1.0


def test_wrong_shapes_and_xf32_say_what_to_do():
    inst = mfma.get_mfma("gfx942", "v_mfma_f32_32x32x8_bf16")
    with pytest.raises(ValueError, match=r"4 element\(s\) in each of 64 lanes"):
        run(inst, np.zeros((64, 2)), np.zeros((64, 4)), np.zeros((64, 16)))
    with pytest.raises(ValueError, match="1 block"):
        pack_a(inst, np.zeros((8, 32)))
    xf32 = mfma.get_mfma("gfx942", "v_mfma_f32_32x32x4_xf32")
    with pytest.raises(NotImplementedError, match="xf32"):
        run(xf32, np.zeros((64, 2)), np.zeros((64, 2)), np.zeros((64, 16)))


HALF_CASES = [("gfx942", "v_mfma_f32_32x32x8_bf16"), ("gfx942", "v_mfma_f32_16x16x16_bf16"),
              ("gfx942", "v_mfma_f32_32x32x8_f16"), ("gfx942", "v_mfma_f32_16x16x16_f16"),
              ("gfx942", "v_mfma_f32_4x4x4_16b_f16"), ("gfx90a", "v_mfma_f32_32x32x8bf16_1k"),
              ("gfx90a", "v_mfma_f32_16x16x16bf16_1k"), ("gfx90a", "v_mfma_f32_32x32x8f16"),
              ("gfx90a", "v_mfma_f32_16x16x16f16"), ("gfx90a", "v_mfma_f32_4x4x4bf16_1k")]


@pytest.mark.parametrize("arch,name", HALF_CASES)
def test_random_f32_inputs_with_subnormals_round_then_multiply(arch, name):
    """f32 values (a third of them subnormal in the input type) are rounded to f16/bf16
    (nearest even); gfx90a then flushes subnormal inputs to zero, gfx942 keeps them."""
    inst = mfma.get_mfma(arch, name)
    dtype = element_dtype(inst.a_type)
    tiny = float(ml_dtypes.finfo(dtype).smallest_normal)
    rng = np.random.default_rng(7)

    def operand(shape):
        x = rng.standard_normal(shape).astype(np.float32)
        sub = rng.random(shape) < 1 / 3
        x[sub] *= np.float32(tiny / 4)              # subnormal in the input type
        return x

    A, B = operand((inst.blocks, inst.m, inst.k)), operand((inst.blocks, inst.k, inst.n))
    C = rng.standard_normal((inst.blocks, inst.m, inst.n)).astype(np.float32)
    d = run(inst, pack_a(inst, A), pack_b(inst, B), pack_d(inst, C))
    got = unpack_d(inst, d).reshape(C.shape)

    def rounded(x):
        x = x.astype(dtype).astype(np.float64)
        return np.where(np.abs(x) < tiny, 0.0, x) if arch == "gfx90a" else x

    want = rounded(A) @ rounded(B) + C
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-30)
    if arch == "gfx942" and inst.a_type == "f16":
        # the subnormals did count (bf16's, near 1e-39, vanish beside C; see the test above)
        flushed = np.where(np.abs(A.astype(dtype).astype(np.float64)) < tiny, 0.0, rounded(A))
        assert not np.allclose(flushed @ rounded(B) + C, got, rtol=1e-7, atol=0)
