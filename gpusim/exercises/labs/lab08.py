"""Lab 08 (rocRAND, rocFFT, rocSPARSE): Monte Carlo in a kernel, Sobol, FFT sizes,
index bases and ELL."""

from __future__ import annotations

import math

import numpy as np

from gpusim import hip, rocsparse
from gpusim.exercises.expect import expect_true, expect_value
from gpusim.exercises.measure import lanes_per_element, profiled
from gpusim.exercises.registry import NotYet, exercise

_M0, _M1, _W0, _W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
_MASK = 0xFFFFFFFF


def philox_words(seed: int, subsequences: np.ndarray, blocks: int) -> np.ndarray:
    """Philox4x32-10 (Random123), the reference for rocRAND's device API: the first
    ``4 * blocks`` words of each subsequence, offset 0. Shape (len(subsequences), 4 * blocks).

    >>> ["%08x" % w for w in philox_words(0, np.array([0]), 1)[0]]
    ['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']
    """
    subs = np.asarray(subsequences, np.uint64)
    out = np.empty((subs.size, 4 * blocks), np.uint64)
    for b in range(blocks):
        c = [np.full(subs.size, b, np.uint64), np.zeros(subs.size, np.uint64),
             subs & _MASK, subs >> np.uint64(32)]
        k0, k1 = seed & _MASK, (seed >> 32) & _MASK
        for _ in range(10):
            p0, p1 = np.uint64(_M0) * c[0], np.uint64(_M1) * c[2]
            c = [(p1 >> np.uint64(32)) ^ c[1] ^ np.uint64(k0), p1 & np.uint64(_MASK),
                 (p0 >> np.uint64(32)) ^ c[3] ^ np.uint64(k1), p0 & np.uint64(_MASK)]
            k0, k1 = (k0 + _W0) & _MASK, (k1 + _W1) & _MASK
        out[:, 4 * b:4 * b + 4] = np.stack(c, axis=1)
    return out.astype(np.uint32)


def _hits(words: np.ndarray) -> np.ndarray:
    """Points inside the quarter circle per row of words, as rocrand_uniform maps them."""
    scale = np.float32(2.0 ** -32)
    u = words.astype(np.float32) * scale + scale
    x, y = u[:, 0::2], u[:, 1::2]
    return np.count_nonzero(x * x + y * y <= np.float32(1.0), axis=1)


