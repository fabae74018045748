"""Modeled time, launch grids and kernel names of rocBLAS's kernels.

GEMM-like routines (level 3, gemm_ex) run on the matrix cores when the device has them
for the compute type (``matrix_*_tflops`` in the device profile), else on the vector
units. Their efficiency is the product of three model factors, each a reason a tuned
library still falls short of peak on small problems:

    tile fill      output tiles (MT x MT) over whole waves of CUs:
                   ceil(m/MT) * ceil(n/MT) * batch tiles on cu_count CUs; the last wave
                   of a 2048^2 sgemm with MT = 128 fills 256 of 304 MI300X CUs
    padding        m*n over the padded tile area (edge tiles do useless work), times
                   the per-CU efficiency of the tile size (TILE_EFFICIENCY: small
                   tiles reuse less data per load)
    k depth        saturating_efficiency(k, half_work=K_HALF, best=BEST[...]): the
                   prologue/epilogue of each tile is amortised over its k loop

Like Tensile's solution selection, the macro tile MT (16 to 256) is the one that gives
the best product for the problem: small problems use small tiles to spread over more CUs.

Clock under load: a dense matrix-core GEMM does not run at the peak engine clock. The
power manager lowers it: AMD's 'Measuring Max-Achievable FLOPs - Part 2' blog measured an
MI300X at a median 1207 MHz on a BF16 GEMM (1115 MHz FP16, 1230 MHz FP8) against its 2100
MHz peak. The profile field ``mfma_load_clock_mhz`` holds that clock (the peak clock where
nothing is published) and 16-bit GEMMs (LOAD_CLOCK_KINDS) run at peak x load / peak clock;
f32, f64 and i8 GEMMs keep the peak clock, as no public measurement gives theirs.

BEST (the fraction of that peak a large, well-shaped problem reaches): f16 and bf16 are
fitted to the MAF blog's MI300X figures (below); f64, f32 and i8, and K_HALF, are model
assumptions: AMD publishes no rocBLAS efficiency curves for them. Level-1/2
routines are memory-bound: bytes at HBM bandwidth with an efficiency that saturates
with size (a tiny vector cannot keep every channel busy).

Kernel names follow what rocprof shows: Tensile's ``Cijk_Ailk_Bljk_SB_MT128x128x...``
for GEMMs (A/B letters encode the transposes, the type code the precisions) and
``rocblas_<routine>_kernel<...>`` for the library's own kernels.

>>> from gpusim.devices import get_spec
>>> spec = get_spec("mi300x")
>>> t_small, _ = gemm_seconds(spec, 256, 256, 256, 1, "f32")
>>> t_big, parts = gemm_seconds(spec, 4096, 4096, 4096, 1, "f32")
>>> parts["bound"], t_small < t_big, round(2 * 4096**3 / t_big / 1e12)
('compute', True, 109)

The MAF blog's BF16 GEMM (M=4096, N=4864, K=32896; 708 TFLOP/s measured at 1207 MHz):

>>> t, parts = gemm_seconds(spec, 4096, 4864, 32896, 1, "bf16", in_bytes=2, out_bytes=2,
...                         reads_c=False)
>>> round(parts["peak_tflops"], 1), round(2 * 4096 * 4864 * 32896 / t / 1e12)
(751.4, 708)
"""

from __future__ import annotations

import math

import numpy as np

from gpusim.devices import DeviceSpec
from gpusim.libs.common import roofline_seconds, saturating_efficiency, vector_peak_tflops

