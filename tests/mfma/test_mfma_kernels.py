"""``hip.mfma_*`` in ``@hip.jit`` kernels: the compiled kernel against the NumPy reference.

Every lane loads its registers from a host array (filled with ``pack_a``/``pack_b`` from
whole matrices), runs the instruction, and stores its D registers; the result must equal
``gpusim.devices.mfma_math.mfma`` bit for bit, and the unpacked D must equal NumPy's
``A @ B + C`` (float64, rounded once). Two waves per block with different data and two
blocks check that each wave computes its own product.
"""

import ml_dtypes
import numpy as np
import pytest

import gpusim
import gpusim.devices.mfma as mfma
from gpusim import hip
from gpusim.devices.mfma_math import element_dtype, pack_a, pack_b, pack_d, unpack_d
from gpusim.devices.mfma_math import mfma as reference
from gpusim.errors import HipError, KernelCompileError

DEVICE = {"gfx942": "mi300x", "gfx90a": "mi250x"}
# One of each kind: f32 (1 and 2 per lane, multi-block), f16, bf16 (1k and old), i8, f64,
# fp8/bf8, and the 4-element f64 accumulator of the 4-block 4x4x4.
CASES = [
    ("gfx942", "v_mfma_f32_32x32x2_f32"), ("gfx942", "v_mfma_f32_4x4x1_16b_f32"),
    ("gfx942", "v_mfma_f32_16x16x16_f16"), ("gfx942", "v_mfma_f32_32x32x8_bf16"),
    ("gfx942", "v_mfma_i32_16x16x32_i8"), ("gfx942", "v_mfma_f64_16x16x4_f64"),
    ("gfx942", "v_mfma_f32_16x16x32_fp8_bf8"), ("gfx942", "v_mfma_f64_4x4x4_4b_f64"),
    ("gfx90a", "v_mfma_f32_32x32x8bf16_1k"), ("gfx90a", "v_mfma_f32_16x16x2bf16"),
    ("gfx90a", "v_mfma_i32_32x32x8i8"), ("gfx90a", "v_mfma_f32_32x32x4f16"),
]
# How a kernel stores each element type: f16 as float16, bf16/fp8/bf8 as bit patterns.
STORAGE = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "f16": np.float16,
           "bf16": np.uint16, "i8": np.int8, "fp8": np.uint8, "bf8": np.uint8}

KERNEL = '''
def mfma_kernel(A, B, C, D):
    t = hip.threadIdx.x
    g = hip.blockIdx.x * hip.blockDim.x + t
    a = hip.local.array({ka}, np.{at})
    b = hip.local.array({kb}, np.{bt})
    acc = hip.local.array({kd}, np.{dt})
    for e in range({ka}):
        a[e] = A[g, e]
    for e in range({kb}):
        b[e] = B[g, e]
    for e in range({kd}):
        acc[e] = C[g, e]
    hip.{op}(a, b, acc)
    for e in range({kd}):
        D[g, e] = acc[e]
'''


def make_kernel(inst: mfma.MfmaInstruction, source: str = KERNEL):
    """The test kernel for ``inst``, built from text (the front end reads exec'd source)."""
    text = source.format(ka=inst.a_per_lane, kb=inst.b_per_lane, kd=inst.d_per_lane,
                         at=np.dtype(STORAGE[inst.a_type]).name,
                         bt=np.dtype(STORAGE[inst.b_type]).name,
                         dt=np.dtype(STORAGE[inst.d_type]).name,
                         op=inst.builtin.removeprefix("__builtin_amdgcn_"))
    scope = {"hip": hip, "np": np}
    exec(compile(text, f"<mfma {inst.name}>", "exec"), scope)
    return hip.jit(scope["mfma_kernel"])


def _random(rng, type_name: str, shape) -> np.ndarray:
    dtype = element_dtype(type_name)
    if dtype.kind == "i":
        lo, hi = (-128, 128) if type_name == "i8" else (-2**20, 2**20)
        return rng.integers(lo, hi, size=shape).astype(dtype)
    x = rng.standard_normal(shape) * (4.0 if type_name in ("fp8", "bf8") else 1.0)
    return np.where(np.abs(x) < 2**-6, np.copysign(2**-6, x), x).astype(dtype)


