"""Lab 07 (rocBLAS, rocSOLVER): students' row-major GEMMs, FLOP rates and batched solves."""

from __future__ import annotations

import numpy as np

from answers import right, wrong
from gpusim import rocblas, rocsolver

N, T = rocblas.rocblas_operation_none, rocblas.rocblas_operation_transpose


# ---- 07.1: C = A @ B, row-major, one sgemm

def gemm_swap(h, m, n, k, dA, dB, dC):
    rocblas.rocblas_sgemm(h, N, N, n, m, k, 1.0, dB, n, dA, k, 0.0, dC, n)


def gemm_keywords(handle, m, n, k, dA, dB, dC):
    op = rocblas.rocblas_operation_none
    alpha, beta = np.float32(1), np.float32(0)
    rocblas.rocblas_sgemm(handle, op, op, n, m, k, alpha, dB, n, dA, k, beta, dC, n)


def gemm_ex(h, m, n, k, dA, dB, dC):
    f32 = rocblas.rocblas_datatype_f32_r
    rocblas.rocblas_gemm_ex(h, N, N, n, m, k, 1.0, dB, f32, n, dA, f32, k, 0.0, dC, f32, n,
                            dC, f32, n, f32, rocblas.rocblas_gemm_algo_standard, 0, 0)


def gemm_column_major(h, m, n, k, dA, dB, dC):
    rocblas.rocblas_sgemm(h, T, T, m, n, k, 1.0, dA, k, dB, n, 0.0, dC, m)


def gemm_lda_one(h, m, n, k, dA, dB, dC):
    rocblas.rocblas_sgemm(h, N, N, n, m, k, 1.0, dB, 1, dA, k, 0.0, dC, n)


def gemm_nothing(h, m, n, k, dA, dB, dC):
    pass


def gemm_beta_one(h, m, n, k, dA, dB, dC):
    rocblas.rocblas_sgemm(h, N, N, n, m, k, 1.0, dB, n, dA, k, 1.0, dC, n)


# ---- 07.2: TFLOP/s

def tf_right(record, n):
    return 2 * n**3 / (record.duration_ns * 1e-9) / 1e12


def tf_ns(record, n):
    return 2.0 * n * n * n / record.duration_ns / 1e3


def tf_numpy(record, n):
    return np.float64(2 * float(n) ** 3) / np.float64(record.duration_ns) * 1e-3


# ---- 07.3: all systems in two calls

def solve_right(h, As, bs, ipiv, infos, batch, n):
    rocsolver.rocsolver_dgetrf_strided_batched(h, n, n, As, n, n * n, ipiv, n, infos, batch)
    rocsolver.rocsolver_dgetrs_strided_batched(h, N, n, 1, As, n, n * n, ipiv, n, bs, n, n,
                                               batch)


def solve_named(handle, As, bs, ipiv, infos, batch, n):
    sa, sp, sb = n * n, n, n
    rocsolver.rocsolver_dgetrf_strided_batched(handle, n, n, As, n, sa, ipiv, sp, infos, batch)
    rocsolver.rocsolver_dgetrs_strided_batched(handle, rocblas.rocblas_operation_none, n, 1,
                                               As, n, sa, ipiv, sp, bs, n, sb, batch)


def solve_ldb_batch(h, As, bs, ipiv, infos, batch, n):
    lda = ldb = n
    rocsolver.rocsolver_dgetrf_strided_batched(h, n, n, As, lda, lda * n, ipiv, n, infos, batch)
    rocsolver.rocsolver_dgetrs_strided_batched(h, N, n, 1, As, lda, lda * n, ipiv, n, bs, ldb,
                                               ldb, batch)


def solve_loop(h, As, bs, ipiv, infos, batch, n):
    for i in range(batch):
        rocsolver.rocsolver_dgetrf(h, n, n, As[i * n * n:], n, ipiv[i * n:], infos[i:])
        rocsolver.rocsolver_dgetrs(h, N, n, 1, As[i * n * n:], n, ipiv[i * n:], bs[i * n:], n)


