"""Lab 13 (matrix cores): a bf16 GEMM with one wavefront per 32 x 32 tile of C.

The student's ``kernel(A, B, C)`` computes C = A @ B from bf16 bit patterns (``np.uint16``
arrays, A is M x K and B is K x N, row-major) into float32 C, one 64-lane wavefront per
32 x 32 tile: launched ``kernel[(N // 32, M // 32), 64](A, B, C)``. The check runs it on
the checked path (races; its work-groups in order on one host worker, as a GPU reuses
registers, so an accumulator that is never zeroed shows), compares C with NumPy's
float64 product of the same bf16 values to f32 accuracy, names the layout mistakes it
recognises, and reads ``SQ_INSTS_MFMA`` from a profiled run: the product must come from
the matrix cores.
"""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np

from gpusim import hip
from gpusim.exercises.expect import expect_array
from gpusim.exercises.measure import checked, profiled
from gpusim.exercises.registry import NotYet, describe_error, exercise
from gpusim.errors import HipError

TILE = 32
# (M, N, K): the square one first (operand mix-ups and tile placement show only there),
# then shapes where M, N and K differ.
SIZES = ((64, 64, 64), (96, 64, 32), (32, 96, 128))
_OOB = re.compile(r"out-of-bounds read of global array '([AB])'")


def _inputs(m: int, n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A (m x k) and B (k x n) as bfloat16 values (standard normal, rounded)."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((m, k)).astype(ml_dtypes.bfloat16),
            rng.standard_normal((k, n)).astype(ml_dtypes.bfloat16))