# Per-CU efficiency of a macro tile of edge MT (model assumption: arithmetic intensity
# grows with the tile, as loads per FMA fall like 1 / MT).
TILE_EFFICIENCY = {256: 1.0, 128: 0.95, 64: 0.8, 32: 0.55, 16: 0.3}
K_HALF = 32  # k at which half of BEST is reached (model assumption)
# Fraction of the (load-clock) peak a large GEMM reaches. f64, f32, i8: model assumptions.
# bf16, f16: fitted to the MAF blog's MI300X hipBLASLt figures at M=4096, N=4864,
# K=32896 (one 256 x 256 tile per CU: tile fill and padding are 1), with the peak at
# mfma_load_clock_mhz = 1207 MHz (751.4 TFLOP/s); chosen so gemm_seconds at that size
# (k depth 0.999 and the launch overhead included) gives the blog's figure:
#   bf16: 0.945 -> 708 TFLOP/s (the blog's own software efficiency: 708 / 751 = 94%)
#   f16:  0.873 -> 654 TFLOP/s (FP16 ran at 1115 MHz, 8% below the BF16 clock the
#         profile holds; that lower clock is folded into this efficiency)
# FP8 (1273 TFLOP/s at 1230 MHz) is not used: gpusim's rocBLAS has no FP8 GEMM, and its
# i8 kind is INT8, which the blog did not measure.
BEST = {"f64": 0.85, "f32": 0.80, "f16": 0.873, "bf16": 0.945, "i8": 0.60}
LOAD_CLOCK_KINDS = frozenset({"f16", "bf16"})  # kinds whose GEMM clock under load is known
MEM_BEST, MEM_HALF_BYTES = 0.90, 4 << 20  # level 1/2: 90% of HBM, half at 4 MiB

TYPE_CODE = {"f64": "DB", "f32": "SB", "f16": "HB", "bf16": "BB", "i8": "I8II",
             "c64": "CB", "c128": "ZB"}


def compute_kind(dtype: np.dtype) -> str:
    """'f64', 'f32', 'f16', 'bf16' or 'i8': which peak rate a routine on ``dtype`` uses.

    >>> compute_kind(np.dtype(np.complex64))
    'f32'
    """
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return "f64" if dtype.itemsize == 16 else "f32"
    return {8: "f64", 4: "f32", 2: "f16", 1: "i8"}[dtype.itemsize]


MATRIX_FIELD = {"f64": "matrix_fp64_tflops", "f32": "matrix_fp32_tflops",
                "f16": "matrix_fp16_tflops", "bf16": "matrix_bf16_tflops",
                "i8": "matrix_int8_tops"}


def has_matrix_cores(spec: DeviceSpec, kind: str) -> bool:
    """True when the device has matrix instructions for ``kind`` (profile rate > 0)."""
    return getattr(spec, MATRIX_FIELD[kind]) > 0


def load_clock_factor(spec: DeviceSpec, kind: str) -> float:
    """Clock under a dense GEMM load over the peak clock, for matrix-core GEMMs of ``kind``.

    >>> from gpusim.devices import get_spec
    >>> round(load_clock_factor(get_spec("mi300x"), "bf16"), 3)
    0.575
    >>> load_clock_factor(get_spec("mi300x"), "f32"), load_clock_factor(get_spec("mi250x"), "f16")
    (1.0, 1.0)
    """
    if kind not in LOAD_CLOCK_KINDS:
        return 1.0
    return min(1.0, spec.mfma_load_clock_mhz / spec.clock_mhz)


def matrix_peak_tflops(spec: DeviceSpec, kind: str) -> float:
    """Peak rate for GEMMs of ``kind``: matrix cores if present (at the clock under load,
    see ``load_clock_factor``), else the vector units."""
    if has_matrix_cores(spec, kind):
        return getattr(spec, MATRIX_FIELD[kind]) * load_clock_factor(spec, kind)
    return spec.fp64_tflops if kind == "f64" else spec.fp32_tflops


def _tile_efficiency(spec: DeviceSpec, m: int, n: int, batch: int, mt: int) -> float:
    tiles_m, tiles_n = math.ceil(m / mt), math.ceil(n / mt)
    tiles = tiles_m * tiles_n * batch
    fill = tiles / (math.ceil(tiles / spec.cu_count) * spec.cu_count)
    padding = (m * n) / (tiles_m * mt * tiles_n * mt)
    return fill * padding * TILE_EFFICIENCY[mt]


