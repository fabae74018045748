"""Lab 02 (wavefronts and LDS): a shuffle reduction that starts at the wavefront's size;
stream compaction with one atomic per wavefront; subtracting the mean with one
cooperative launch (cooperative groups: tiles and a grid sync). All run on the wave64
MI300X and on the wave32 RX 7900 XTX: code that types the wavefront size in is right on
one only."""

from __future__ import annotations

import math

import numpy as np

import gpusim
from gpusim import hip
from gpusim.exercises.expect import expect_array, expect_true
from gpusim.exercises.measure import checked, lanes_per_element, on_device, profiled
from gpusim.exercises.registry import NotYet, describe_error, exercise
from gpusim.devices import get_spec
from gpusim.errors import HipError, KernelCompileError, SanitizerError, hipError_t

WAVE32 = "rx7900xtx"


def _on_wave32(run, what: str, advice: str = "") -> None:
    """``run()`` (which checks the values) again on the wave32 GPU; a wrong value there
    (or a kernel that does not compile for it) means the kernel assumes 64 lanes.
    ``advice`` replaces the default last sentence, "{what} must come from hip.warpsize"."""
    name = get_spec(WAVE32).name
    try:
        with on_device(WAVE32):
            run(32)
    except (NotYet, HipError, KernelCompileError) as wrong:
        said = " ".join(wrong.lines) if isinstance(wrong, NotYet) else describe_error(wrong)
        raise NotYet(f"Right on the wave64 MI300X, but wrong on the wave32 {name}: "
                     f"{said} The kernel assumes a 64-wide wavefront: "
                     f"{advice or what + ' must come from hip.warpsize.'}") from None


@exercise("02.1", "wavefront sums with shuffles", hints=[
    "Lane 0 ends with the sum of the lanes it collected: with a first offset of 16 it "
    "collects lanes 0-31 only.",
    "The first step must bring the upper half of the wavefront onto the lower half.",
    "Do not type the wavefront size: hip.warpsize is 64 on MI300X and 32 on RDNA.",
])
def wave_sums(kernel) -> str:
    """Runs ``kernel[2, 256](x, sums)`` checked on the MI300X (8 wavefronts, one sum each),
    traced to count the stores, then on the wave32 RX 7900 XTX (16 wavefronts)."""
    x = np.random.default_rng(2).integers(0, 100, 512).astype(np.float32)

    def run(wave: int) -> None:
        waves = x.size // wave
        sums = hip.to_device(np.full(waves, np.nan, np.float32))
        checked(lambda: kernel[2, 256](hip.to_device(x), sums))
        got = sums.copy_to_host()
        by_lane = x.reshape(waves, wave)
        try:
            expect_array("sums", got, by_lane.sum(axis=1), unset=np.nan)
        except NotYet as wrong:
            if wave == 64 and np.allclose(got, by_lane[:, :32].sum(axis=1)):
                raise NotYet(*wrong.lines, "Each sum holds lanes 0-31 of its wavefront "
                             "only: the reduction is sized for a 32-lane CUDA warp, and an "
                             "MI300X wavefront has 64 lanes.") from None
            if wave == 64 and np.allclose(got, by_lane[:, 0] * wave):
                raise NotYet(*wrong.lines, "Lane 0 only added its own value to itself: "
                             "with hip.shfl_up a lane reads from the lanes below it, and "
                             "lane 0 has none.") from None
            if wave == 64 and _stores_per_sum() > 1.01:
                raise NotYet(*wrong.lines, f"Each sum was stored by about "
                             f"{_stores_per_sum():.0f} lanes, the last store winning: only "
                             "lane 0 holds the whole sum.") from None
            raise

    def _stores_per_sum() -> float:
        sums = hip.to_device(np.full(8, np.nan, np.float32))
        (k,) = profiled(lambda: kernel[2, 256](hip.to_device(x), sums))
        return lanes_per_element(k, "sums", "store", 8)

    run(64)
    stores = _stores_per_sum()
    expect_true(stores <= 1.01, f"The sums are right, but each was stored by about "
                f"{stores:.0f} lanes: only one lane (lane 0) needs to write its wavefront's "
                "sum.")
    _on_wave32(run, "the offsets and the index of the sum")
    return ["All 8 wavefront sums of a 512-element launch are right on the wave64 MI300X,",
            "and all 16 on the wave32 RX 7900 XTX."]


