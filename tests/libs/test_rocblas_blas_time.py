"""Modeled time of rocBLAS calls: peak rates from the profiles, efficiency over sizes,
and what the profiler shows (invariants and orderings, never host timings)."""

import dataclasses

import numpy as np
import pytest
from blas_storage import dev

import gpusim
from gpusim import hip, rocblas
from gpusim.devices import get_spec, list_devices
from gpusim.libs.rocblas import blas_time

PER_CLOCK = {  # matrix FLOPs per clock per CU (AMD matrix-core tables cited in the profiles)
    "mi300x": {"f64": 256, "f32": 256, "f16": 2048, "bf16": 2048, "i8": 4096},
    "mi250x": {"f64": 256, "f32": 256, "f16": 1024, "bf16": 1024, "i8": 1024},
    "mi100": {"f64": 0, "f32": 256, "f16": 1024, "bf16": 512, "i8": 1024},
    "rx7900xtx": {"f64": 0, "f32": 0, "f16": 512, "bf16": 512, "i8": 512},
}


@pytest.mark.parametrize("key", list_devices())
def test_matrix_peaks_are_per_clock_rate_times_cus_times_clock(key):
    spec = get_spec(key)
    for kind, per_clock in PER_CLOCK[key].items():
        stored = getattr(spec, blas_time.MATRIX_FIELD[kind])
        expected = per_clock * spec.cu_count * spec.clock_mhz * 1e6 / 1e12
        assert stored == pytest.approx(expected, rel=2e-3, abs=0)
        assert blas_time.has_matrix_cores(spec, kind) == (per_clock > 0)


def test_mi300x_issue_figures():
    spec = get_spec("mi300x")
    assert (spec.matrix_fp64_tflops, spec.matrix_fp32_tflops, spec.matrix_fp16_tflops,
            spec.matrix_bf16_tflops, spec.memory_bandwidth_gbs) == (163.4, 163.4, 1307.4,
                                                                     1307.4, 5300.0)


@pytest.mark.parametrize("kind", ["f64", "f32", "f16", "bf16"])
def test_gemm_efficiency_and_achieved_rate_grow_with_size(kind):
    spec = get_spec("mi300x")
    sizes = [64, 128, 256, 512, 1024, 2048, 4096, 8192]
    eff = [blas_time.gemm_efficiency(spec, n, n, n, 1, kind) for n in sizes]
    rate = [2 * n**3 / blas_time.gemm_seconds(spec, n, n, n, 1, kind)[0] for n in sizes]
    assert all(0 < e <= blas_time.BEST[kind] for e in eff)
    assert eff[-1] > 0.6 * blas_time.BEST[kind] and eff[0] < 0.01
    assert all(b > a for a, b in zip(rate, rate[1:], strict=False))


def test_matrix_cores_make_half_precision_faster_and_skinny_gemm_memory_bound():
    spec = get_spec("mi300x")
    t32 = blas_time.gemm_seconds(spec, 4096, 4096, 4096, 1, "f32")[0]
    t16 = blas_time.gemm_seconds(spec, 4096, 4096, 4096, 1, "f16", in_bytes=2, out_bytes=2)[0]
    assert t16 < t32 / 4
    _, parts = blas_time.gemm_seconds(spec, 8192, 8192, 1, 1, "f32")
    assert parts["bound"] == "HBM"
    rx = get_spec("rx7900xtx")
    assert blas_time.gemm_seconds(rx, 512, 512, 512, 1, "f64")[1]["unit"] == "vector ALUs"


def test_profiler_shows_the_library_kernels_and_copies(handle):
    x = dev(np.ones(1 << 16, np.float32))
    with gpusim.profile() as prof:
        rocblas.rocblas_sdot(handle, 1 << 16, x, 1, x, 1)
        rocblas.rocblas_set_vector(4, 4, np.ones(4, np.float32), 1, x, 1)
        rocblas.rocblas_sscal(handle, 1 << 16, 2.0, x, 1)
        hip.hipDeviceSynchronize()
    names = [k.name for k in prof.kernels]
    assert names == ["rocblas_dot_kernel_inc1<float>", "rocblas_dot_kernel_reduce",
                     "rocblas_scal_kernel<float>"]
    assert [c.direction for c in prof.copies] == ["HtoD"]
    assert all(k.breakdown["bound"] == "HBM" for k in prof.kernels)


