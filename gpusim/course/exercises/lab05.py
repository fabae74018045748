"""Lab 05 (occupancy): occupancy on the MI100; FP32 instead of FP64 arithmetic."""

from __future__ import annotations

from gpusim.course.expect import expect_true
from gpusim.course.registry import NotYet, exercise
from gpusim.devices import get_spec


@exercise("05.1", "occupancy on the MI100", hints=[
    "occupancy(...) takes the GPU as device=: its key, as gpusim.list_devices() spells it.",
    "The MI100 is gfx908; keep the block size and the 119 VGPRs of the exercise.",
])
def mi100_occupancy(result) -> str:
    """``result`` is what ``occupancy(...)`` returned; the reference applies AMD's VGPR
    rule to the MI100's profile directly."""
    if not hasattr(result, "waves_per_simd"):
        raise NotYet(f"Pass the result of occupancy(...), not {type(result).__name__}.")
    s = get_spec("mi100")
    if result.device != s.key:
        raise NotYet(f"This occupancy is for the {result.device} ({result.gfx_target}); "
                     "the exercise asks about the MI100.")
    if (result.vgprs, result.block_size) != (119, 256):
        raise NotYet(f"This is for {result.vgprs} VGPRs and {result.block_size}-thread "
                     "blocks; the exercise asks about 119 VGPRs and blocks of 256.")
    granule = s.vgpr_alloc_granule
    per_wave = -(-119 // granule) * granule
    want = min(s.vgprs_per_simd_lane // per_wave, s.max_waves_per_simd)
    expect_true(result.waves_per_simd == want, "The device and inputs are right, but the "
                "waves per SIMD disagree with AMD's rule: please tell the course staff.")
    return (f"{want} of {s.max_waves_per_simd} waves per SIMD, limited by "
            f"{result.limiter.upper()}s: {per_wave} allocated per lane out of "
            f"{s.vgprs_per_simd_lane}.")


@exercise("05.2", "FP32 arithmetic", hints=[
    "A Python float is a 64-bit double; the kernel computes a * x[i] in the type of a.",
    "Pass the scalar as a 32-bit NumPy float instead.",
])
def fp32_ops(f32_ops: list) -> str:
    doubles = [op for op in f32_ops if "f64" in op]
    if doubles:
        raise NotYet(f"f32_ops still has {', '.join(doubles)}: the product is computed in "
                     "double precision and converted.")
    expect_true(any("f32" in op for op in f32_ops), "f32_ops has no FP32 instruction: did "
                "the kernel compile with a float argument?")
    return f"Only FP32 arithmetic now: {', '.join(f32_ops)}."