@exercise("02.2", "one atomic per wavefront", hints=[
    "hip.ballot(keep) has one bit per lane; hip.popc of it is how many lanes keep a value.",
    "Lane 0 alone adds that many to count[0]; the atomic returns the old value: the "
    "wavefront's base. hip.shfl(base, 0) gives every lane lane 0's base.",
    "A lane's slot is the popc of the ballot with only the bits below its own lane kept: "
    "mask it with (1 << lane) - 1 (as np.uint64).",
])
def compaction(kernel) -> str:
    """Runs ``kernel[16, 256](x, out, count)`` checked, then traced to count the atomics
    on ``count``, then on the wave32 RX 7900 XTX; the kept set against NumPy's."""
    x = np.random.default_rng(5).normal(size=4096).astype(np.float32)
    want = np.sort(x[x > 0])

    def launch(out, count):
        return lambda: kernel[16, 256](hip.to_device(x), out, count)

    def buffers():
        return (hip.to_device(np.full(x.size, np.nan, np.float32)),
                hip.to_device(np.zeros(1, np.int32)))

    def values(out, count, wave: int, atomics: float | None = None) -> None:
        n = int(count.copy_to_host()[0])
        if n != want.size:
            lanes = "" if atomics is None or atomics < x.size / 2 else (
                f" The kernel made {atomics:,.0f} atomic adds: every lane added, not one "
                "lane per wavefront.")
            raise NotYet(f"count[0] is {n:,}, but {want.size:,} values are positive.{lanes}")
        kept = out.copy_to_host()[:n]
        if np.isnan(kept).any():
            slots = int(np.isnan(kept).sum())
            raise NotYet(f"count[0] is right, but {slots:,} of the {n:,} slots of out below "
                         f"it were never written: lanes stored into the same slot (do all "
                         f"lanes know their wavefront's base, and their own place in it?).")
        expect_array("the kept values (sorted)", np.sort(kept), want, unset=np.nan)

    def run(wave: int) -> None:
        out, count = buffers()
        checked(launch(out, count))
        values(out, count, wave)

    out, count = buffers()
    try:
        checked(launch(out, count))
    except HipError as err:
        if err.code.name == "hipErrorIllegalAddress":  # slots past the end: too many adds?
            big = hip.to_device(np.full(64 * x.size, np.nan, np.float32))
            (k,) = profiled(launch(big, hip.to_device(np.zeros(1, np.int32))))
            if lanes_per_element(k, "count", "atomic", 1) >= x.size / 2:
                raise NotYet(describe_error(err), "count[0] grew too fast: every lane added "
                             "its wavefront's count, not one lane per wavefront.") from None
        raise
    out, count = buffers()
    (k,) = profiled(launch(out, count))
    atomics = lanes_per_element(k, "count", "atomic", 1)
    values(out, count, 64, atomics)
    waves = x.size // 64
    per = "an atomic per kept value" if abs(atomics - want.size) < 1 else \
        f"about {atomics / waves:.0f} per wavefront"
    expect_true(atomics <= waves, f"The kept values are right, but the kernel made "
                f"{atomics:,.0f} atomic adds on count[0] for {waves} wavefronts: {per}. "
                "Each wavefront needs only one.")
    _on_wave32(run, "the lane number, the masks and the wavefront's size")
    return f"All {want.size:,} positive values kept, with {atomics:.0f} atomics for {waves} " \
           "wavefronts (and right on a wave32 GPU)."


# ---- 02.3 one cooperative launch

_GRID_SYNC = ("grid.sync() (grid = hip.cg.this_grid()) must come after a block writes its "
              "partial sum and before any block reads the partial sums.")
_TILE_SLOTS = ("Each tile's sum needs its own LDS slot: written by the tile's first thread "
               "(tile.thread_rank() == 0) at tile.meta_group_rank(), read after block.sync(), "
               "as many slots as tiles (tile.meta_group_size()). hip.laneid and counts like "
               "threadIdx.x // 32 assume 32 lanes, and an MI300X wavefront has 64.")


def _centering_input(n: int) -> np.ndarray:
    return np.random.default_rng(n).normal(3.0, 1.0, n).astype(np.float32)


def _mean_mistake(x: np.ndarray, used: float, block: int) -> str:
    """Why ``used`` was subtracted instead of the mean: the total not divided, or a total
    of only some elements (grid-stride loops give element i to thread i % threads, a
    multiple of the block and of the wavefront)."""
    if np.isclose(used, x.sum(dtype=np.float64), rtol=1e-3):
        return "That is the sum of all elements: divide it by x.size."
    total = used * x.size
    index = np.arange(x.size)
    if np.isclose(total, x[index % 64 < 32].sum(dtype=np.float64), rtol=1e-3):
        return ("That is the sum of lanes 0-31 of every 64 only: the reduction assumes "
                "32-lane wavefronts, and an MI300X wavefront has 64.")
    for first in (4, 8, 16, 32, 64, 128):
        if first < block and np.isclose(total, x[index % block < first].sum(dtype=np.float64),
                                        rtol=1e-3):
            return (f"That is the sum of the first {first} threads of each block only: were "
                    "the other tiles' slots read before block.sync(), or never added?")
    return "Was every block's partial sum added, and the total divided by x.size?"