def test_modeled_gemm_time_in_the_profiler_matches_the_model(handle):
    n = 512
    A = dev(np.ones(n * n, np.float32))
    with gpusim.profile() as prof:
        rocblas.rocblas_sgemm(handle, 111, 111, n, n, n, 1.0, A, n, A, n, 0.0, A, n)
        hip.hipDeviceSynchronize()
    seconds, _ = blas_time.gemm_seconds(get_spec("mi300x"), n, n, n, 1, "f32", reads_c=False)
    assert blas_time.macro_tile(get_spec("mi300x"), 64, 64, 1) < blas_time.macro_tile(
        get_spec("mi300x"), 8192, 8192, 1)
    assert prof.kernels[0].duration_ns == round(seconds * 1e9)
    spec = get_spec("mi300x")
    mt = blas_time.macro_tile(spec, n, n, 1)
    assert prof.kernels[0].grid == (n // mt, n // mt, 1) == blas_time.gemm_grid(spec, n, n, 1)[0]
    assert f"_MT{mt}x{mt}x" in prof.kernels[0].name


# ROCm blog 'Measuring Max-Achievable FLOPs - Part 2' (2025-02-28), MI300X (750 W),
# hipblaslt-bench, M=4096 N=4864 K=32896: BF16 708 TFLOP/s at a median 1207 MHz, FP16
# 654 TFLOP/s at 1115 MHz; the BF16 sample run took 1848.09 us. Peak at a clock f:
# 304 CUs x 2048 FLOP/clock x f (751 TFLOP/s at 1207 MHz, the blog's footnote 2).
MAF = {"bf16": 708.0, "f16": 654.0}
MAF_MNK = (4096, 4864, 32896)


def _maf_rate(spec, kind):
    m, n, k = MAF_MNK
    seconds, parts = blas_time.gemm_seconds(spec, m, n, k, 1, kind, in_bytes=2, out_bytes=2,
                                        reads_c=False)
    return 2 * m * n * k / seconds / 1e12, seconds, parts


def test_mi300x_16_bit_gemms_run_at_the_clock_under_load_of_the_maf_blog():
    spec = get_spec("mi300x")
    assert spec.mfma_load_clock_mhz == 1207 and spec.clock_mhz == 2100
    assert "max-achievable-flops-part2" in spec.sources["mfma_load_clock_mhz"]
    peak_at_load = 304 * 2048 * 1207e6 / 1e12
    for kind, published in MAF.items():
        rate, seconds, parts = _maf_rate(spec, kind)
        assert parts["bound"] == "compute" and parts["unit"] == "matrix cores"
        assert parts["peak_tflops"] == pytest.approx(peak_at_load, rel=1e-3)
        assert rate == pytest.approx(published, rel=0.01)
    # the blog's software efficiency for BF16: 708 / 751 = 94% of the peak at 1207 MHz
    assert _maf_rate(spec, "bf16")[0] / peak_at_load == pytest.approx(0.94, abs=0.01)
    assert _maf_rate(spec, "bf16")[1] == pytest.approx(1848.09e-6, rel=0.01)


def test_the_load_clock_scales_only_16_bit_gemms_and_only_where_a_clock_is_published():
    spec = get_spec("mi300x")
    at_peak = dataclasses.replace(spec, mfma_load_clock_mhz=spec.clock_mhz)
    for kind in ("bf16", "f16"):  # compute-bound: the rate scales with the clock
        ratio = _maf_rate(at_peak, kind)[0] / _maf_rate(spec, kind)[0]
        assert ratio == pytest.approx(2100 / 1207, rel=0.01)
    for kind in ("f32", "f64", "i8"):  # no published clock under load: the peak clock
        assert blas_time.matrix_peak_tflops(spec, kind) == getattr(
            spec, blas_time.MATRIX_FIELD[kind])
    for key in list_devices(calibration=True):
        other = get_spec(key)
        if key != "mi300x":
            assert other.mfma_load_clock_mhz == other.clock_mhz
            assert other.sources["mfma_load_clock_mhz"].startswith("model assumption")
            for kind in PER_CLOCK.get(key, {}):
                if blas_time.has_matrix_cores(other, kind):
                    assert blas_time.matrix_peak_tflops(other, kind) == getattr(
                        other, blas_time.MATRIX_FIELD[kind])
    # a variant clocked below the load clock is not sped up by it
    slow = dataclasses.replace(spec, clock_mhz=1000)
    assert blas_time.load_clock_factor(slow, "bf16") == 1.0


def test_gemm_ex_bf16_in_the_profiler_uses_the_load_clock(handle):
    n = 256
    bits = dev(np.zeros(n * n, np.uint16))
    out = dev(np.zeros(n * n, np.float32))
    bf16, f32 = rocblas.rocblas_datatype_bf16_r, rocblas.rocblas_datatype_f32_r
    N = rocblas.rocblas_operation_none
    with gpusim.profile() as prof:
        rocblas.rocblas_gemm_ex(handle, N, N, n, n, n, 1.0, bits, bf16, n, bits, bf16, n, 0.0,
                                out, f32, n, out, f32, n, f32,
                                rocblas.rocblas_gemm_algo_standard, 0, 0)
        hip.hipDeviceSynchronize()
    (kernel,) = prof.kernels
    assert kernel.breakdown["peak_tflops"] == pytest.approx(1307.4 * 1207 / 2100, rel=1e-6)
    seconds, _ = blas_time.gemm_seconds(get_spec("mi300x"), n, n, n, 1, "bf16", in_bytes=2,
                                    out_bytes=4, reads_c=False)
    assert kernel.duration_ns == round(seconds * 1e9)
