"""Lab 07 (rocBLAS, rocSOLVER): row-major GEMM, FLOP rates, strided-batched solves."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from gpusim import hip, rocblas
from gpusim.course.expect import expect_array, expect_value
from gpusim.course.registry import NotYet, exercise


@exercise("07.1", "row-major GEMM", hints=[
    "rocBLAS reads every matrix column-major: the bytes of a row-major m x k matrix A are "
    "the bytes of the column-major k x m matrix A^T.",
    "The row-major C you want is, byte for byte, the column-major C^T = B^T A^T.",
    "Ask rocBLAS for the n x m product of B (as n x k, leading dimension n) and A (as "
    "k x m, leading dimension k), with no transposes.",
])
def rowmajor_gemm(gemm) -> str:
    """Calls ``gemm(handle, m, n, k, dA, dB, dC)`` on row-major A (5 x 3), B (3 x 4)."""
    m, k, n = 5, 3, 4
    rng = np.random.default_rng(7)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    dc = hip.to_device(np.full((m, n), np.nan, np.float32))
    handle = rocblas.rocblas_create_handle()
    try:
        gemm(handle, m, n, k, hip.to_device(a), hip.to_device(b), dc)
    finally:
        rocblas.rocblas_destroy_handle(handle)
    got, want = dc.copy_to_host(), a @ b
    if np.allclose(got.ravel(), want.ravel(order="F"), atol=1e-5):
        raise NotYet("dC holds A @ B, but column-major (column by column); the exercise "
                     "wants it row-major, as NumPy stores it.")
    expect_array("C", got, want, atol=1e-5, unset=np.nan)
    return "One sgemm call left the row-major A @ B in dC, with no copy or transpose."


@exercise("07.2", "TFLOP/s", hints=[
    "An n x n x n GEMM does n^3 multiply-adds, and a multiply-add is 2 FLOPs.",
    "record.duration_ns is in nanoseconds: 1e-9 seconds each.",
    "FLOPs / seconds / 1e12 is TFLOP/s.",
])
def tflops(tflops) -> str:
    """Calls ``tflops(record, n)`` on records with known modeled durations."""
    for n, ns in ((512, 7700.0), (128, 3600.0), (1000, 1.0e6)):
        want = 2 * n**3 / (ns * 1e-9) / 1e12
        got = tflops(SimpleNamespace(duration_ns=ns, name="gemm"), n)
        if isinstance(got, (int, float)) and got:
            for ratio, why in ((0.5, "A multiply-add counts as 2 FLOPs."),
                               (1e3, "That is GFLOP/s; the answer is in TFLOP/s."),
                               (1e-3, "Check the units: duration_ns is in nanoseconds.")):
                if np.isclose(got / want, ratio, rtol=1e-3):
                    raise NotYet(f"tflops(record, {n}) is {got:.4g}. {why}")
        expect_value(f"tflops(record of {ns:g} ns, {n})", got, want, rtol=1e-6)
    return "2 n^3 FLOPs over the modeled time, in TFLOP/s."


@exercise("07.3", "strided-batched solve", hints=[
    "Factor all the matrices with one getrf call, then solve all the systems with one "
    "getrs call: the _strided_batched forms.",
    "Matrix i starts strideA = n * n elements after matrix i - 1; its pivots strideP = n "
    "after the previous ones; its right-hand side strideB = n after the previous one.",
    "getrs takes the factors and pivots that getrf left, with trans = "
    "rocblas_operation_none.",
])
def solve_all(solve) -> str:
    """Calls ``solve(handle, As, bs, ipiv, infos, batch, n)`` on 5 systems of size 4."""
    batch, n = 5, 4
    rng = np.random.default_rng(3)
    mats = rng.standard_normal((batch, n, n)) + n * np.eye(n)
    rhs = rng.standard_normal((batch, n))
    As = hip.to_device(np.concatenate([a.ravel(order="F") for a in mats]))
    bs = hip.to_device(rhs.ravel())
    ipiv, infos = hip.device_array(batch * n, np.int32), hip.device_array(batch, np.int32)
    handle = rocblas.rocblas_create_handle()
    try:
        solve(handle, As, bs, ipiv, infos, batch, n)
    finally:
        rocblas.rocblas_destroy_handle(handle)
    got = bs.copy_to_host().reshape(batch, n)
    want = np.linalg.solve(mats, rhs[..., None])[..., 0]
    if np.allclose(got[0], want[0]) and np.allclose(got[1:], rhs[1:]):
        raise NotYet("System 0 is solved, the other 4 are untouched: one call must cover "
                     "the whole batch.")
    expect_array("x", got, want, rtol=1e-8, atol=1e-10)
    return f"All {batch} systems solved in two calls."
