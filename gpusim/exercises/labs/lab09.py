"""Lab 09 (porting): hipify's options, and a wave64-correct wavefront reduction."""

from __future__ import annotations

import numpy as np

from gpusim import hip, hipify
from gpusim.exercises.expect import expect_array, expect_true
from gpusim.exercises.measure import on_device
from gpusim.exercises.registry import NotYet, exercise

_CUDA = r"""#include <cublas_v2.h>
__global__ void twice(float* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= 2.0f;
}
void run(float* v, int n, float* out) {
    twice<<<(n + 255) / 256, 256>>>(v, n);
    cublasHandle_t h;
    cublasCreate(&h);
    cublasSnrm2(h, n, v, 1, out);
    cublasDestroy(h);
}
"""


@exercise("09.1", "hipify options", hints=[
    "help(hipify.hipify_cpp) lists its keyword options with what each one changes.",
    "One option is about how kernels are launched, the other about which library names "
    "(hip* or roc*) calls become.",
    "Both are booleans: pass them as a dict, e.g. dict(name=True, other=True).",
])
def options(options: dict) -> str:
    """Hipifies a small CUDA file of the check's own with ``**options``."""
    if not isinstance(options, dict):
        raise NotYet(f"options should be a dict of keyword arguments, but it is "
                     f"{type(options).__name__}.")
    text = hipify.hipify_cpp(_CUDA, **options).text
    expect_true("<<<" not in text and "hipLaunchKernelGGL(twice" in text,
                "Kernels are still launched with <<<...>>>: ask for hipLaunchKernelGGL.")
    expect_true("rocblas_snrm2" in text and "hipblas" not in text,
                "Library calls became hipBLAS (hipblasSnrm2): ask for the ROCm library "
                "names (rocblas_snrm2).")
    return "Launches became hipLaunchKernelGGL and cuBLAS became rocBLAS."


@exercise("09.2", "wave-size-agnostic reduction", hints=[
    "On MI300X a wavefront has 64 lanes; a tree that starts at 16 adds up only 32 of them.",
    "hip.warpsize is the wavefront's size on the device the kernel runs on.",
    "Start the shuffle tree at half of hip.warpsize.",
])
def wave_sums(kernel) -> str:
    """Runs ``kernel[4, 256](x, sums)`` on the lab's MI300X (wave64), then on a wave32
    device (the RX 7900 XTX profile): one sum per wavefront, against NumPy, on both."""
    got, width = _wave_sums(kernel)
    x = _WAVE_INPUT
    half = x.reshape(-1, width)[:, :width // 2].sum(axis=1)
    if width == 64 and np.allclose(got, half):
        raise NotYet("Each sum holds lanes 0-31 of its wavefront only: the tree is sized "
                     "for a 32-lane warp.")
    _early_stop(got, x.reshape(-1, width))
    expect_array("sums", got, x.reshape(-1, width).sum(axis=1), unset=np.nan)
    with on_device("rx7900xtx"):
        got32, width32 = _wave_sums(kernel)
    try:
        expect_array("sums", got32, x.reshape(-1, width32).sum(axis=1), unset=np.nan)
    except NotYet as wrong:
        raise NotYet(f"Right on the {width}-lane MI300X, but on a GPU with 32-lane "
                     f"wavefronts (RX 7900 XTX) {wrong.lines[0][:1].lower()}"
                     f"{wrong.lines[0][1:]} The kernel assumes a 64-wide wavefront: take "
                     "every size from hip.warpsize.") from None
    return f"One right sum per wavefront, on {width}-lane and on 32-lane wavefronts."


def _early_stop(got: np.ndarray, waves: np.ndarray) -> None:
    """A tree that stops before distance d leaves lane 0 the sum of every (2d)th lane."""
    d = 1
    while 2 * d < waves.shape[1]:
        if np.allclose(got, waves[:, ::2 * d].sum(axis=1)):
            raise NotYet(f"Each sum holds every {2 * d}th lane of its wavefront only: the "
                         f"tree stops before distance {d}; it must go on down to distance 1 (each "
                         "lane adds its neighbour last).")
        d *= 2


_WAVE_INPUT = np.random.default_rng(9).integers(0, 100, 1024).astype(np.float32)


def _wave_sums(kernel) -> tuple[np.ndarray, int]:
    width = hip.hipGetDeviceProperties().warpSize
    x = _WAVE_INPUT
    sums = hip.to_device(np.full(x.size // width, np.nan, np.float32))
    kernel[x.size // 256, 256](hip.to_device(x), sums)
    return sums.copy_to_host(), width
