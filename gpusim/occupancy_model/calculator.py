"""``occupancy()``: how many waves of a kernel a SIMD holds, and which resource says so.

Combines the per-resource limits of ``rules.py`` the way LLVM's
``GCNSubtarget::computeOccupancy`` does (the minimum, in waves per SIMD), so the result
is the number ``clang -Rpass-analysis=kernel-resource-usage`` prints and rocprof's
occupancy is measured against. On top of that it counts whole workgroups, which is what
a compute unit actually holds; when not even one workgroup fits (too many registers for
its waves, which the compiler would refuse to emit) the answer is 0, the launch could
not run, and the limiter names the register file.

"Per CU" means per compute unit on CDNA and per workgroup processor (WGP, two CUs) on
RDNA in WGP mode: the unit whose SIMDs, LDS and barriers one workgroup's waves share.
HIP reports WGPs as its "multiprocessors" there too.
"""

from __future__ import annotations

import math
import operator
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpusim.devices import DEFAULT_DEVICE, DeviceSpec, get_spec, list_devices
from gpusim.occupancy_model import rules
from gpusim.occupancy_model.rules import OccupancyError

# What LLVM 22 reports for the smallest useful kernel, a bounds-checked ``out[i] = i``
# (gfx942: 3 VGPRs, 15 SGPRs; gfx90a/gfx908: 4, 19; gfx1100: 3, 16). Below every VGPR
# granule and the 80-SGPR step, so a kernel that leaves them out is never register-bound.
MINIMAL_KERNEL_VGPRS = 4
MINIMAL_KERNEL_SGPRS = 19

LIMITERS = ("vgpr", "sgpr", "lds", "workgroup", "waves")  # ties go to the first named
RESOURCE_KEYS = ("vgprs", "sgprs", "agprs", "lds_bytes")


