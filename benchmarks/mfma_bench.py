"""Speed of the matrix-core emulation: an MFMA GEMM kernel vs numba njit doing the same work.

    python benchmarks/mfma_bench.py [--n 256]

gpusim runs ``tile_gemm`` (one wave per 32x32 tile of C, a K loop of
``hip.mfma_f32_32x32x8bf16_1k``, the operands rounded by ``hip.bf16``): every MFMA is a
wave collective that gathers 64 lanes' registers into the tile, multiplies in float64
and scatters D back. The reference is the same product hand-written for numba njit
(bf16-rounded inputs, float64 sums, rounded to float32 once per 8-deep K step, as the
instruction does). The ratio is gpusim's time over njit's: what a learner pays for the
per-lane register model.
"""

from __future__ import annotations

import argparse

import ml_dtypes
import numba
import numpy as np
from trace_bench import median_seconds  # benchmarks/ is on the path of its scripts

import gpusim
from gpusim import hip


@hip.jit
def tile_gemm(A, B, C):
    t = hip.threadIdx.x
    row, col = hip.blockIdx.y * 32, hip.blockIdx.x * 32
    a = hip.local.array(4, np.uint16)
    b = hip.local.array(4, np.uint16)
    acc = hip.local.array(16, np.float32)
    for e in range(16):  # registers start with whatever the last wave left there
        acc[e] = 0.0
    for kk in range(0, A.shape[1], 8):
        for e in range(4):
            a[e] = hip.bf16(A[row + t % 32, kk + 4 * (t // 32) + e])
            b[e] = hip.bf16(B[kk + 4 * (t // 32) + e, col + t % 32])
        hip.mfma_f32_32x32x8bf16_1k(a, b, acc)
    for e in range(16):
        C[row + 8 * (e // 4) + 4 * (t // 32) + e % 4, col + t % 32] = acc[e]


@numba.njit(cache=True)
def njit_gemm(A, B, C):
    """The same arithmetic: per 8-deep K step, float64 sums rounded once to float32 (rows
    of B read contiguously, as a tuned CPU loop would)."""
    n, k = A.shape
    m = B.shape[1]
    s = np.empty(m, np.float64)
    for i in range(n):
        for j in range(m):
            C[i, j] = 0.0
        for kk in range(0, k, 8):
            for j in range(m):
                s[j] = C[i, j]
            for q in range(kk, kk + 8):
                a = A[i, q]
                for j in range(m):
                    s[j] += a * B[q, j]
            for j in range(m):
                C[i, j] = np.float32(s[j])


def bench_mfma(n: int = 256) -> list[tuple[str, str]]:
    gpusim.set_system()
    rng = np.random.default_rng(0)
    A = rng.standard_normal((n, n)).astype(np.float32)
    B = rng.standard_normal((n, n)).astype(np.float32)
    ours, ref = np.zeros((n, n), np.float32), np.zeros((n, n), np.float32)
    dA, dB, dC = hip.to_device(A), hip.to_device(B), hip.to_device(ours)

    def run() -> None:
        tile_gemm[(n // 32, n // 32), 64](dA, dB, dC)
        hip.synchronize()

    Ab = A.astype(ml_dtypes.bfloat16).astype(np.float64)
    Bb = B.astype(ml_dtypes.bfloat16).astype(np.float64)
    t_ours = median_seconds(run)
    t_njit = median_seconds(lambda: njit_gemm(Ab, Bb, ref))
    np.testing.assert_allclose(dC.copy_to_host(), ref, rtol=1e-5, atol=1e-4)
    mfmas = (n // 32) ** 2 * (n // 8)
    return [(f"MFMA GEMM {n}x{n}x{n} (bf16, {mfmas:,} MFMAs): gpusim time / njit time",
             f"{t_ours / t_njit:.1f}x ({t_ours * 1e3:.1f} ms vs {t_njit * 1e3:.1f} ms)")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=256)
    for name, value in bench_mfma(parser.parse_args().n):
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
