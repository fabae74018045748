"""Checks of labs 07-12: a right submission is told "solved"; each wrong one "not yet"
with what is wrong (never a crash, never the answer)."""

import numpy as np
import pytest
import submissions_labs2 as sub
from test_checks import solved, told

import gpusim
from gpusim import course, hip, rccl, rocblas, rocsolver, rocsparse
from gpusim.exercises.labs.lab12 import _thread_per_row as softmax_naive

GBS = gpusim.devices.get_spec("mi300x").memory_bandwidth_gbs


@pytest.fixture(autouse=True)
def one_gpu():
    gpusim.set_system("mi300x", ngpus=1)
    yield
    gpusim.set_system()


def test_12_1_roofline():
    def right(rows, cols):
        return 2 * rows * cols * 4 / (GBS * 1e9) * 1e6
    solved(course.check("12.1", right))
    told(course.check("12.1", lambda r, c: right(r, c) / 2), "bytes written")
    told(course.check("12.1", lambda r, c: right(r, c) / 1e6), "in seconds")
    told(course.check("12.1", lambda r, c: right(r, c) * 1e3), "in nanoseconds")
    told(course.check("12.1", lambda r, c: 0.0), "too small")


def test_12_2_block_size():
    assert "faster than block 256" in solved(course.check("12.2", softmax_naive, 64))
    told(course.check("12.2", softmax_naive, 256), "target is 1.5x")
    told(course.check("12.2", softmax_naive, 100), "not a whole number")
    told(course.check("12.2", softmax_naive, "64"), "positive number")


def test_12_3_softmax_wave():
    assert "coalesced" in solved(course.check("12.3", sub.softmax_wave_right))
    told(course.check("12.3", sub.softmax_wave_starter), "each lane's own columns")
    told(course.check("12.3", sub.softmax_wave32), "32 of the 64 lanes")
    told(course.check("12.3", sub.softmax_wave_chunked), "8 cache lines")


def test_12_4_one_launch():
    assert "roofline" in solved(course.check("12.4", sub.softmax_all_right))
    told(course.check("12.4", sub.softmax_all_per_head), "16 launches")
    told(course.check("12.4", sub.softmax_all_first_head), "never written")


@pytest.fixture
def eight_gpus():
    gpusim.set_system("mi300x", ngpus=8)
    yield rccl.ncclCommInitAll(8)
    gpusim.set_system()


def _per_rank(arrays):
    out = []
    for r, a in enumerate(arrays):
        hip.hipSetDevice(r)
        out.append(hip.to_device(a))
    hip.hipSetDevice(0)
    return out


def test_10_1_allreduce_parts(eight_gpus):
    xs = [np.full(16, r, np.float32) for r in range(8)]
    total = np.full(16, 28.0, np.float32)
    solved(course.check("10.1", _per_rank([total] * 8), xs))
    told(course.check("10.1", _per_rank([np.zeros(16, np.float32)] * 8), xs),
         "d_mine[0] holds only zeros")
    told(course.check("10.1", _per_rank([total] * 7 + [xs[7]]), xs), "d_mine[7] holds")


def test_10_2_bus_factors():
    def right(c, n):
        return {"AllReduce": 2 * (n - 1) / n}.get(c, 1.0 if c == "Broadcast" else (n - 1) / n)
    solved(course.check("10.2", right))
    told(course.check("10.2", lambda c, n: 1.0), "bus_factor('AllReduce', 4) is 1")
    told(course.check("10.2", lambda c, n: 1.0 if c == "Broadcast" else 2 * (n - 1) / n),
         "moves each block once")


def test_10_3_crossover(eight_gpus):
    # Simple overtakes LL at 128 KiB on 8 MI300X (model.LL_HOP_S, LL_WIRE)
    solved(course.check("10.3", 131072))
    told(course.check("10.3", 4096), "LL is still faster")
    told(course.check("10.3", 65536), "last size where LL wins")
    told(course.check("10.3", 1 << 20), "already wins")
    told(course.check("10.3", None), "power of two")


