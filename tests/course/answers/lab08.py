"""Lab 08 (rocRAND, rocFFT, rocSPARSE): students' pi kernels, Sobol counts, FFT sizes,
index bases and ELL conversions."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from answers import right, wrong
from gpusim import hip, rocrand, rocsparse

# ---- 08.1: pi with the device API (kernel[2, 64](hits, 2024, 32))


@hip.jit
def pi_while(hits, seed, per_thread):
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x, 0, st)
    inside = 0
    k = 0
    while k < per_thread:
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        inside += 1 if x * x + y * y <= 1.0 else 0
        k += 1
    hip.atomic.add(hits, 0, inside)


@hip.jit
def pi_int64(hits, seed, per_thread):
    tid = hip.grid(1)
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, tid, 0, st)
    count = np.int64(0)
    for _ in range(per_thread):
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        if not (x * x + y * y > 1.0):
            count += np.int64(1)
    if count > 0:
        hip.atomic.add(hits, 0, count)


@hip.jit
def pi_right(hits, seed, per_thread):
    tid = hip.grid(1)
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, tid, 0, st)
    count = 0
    for _ in range(per_thread):
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        if x * x + y * y <= 1.0:
            count += 1
    hip.atomic.add(hits, 0, count)


@hip.jit
def pi_atomic_per_point(hits, seed, per_thread):
    tid = hip.grid(1)
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, tid, 0, st)
    for _ in range(per_thread):
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        if x * x + y * y <= 1.0:
            hip.atomic.add(hits, 0, 1)


@hip.jit
def pi_same_stream(hits, seed, per_thread):
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, 0, 0, st)
    count = 0
    for _ in range(per_thread):
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        if x * x + y * y <= 1.0:
            count += 1
    hip.atomic.add(hits, 0, count)


@hip.jit
def pi_starter(hits, seed, per_thread):
    count = 0
    hip.atomic.add(hits, 0, count)


@hip.jit
def pi_offset(hits, seed, per_thread):
    tid = hip.grid(1)
    st = rocrand.rocrand_state_philox4x32_10()
    rocrand.rocrand_init(seed, 0, tid, st)
    count = 0
    for _ in range(per_thread):
        x = rocrand.rocrand_uniform(st)
        y = rocrand.rocrand_uniform(st)
        if x * x + y * y <= 1.0:
            count += 1
    hip.atomic.add(hits, 0, count)


# ---- 08.2: pi with Sobol points

POINTS = 1 << 20


def _sobol(dims=2, n=2 * POINTS, rng=rocrand.ROCRAND_RNG_QUASI_SOBOL32):
    gen = rocrand.rocrand_create_generator(rng)
    if dims:
        rocrand.rocrand_set_quasi_random_generator_dimensions(gen, dims)
    d = hip.device_array(n, np.float32)
    rocrand.rocrand_generate_uniform(gen, d, n)
    return d.copy_to_host()


def sobol_lab():
    q = _sobol().reshape(2, POINTS)
    return np.count_nonzero(q[0] ** 2 + q[1] ** 2 <= 1.0), POINTS


def sobol_float64():
    x, y = np.split(_sobol().astype(np.float64), 2)
    return int(np.sum(np.hypot(x, y) <= 1.0)), POINTS


def sobol_less():
    q = _sobol()
    return int((q[:POINTS] ** 2 + q[POINTS:] ** 2 < 1).sum()), POINTS


def sobol_no_dims():
    q = _sobol(dims=0).reshape(2, POINTS)
    return np.count_nonzero(q[0] ** 2 + q[1] ** 2 <= 1.0), POINTS


def sobol_pairs():
    q = _sobol().reshape(POINTS, 2)
    return np.count_nonzero((q ** 2).sum(axis=1) <= 1.0), POINTS


def philox_points():
    q = _sobol(dims=None, rng=rocrand.ROCRAND_RNG_PSEUDO_PHILOX4_32_10).reshape(POINTS, 2)
    return np.count_nonzero((q ** 2).sum(axis=1) <= 1.0), POINTS


# ---- 08.3: FFT length and scale (N = 16384, K = 2049)

NK = (1 << 14, 2049)

# ---- 08.4: index base

# ---- 08.5: ELL


def _laplacian(side=8):
    one = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(side, side))
    return sp.csr_matrix(sp.kronsum(one, one))


_i32, _f64 = rocsparse.rocsparse_indextype_i32, rocsparse.rocsparse_datatype_f64_r
_zero = rocsparse.rocsparse_index_base_zero


def _csr(A):
    return (hip.to_device(A.indptr.astype(np.int32)), hip.to_device(A.indices.astype(np.int32)),
            hip.to_device(A.data))


def ell_lab(width_delta=0, values=None, order="F", manual=False):
    A = _laplacian()
    rows = A.shape[0]
    d_rp, d_ci, d_val = _csr(A)
    h, descr = rocsparse.rocsparse_create_handle(), rocsparse.rocsparse_create_mat_descr()
    width = rocsparse.rocsparse_csr2ell_width(h, rows, descr, d_rp, descr)
    if manual:  # the ELL arrays built in NumPy, entry p of row i at p * rows + i (or i, p)
        width += width_delta
        col = np.full((rows, width), -1, np.int32)
        val = np.zeros((rows, width))
        for i in range(rows):
            lo, hi = A.indptr[i], A.indptr[i + 1]
            col[i, :hi - lo], val[i, :hi - lo] = A.indices[lo:hi], A.data[lo:hi]
        d_col = hip.to_device(col.ravel(order=order))
        d_v = hip.to_device(val.ravel(order=order))
    else:
        d_col = hip.device_array(rows * width, np.int32)
        d_v = hip.device_array(rows * width)
        rocsparse.rocsparse_dcsr2ell(h, rows, descr, d_val, d_rp, d_ci, descr, width, d_v, d_col)
        width += width_delta
        if values is not None:
            d_v = values(rows * width, d_val)
    mat = rocsparse.rocsparse_create_ell_descr(rows, rows, d_col, d_v, width, _i32, _zero, _f64)
    return mat, A


def ell_as_csr():
    A = _laplacian()
    d_rp, d_ci, d_val = _csr(A)
    return (rocsparse.rocsparse_create_csr_descr(A.shape[0], A.shape[0], A.nnz, d_rp, d_ci,
                                                 d_val, _i32, _i32, _zero, _f64), A)


B = rocsparse.rocsparse_index_base_one

ANSWERS = [
    right("08.1", "the solution", lambda: (pi_right,)),
    right("08.1", "while loop, ids from blockIdx", lambda: (pi_while,)),
    right("08.1", "int64 count, skip an empty add", lambda: (pi_int64,)),
    wrong("08.1", "an atomic per point", ["atomics", "one atomic per thread"],
          lambda: (pi_atomic_per_point,)),
    wrong("08.1", "every thread on subsequence 0", ["same points", "subsequence"],
          lambda: (pi_same_stream,)),
    wrong("08.1", "starter: nothing drawn", ["hits[0] is 0"], lambda: (pi_starter,)),
    wrong("08.1", "thread id as the offset", ["subsequence and the offset"],
          lambda: (pi_offset,)),
    right("08.2", "the lab's count", sobol_lab),
    right("08.2", "float64 and hypot", sobol_float64),
    right("08.2", "strictly inside", sobol_less),
    wrong("08.2", "dimensions never set", ["1-dimensional", "dimensions to 2"], sobol_no_dims),
    wrong("08.2", "read as (x, y) pairs", ["dimension-major"], sobol_pairs),
    wrong("08.2", "Philox points", ["pseudo-random"], philox_points),
    wrong("08.2", "starter: zero", ["should be the number"], lambda: (0, POINTS)),
    wrong("08.2", "a float estimate instead of a count", ["should be the number"],
          lambda: (3.14159, POINTS)),
    right("08.3", "next power of two", lambda: (32768, 1 / 32768, *NK)),
    right("08.3", "float32 scale for a single-precision FFT",
          lambda: (np.int64(32768), np.float32(1 / 32768), *NK)),
    right("08.3", "exactly N + K - 1 = 2^11 x 9", lambda: (18432, 1.0 / 18432, *NK)),
    right("08.3", "a larger smooth length", lambda: (20000, 5e-05, *NK)),
    wrong("08.3", "starter: L = N, scale 1", ["wraps around"], lambda: (NK[0], 1.0, *NK)),
    wrong("08.3", "no scale", ["multiply by L"], lambda: (32768, 1.0, *NK)),
    wrong("08.3", "one short of N + K - 1", ["shorter than", "wraps around"],
          lambda: (NK[0] + NK[1] - 2, 1 / (NK[0] + NK[1] - 2), *NK)),
    wrong("08.3", "scale by the signal's length", ["1 / N", "1 / L"],
          lambda: (32768, 1 / NK[0], *NK)),
    wrong("08.3", "scale 1 / L^2", ["too small", "multiply by L"],
          lambda: (32768, 1 / 32768**2, *NK)),
    wrong("08.3", "L as a float", ["whole length"], lambda: (32768.0, 1 / 32768, *NK)),
    right("08.4", "the enum", lambda: (rocsparse.rocsparse_index_base_one,)),
    right("08.4", "the enum from its value", lambda: (rocsparse.rocsparse_index_base(1),)),
    right("08.4", "the C value 1", lambda: (1,)),
    wrong("08.4", "starter: base zero", ["count from 1"],
          lambda: (rocsparse.rocsparse_index_base_zero,)),
    wrong("08.4", "a string", ["rocsparse_index_base value"], lambda: ("one",)),
    wrong("08.4", "2 for 'the second base'", ["rocsparse_index_base value"], lambda: (2,)),
    wrong("08.4", "None", ["rocsparse_index_base value"], lambda: (None,)),
    right("08.5", "csr2ell as in the lab", ell_lab),
    right("08.5", "built in NumPy, column-major", lambda: ell_lab(manual=True)),
    right("08.5", "built in NumPy with a wider width", lambda: ell_lab(1, manual=True)),
    wrong("08.5", "starter: the CSR descriptor", ["rocsparse_format_csr", "ELL"], ell_as_csr),
    wrong("08.5", "width one too small", ["ell_width is 4", "longest row"],
          lambda: ell_lab(-1)),
    wrong("08.5", "built row by row", ["row by row", "column-major"],
          lambda: ell_lab(manual=True, order="C")),
    wrong("08.5", "the CSR values", ["values", "dcsr2ell"],
          lambda: ell_lab(values=lambda size, d_val: hip.to_device(
              np.resize(d_val.copy_to_host(), size)))),
]