def _stored(values: np.ndarray, type_name: str) -> np.ndarray:
    """Register values as the kernel's arrays hold them."""
    want = np.dtype(STORAGE[type_name])
    if values.dtype == want:
        return values
    return values.view(want) if values.dtype.itemsize == want.itemsize else values.astype(want)


def _waves(inst, rng, waves: int):
    """Per-wave matrices and their registers, stacked lane after lane."""
    mats, regs = [], []
    for _ in range(waves):
        A = _random(rng, inst.a_type, (inst.blocks, inst.m, inst.k))
        B = _random(rng, inst.b_type, (inst.blocks, inst.k, inst.n))
        C = _random(rng, inst.d_type, (inst.blocks, inst.m, inst.n))
        mats.append((A, B, C))
        regs.append((pack_a(inst, A), pack_b(inst, B), pack_d(inst, C)))
    return mats, [np.concatenate(r) for r in zip(*regs, strict=True)]


@pytest.mark.parametrize("arch,name", CASES)
def test_kernel_matches_reference_executor_and_numpy(arch, name):
    gpusim.set_system(DEVICE[arch], ngpus=1)
    inst = mfma.get_mfma(arch, name)
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    waves = 4  # two blocks of two waves
    mats, (a, b, c) = _waves(inst, rng, waves)
    d = np.zeros((64 * waves, inst.d_per_lane), STORAGE[inst.d_type])
    make_kernel(inst)[2, 128](_stored(a, inst.a_type), _stored(b, inst.b_type),
                              _stored(c, inst.d_type), d)
    for w, (A, B, C) in enumerate(mats):
        lanes = slice(64 * w, 64 * (w + 1))
        want = reference(inst, a[lanes], b[lanes], c[lanes])
        if inst.d_type == "f64":  # f64 sums round at each add: the order shows (not public)
            np.testing.assert_allclose(d[lanes], want, rtol=1e-13, atol=1e-13)
        else:  # f32 results: exact products summed in float64, rounded once
            np.testing.assert_array_equal(d[lanes].view(want.dtype), want)
        got = unpack_d(inst, d[lanes]).reshape(inst.blocks, inst.m, inst.n)
        if inst.d_type == "i32":
            exact = (A.astype(np.int64) @ B.astype(np.int64) + C).astype(np.int32)
            np.testing.assert_array_equal(got, exact)
        else:
            exact = A.astype(np.float64) @ B.astype(np.float64) + C.astype(np.float64)
            # f32: one rounding; f64: K roundings of O(1) terms (cancellation: absolute)
            tol = 1e-13 if inst.d_type == "f64" else 2**-23
            atol = 1e-13 if inst.d_type == "f64" else 1e-30
            np.testing.assert_allclose(got, exact, rtol=tol, atol=atol)


def test_float_values_round_to_bf16_like_numpy():
    """A bf16 MFMA fed float32 arrays rounds each value to bf16 (nearest, ties to even)."""
    gpusim.set_system("mi300x", ngpus=1)
    inst = mfma.get_mfma("gfx942", "v_mfma_f32_32x32x8_bf16")
    rng = np.random.default_rng(5)
    A = rng.standard_normal((32, 8)).astype(np.float32)
    B = rng.standard_normal((8, 32)).astype(np.float32)
    A[0, :4] = [1 + 2**-8, 1 + 3 * 2**-8, 2**-130, -(1 + 2**-8)]  # ties and a subnormal
    am, bm = inst.a_map(), inst.b_map()  # (block, i, k) of each register element
    a, b = A[am[..., 1], am[..., 2]], B[bm[..., 1], bm[..., 2]]  # float32, unrounded
    kernel = make_kernel(inst, KERNEL.replace("np.{at}", "np.float32").replace(
        "np.{bt}", "np.float32"))
    d = np.zeros((64, 16), np.float32)
    kernel[1, 64](a, b, np.zeros((64, 16), np.float32), d)
    Ab = A.astype(ml_dtypes.bfloat16).astype(np.float64)
    Bb = B.astype(ml_dtypes.bfloat16).astype(np.float64)
    np.testing.assert_array_equal(unpack_d(inst, d), (Ab @ Bb).astype(np.float32))