def solve_first(h, As, bs, ipiv, infos, batch, n):
    rocsolver.rocsolver_dgetrf(h, n, n, As, n, ipiv, infos)
    rocsolver.rocsolver_dgetrs(h, N, n, 1, As, n, ipiv, bs, n)


def solve_literal(h, As, bs, ipiv, infos, batch, n):  # the lab's n = 3, typed in
    rocsolver.rocsolver_dgetrf_strided_batched(h, n, n, As, n, 9, ipiv, 3, infos, batch)
    rocsolver.rocsolver_dgetrs_strided_batched(h, N, n, 1, As, n, 9, ipiv, 3, bs, n, 3, batch)


def solve_transposed(h, As, bs, ipiv, infos, batch, n):
    rocsolver.rocsolver_dgetrf_strided_batched(h, n, n, As, n, n * n, ipiv, n, infos, batch)
    rocsolver.rocsolver_dgetrs_strided_batched(h, T, n, 1, As, n, n * n, ipiv, n, bs, n, n,
                                               batch)


def solve_factor_only(h, As, bs, ipiv, infos, batch, n):
    rocsolver.rocsolver_dgetrf_strided_batched(h, n, n, As, n, n * n, ipiv, n, infos, batch)


def solve_batch_one(h, As, bs, ipiv, infos, batch, n):
    rocsolver.rocsolver_dgetrf_strided_batched(h, n, n, As, n, n * n, ipiv, n, infos, 1)
    rocsolver.rocsolver_dgetrs_strided_batched(h, N, n, 1, As, n, n * n, ipiv, n, bs, n, n, 1)


ANSWERS = [
    right("07.1", "B first, as in the hint", lambda: (gemm_swap,)),
    right("07.1", "named operation, NumPy scalars", lambda: (gemm_keywords,)),
    right("07.1", "rocblas_gemm_ex in f32", lambda: (gemm_ex,)),
    wrong("07.1", "C column-major", ["column-major", "row-major"], lambda: (gemm_column_major,)),
    wrong("07.1", "leading dimension 1", ["rocblas_status_invalid_size"],
          lambda: (gemm_lda_one,)),
    wrong("07.1", "starter: no call", ["never written"], lambda: (gemm_nothing,)),
    wrong("07.1", "beta 1 on an unset C", ["never written"], lambda: (gemm_beta_one,)),
    right("07.2", "the formula", lambda: (tf_right,)),
    right("07.2", "FLOPs per ns over 1e3", lambda: (tf_ns,)),
    right("07.2", "NumPy floats", lambda: (tf_numpy,)),
    wrong("07.2", "one FLOP per multiply-add", ["2 FLOPs"],
          lambda: (lambda r, n: n**3 / (r.duration_ns * 1e-9) / 1e12,)),
    wrong("07.2", "GFLOP/s", ["GFLOP/s"],
          lambda: (lambda r, n: 2 * n**3 / (r.duration_ns * 1e-9) / 1e9,)),
    wrong("07.2", "nanoseconds as seconds", ["nanoseconds"],
          lambda: (lambda r, n: 2 * n**3 / r.duration_ns / 1e12,)),
    wrong("07.2", "starter: zero", ["too small"], lambda: (lambda r, n: 0.0,)),
    right("07.3", "the two strided-batched calls", lambda: (solve_right,)),
    right("07.3", "strides named", lambda: (solve_named,)),
    right("07.3", "strides from lda", lambda: (solve_ldb_batch,)),
    wrong("07.3", "a loop of per-system calls", ["10 rocSOLVER calls", "two calls"],
          lambda: (solve_loop,)),
    wrong("07.3", "first system only", ["other 4 are untouched", "whole batch"],
          lambda: (solve_first,)),
    wrong("07.3", "the lab's strides typed in", ["strideA = 9", "from n"],
          lambda: (solve_literal,)),
    wrong("07.3", "trans = transpose", ["A^T x = b", "rocblas_operation_none"],
          lambda: (solve_transposed,)),
    wrong("07.3", "factored, never solved", ["nothing was solved"],
          lambda: (solve_factor_only,)),
    wrong("07.3", "batch_count 1", ["batch_count = 1", "batch = 5"],
          lambda: (solve_batch_one,)),
]
