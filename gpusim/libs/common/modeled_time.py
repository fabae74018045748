"""Modeled time of a library kernel: work at the device's peak rates, derated by an
efficiency that grows with the problem size.

A tuned library kernel is bound by arithmetic (FLOPs / peak rate) or by memory traffic
(bytes / HBM bandwidth), whichever is slower, plus the launch cost. Real libraries reach
only a fraction of peak, and only when the problem is big enough to fill every compute
unit and hide the prologue and epilogue; ``saturating_efficiency`` models that fraction
as a smooth curve ``best * work / (work + half_work)`` (half of ``best`` at
``half_work``). Libraries choose ``best`` and ``half_work`` per routine and say why.

>>> from gpusim.devices import get_spec
>>> spec = get_spec("mi300x")
>>> small = saturating_efficiency(1e6, half_work=1e9, best=0.8)
>>> large = saturating_efficiency(1e12, half_work=1e9, best=0.8)
>>> round(small, 4), round(large, 3)
(0.0008, 0.799)
>>> seconds, parts = roofline_seconds(spec, flops=2 * 4096**3, bytes_moved=3 * 4 * 4096**2,
...                                   peak_tflops=163.4, compute_efficiency=large)
>>> parts["bound"], round(seconds * 1e3, 3)
('compute', 1.055)
"""

from __future__ import annotations

from gpusim.devices import DeviceSpec
from gpusim.timing.costs import KERNEL_LAUNCH_S


def saturating_efficiency(work: float, *, half_work: float, best: float) -> float:
    """Fraction of peak reached on ``work`` units: ``best * work / (work + half_work)``."""
    if work <= 0:
        return best
    return best * work / (work + half_work)


def vector_peak_tflops(spec: DeviceSpec, double: bool) -> float:
    """The vector units' peak: FP64 for double-precision work (complex128 too), else FP32."""
    return spec.fp64_tflops if double else spec.fp32_tflops


def roofline_seconds(spec: DeviceSpec, *, flops: float, bytes_moved: float,
                     peak_tflops: float, compute_efficiency: float = 1.0,
                     memory_efficiency: float = 1.0) -> tuple[float, dict]:
    """(seconds, breakdown) for a kernel doing ``flops`` and moving ``bytes_moved``.

    seconds = launch + max(flops / (peak x compute_efficiency),
                           bytes / (HBM bandwidth x memory_efficiency)).
    """
    compute = flops / (peak_tflops * 1e12 * compute_efficiency) if flops else 0.0
    memory = bytes_moved / (spec.memory_bandwidth_gbs * 1e9 * memory_efficiency)
    bound = "compute" if compute >= memory else "HBM"
    parts = {"launch": KERNEL_LAUNCH_S, "compute": compute, "memory": memory,
             "bound": bound, "flops": float(flops), "bytes": float(bytes_moved),
             "peak_tflops": float(peak_tflops),
             "compute_efficiency": float(compute_efficiency),
             "memory_efficiency": float(memory_efficiency)}
    return KERNEL_LAUNCH_S + max(compute, memory), parts
