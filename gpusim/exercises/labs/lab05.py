"""Lab 05 (occupancy): occupancy on the MI100; FP32 instead of FP64 arithmetic."""

from __future__ import annotations

from gpusim.exercises.expect import expect_true
from gpusim.exercises.registry import NotYet, exercise
from gpusim.devices import get_spec


@exercise("05.1", "occupancy on the MI100", hints=[
    "occupancy(...) takes the GPU as device=: its key, as gpusim.list_devices() spells it.",
    "The MI100 is gfx908; keep the block size and the 119 VGPRs of the exercise.",
])
def mi100_occupancy(result) -> str:
    """``result`` is what ``occupancy(...)`` returned; the reference applies AMD's VGPR
    rule to the MI100's profile directly."""
    if not hasattr(result, "waves_per_simd"):
        what = "the function itself: call it" if callable(result) else type(result).__name__
        raise NotYet(f"Pass the result of occupancy(...), not {what}.")
    s = get_spec("mi100")
    if result.device != s.key:
        raise NotYet(f"This occupancy is for the {result.device} ({result.gfx_target}); "
                     "the exercise asks about the MI100.")
    if (result.vgprs, result.block_size) != (119, 256):
        raise NotYet(f"This is for {result.vgprs} VGPRs and {result.block_size}-thread "
                     "blocks; the exercise asks about 119 VGPRs and blocks of 256.")
    extra = [f"{result.lds_bytes:,} bytes of LDS" if result.lds_bytes else "",
             f"{result.agprs} AGPRs" if result.agprs else ""]
    if any(extra) or result.limiter != "vgpr":
        found = " and ".join(e for e in extra if e) or f"a {result.limiter} limit"
        raise NotYet(f"This also counts {found}; the exercise's kernel uses 119 VGPRs and "
                     "nothing else that limits occupancy.")
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
    if isinstance(f32_ops, str) or not isinstance(f32_ops, (list, tuple)) or \
            not all(isinstance(op, str) for op in f32_ops):
        raise NotYet("f32_ops should be the list of instruction names that float_ops(...) "
                     f"returns, not {type(f32_ops).__name__}.")
    doubles = [op for op in f32_ops if "f64" in op]
    if doubles:
        integer = any("_f64_i32" in op or "_f64_u32" in op for op in doubles)
        why = (" An integer a times a float32 element is promoted to float64 too." if integer
               else "")
        raise NotYet(f"f32_ops still has {', '.join(doubles)}: the product is computed in "
                     f"double precision and converted.{why}")
    expect_true(any("f32" in op for op in f32_ops), "f32_ops has no FP32 instruction: did "
                "the kernel compile with a float argument?")
    return f"Only FP32 arithmetic now: {', '.join(f32_ops)}."