@pytest.mark.parametrize("arch,kept", [("gfx942", True), ("gfx90a", False)])
def test_subnormal_bf16_inputs_kept_on_mi300_flushed_on_mi200(arch, kept):
    gpusim.set_system(DEVICE[arch], ngpus=1)
    name = {"gfx942": "v_mfma_f32_16x16x16_bf16", "gfx90a": "v_mfma_f32_16x16x16bf16_1k"}
    inst = mfma.get_mfma(arch, name[arch])
    A = np.zeros((16, 16), ml_dtypes.bfloat16)
    A[3, 5] = 2.0**-130  # subnormal in bfloat16
    B = np.eye(16, dtype=ml_dtypes.bfloat16) * 4
    d = np.zeros((64, 4), np.float32)
    make_kernel(inst)[1, 64](pack_a(inst, A).view(np.uint16), pack_b(inst, B).view(np.uint16),
                             np.zeros((64, 4), np.float32), d)
    assert unpack_d(inst, d)[3, 5] == (2.0**-128 if kept else 0.0)


def test_gemm_tile_loop_with_zero_accumulator():
    """A 32x32 tile of A (32x64) @ B (64x32): the accumulator stays in place over a K loop,
    the form of a real GEMM, with (a, b, 0.0, acc) starting it."""
    gpusim.set_system("mi300x", ngpus=1)

    @hip.jit
    def tile(A, B, out):
        t = hip.threadIdx.x
        a = hip.local.array(4, np.float32)
        b = hip.local.array(4, np.float32)
        acc = hip.local.array(16, np.float32)
        for kk in range(0, A.shape[1], 8):
            for e in range(4):
                a[e] = A[t % 32, kk + 4 * (t // 32) + e]
                b[e] = B[kk + 4 * (t // 32) + e, t % 32]
            if kk == 0:
                hip.mfma_f32_32x32x8bf16_1k(a, b, 0.0, acc)
            else:
                hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
        for e in range(16):
            out[8 * (e // 4) + 4 * (t // 32) + e % 4, t % 32] = acc[e]

    rng = np.random.default_rng(1)
    A = rng.standard_normal((32, 64)).astype(ml_dtypes.bfloat16).astype(np.float32)
    B = rng.standard_normal((64, 32)).astype(ml_dtypes.bfloat16).astype(np.float32)
    out = np.zeros((32, 32), np.float32)
    tile[1, 64](A, B, out)
    np.testing.assert_allclose(out, A.astype(np.float64) @ B, rtol=1e-6, atol=1e-5)


def test_partial_wave_stops_with_a_clear_error():
    gpusim.set_system("mi300x", ngpus=1)
    inst = mfma.get_mfma("gfx942", "v_mfma_f32_32x32x2_f32")
    z = np.zeros((96, 16), np.float32)
    with pytest.raises(HipError, match=r"64 lanes.*(block of 96|96 threads)"):
        make_kernel(inst)[1, 96](z[:, :1].copy(), z[:, :1].copy(), z, z.copy())
    make_kernel(inst)[1, 64](z[:64, :1].copy(), z[:64, :1].copy(), z[:64], z[:64].copy())


def test_mfma_in_a_divergent_branch_names_the_missing_lanes():
    gpusim.set_system("mi300x", ngpus=1)

    @hip.jit
    def divergent(out):
        a = hip.local.array(1, np.float32)
        acc = hip.local.array(16, np.float32)
        a[0] = 1.0
        if hip.threadIdx.x < 32:
            hip.mfma_f32_32x32x2f32(a, a, acc)
        out[hip.threadIdx.x] = acc[0]

    with pytest.raises(HipError, match=r"lanes? .*inactive|not active") as info:
        divergent[1, 64](np.zeros(64, np.float32))
    assert "line" in str(info.value) and "mfma_f32_32x32x2f32" in str(info.value)


@pytest.mark.parametrize("body,message", [
    ("a = hip.local.array(3, np.float32)\n    hip.mfma_f32_32x32x8bf16_1k(a, a, acc)",
     r"4 bf16 element\(s\) per lane; 'a' is a local array of shape \(3,\)"),
    ("a = hip.local.array(4, np.int32)\n    hip.mfma_f32_32x32x8bf16_1k(a, a, acc)",
     r"holds bf16 elements; 'a' is int32"),
    ("x = 1.0\n    hip.mfma_f32_32x32x8bf16_1k(x, x, acc)", r"one number cannot"),
    ("a = hip.local.array(4, np.uint16)\n    r = hip.mfma_f32_32x32x8bf16_1k(a, a, acc)",
     r"returns nothing"),
    ("a = hip.local.array(4, np.uint16)\n    hip.mfma_f32_32x32x8bf16_1k(a, a, 0.0)",
     r"must be a private array"),
    ("a = hip.local.array(2, np.float32)\n    hip.mfma_f32_16x16x8_xf32(a, a, acc)",
     r"mfma_f32_16x16x8_xf32 \(v_mfma_f32_16x16x8_xf32\) is not modelled"),
])
def test_misuse_is_a_compile_error_naming_the_operand(body, message):
    gpusim.set_system("mi300x", ngpus=1)
    text = f"def bad(out):\n    acc = hip.local.array(16, np.float32)\n    {body}\n"
    scope = {"hip": hip, "np": np}
    exec(compile(text, "<bad mfma>", "exec"), scope)
    with pytest.raises(KernelCompileError, match=message):
        hip.jit(scope["bad"])[1, 64](np.zeros(1))


@pytest.mark.parametrize("device,message", [
    ("rx7900xtx", r"gfx1100.*no MFMA"), ("mi250x", r"does not exist on gfx90a"),
])
def test_wrong_architecture_is_a_compile_error(device, message):
    gpusim.set_system(device, ngpus=1)
    inst = mfma.get_mfma("gfx942", "v_mfma_f32_32x32x16_fp8_fp8")
    z = np.zeros((64, 16), np.float32)
    with pytest.raises(KernelCompileError, match=message):
        make_kernel(inst)[1, 64](np.zeros((64, 8), np.uint8), np.zeros((64, 8), np.uint8),
                                 z, z.copy())


def _k_loop_kernel():
    @hip.jit
    def k_loop(A, B, out):
        t = hip.threadIdx.x
        a = hip.local.array(4, np.float32)
        b = hip.local.array(4, np.float32)
        acc = hip.local.array(16, np.float32)
        for e in range(16):  # private registers start with what the last wave left
            acc[e] = 0.0
        for kk in range(0, A.shape[1], 8):
            for e in range(4):
                a[e] = A[t % 32, kk + 4 * (t // 32) + e]
                b[e] = B[kk + 4 * (t // 32) + e, t % 32]
            hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
        for e in range(16):
            out[hip.blockIdx.x, t, e] = acc[e]
    return k_loop


@pytest.mark.parametrize("device,mnemonic", [("mi300x", "v_mfma_f32_32x32x8_bf16"),
                                             ("mi250x", "v_mfma_f32_32x32x8bf16_1k")])
def test_llvm_emits_the_instruction_and_counts_its_registers(device, mnemonic):
    """kernel.isa() / resources() go through LLVM's AMDGPU backend: the builtin's
    intrinsic becomes the architecture's mnemonic, and the 16 accumulator registers plus
    A and B (2 + 2) are in the register count LLVM reports (VGPRs, or AGPRs)."""
    gpusim.set_system(device, ngpus=1)
    k = _k_loop_kernel()
    args = (np.zeros((32, 64), np.float32), np.zeros((64, 32), np.float32),
            np.zeros((1, 64, 16), np.float32))
    assert any(line.split()[:1] == [mnemonic] for line in k.isa(*args).splitlines()
               if line.strip())
    r = k.resources(*args)
    assert r["vgprs"] + r["agprs"] >= 16 + 2 + 2


def test_trace_counts_matrix_instructions_cycles_and_flops():
    """gpusim.profile counts each wave's MFMAs (SQ_INSTS_MFMA), the matrix core's busy
    cycles (passes x 4 from the ISA guide: 8 passes on gfx942) and FLOPs (2 M N K)."""
    gpusim.set_system("mi300x", ngpus=1)
    k = _k_loop_kernel()
    blocks, K = 3, 64
    A, B = np.ones((32, K), np.float32), np.ones((K, 32), np.float32)
    out = np.zeros((blocks, 64, 16), np.float32)
    with gpusim.profile(memory=True) as prof:
        k[blocks, 64](A, B, out)
    c = prof.kernels[0].counters
    per_wave = K // 8
    assert c["SQ_INSTS_MFMA"] == blocks * per_wave
    assert c["GPUSIM_MFMA_BUSY_CYCLES"] == blocks * per_wave * 32
    assert c["GPUSIM_MFMA_FLOPS"] == blocks * per_wave * 2 * 32 * 32 * 8
    assert c["GPUSIM_FLOPS"] >= c["GPUSIM_MFMA_FLOPS"]
    assert np.all(out == K)


def test_matrix_cores_at_full_rate_match_the_datasheet_and_rocblas():
    """Waves on every SIMD issuing back-to-back 32x32x8 bf16 MFMAs. The ISA guide's 8
    passes per instruction at the 2100 MHz peak clock give AMD's datasheet peak for
    dense BF16, 1307.4 TFLOP/s (304 CUs x 4 matrix cores x 512 FLOP/clock); the model
    runs them at the clock measured under such load (1207 MHz, AMD's MAF blog part 2),
    the same rate rocBLAS's model gives a large bf16 GEMM."""
    from gpusim.devices import get_spec
    from gpusim.memsim.counters import InstructionCounts
    from gpusim.timing.kernel_model import kernel_time

    spec = get_spec("mi300x")
    inst = mfma.get_mfma("gfx942", "v_mfma_f32_32x32x8_bf16")
    waves, per_wave = spec.cu_count * 4 * 2, 20000
    counts = InstructionCounts(waves=waves, mfma=waves * per_wave,
                               mfma_cycles=waves * per_wave * inst.cycles,
                               mfma_flops=waves * per_wave * inst.flops)
    seconds, parts = kernel_time(spec, counts, occupancy=2, workgroups=waves)
    assert parts["bound"] == "mfma"
    peak = spec.cu_count * 4 * inst.flops / inst.cycles * spec.clock_mhz * 1e6 / 1e12
    assert peak == pytest.approx(spec.matrix_bf16_tflops, rel=0.001)
    rate = counts.mfma_flops / (seconds - parts["launch"]) / 1e12
    assert rate == pytest.approx(peak * spec.mfma_load_clock_mhz / spec.clock_mhz, rel=0.002)
    from gpusim.libs.rocblas.blas_time import matrix_peak_tflops
    assert rate == pytest.approx(matrix_peak_tflops(spec, "bf16"), rel=0.002)


def test_hip_bf16_rounds_like_ml_dtypes_and_keeps_bit_patterns():
    """hip.bf16(x): nearest-even bfloat16 patterns (ties, subnormals, overflow to inf,
    signed zero) equal ml_dtypes'; a uint16 pattern passes through unchanged."""
    gpusim.set_system("mi300x", ngpus=1)

    @hip.jit
    def conv(x, out, same):
        i = hip.grid(1)
        if i < x.size:
            out[i] = hip.bf16(x[i])
            same[i] = hip.bf16(out[i])

    x = np.random.default_rng(0).standard_normal(1000).astype(np.float32) * np.float32(1e3)
    x[:7] = [1 + 2**-8, 1 + 3 * 2**-8, 2**-130, np.inf, -0.0, 3.4e38, np.nan]
    out, same = np.zeros(1000, np.uint16), np.zeros(1000, np.uint16)
    conv[4, 256](x, out, same)
    want = x.astype(ml_dtypes.bfloat16).view(np.uint16)
    np.testing.assert_array_equal(out[7:], want[7:])
    np.testing.assert_array_equal(out[:6], want[:6])
    assert out[6] & 0x7F80 == 0x7F80 and out[6] & 0x7F  # a NaN
    np.testing.assert_array_equal(same, out)