def test_10_4_average(eight_gpus):
    comms = eight_gpus

    def allreduce(reps, scale):
        rccl.ncclGroupStart()
        for r, rep in enumerate(reps):
            for g in (rep.dw1, rep.dw2):
                rccl.ncclAllReduce(g, g, g.size, rccl.ncclFloat, rccl.ncclSum, comms[r], 0)
        rccl.ncclGroupEnd()
        if scale:
            for rep in reps:
                hip.hipSetDevice(rep.dev)
                for g in (rep.dw1, rep.dw2):
                    rocblas.rocblas_sscal(rep.handle, g.size, 1.0 / len(reps), g, 1)

    solved(course.check("10.4", lambda reps: allreduce(reps, True)))
    told(course.check("10.4", lambda reps: allreduce(reps, False)), "sum over the 8")
    told(course.check("10.4", lambda reps: None), "nothing was all-reduced")


def test_09_1_options():
    solved(course.check("09.1", dict(hip_kernel_syntax=True, roc=True)))
    told(course.check("09.1", dict()), "hipLaunchKernelGGL")
    told(course.check("09.1", dict(hip_kernel_syntax=True)), "rocblas_snrm2")
    told(course.check("09.1", "roc"), "should be a dict")


def test_09_2_wave_sums():
    solved(course.check("09.2", sub.wave_sums_right))
    told(course.check("09.2", sub.wave_sums_16), "lanes 0-31")
    told(course.check("09.2", sub.wave_sums_every_lane), "which is not right")


OP_N, OP_T = rocblas.rocblas_operation_none, rocblas.rocblas_operation_transpose


def test_07_1_rowmajor_gemm():
    def right(h, m, n, k, dA, dB, dC):
        rocblas.rocblas_sgemm(h, OP_N, OP_N, n, m, k, 1.0, dB, n, dA, k, 0.0, dC, n)

    def column_major(h, m, n, k, dA, dB, dC):  # C = A B computed as if A, B were col-major
        rocblas.rocblas_sgemm(h, OP_T, OP_T, m, n, k, 1.0, dA, k, dB, n, 0.0, dC, m)

    def as_if_column_major(h, m, n, k, dA, dB, dC):  # the row-major bytes read as col-major
        rocblas.rocblas_sgemm(h, OP_N, OP_N, m, n, k, 1.0, dA, m, dB, k, 0.0, dC, m)

    solved(course.check("07.1", right))
    told(course.check("07.1", column_major), "column-major")
    told(course.check("07.1", as_if_column_major), "which is not right")
    told(course.check("07.1", lambda *args: None), "never written")
    told(course.check("07.1", lambda h, m, n, k, dA, dB, dC: rocblas.rocblas_sgemm(
        h, OP_N, OP_N, n, m, k, 1.0, dB, 1, dA, k, 0.0, dC, n)), "rocblas_status_invalid_size")


def test_07_2_tflops():
    solved(course.check("07.2", lambda r, n: 2 * n**3 / (r.duration_ns * 1e-9) / 1e12))
    told(course.check("07.2", lambda r, n: n**3 / (r.duration_ns * 1e-9) / 1e12), "2 FLOPs")
    told(course.check("07.2", lambda r, n: 2 * n**3 / (r.duration_ns * 1e-9) / 1e9), "GFLOP/s")
    told(course.check("07.2", lambda r, n: 0.0), "too small")


def test_07_3_solve_all():
    def right(h, As, bs, ipiv, infos, batch, n):
        rocsolver.rocsolver_dgetrf_strided_batched(h, n, n, As, n, n * n, ipiv, n, infos, batch)
        rocsolver.rocsolver_dgetrs_strided_batched(h, OP_N, n, 1, As, n, n * n, ipiv, n, bs, n,
                                                   n, batch)

    def first_only(h, As, bs, ipiv, infos, batch, n):
        rocsolver.rocsolver_dgetrf(h, n, n, As, n, ipiv, infos)
        rocsolver.rocsolver_dgetrs(h, OP_N, n, 1, As, n, ipiv, bs, n)

    def transposed(h, As, bs, ipiv, infos, batch, n):
        rocsolver.rocsolver_dgetrf_strided_batched(h, n, n, As, n, n * n, ipiv, n, infos, batch)
        rocsolver.rocsolver_dgetrs_strided_batched(h, OP_T, n, 1, As, n, n * n, ipiv, n, bs, n,
                                                   n, batch)

    solved(course.check("07.3", right))
    told(course.check("07.3", first_only), "the other 4 are untouched")
    told(course.check("07.3", transposed), "A^T x = b")
    told(course.check("07.3", lambda *a: None), "nothing was solved")


def test_08_1_pi_kernel():
    solved(course.check("08.1", sub.pi_right))
    told(course.check("08.1", sub.pi_same_stream), "the same points")
    told(course.check("08.1", sub.pi_starter), "hits[0] is 0")
    told(course.check("08.1", sub.pi_offset), "subsequence and the offset")


