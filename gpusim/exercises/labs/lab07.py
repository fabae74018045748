"""Lab 07 (rocBLAS, rocSOLVER): row-major GEMM, FLOP rates, strided-batched solves."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

import numpy as np

from gpusim import hip, rocblas, rocsolver
from gpusim.exercises.expect import expect_array, expect_value
from gpusim.exercises.registry import NotYet, exercise


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
        if isinstance(got, (int, float, np.integer, np.floating)) and got:
            for ratio, why in ((0.5, "A multiply-add counts as 2 FLOPs."),
                               (1e3, "That is GFLOP/s; the answer is in TFLOP/s."),
                               (1e-3, "Check the units: duration_ns is in nanoseconds."),
                               (1e-9, "Check the units: duration_ns is in nanoseconds, "
                                      "1e-9 seconds each.")):
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
    """Calls ``solve(handle, As, bs, ipiv, infos, batch, n)`` on 5 systems of size 4 (the
    lab's are 8 of size 3), counting the rocSOLVER calls it makes."""
    batch, n = 5, 4
    rng = np.random.default_rng(3)
    mats = rng.standard_normal((batch, n, n)) + n * np.eye(n)
    rhs = rng.standard_normal((batch, n))
    As = hip.to_device(np.concatenate([a.ravel(order="F") for a in mats]))
    bs = hip.to_device(rhs.ravel())
    ipiv, infos = hip.device_array(batch * n, np.int32), hip.device_array(batch, np.int32)
    handle = rocblas.rocblas_create_handle()
    try:
        with _counting_rocsolver() as calls:
            solve(handle, As, bs, ipiv, infos, batch, n)
    finally:
        rocblas.rocblas_destroy_handle(handle)
    got = bs.copy_to_host().reshape(batch, n)
    want = np.linalg.solve(mats, rhs[..., None])[..., 0]
    _stride_mistakes(calls, batch, n)
    if np.allclose(got, rhs):
        raise NotYet("bs still holds the right-hand sides: nothing was solved (getrs "
                     "writes the solutions over B).")
    if np.allclose(got[0], want[0]) and np.allclose(got[1:], rhs[1:]):
        raise NotYet(f"System 0 is solved, the other {batch - 1} are untouched: one call must "
                     "cover the whole batch (batch_count).")
    if np.allclose(got, np.linalg.solve(mats.transpose(0, 2, 1), rhs[..., None])[..., 0]):
        raise NotYet("bs holds the solutions of A^T x = b: getrs's trans must be "
                     "rocblas_operation_none.")
    expect_array("x", got, want, rtol=1e-8, atol=1e-10)
    if len(calls) != 2:
        names = ", ".join(f"{c} x{calls.count(c)}" for c in dict.fromkeys(calls))
        raise NotYet(f"All {batch} systems are solved, but with {len(calls)} rocSOLVER calls "
                     f"({names}); the exercise asks for two calls: one strided-batched getrf "
                     "for every matrix, one strided-batched getrs for every system.")
    return f"All {batch} systems solved in two calls."


@contextmanager
def _counting_rocsolver() -> Iterator[list]:
    """Every rocsolver_* call made through ``gpusim.rocsolver`` inside, by name; the
    arguments of the strided-batched ones in ``calls.args``."""
    calls = _Calls()
    saved = {name: getattr(rocsolver, name) for name in dir(rocsolver)
             if name.startswith("rocsolver_") and callable(getattr(rocsolver, name))}

    def counted(name, fn):
        def call(*args, **kwargs):
            calls.append(name)
            calls.args.append((name, args))
            return fn(*args, **kwargs)
        return call
    for name, fn in saved.items():
        setattr(rocsolver, name, counted(name, fn))
    try:
        yield calls
    finally:
        for name, fn in saved.items():
            setattr(rocsolver, name, fn)


class _Calls(list):
    def __init__(self):
        super().__init__()
        self.args: list[tuple[str, tuple]] = []


def _stride_mistakes(calls: _Calls, batch: int, n: int) -> None:
    """Name a stride or count that does not fit the check's n x n matrices."""
    where = {"getrf_strided_batched": {"strideA": 5, "strideP": 7, "batch_count": 9},
             "getrs_strided_batched": {"strideA": 6, "strideP": 8, "strideB": 11,
                                       "batch_count": 12}}
    want = {"strideA": n * n, "strideP": n, "strideB": n, "batch_count": batch}
    why = {"strideA": f"matrix i starts n * n = {n * n} elements after matrix i - 1",
           "strideP": f"the pivots of matrix i start n = {n} after the previous ones",
           "strideB": f"right-hand side i starts n = {n} after the previous one",
           "batch_count": f"there are batch = {batch} systems"}
    for name, args in calls.args:
        form = name[len("rocsolver_") + 1:]  # dgetrf_... -> getrf_...
        for param, pos in where.get(form, {}).items():
            if pos < len(args) and isinstance(args[pos], (int, np.integer)) \
                    and args[pos] != want[param]:
                literal = (" The check's matrices are 4 x 4 (the lab's are 3 x 3): compute "
                           "the strides from n, not as numbers." if param != "batch_count"
                           else "")
                raise NotYet(f"{name} got {param} = {args[pos]}, but {why[param]}.{literal}")
