"""Lab 02 (wavefronts and LDS): a shuffle reduction that starts at the wavefront's size;
stream compaction with one atomic per wavefront. Both run on the wave64 MI300X and on the
wave32 RX 7900 XTX: code that types the wavefront size in is right on one only."""

from __future__ import annotations

import numpy as np

from gpusim import hip
from gpusim.course.expect import expect_array, expect_true
from gpusim.course.measure import checked, lanes_per_element, on_device, profiled
from gpusim.course.registry import NotYet, describe_error, exercise
from gpusim.devices import get_spec
from gpusim.errors import HipError

WAVE32 = "rx7900xtx"


def _on_wave32(run, what: str) -> None:
    """``run()`` (which checks the values) again on the wave32 GPU; a wrong value there
    means the kernel assumes 64 lanes."""
    name = get_spec(WAVE32).name
    try:
        with on_device(WAVE32):
            run(32)
    except (NotYet, HipError) as wrong:
        said = " ".join(wrong.lines) if isinstance(wrong, NotYet) else describe_error(wrong)
        raise NotYet(f"Right on the wave64 MI300X, but wrong on the wave32 {name}: "
                     f"{said} The kernel assumes a 64-wide wavefront: "
                     f"{what} must come from hip.warpsize.") from None


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
