"""Modeled time of rocBLAS calls: peak rates from the profiles, efficiency over sizes,
and what the profiler shows (invariants and orderings, never host timings)."""

import numpy as np
import pytest
from blas_storage import dev

import gpusim
from gpusim import hip, rocblas
from gpusim.devices import get_spec, list_devices
from gpusim.libs.rocblas import model

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
        stored = getattr(spec, model.MATRIX_FIELD[kind])
        expected = per_clock * spec.cu_count * spec.clock_mhz * 1e6 / 1e12
        assert stored == pytest.approx(expected, rel=2e-3, abs=0)
        assert model.has_matrix_cores(spec, kind) == (per_clock > 0)


def test_mi300x_issue_figures():
    spec = get_spec("mi300x")
    assert (spec.matrix_fp64_tflops, spec.matrix_fp32_tflops, spec.matrix_fp16_tflops,
            spec.matrix_bf16_tflops, spec.memory_bandwidth_gbs) == (163.4, 163.4, 1307.4,
                                                                     1307.4, 5300.0)


@pytest.mark.parametrize("kind", ["f64", "f32", "f16", "bf16"])
def test_gemm_efficiency_and_achieved_rate_grow_with_size(kind):
    spec = get_spec("mi300x")
    sizes = [64, 128, 256, 512, 1024, 2048, 4096, 8192]
    eff = [model.gemm_efficiency(spec, n, n, n, 1, kind) for n in sizes]
    rate = [2 * n**3 / model.gemm_seconds(spec, n, n, n, 1, kind)[0] for n in sizes]
    assert all(0 < e <= model.BEST[kind] for e in eff)
    assert eff[-1] > 0.6 * model.BEST[kind] and eff[0] < 0.01
    assert all(b > a for a, b in zip(rate, rate[1:], strict=False))


def test_matrix_cores_make_half_precision_faster_and_skinny_gemm_memory_bound():
    spec = get_spec("mi300x")
    t32 = model.gemm_seconds(spec, 4096, 4096, 4096, 1, "f32")[0]
    t16 = model.gemm_seconds(spec, 4096, 4096, 4096, 1, "f16", in_bytes=2, out_bytes=2)[0]
    assert t16 < t32 / 4
    _, parts = model.gemm_seconds(spec, 8192, 8192, 1, 1, "f32")
    assert parts["bound"] == "HBM"
    rx = get_spec("rx7900xtx")
    assert model.gemm_seconds(rx, 512, 512, 512, 1, "f64")[1]["unit"] == "vector ALUs"


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
    seconds, _ = model.gemm_seconds(get_spec("mi300x"), n, n, n, 1, "f32", reads_c=False)
    assert model.macro_tile(get_spec("mi300x"), 64, 64, 1) < model.macro_tile(
        get_spec("mi300x"), 8192, 8192, 1)
    assert prof.kernels[0].duration_ns == round(seconds * 1e9)
    spec = get_spec("mi300x")
    mt = model.macro_tile(spec, n, n, 1)
    assert prof.kernels[0].grid == (n // mt, n // mt, 1) == model.gemm_grid(spec, n, n, 1)[0]
    assert f"_MT{mt}x{mt}x" in prof.kernels[0].name