def test_08_1_reference_matches_the_emulator_exactly():
    from gpusim.exercises.labs.lab08 import _hits, philox_words
    hits = hip.to_device(np.zeros(1, np.int64))
    sub.pi_right[2, 64](hits, 2024, 32)
    assert int(hits.copy_to_host()[0]) == int(_hits(philox_words(2024, np.arange(128), 16)).sum())


def test_08_2_to_5():
    p = 1 << 20
    from gpusim.exercises.labs.lab08 import _sobol_counts
    solved(course.check("08.2", _sobol_counts(p)["right"], p))
    told(course.check("08.2", round(p * np.pi / 4) - 320, p), "pseudo-random")
    told(course.check("08.2", 0, p), "should be the number")
    solved(course.check("08.3", 32768, 1 / 32768, 16384, 2049))
    told(course.check("08.3", 16384, 1 / 16384, 16384, 2049), "wraps around")
    told(course.check("08.3", 32768, 1.0, 16384, 2049), "multiply by L")
    solved(course.check("08.4", rocsparse.rocsparse_index_base_one))
    told(course.check("08.4", rocsparse.rocsparse_index_base_zero), "count from 1")


def test_08_5_ell():
    import scipy.sparse as sp
    A = sp.csr_matrix(sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(50, 50)))
    i32, f64 = rocsparse.rocsparse_indextype_i32, rocsparse.rocsparse_datatype_f64_r
    zero = rocsparse.rocsparse_index_base_zero
    d_rp = hip.to_device(A.indptr.astype(np.int32))
    d_ci = hip.to_device(A.indices.astype(np.int32))
    d_val = hip.to_device(A.data)
    csr = rocsparse.rocsparse_create_csr_descr(50, 50, A.nnz, d_rp, d_ci, d_val, i32, i32, zero,
                                               f64)
    told(course.check("08.5", csr, A), "rocsparse_format_csr descriptor")
    h, descr = rocsparse.rocsparse_create_handle(), rocsparse.rocsparse_create_mat_descr()
    width = rocsparse.rocsparse_csr2ell_width(h, 50, descr, d_rp, descr)
    col, val = hip.device_array(50 * width, np.int32), hip.device_array(50 * width)
    rocsparse.rocsparse_dcsr2ell(h, 50, descr, d_val, d_rp, d_ci, descr, width, val, col)
    ell = rocsparse.rocsparse_create_ell_descr(50, 50, col, val, width, i32, zero, f64)
    solved(course.check("08.5", ell, A))
    wrong = rocsparse.rocsparse_create_ell_descr(50, 50, col, hip.to_device(np.ones(50 * width)),
                                                 width, i32, zero, f64)
    told(course.check("08.5", wrong, A), "values are not A's")


BLOCK_SUM = """
#include <hip/hip_runtime.h>
__global__ void block_sum(const float* in, float* total, int n) {
    __shared__ float part[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        SYNC
    }
    if (threadIdx.x == 0) atomicAdd(total, part[0]);
}
"""
STARTER = """
#include <hip/hip_runtime.h>
__global__ void block_sum(const float* in, float* total, int n) {
    __shared__ float part[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
}
"""
TRANSPOSE = """
#include <hip/hip_runtime.h>
__global__ void transpose_padded(const float* a, float* out, int n) {
    __shared__ float tile[32][WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = a[(blockIdx.y * 32 + ty) * n + blockIdx.x * 32 + tx];
    __syncthreads();
    out[(blockIdx.x * 32 + ty) * n + blockIdx.y * 32 + tx] = tile[tx][ty];
}
"""


def _cpp(source, name):
    from gpusim import hipcc
    return hipcc.compile(source).get_kernel(name)


def test_11_1_block_sum():
    solved(course.check("11.1", _cpp(BLOCK_SUM.replace("SYNC", "__syncthreads();"), "block_sum")))
    told(course.check("11.1", _cpp(BLOCK_SUM.replace("SYNC", ""), "block_sum")), "sanitizer")
    told(course.check("11.1", _cpp(STARTER, "block_sum")), "*total is 0")


def test_11_2_transpose():
    solved(course.check("11.2", _cpp(TRANSPOSE.replace("WIDTH", "33"), "transpose_padded")))
    told(course.check("11.2", _cpp(TRANSPOSE.replace("WIDTH", "32"), "transpose_padded")),
         "32-way bank conflicts")