def _expect_centered(x: np.ndarray, got: np.ndarray, block: int,
                     threads: int | None = None) -> None:
    """``got`` must be ``x - mean(x)``; a constant offset names the mean that was used
    (``block``: threads per block; ``threads``: of the whole launch, if known)."""
    want = x - x.mean(dtype=np.float64)
    written = ~np.isnan(got)
    if threads is not None and not written.all() and not written[threads:].any():
        raise NotYet(f"out[{threads:,}] and the elements after it were never written: the "
                     f"launch has {threads:,} threads for {x.size:,} elements. Let each "
                     "thread handle several: for i in range(grid.thread_rank(), x.size, "
                     "grid.size()).")
    used = np.median((x - got)[written]) if written.any() else np.nan
    if written.all() and not np.isclose(used, x.mean(dtype=np.float64), rtol=1e-4):
        why = "Nothing was subtracted: is the mean computed and used?" if abs(used) < 1e-3 \
            else _mean_mistake(x, used, block)
        raise NotYet(f"out is x minus {used:.6g}, but the mean of x is "
                     f"{x.mean(dtype=np.float64):.6g}. {why}")
    expect_array("out", got, want, rtol=0.0, atol=2e-4, unset=np.nan)


@exercise("02.3", "one cooperative launch", hints=[
    "Every block must have written its partial sum before any block reads them: put "
    "grid.sync() (grid = hip.cg.this_grid()) between the two.",
    "A kernel with grid.sync() may have only as many blocks as are on the GPU at once: one "
    "per CU (hip.hipGetDeviceProperties().multiProcessorCount) always fits. Then each "
    "thread loops: for i in range(grid.thread_rank(), x.size, grid.size()).",
    "Phase 1 is grid_total's. After grid.sync() every thread adds up all of partial, "
    "divides by x.size and subtracts that mean from each of its elements.",
])
def cooperative_center(center_on_gpu) -> list[str]:
    """Calls ``center_on_gpu(d_x, d_out)`` on 3,000 elements on the checked path (races
    between blocks, LDS), counting its launches; on 1,048,576 elements (more than fit at
    once with a thread each); then on the wave32 RX 7900 XTX. ``out`` against NumPy's
    ``x - x.mean()``."""
    def run(n: int) -> tuple[np.ndarray, np.ndarray]:
        x = _centering_input(n)
        out = hip.to_device(np.full(n, np.nan, np.float32))
        center_on_gpu(hip.to_device(x), out)
        hip.hipDeviceSynchronize()
        return x, out.copy_to_host()

    small: list[tuple[np.ndarray, np.ndarray]] = []
    try:
        with gpusim.profile() as prof:
            checked(lambda: small.append(run(3000)))
    except SanitizerError as err:
        kinds = {f.kind for f in err.findings}
        raise NotYet(describe_error(err), _GRID_SYNC if "global race" in kinds
                     else _TILE_SLOTS) from None
    names = [k.name for k in prof.kernels]
    expect_true(len(names) == 1, f"{len(names)} kernel launches ({', '.join(names)}) for "
                "3,000 elements: the exercise asks for one cooperative launch, whose "
                "grid.sync() does what the end of a kernel did.")
    (k,) = prof.kernels
    expect_true(k.breakdown.get("grid_syncs", 0) > 0, "The kernel has no grid sync, so its "
                "blocks never wait for each other: " + _GRID_SYNC)
    _expect_centered(*small[0], block=math.prod(k.block))
    big = 1 << 20
    try:
        with gpusim.profile() as prof:
            x, got = run(big)
    except HipError as err:
        if err.code != hipError_t.hipErrorCooperativeLaunchTooLarge:
            raise
        raise NotYet(describe_error(err), "A kernel with a grid sync may have only as many "
                     "blocks as the GPU holds at once; launch fewer (one per CU always fits) "
                     "and let each thread handle several elements.") from None
    (k,) = prof.kernels
    blocks, threads = math.prod(k.grid), math.prod(k.block)
    _expect_centered(x, got, threads, threads=blocks * threads)
    _on_wave32(lambda wave: _expect_centered(*run(3000), block=threads), "", advice=(
        "a tile must fit in one wavefront (at most hip.warpsize threads; 32 fits every AMD "
        "GPU), and tile counts and LDS slots must come from the tile (tile.meta_group_rank(), "
        "tile.meta_group_size())."))
    return [f"out = x - mean(x) is right for 3,000 and {big:,} elements with one cooperative "
            f"launch of {blocks:,} blocks of {threads} threads,",
            "and on the wave32 RX 7900 XTX too."]
