"""Lab 12 (performance capstone): a row softmax from naive to the HBM roofline."""

from __future__ import annotations

import math

import numpy as np

import gpusim
from gpusim import hip
from gpusim.exercises.expect import expect_array, expect_true, expect_value
from gpusim.exercises.measure import expect_faster, on_device, profiled
from gpusim.exercises.registry import NotYet, exercise
from gpusim.runtime.system import get_system


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def _scores(rows: int, cols: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((rows, cols)).astype(np.float32)


@hip.jit
def _thread_per_row(x, y, rows, cols):
    # The baseline the exercises are measured against: one thread walks a whole row.
    r = hip.grid(1)
    if r < rows:
        m = np.float32(-np.inf)
        for c in range(cols):
            m = max(m, x[r, c])
        s = np.float32(0.0)
        for c in range(cols):
            s += math.exp(x[r, c] - m)
        for c in range(cols):
            y[r, c] = math.exp(x[r, c] - m) / s


def _kernel_us(record) -> float:
    return record.duration_ns / 1e3 - record.breakdown["launch"] * 1e6


def _spec():
    sys_ = get_system()
    return sys_.devices[sys_.current_ordinal].spec


@exercise("12.1", "roofline time", hints=[
    "A memory-bound kernel can go no faster than the bytes it must move, over the bandwidth.",
    "Softmax reads every element of x once and writes every element of y once; a float32 "
    "is 4 bytes.",
    "spec.memory_bandwidth_gbs is in GB/s (1e9 bytes per second); the answer is in "
    "microseconds.",
])
def roofline(roofline_us) -> str:
    """Calls ``roofline_us(rows, cols)`` on a few shapes; the formula from the profile."""
    gbs = _spec().memory_bandwidth_gbs
    for rows, cols in ((512, 256), (8192, 256), (1000, 3)):
        want = 2 * rows * cols * 4 / (gbs * 1e9) * 1e6
        got = roofline_us(rows, cols)
        if isinstance(got, (int, float)) and not isinstance(got, bool) and got > 0:
            for ratio, why in ((0.5, "Count the bytes written as well as the bytes read."),
                               (1e-3, "That is in milliseconds; the answer is in microseconds."),
                               (1e-6, "That is in seconds; the answer is in microseconds."),
                               (1e3, "That is in nanoseconds; the answer is in microseconds.")):
                if math.isclose(got / want, ratio, rel_tol=1e-3):
                    raise NotYet(f"roofline_us({rows}, {cols}) is {got:.6g}. {why}")
        expect_value(f"roofline_us({rows}, {cols})", got, want, rtol=1e-6,
                     why="Bytes read and written, over the HBM bandwidth, in microseconds.")
    return (f"A 512 x 256 float32 softmax can take no less than "
            f"{2 * 512 * 256 * 4 / (gbs * 1e9) * 1e6:.3f} us at {gbs / 1000:.1f} TB/s.")


@exercise("12.2", "block size", hints=[
    "The kernel is the same; only the launch configuration changes.",
    "How many workgroups does each block size make for 512 rows, and how many CUs can "
    "they use?",
    "Smaller blocks (still a multiple of 64) make more workgroups.",
])
def block_size(kernel, block: int) -> str:
    """Runs the naive ``kernel`` with blocks of 256 and of ``block``; modeled times."""
    if not isinstance(block, (int, np.integer)) or block <= 0:
        raise NotYet(f"block should be a positive number of threads, but it is {block!r}.")
    expect_true(block % 64 == 0, f"A block of {block} threads is not a whole number of "
                "64-lane wavefronts: the last wavefront would run partly empty.")
    rows, cols = 512, 64
    x = _scores(rows, cols, 12)
    d_x = hip.to_device(x)
    d_y = hip.to_device(np.full((rows, cols), np.nan, np.float32))
    (base,) = profiled(lambda: kernel[rows // 256, 256](d_x, d_y, rows, cols))
    (mine,) = profiled(lambda: kernel[(rows + block - 1) // block, block](d_x, d_y, rows, cols))
    expect_array("y", d_y.copy_to_host(), _softmax(x), unset=np.nan)
    return expect_faster(f"block {block}", mine.duration_ns, base.duration_ns, factor=1.5,
                         baseline="block 256")


@exercise("12.3", "one wavefront per row", hints=[
    "After the loop, each lane holds the sum of its own columns only; the row's sum needs "
    "all 64 lanes, as the maximum does.",
    "Reduce s with the same butterfly of hip.shfl_xor as m, adding instead of max.",
    "Coalesced: at each step, the 64 lanes should read 64 neighbouring columns. Which loop "
    "bounds and step give lane l the columns l, l + 64, l + 128, ...?",
])
def softmax_wave(kernel) -> str:
    """Runs ``kernel[rows, 64](x, y, rows, cols)``: NumPy, coalescing, modeled time."""
    rows, cols = 128, 256
    x = _scores(rows, cols, 13)
    d_x = hip.to_device(x)
    d_y = hip.to_device(np.full((rows, cols), np.nan, np.float32))
    (mine,) = profiled(lambda: kernel[rows, 64](d_x, d_y, rows, cols))
    _partial_sums(d_y.copy_to_host(), x)
    expect_array("y", d_y.copy_to_host(), _softmax(x), unset=np.nan)
    lines = max(s["requests_per_instruction"] for s in mine.memory["sites"]
                if s["space"] == "global" and s["kind"] == "load")
    expect_true(lines <= 2.0, f"The softmax is right, but a wavefront's load touches "
                f"{lines:g} cache lines; 64 neighbouring floats need only 2. Let neighbouring "
                "lanes read neighbouring columns.")
    with on_device("rx7900xtx"):             # wave32: one wavefront is 32 lanes
        w32 = hip.hipGetDeviceProperties().warpSize
        d_y32 = hip.to_device(np.full((rows, cols), np.nan, np.float32))
        try:
            kernel[rows, w32](hip.to_device(x), d_y32, rows, cols)
            hip.hipDeviceSynchronize()
            expect_array("y", d_y32.copy_to_host(), _softmax(x), unset=np.nan)
        except NotYet as wrong:
            raise NotYet(f"Right on the 64-lane MI300X, but on a GPU with {w32}-lane "
                         f"wavefronts (RX 7900 XTX, one wavefront per row) "
                         f"{wrong.lines[0]} The kernel assumes a 64-wide wavefront: take "
                         "the stride and the first shuffle distance from hip.warpsize."
                         ) from None
    (base,) = profiled(lambda: _thread_per_row[rows // 64, 64](d_x, d_y, rows, cols))
    return [expect_faster("one wave per row", mine.duration_ns, base.duration_ns, factor=10,
                          baseline="one thread per row"),
            "The loads are coalesced: 2 cache lines per wavefront instruction."]


def _partial_sums(got: np.ndarray, x: np.ndarray) -> None:
    """Name a sum that was not reduced over the whole wavefront: each lane's own, or
    only 32 of the 64 lanes' (columns strided by 64 or in chunks of cols / 64)."""
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    cols = x.shape[1]
    c = np.arange(cols)
    for lane_of in (c % 64, c // (cols // 64)):  # strided, chunks
        for group, what in ((lane_of, "each lane's own columns only: reduce s across the "
                             "wavefront with shfl_xor, as m is"),
                            (lane_of // 32, "32 of the 64 lanes only: the sum's butterfly "
                             "must start at hip.warpsize // 2")):
            s = np.zeros_like(e)
            for g in np.unique(group):
                s[:, group == g] = e[:, group == g].sum(axis=1, keepdims=True)
            if np.allclose(got, e / s, rtol=1e-4, atol=1e-6):
                raise NotYet(f"y is divided by a sum over {what}.")


@exercise("12.4", "one launch for all heads", hints=[
    "Every launch pays a fixed cost (about 3 us modeled) before any work starts.",
    "The heads are stored one after another: together they are one matrix of "
    "HEADS * ROWS rows.",
    "One launch with HEADS * ROWS // 4 blocks of (64, 4) covers every row.",
])
def batched(softmax_all) -> str:
    """Runs ``softmax_all(d_in, d_out)`` on 16 x 512 rows of 256; launches, roofline."""
    rows, cols = 16 * 512, 256
    x = _scores(rows, cols, 14)
    d_x = hip.to_device(x)
    d_y = hip.to_device(np.full((rows, cols), np.nan, np.float32))
    with gpusim.profile() as prof:            # untraced first: count the launches
        softmax_all(d_x, d_y)
        hip.hipDeviceSynchronize()
    expect_array("probs", d_y.copy_to_host(), _softmax(x), unset=np.nan)
    launches = len(prof.kernels)
    expect_true(launches == 1, f"The softmax is right, but it took {launches} launches, and "
                "each pays the fixed launch cost before it starts. One launch can cover "
                "every row.")
    (k,) = profiled(lambda: softmax_all(d_x, d_y))
    roof_us = 2 * rows * cols * 4 / (_spec().memory_bandwidth_gbs * 1e9) * 1e6
    share = roof_us / _kernel_us(k)
    expect_true(share >= 0.5, f"One launch, but the kernel part ({_kernel_us(k):.2f} us) "
                f"reaches only {share:.0%} of the HBM roofline ({roof_us:.2f} us); the target "
                "is 50%.")
    return (f"One launch of {rows} rows: {k.duration_ns / 1e3:.2f} us modeled, the kernel "
            f"part at {share:.0%} of the HBM roofline.")