def _run(kernel, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """C from the student's kernel on the checked path (NaN where it never wrote)."""
    m, n = A.shape[0], B.shape[1]
    dA, dB = hip.to_device(A.view(np.uint16)), hip.to_device(B.view(np.uint16))
    dC = hip.to_device(np.full((m, n), np.nan, np.float32))
    checked(lambda: kernel[(n // TILE, m // TILE), 64](dA, dB, dC))
    return dC.copy_to_host()


def _k_loop_bounds(err: HipError) -> NotYet | None:
    """An out-of-bounds read of A or B in the square run (most often the K loop), said
    with what to look at; None for any other error."""
    found = _OOB.search(str(err))
    if found is None:
        return None
    return NotYet(describe_error(err), "One step of the K loop hands the matrix core 8 "
                  "values of k, 4 in each half of the wavefront: check the loop's range and "
                  f"step, and which k and which row or column of {found.group(1)} each lane "
                  "loads.")


def _span(rows: list[int]) -> str:
    """'16-31' for a run of consecutive rows, else the rows listed."""
    if rows == list(range(rows[0], rows[0] + len(rows))) and len(rows) > 2:
        return f"{rows[0]}-{rows[-1]}"
    return ", ".join(map(str, rows))


def _close(got: np.ndarray, want: np.ndarray, atol: float) -> bool:
    return got.shape == want.shape and bool(np.all(np.abs(got - want) <= atol))


def _candidates(A: np.ndarray, B: np.ndarray) -> list[tuple[np.ndarray, str]]:
    """What typical mistakes compute instead of A @ B (square A and B), with what the
    feedback says about each."""
    a, b = A.astype(np.float64), B.astype(np.float64)
    k = a.shape[1]
    half = np.arange(k) // 8 * 8 + np.arange(k) % 4   # lanes 32-63 load lanes 0-31's k
    out = [
        (2 * a @ b, "C is exactly twice A @ B: every product A[i, k] B[k, j] was added in "
         "twice. One MFMA step consumes 8 values of k, 4 in each half of the wavefront: "
         "the K loop steps by 8, and the two halves load different k."),
        (a.T @ b, "C is Aᵀ @ B, not A @ B: A is loaded with B's layout (A[k, i] where "
         "section 1's layout puts A[i][k]), so the operand comes in transposed."),
        (a @ b.T, "C is A @ Bᵀ, not A @ B: B is loaded with A's layout (B[j, k] where "
         "section 1's layout puts B[k][j]), so the operand comes in transposed."),
        (a.T @ b.T, "C is Aᵀ @ Bᵀ: A and B are both loaded transposed, each with the "
         "other's layout."),
        (a[:, half] @ b, "Lanes 32-63 load the same 4 values of k of A as lanes 0-31. In "
         "the MFMA's layout the upper half of the wavefront holds the next 4 (k + 4 to "
         "k + 7)."),
        (a @ b[half, :], "Lanes 32-63 load the same 4 values of k of B as lanes 0-31. In "
         "the MFMA's layout the upper half of the wavefront holds the next 4 (k + 4 to "
         "k + 7)."),
        (a[:, : k // 2] @ b[: k // 2], f"C holds only the first half of the K loop (k < "
         f"{k // 2} of {k}): the loop stops halfway."),
    ]
    for step in (8, 16, 32):
        out.append((a[:, k - step:] @ b[k - step:], f"C holds only the last step of the K "
                    f"loop (k = {k - step}..{k - 1}): the accumulator is restarted at every "
                    "step instead of carried from one step to the next."))
    return out


def _tiles(c: np.ndarray) -> list[np.ndarray]:
    """The 32 x 32 tiles of C in the order the work-groups run: blockIdx.x fastest."""
    return [c[r:r + TILE, q:q + TILE] for r in range(0, c.shape[0], TILE)
            for q in range(0, c.shape[1], TILE)]


def _diagnose(got: np.ndarray, A: np.ndarray, B: np.ndarray, want: np.ndarray,
              atol: float) -> None:
    """Raise NotYet naming a recognised mistake; return if none is recognised."""
    if np.isnan(got).all():
        return  # never written at all: expect_array says so
    scale = np.abs(want).max()
    if np.nanmax(np.abs(got)) > 100 * scale:
        raise NotYet(f"C's values reach {np.nanmax(np.abs(got)):.3g}, where A @ B's stay "
                     f"below {scale:.3g}: the uint16 elements of A and B are bf16 bit "
                     "patterns, and your kernel turned them into numbers (the bits of 1.0 "
                     "would become 16,256.0) before the MFMA read them.")
    done, ref = _tiles(got), _tiles(want)
    if _close(done[0], ref[0], atol) and len(done) > 1 and any(
            _close(done[b] - ref[b], done[b - 1], atol) for b in range(1, len(done))):
        raise NotYet("The first 32 x 32 tile of C is right, but a later tile holds its own "
                     "product plus the previous tile's: the accumulator is never set to "
                     "zero. A work-group starts with whatever the registers held before "
                     "(here, what the previous tile left in them).")
    for other, says in _candidates(A, B):
        if _close(got, other, 2 * atol):
            raise NotYet(says)
    side = int(np.sqrt(len(ref)))
    if side * side == len(ref) and all(
            _close(done[r * side + q], ref[q * side + r], atol)
            for r in range(side) for q in range(side)) and not _close(got, want, atol):
        raise NotYet("Each 32 x 32 tile of C is right, but in the wrong place: the tile a "
                     "work-group computes belongs at the rows blockIdx.y picks and the "
                     "columns blockIdx.x picks.")
    if _close(done[0], ref[0].T, atol):
        raise NotYet("Each 32 x 32 tile of C holds the transpose of its part of A @ B: in "
                     "the D layout a lane's 16 registers are rows of one column (section "
                     "1), and your kernel stores them along a row.")
    _misplaced_rows(done[0], ref[0], atol)


def _misplaced_rows(tile: np.ndarray, ref: np.ndarray, atol: float) -> None:
    """Rows of the first tile that hold another row of the product, or nothing."""
    source: list[int | None] = []
    for row in tile:
        if np.isnan(row).all():
            source.append(None)
            continue
        found = [s for s in range(TILE) if _close(row, ref[s], atol)]
        if not found:
            return  # not a permutation of rows: the generic message says more
        source.append(found[0])
    moved = [(r, s) for r, s in enumerate(source) if s is not None and s != r]
    never = [r for r, s in enumerate(source) if s is None]
    if not moved:
        return
    listed = ", ".join(f"row {r} holds row {s}" for r, s in moved[:4])
    more = f" ({len(moved)} of {TILE} rows are misplaced)" if len(moved) > 4 else ""
    unset = f" Rows {_span(never)} were never written." if never else ""
    raise NotYet(f"The numbers are right, but in the wrong rows. In the first 32 x 32 tile "
                 f"of C, {listed} of A @ B{more}.{unset} acc[e] of lane t is not row e of "
                 "the tile: which row and column each register holds is the D layout of "
                 "section 1 (viz.mfma).")


@exercise("13.1", "MFMA GEMM tile", hints=[
    "Open section 1's view and select lane 0, then lane 37: which rows and which column of "
    "C/D does each hold, in register order?",
    "Lane t holds column t % 32 of the tile. Its 16 registers are 4 groups of 4 "
    "consecutive rows, 8 rows apart; lanes 32-63 hold the 4 rows that follow lanes 0-31's "
    "in each group.",
    "Register e of lane t holds row 8 * (e // 4) + 4 * (t // 32) + e % 4 of the tile.",
])
def tile_gemm(kernel) -> list[str]:
    """Runs ``kernel[(N // 32, M // 32), 64](A, B, C)`` on three shapes against NumPy,
    then counts its matrix instructions (``SQ_INSTS_MFMA``) in a profiled run."""
    for number, (m, n, k) in enumerate(SIZES):
        A, B = _inputs(m, n, k, 1300 + number)
        want = A.astype(np.float64) @ B.astype(np.float64)
        # f32 accumulation: K roundings, each at most 2^-24 of the running |A| |B| sum
        atol = 8 * k * 2.0**-24 * float((np.abs(A.astype(np.float64))
                                         @ np.abs(B.astype(np.float64))).max())
        if number == 0:
            try:
                got = _run(kernel, A, B)
            except HipError as err:
                said = _k_loop_bounds(err)
                if said is None:
                    raise
                raise said from None
            if not _close(got, want, atol):
                _diagnose(got, A, B, want, atol)
                expect_array("C", got, want, rtol=0.0, atol=atol, unset=np.nan)
            continue
        square = f"Right for M = N = K = 64, but not for M, N, K = {m}, {n}, {k}:"
        sizes = ("Take each size from the arrays (A.shape, B.shape) and the tile's "
                 "position from blockIdx.")
        try:
            got = _run(kernel, A, B)
            expect_array("C", got, want, rtol=0.0, atol=atol, unset=np.nan)
        except HipError as err:
            raise NotYet(square, describe_error(err), sizes) from None
        except NotYet as wrong:
            raise NotYet(square, *wrong.lines, sizes) from None
    m, n, k = SIZES[0]
    A, B = _inputs(m, n, k, 1300)
    dA, dB = hip.to_device(A.view(np.uint16)), hip.to_device(B.view(np.uint16))
    dC = hip.device_array((m, n), np.float32)
    (record,) = profiled(lambda: kernel[(n // TILE, m // TILE), 64](dA, dB, dC), kernel)
    mfmas = int(record.counters.get("SQ_INSTS_MFMA", 0))
    if mfmas == 0:
        raise NotYet("C is right, but your kernel never used the matrix core: SQ_INSTS_MFMA "
                     "is 0, so every multiply-add ran on the vector ALUs. The exercise is "
                     "a GEMM on the matrix cores: hip.mfma_* instructions.")
    flops = int(record.counters.get("GPUSIM_MFMA_FLOPS", 0))
    shapes = ", ".join(f"{m} x {n} x {k}" for m, n, k in SIZES)
    return [f"C = A @ B matches NumPy to f32 accuracy for M x N x K = {shapes} (bf16 in, "
            "f32 accumulate).",
            f"The 64 x 64 x 64 product took {mfmas} MFMA instructions, {flops:,} FLOPs on "
            "the matrix cores (SQ_INSTS_MFMA, GPUSIM_MFMA_FLOPS)."]
