"""Lab 08 (rocRAND, rocFFT, rocSPARSE): Monte Carlo in a kernel, Sobol, FFT sizes,
index bases and ELL."""

from __future__ import annotations

import math

import numpy as np

from gpusim import hip, rocsparse
from gpusim.course.expect import expect_true, expect_value
from gpusim.course.registry import NotYet, exercise

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
    kernel[blocks, threads](hits, seed, per_thread)
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
    return (f"{got:,} of {n * per_thread:,} points inside: pi ~ {4 * got / (n * per_thread):.4f}, "
            "each thread on its own subsequence.")


@exercise("08.2", "pi with Sobol points", hints=[
    "A quasi-random generator must know how many dimensions each point has.",
    "rocrand_set_quasi_random_generator_dimensions(qgen, 2), then generate 2 * points "
    "uniforms.",
    "The output is dimension-major: first all x's, then all y's (reshape to (2, points)).",
])
def sobol_pi(q_inside, points: int) -> str:
    """The estimate 4 q_inside / points must be closer to pi than pseudo-random allows."""
    expect_value("points", points, 1 << 20, why="Use the lab's points = 1 << 20.")
    if not isinstance(q_inside, (int, np.integer)) or q_inside <= 0:
        raise NotYet(f"q_inside should be the number of points inside the circle, but it is "
                     f"{q_inside!r}.")
    err = abs(4 * int(q_inside) / points - math.pi)
    # pseudo-random points: standard error 4 sqrt(p (1 - p) / N) ~ 1.6e-3 at 2^20 points
    expect_true(err < 4e-4, f"The estimate is off by {err:.1e}, which is what pseudo-random "
                "points give at this count. Are both coordinates from the 2-dimensional "
                "Sobol sequence (x's first, then y's)?")
    return f"pi ~ {4 * int(q_inside) / points:.6f}: off by {err:.1e}, well below pseudo-random."


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
    expect_value("scale", scale, 1.0 / L, rtol=1e-9,
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