def macro_tile(spec: DeviceSpec, m: int, n: int, batch: int) -> int:
    """The macro-tile edge the model's "Tensile" picks for an m x n (x batch) output.

    >>> from gpusim.devices import get_spec
    >>> macro_tile(get_spec("mi300x"), 128, 128, 1), macro_tile(get_spec("mi300x"), 4096, 4096, 1)
    (16, 256)
    """
    m, n, batch = max(m, 1), max(n, 1), max(batch, 1)
    return max(TILE_EFFICIENCY, key=lambda mt: _tile_efficiency(spec, m, n, batch, mt))


def gemm_efficiency(spec: DeviceSpec, m: int, n: int, k: int, batch: int, kind: str
                    ) -> float:
    """Fraction of peak for an m x n x k GEMM batch (tile fill x padding x k depth)."""
    mt = macro_tile(spec, m, n, batch)
    return _tile_efficiency(spec, m, n, batch, mt) * saturating_efficiency(
        k, half_work=K_HALF, best=BEST[kind])


def gemm_seconds(spec: DeviceSpec, m: int, n: int, k: int, batch: int, kind: str, *,
                 complex_: bool = False, in_bytes: int = 4, out_bytes: int = 4,
                 reads_c: bool = True, flops: float | None = None) -> tuple[float, dict]:
    """(seconds, breakdown) of a GEMM-shaped kernel; ``flops`` overrides 2mnk (x4 complex)."""
    if flops is None:
        flops = 2.0 * m * n * k * batch * (4 if complex_ else 1)
    moved = batch * ((m * k + k * n) * in_bytes + m * n * out_bytes * (2 if reads_c else 1))
    eff = gemm_efficiency(spec, max(m, 1), max(n, 1), max(k, 1), max(batch, 1), kind)
    seconds, parts = roofline_seconds(spec, flops=flops, bytes_moved=moved,
                                      peak_tflops=matrix_peak_tflops(spec, kind),
                                      compute_efficiency=max(eff, 1e-6))
    parts["unit"] = "matrix cores" if has_matrix_cores(spec, kind) else "vector ALUs"
    return seconds, parts


def stream_seconds(spec: DeviceSpec, *, bytes_moved: float, flops: float, dtype: np.dtype
                   ) -> tuple[float, dict]:
    """(seconds, breakdown) of a memory-bound level-1/2 kernel on the vector units."""
    vector = vector_peak_tflops(spec, compute_kind(dtype) == "f64")
    eff = saturating_efficiency(bytes_moved, half_work=MEM_HALF_BYTES, best=MEM_BEST)
    return roofline_seconds(spec, flops=flops, bytes_moved=bytes_moved, peak_tflops=vector,
                            memory_efficiency=max(eff, 1e-6))


def gemm_grid(spec: DeviceSpec, m: int, n: int, batch: int
              ) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(grid, block) of the modeled GEMM launch: one 256-thread workgroup per tile."""
    mt = macro_tile(spec, m, n, batch)
    return (max(1, math.ceil(m / mt)), max(1, math.ceil(n / mt)), max(1, batch)), (256, 1, 1)


def vector_grid(n: int, block: int = 256) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(grid, block) of a one-thread-per-element launch."""
    return (max(1, math.ceil(n / block)), 1, 1), (block, 1, 1)


def tensile_name(trans_a: str, trans_b: str, code: str, batched: bool = False,
                 mt: int | str = 128) -> str:
    """Tensile-style kernel name: trans letters are 'N', 'T' or 'C'.

    >>> tensile_name("N", "T", "SB")
    'Cijk_Ailk_Bjlk_SB_MT128x128x16_MI32x32x2x1'
    """
    a = {"N": "Ailk", "T": "Alik", "C": "AlikC"}[trans_a]
    b = {"N": "Bljk", "T": "Bjlk", "C": "BjlkC"}[trans_b]
    suffix = "_GB" if batched else ""
    return f"Cijk_{a}_{b}_{code}{suffix}_MT{mt}x{mt}x16_MI32x32x2x1"


def ctype(dtype: np.dtype) -> str:
    """The C type rocBLAS templates on, for kernel names."""
    return {"float32": "float", "float64": "double", "complex64": "rocblas_float_complex",
            "complex128": "rocblas_double_complex", "float16": "rocblas_half"}.get(
        np.dtype(dtype).name, np.dtype(dtype).name)