@exercise("08.1", "pi with the device API", hints=[
    "Each thread needs its own state: rocrand_init(seed, subsequence, offset, st).",
    "Give every thread a different subsequence (its global thread id) and offset 0, so no "
    "two threads draw the same numbers.",
    "Draw x and y with rocrand_uniform(st) per_thread times; count x * x + y * y <= 1 and "
    "add the count to hits[0] once per thread.",
])
def pi_kernel(kernel) -> str:
    """Runs ``kernel[2, 64](hits, 2024, 32)``; counts against a NumPy Philox4x32-10."""
    blocks, threads, per_thread, seed = 2, 64, 32, 2024
    hits = hip.to_device(np.zeros(1, np.int64))
    (k,) = profiled(lambda: kernel[blocks, threads](hits, seed, per_thread), kernel)
    got = int(hits.copy_to_host()[0])
    n = blocks * threads
    want = int(_hits(philox_words(seed, np.arange(n), per_thread // 2)).sum())
    if got == 0:
        raise NotYet("hits[0] is 0: no point was counted inside the circle.")
    same = int(_hits(philox_words(seed, np.zeros(1, np.int64), per_thread // 2))[0]) * n
    if got == same and same != want:
        raise NotYet("Every thread drew the same points: give each thread its own "
                     "subsequence.")
    expect_true(abs(got - want) <= 2, f"hits[0] is {got:,} for {n * per_thread:,} points, "
                "which is not what the threads' own streams give. Check the seed, the "
                "subsequence and the offset passed to rocrand_init.")
    atomics = lanes_per_element(k, "hits", "atomic", 1)
    expect_true(atomics <= n, f"The count is right, but hits[0] took {atomics:,.0f} atomics "
                f"from {n} threads: add each thread's count once, after its loop (one "
                "atomic per thread), not once per point.")
    return (f"{got:,} of {n * per_thread:,} points inside: pi ~ {4 * got / (n * per_thread):.4f}, "
            "each thread on its own subsequence.")


@exercise("08.2", "pi with Sobol points", hints=[
    "A quasi-random generator must know how many dimensions each point has.",
    "rocrand_set_quasi_random_generator_dimensions(qgen, 2), then generate 2 * points "
    "uniforms.",
    "The output is dimension-major: first all x's, then all y's (reshape to (2, points)).",
])
def sobol_pi(q_inside, points: int) -> str:
    """``q_inside`` must be the count of the first ``points`` 2-dimensional Sobol points
    (rocRAND's Sobol32: Joe & Kuo's direction numbers, as SciPy's unscrambled
    ``qmc.Sobol``) inside the quarter circle, give or take points on its edge."""
    expect_value("points", points, 1 << 20, why="Use the lab's points = 1 << 20.")
    if isinstance(q_inside, bool) or not isinstance(q_inside, (int, np.integer)) \
            or q_inside <= 0:
        raise NotYet(f"q_inside should be the number of points inside the circle, but it is "
                     f"{q_inside!r}.")
    got = int(q_inside)
    counts = _sobol_counts(points)
    if abs(got - counts["right"]) <= 2:
        err = abs(4 * got / points - math.pi)
        return f"pi ~ {4 * got / points:.6f}: off by {err:.1e}, from 2-dimensional Sobol points."
    if abs(got - counts["one dimension"]) <= 2:
        raise NotYet(f"q_inside is {got:,}: that is the count of a 1-dimensional Sobol "
                     "sequence cut in two. Set the generator's dimensions to 2 before "
                     "generating.")
    if abs(got - counts["interleaved"]) <= 2:
        raise NotYet(f"q_inside is {got:,}: the points were read as (x, y) pairs, but the "
                     "output is dimension-major: all x's first, then all y's.")
    err = abs(4 * got / points - math.pi)
    if err > 4e-4:
        raise NotYet(f"q_inside is {got:,}, not the count of the first {points:,} points of "
                     f"the 2-dimensional Sobol sequence: the estimate is off by {err:.1e}, "
                     "which is what pseudo-random points give at this count.")
    raise NotYet(f"q_inside is {got:,}, not the count of the first {points:,} points of the "
                 "2-dimensional Sobol sequence (rocRAND's Sobol32, from its start).")


def _sobol_counts(points: int) -> dict[str, int]:
    """Points inside the circle, as rocRAND's Sobol32 and rocrand_generate_uniform give
    them (u = 2^-32 + v 2^-32 in float32), read rightly and in two wrong ways."""
    from scipy.stats import qmc

    def uniform(dims: int, n: int) -> np.ndarray:  # shape (n, dims)
        v = np.round(qmc.Sobol(dims, scramble=False, bits=32).random(n) * 2.0**32)
        return v.astype(np.float32) * np.float32(2.0**-32) + np.float32(2.0**-32)

    def inside(x, y) -> int:
        return int(np.count_nonzero(x * x + y * y <= np.float32(1.0)))
    two = uniform(2, points)
    flat = two.T.ravel()                            # rocRAND's output: x's, then y's
    one = uniform(1, 2 * points)[:, 0]
    return {"right": inside(two[:, 0], two[:, 1]),
            "one dimension": inside(one[:points], one[points:]),
            "interleaved": inside(flat[0::2], flat[1::2])}


@exercise("08.3", "FFT length and scale", hints=[
    "An FFT convolution is circular: outputs past the length wrap around onto the start.",
    "The linear convolution of N and K samples has N + K - 1 outputs.",
    "rocFFT's inverse is unnormalised: it multiplies by the length. Scale by its inverse.",
])
def fft_sizes(L, scale, N: int, K: int) -> str:
    """``L`` must hold the whole linear convolution; ``scale`` must undo the inverse's L."""
    if not isinstance(L, (int, np.integer)) or L <= 0:
        raise NotYet(f"L should be a positive whole length, but it is {L!r}.")
    expect_true(L >= N + K - 1, f"L = {L:,} is shorter than the {N + K - 1:,} outputs of the "
                "linear convolution, so its tail wraps around onto the start.")
    if isinstance(scale, (int, float, np.integer, np.floating)) and scale:
        for length, what in ((N, "N, the signal's length"), (N + K - 1, "N + K - 1"),
                             (K, "K, the filter's length")):
            if length != L and math.isclose(float(scale), 1.0 / length, rel_tol=1e-6):
                raise NotYet(f"scale is 1 / {what}: the two transforms multiply by their "
                             f"length L = {L:,}, so the scale is 1 / L.")
    # rtol 1e-6: a float32 scale (single-precision FFT) holds 1/L to 6e-8
    expect_value("scale", scale, 1.0 / L, rtol=1e-6,
                 why="A forward and an inverse rocFFT transform multiply by L.")
    smooth = L
    for p in (2, 3, 5, 7, 11, 13, 17):
        while smooth % p == 0:
            smooth //= p
    note = "" if smooth == 1 else " (its prime factors above 17 make rocFFT use Bluestein)"
    return f"L = {L:,} holds all {N + K - 1:,} outputs and scale = 1/L{note}."


@exercise("08.4", "index base", hints=[
    "Look at the first entry of the row pointer: where does row 0 start?",
    "Fortran arrays count from 1.",
])
def index_base(base) -> str:
    """rp1, ci1 are the lab's matrix shifted by one: the descriptor must say base one."""
    want = rocsparse.rocsparse_index_base_one
    expect_true(base in (rocsparse.rocsparse_index_base_zero, want),
                f"base should be a rocsparse_index_base value, but it is {base!r}.")
    expect_true(base == want, "With base zero, row 0 of rp1 would start at entry 1 and the "
                "last column index would point past the row: these arrays count from 1.")
    return "rocsparse_index_base_one: the 1-based arrays are read as Fortran wrote them."


@exercise("08.5", "ELL", hints=[
    "rocsparse_csr2ell_width tells how many entries each ELL row keeps (the longest row).",
    "Allocate width * rows column indices (int32) and values, then rocsparse_dcsr2ell fills "
    "them.",
    "rocsparse_create_ell_descr(rows, cols, col_ind, val, width, index type, base, type).",
])
def ell(mat_ell, A) -> str:
    """``mat_ell`` must be an ELL descriptor whose SpMV equals SciPy's ``A @ x``."""
    fmt = rocsparse.rocsparse_spmat_get_format(mat_ell)
    expect_true(fmt == rocsparse.rocsparse_format_ell, f"mat_ell is a {fmt.name} descriptor: "
                "convert the matrix to ELL first.")
    rows = A.shape[0]
    _ell_layout(mat_ell, A)
    x = np.random.default_rng(8).standard_normal(rows)
    dx, dy = hip.to_device(x), hip.to_device(np.full(rows, np.nan))
    f64 = rocsparse.rocsparse_datatype_f64_r
    handle = rocsparse.rocsparse_create_handle()
    rocsparse.rocsparse_spmv(handle, rocsparse.rocsparse_operation_none, 1.0, mat_ell,
                             rocsparse.rocsparse_create_dnvec_descr(rows, dx, f64), 0.0,
                             rocsparse.rocsparse_create_dnvec_descr(rows, dy, f64), f64,
                             rocsparse.rocsparse_spmv_alg_default,
                             rocsparse.rocsparse_spmv_stage_compute, 0, None)
    got = dy.copy_to_host()
    expect_true(np.allclose(got, A @ x), "The ELL SpMV does not give A @ x: check the width "
                "and that the values and column indices come from the same conversion.")
    return "An ELL descriptor whose SpMV matches SciPy's."


def _ell_layout(mat, A) -> None:
    """Name what is wrong with the descriptor's width or arrays, against A's ELL form
    built in NumPy (entry p of row i at p * rows + i; padding: column -1, value 0)."""
    import scipy.sparse as sp

    csr = sp.csr_matrix(A)
    rows, lengths = csr.shape[0], np.diff(csr.indptr)
    longest = int(lengths.max(initial=0))
    width = int(mat.ell_width)
    expect_true(mat.rows == rows, f"mat_ell has {mat.rows:,} rows; A has {rows:,}.")
    expect_true(width >= longest, f"ell_width is {width}, but the longest row of A has "
                f"{longest} entries: rocsparse_csr2ell_width gives the width that holds them.")
    base = int(mat.index_base)
    col = np.full((width, rows), -1, np.int64)
    val = np.zeros((width, rows))
    for i in range(rows):
        lo, hi = csr.indptr[i], csr.indptr[i + 1]
        col[:hi - lo, i] = csr.indices[lo:hi] + base
        val[:hi - lo, i] = csr.data[lo:hi]
    got_col = np.asarray(mat.col_data.copy_to_host()).ravel()
    got_val = np.asarray(mat.val_data.copy_to_host()).ravel()
    if got_col.size < rows * width or got_val.size < rows * width:
        raise NotYet(f"mat_ell's arrays hold {min(got_col.size, got_val.size):,} entries; an "
                     f"ELL matrix of {rows:,} rows and width {width} needs {rows * width:,} "
                     "(allocate width * rows).")
    got_col, got_val = got_col[:rows * width], got_val[:rows * width]
    if np.array_equal(got_col, col.T.ravel()) and not np.array_equal(got_col, col.ravel()):
        raise NotYet("mat_ell's column indices are stored row by row; ELL stores entry p of "
                     "every row together (column-major): let rocsparse_dcsr2ell fill them.")
    if not np.array_equal(got_col, col.ravel()):
        raise NotYet("mat_ell's column indices are not A's in ELL layout: they should come "
                     "from rocsparse_dcsr2ell, with the same width as the descriptor.")
    expect_true(np.allclose(got_val, val.ravel()), "mat_ell's column indices are right but "
                "its values are not A's: pass the values array rocsparse_dcsr2ell filled, "
                "in the same order as the column indices.")