@dataclass(frozen=True)
class Occupancy:
    """One occupancy answer: the inputs, waves per SIMD, the limiter and every limit.

    ``waves_per_simd`` is AMD's occupancy (waves on the busiest SIMD); ``limits`` holds
    each resource's own limit in the same unit; ``workgroups_per_cu`` and
    ``waves_per_cu`` count whole resident workgroups per ``unit`` ("CU", or "WGP").
    """

    device: str
    gfx_target: str
    block_size: int
    vgprs: int
    sgprs: int
    agprs: int
    lds_bytes: int
    waves_per_simd: int
    max_waves_per_simd: int
    fraction: float
    limiter: str
    limits: Mapping[str, int] = field(hash=False)
    waves_per_workgroup: int
    workgroups_per_cu: int
    waves_per_cu: int
    unit: str
    spec: DeviceSpec = field(repr=False, compare=False, hash=False)

    @property
    def fits(self) -> bool:
        """True when at least one workgroup can be resident (the launch can run)."""
        return self.workgroups_per_cu > 0

    def __repr__(self) -> str:
        return (
            f"Occupancy({self.device} {self.gfx_target}, block {self.block_size}: "
            f"{self.waves_per_simd}/{self.max_waves_per_simd} waves per SIMD "
            f"({self.fraction:.0%}), limiter {self.limiter!r}, "
            f"{self.workgroups_per_cu} workgroups per {self.unit})"
        )

    def explain(self) -> str:
        """Why: one or two sentences for a notebook.

        >>> print(occupancy(block_size=256, vgprs=128).explain())  # doctest: +NORMALIZE_WHITESPACE
        mi300x (gfx942), 256-thread workgroups (4 waves): 4 of 8 waves per SIMD (50%),
        limited by VGPRs: 128 VGPRs per lane, allocated in granules of 8, leave room for
        512 // 128 = 4 waves in a SIMD's 512-entry register file. A CU holds 4 workgroups
        (16 waves).
        """
        head = (
            f"{self.device} ({self.gfx_target}), {self.block_size}-thread workgroups "
            f"({self.waves_per_workgroup} wave{'s' * (self.waves_per_workgroup > 1)}): "
        )
        if not self.fits:
            need = -(-self.waves_per_workgroup // rules.unit(self.spec).simds)
            return head + (
                f"cannot run: a workgroup needs {need} waves per SIMD but the "
                f"{self.limiter.upper()}s leave room for {self.limits[self.limiter]}, so not "
                f"one workgroup fits and a launch would fail."
            )
        text = head + (
            f"{self.waves_per_simd} of {self.max_waves_per_simd} waves per SIMD "
            f"({self.fraction:.0%}), limited by {_reason(self)}. A {self.unit} holds "
            f"{_count(self.workgroups_per_cu, 'workgroup')} ({self.waves_per_cu} waves)."
        )
        simds = rules.unit(self.spec).simds
        if self.waves_per_cu < self.waves_per_simd * simds and self.waves_per_workgroup > 1:
            text += (
                f" Only whole workgroups are resident, so that is {self.waves_per_cu} of "
                f"the {self.waves_per_simd * simds} wave slots the limits leave."
            )
        return text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _reason(o: Occupancy) -> str:
    spec, limit = o.spec, o.limits[o.limiter]
    if o.limiter == "vgpr":
        regs = f"{o.vgprs} VGPRs" + (f" + {o.agprs} AGPRs" if o.agprs else "")
        entries = rules.round_up(o.vgprs, rules.ACCUM_OFFSET_ALIGN) + o.agprs
        if not (spec.unified_agprs and o.agprs):
            entries = max(o.vgprs, o.agprs)
        used = rules.round_up(entries, spec.vgpr_alloc_granule)
        return (
            f"VGPRs: {regs} per lane, allocated in granules of {spec.vgpr_alloc_granule}, "
            f"leave room for {spec.vgprs_per_simd_lane} // {used} = {limit} waves in a "
            f"SIMD's {spec.vgprs_per_simd_lane}-entry register file"
        )
    if o.limiter == "sgpr":
        return (
            f"SGPRs: {o.sgprs} SGPRs per wave leave room for {spec.sgprs_per_simd} // "
            f"{o.sgprs} = {limit} waves in a SIMD's scalar register file"
        )
    if o.limiter == "lds":
        unit = rules.unit(spec)
        rounded = rules.round_up(o.lds_bytes, spec.lds_alloc_granule_bytes)
        return (
            f"LDS: {o.lds_bytes} bytes per workgroup (allocated as {rounded}) let "
            f"{unit.lds_bytes // rounded} workgroups share the {unit.name}'s "
            f"{unit.lds_bytes // 1024} KiB"
        )
    if o.limiter == "workgroup":
        unit = rules.unit(spec)
        n = o.waves_per_workgroup
        cause = "barriers" if n > 1 and unit.wave_slots // n > unit.barriers else "wave slots"
        return (
            f"workgroup slots: a {unit.name} takes at most "
            f"{rules.workgroup_slots(spec, o.block_size)} such workgroups ({cause})"
        )
    return "wave slots: every SIMD is full"


def resolve_device(device: str | DeviceSpec) -> DeviceSpec:
    """A DeviceSpec from a profile key ("mi300x"), a gfx target ("gfx942") or a spec.

    >>> resolve_device("gfx90a").key
    'mi250x'
    """
    if isinstance(device, DeviceSpec):
        return device
    # Calibration targets (the H200) resolve too: the timing model's checks need their
    # occupancy, even though the course's device listing leaves them out.
    if device in list_devices(calibration=True):
        return get_spec(device)
    for key in list_devices():
        if get_spec(key).gfx_target == device:
            return get_spec(key)
    raise OccupancyError(
        f"unknown device {device!r}: use a profile key {list_devices()} or one of their "
        f"gfx targets {[get_spec(k).gfx_target for k in list_devices()]}"
    )


def kernel_resources(kernel: Any, spec: DeviceSpec) -> dict[str, Any]:
    """Resource usage of ``kernel`` on ``spec``: ``kernel.resources(spec)``, or a mapping.

    Keys read: ``vgprs``, ``sgprs``, ``agprs``, ``lds_bytes``; optional ``target`` (the
    gfx target the counts hold for) and ``max_flat_workgroup_size`` (launch bounds).

    >>> kernel_resources({"vgprs": 40, "lds_bytes": 4096}, resolve_device("mi300x"))
    {'vgprs': 40, 'lds_bytes': 4096}
    """
    if kernel is None:
        return {}
    if hasattr(kernel, "resources"):
        found = dict(kernel.resources(spec))
    elif isinstance(kernel, Mapping):
        found = dict(kernel)
    else:
        raise TypeError(
            f"cannot read resources from {type(kernel).__name__}: pass an object with a "
            f"resources(device) method, a mapping, or vgprs=/sgprs=/lds_bytes= directly"
        )
    target = found.get("target")
    if target is not None and target != spec.gfx_target:
        raise OccupancyError(
            f"these resources were compiled for {target}, not {spec.gfx_target} ({spec.key})"
        )
    return found


def occupancy(
    kernel: Any = None,
    *,
    block_size: int | Sequence[int],
    vgprs: int | None = None,
    sgprs: int | None = None,
    agprs: int | None = None,
    lds_bytes: int | None = None,
    device: str | DeviceSpec = DEFAULT_DEVICE,
) -> Occupancy:
    """Occupancy of a kernel launched with ``block_size`` threads per workgroup.

    Resources left as None come from ``kernel`` when given, else VGPRs/SGPRs from
    ``MINIMAL_KERNEL_*`` and 0 AGPRs / LDS. ``lds_bytes`` is the whole workgroup's LDS
    (static + dynamic). ``sgprs`` is the compiler's total (``.sgpr_count``).
    ``block_size`` may be a (x, y, z) shape; only the thread count matters.

    >>> occupancy(block_size=256, vgprs=128).waves_per_simd
    4
    >>> o = occupancy(block_size=256, lds_bytes=32 * 1024, device="mi300x")
    >>> o.waves_per_simd, o.limiter, o.workgroups_per_cu
    (2, 'lds', 2)
    >>> occupancy(block_size=(8, 16), device="mi100").workgroups_per_cu
    16
    """
    spec = resolve_device(device)
    if isinstance(block_size, Sequence):
        block_size = math.prod(block_size)
    block_size = operator.index(block_size)  # numpy integers too, not 256.0
    found = kernel_resources(kernel, spec)
    given = {"vgprs": vgprs, "sgprs": sgprs, "agprs": agprs, "lds_bytes": lds_bytes}
    default = {
        "vgprs": MINIMAL_KERNEL_VGPRS,
        "sgprs": MINIMAL_KERNEL_SGPRS,
        "agprs": 0,
        "lds_bytes": 0,
    }
    use = {
        k: int(given[k] if given[k] is not None else found.get(k, default[k]))
        for k in RESOURCE_KEYS
    }
    bound = found.get("max_flat_workgroup_size")
    if bound is not None and block_size > bound:
        raise OccupancyError(
            f"block_size {block_size} is more than the {bound} threads this kernel was "
            f"compiled for (its launch bounds / amdgpu-flat-work-group-size)"
        )
    rules.check_resources(spec, block_size, **use)
    return _combine(spec, block_size, **use)


def _combine(
    spec: DeviceSpec, block_size: int, vgprs: int, sgprs: int, agprs: int, lds_bytes: int
) -> Occupancy:
    most = spec.max_waves_per_simd
    limits = {
        "vgpr": rules.vgpr_limit(spec, vgprs, agprs),
        "sgpr": rules.sgpr_limit(spec, sgprs),
        "lds": rules.lds_limit(spec, block_size, lds_bytes),
        "workgroup": rules.workgroup_limit(spec, block_size),
        "waves": most,
    }
    unit, per_wg = rules.unit(spec), rules.waves_per_workgroup(spec, block_size)
    # Whole workgroups: all waves of one must be resident at once (barriers).
    registers = min(limits["vgpr"], limits["sgpr"])
    candidates = [rules.workgroup_slots(spec, block_size), registers * unit.simds // per_wg]
    lds_fit = rules.lds_workgroups(spec, lds_bytes)
    if lds_fit is not None:
        candidates.append(lds_fit)
    workgroups = min(candidates)
    if workgroups == 0:
        waves, limiter = 0, "vgpr" if limits["vgpr"] <= limits["sgpr"] else "sgpr"
    else:
        waves = min(limits.values())
        limiter = "waves" if waves == most else next(k for k in LIMITERS if limits[k] == waves)
    return Occupancy(
        device=spec.key,
        gfx_target=spec.gfx_target,
        block_size=block_size,
        vgprs=vgprs,
        sgprs=sgprs,
        agprs=agprs,
        lds_bytes=lds_bytes,
        waves_per_simd=waves,
        max_waves_per_simd=most,
        fraction=waves / most,
        limiter=limiter,
        limits=types.MappingProxyType(limits),
        waves_per_workgroup=per_wg,
        workgroups_per_cu=workgroups,
        waves_per_cu=workgroups * per_wg,
        unit=unit.name,
        spec=spec,
    )
