"""AMD's occupancy rules as pure functions of a ``DeviceSpec`` and a kernel's resources.

Each function answers one question, "how many waves per SIMD does this one resource
allow?", in the units the compiler and the profilers use, so each can be checked on
its own against LLVM's AMDGPU backend (``tests/occupancy``). ``calculator.py`` takes
the minimum and names the limiter.

The rules are LLVM's, which ROCm's profilers and AMD's occupancy docs follow:

- VGPRs: ``AMDGPUBaseInfo.cpp`` ``getNumWavesPerEUWithNumVGPRs`` (granule, file size,
  at least one wave, at most the wave slots), with AGPRs counted as
  ``getTotalNumVGPRs`` does (unified file on gfx90a/gfx942, separate on gfx908).
- SGPRs: ``getOccupancyWithNumSGPRs``: the gfx9 table (<=80 -> 10, <=88 -> 9,
  <=100 -> 8, else 7), which is exactly ``floor(800 / SGPRs)``; gfx10+ gives every
  wave its own SGPRs, so 2048 / 108 >= 16 never limits.
- Workgroup slots, barriers and LDS: ``AMDGPUSubtarget.cpp``
  ``getOccupancyWithWorkGroupSizes`` and ``AMDGPUBaseInfo.cpp`` ``getMaxWorkGroupsPerCU``
  (16 barriers per CU before gfx10, 32 per WGP after; single-wave workgroups use
  none), with one deliberate difference: LDS is rounded up to the hardware's allocation
  granule first (``lds_alloc_granule_bytes``; AMDGPUUsage COMPUTE_PGM_RSRC2.LDS_SIZE),
  which LLVM skips (its source says "FIXME: We should take into account the LDS
  allocation granularity").

https://github.com/llvm/llvm-project/blob/main/llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp
https://github.com/llvm/llvm-project/blob/main/llvm/lib/Target/AMDGPU/AMDGPUSubtarget.cpp
https://rocm.docs.amd.com/projects/rocprofiler-compute/en/latest/conceptual/occupancy.html

>>> from gpusim.devices import get_spec
>>> vgpr_limit(get_spec("mi300x"), 128), vgpr_limit(get_spec("mi100"), 119)
(4, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from gpusim.devices import DeviceSpec
from gpusim.errors import GpusimError

# AGPRs start at an accumulation offset that is a multiple of 4 VGPRs on gfx90a/gfx942
# (AMDGPUUsage ".amdhsa_accum_offset"), hence roundup(VGPR, 4) + AGPR in the unified file.
ACCUM_OFFSET_ALIGN = 4
# The compiler's reported SGPR total (.sgpr_count) adds VCC, FLAT_SCRATCH and XNACK_MASK
# (at most 6, AMDGPUBaseInfo.cpp getNumExtraSGPRs) to the addressable SGPRs.
MAX_EXTRA_SGPRS = 6
# In WGP mode (HIP's default from gfx10 on) a workgroup's waves may use the four SIMDs,
# the LDS and the barriers of a workgroup processor: two CUs (AMDGPUBaseInfo.cpp
# getEUsPerCU: "'Per CU' really means 'per whatever functional block the waves of a
# workgroup must share'"; ROCclr halves maxComputeUnits in WGP mode).
CUS_PER_WGP = 2
WGP_MODE_FROM_MAJOR = 10


class OccupancyError(GpusimError, ValueError):
    """A kernel resource or launch shape is outside what the device allows."""


@dataclass(frozen=True)
class Unit:
    """The block of hardware one workgroup's waves share: a CU, or a WGP on RDNA.

    >>> from gpusim.devices import get_spec
    >>> unit(get_spec("rx7900xtx"))
    Unit(name='WGP', cus=2, simds=4, wave_slots=64, lds_bytes=131072, barriers=32)
    """

    name: str
    cus: int
    simds: int
    wave_slots: int
    lds_bytes: int
    barriers: int


def unit(spec: DeviceSpec) -> Unit:
    """The CU (gfx9) or WGP (gfx10+, WGP mode) whose resources the rules divide up."""
    cus = CUS_PER_WGP if spec.arch_version[0] >= WGP_MODE_FROM_MAJOR else 1
    simds = spec.simds_per_cu * cus
    return Unit(
        name="WGP" if cus > 1 else "CU",
        cus=cus,
        simds=simds,
        wave_slots=spec.max_waves_per_simd * simds,
        lds_bytes=spec.lds_bytes_per_cu * cus,
        barriers=spec.max_workgroups_per_cu * cus,
    )


def round_up(value: int, granule: int) -> int:
    """``value`` rounded up to a multiple of ``granule``.

    >>> round_up(119, 4), round_up(0, 8)
    (120, 0)
    """
    return -(-value // granule) * granule


def waves_per_workgroup(spec: DeviceSpec, block_size: int) -> int:
    """Wavefronts in a workgroup of ``block_size`` threads (a partial wave is a wave)."""
    return -(-block_size // spec.wave_size)


def _waves_with_registers(used: int, file_size: int, spec: DeviceSpec) -> int:
    # getNumWavesPerEUWithNumVGPRs: under one granule never limits; a wave always fits.
    granule, most = spec.vgpr_alloc_granule, spec.max_waves_per_simd
    if used < granule:
        return most
    return min(max(file_size // round_up(used, granule), 1), most)


def vgpr_limit(spec: DeviceSpec, vgprs: int, agprs: int = 0) -> int:
    """Waves per SIMD the vector register file allows.

    Unified file (gfx90a, gfx942): AGPRs follow the VGPRs at a 4-aligned offset, so a
    wave takes roundup(VGPR, 4) + AGPR entries, then the allocation granule. Separate
    AGPR file (gfx908): each file limits on its own.

    >>> from gpusim.devices import get_spec
    >>> vgpr_limit(get_spec("mi300x"), 119, 5), vgpr_limit(get_spec("mi100"), 119, 5)
    (4, 2)
    """
    if spec.unified_agprs:
        total = round_up(vgprs, ACCUM_OFFSET_ALIGN) + agprs if agprs else vgprs
        return _waves_with_registers(total, spec.vgprs_per_simd_lane, spec)
    limit = _waves_with_registers(vgprs, spec.vgprs_per_simd_lane, spec)
    if agprs:
        limit = min(limit, _waves_with_registers(agprs, spec.agprs_per_simd_lane, spec))
    return limit


def sgpr_limit(spec: DeviceSpec, sgprs: int) -> int:
    """Waves per SIMD the scalar register file allows (``sgprs`` incl. VCC etc.).

    ``floor(sgprs_per_simd / SGPRs)`` reproduces LLVM's gfx9 table exactly for every
    count a wave can have, and never limits on RDNA (2048 SGPRs per SIMD).

    >>> from gpusim.devices import get_spec
    >>> [sgpr_limit(get_spec("mi100"), s) for s in (80, 81, 88, 89, 100, 101, 108)]
    [10, 9, 9, 8, 8, 7, 7]
    >>> sgpr_limit(get_spec("mi300x"), 102), sgpr_limit(get_spec("rx7900xtx"), 108)
    (7, 16)
    """
    if sgprs <= 0:
        return spec.max_waves_per_simd
    return min(spec.sgprs_per_simd // sgprs, spec.max_waves_per_simd)


def _waves_per_simd(spec: DeviceSpec, workgroups: int, block_size: int) -> int:
    # "Waves on the busiest SIMD": the unit's waves spread as evenly as possible
    # (getOccupancyWithWorkGroupSizes returns divideCeil(waves per CU, EUs per CU)).
    waves = workgroups * waves_per_workgroup(spec, block_size)
    return min(max(-(-waves // unit(spec).simds), 1), spec.max_waves_per_simd)


def workgroup_slots(spec: DeviceSpec, block_size: int) -> int:
    """Workgroups a CU (WGP) holds by wave slots and barriers alone.

    >>> from gpusim.devices import get_spec
    >>> workgroup_slots(get_spec("mi100"), 128), workgroup_slots(get_spec("mi100"), 64)
    (16, 40)
    """
    u, n = unit(spec), waves_per_workgroup(spec, block_size)
    if n == 1:  # a single-wave workgroup needs no barrier
        return u.wave_slots
    return min(u.wave_slots // n, u.barriers)


def workgroup_limit(spec: DeviceSpec, block_size: int) -> int:
    """Waves per SIMD allowed by wave slots and barriers (workgroup size only).

    >>> from gpusim.devices import get_spec
    >>> workgroup_limit(get_spec("mi100"), 128), workgroup_limit(get_spec("mi300x"), 320)
    (8, 8)
    """
    return _waves_per_simd(spec, workgroup_slots(spec, block_size), block_size)


def lds_workgroups(spec: DeviceSpec, lds_bytes: int) -> int | None:
    """Workgroups the CU's (WGP's) LDS holds, after the allocation granule; None if no LDS.

    >>> from gpusim.devices import get_spec
    >>> lds_workgroups(get_spec("mi300x"), 16 * 1024), lds_workgroups(get_spec("mi300x"), 16385)
    (4, 3)
    """
    if lds_bytes <= 0:
        return None
    return unit(spec).lds_bytes // round_up(lds_bytes, spec.lds_alloc_granule_bytes)


def lds_limit(spec: DeviceSpec, block_size: int, lds_bytes: int) -> int:
    """Waves per SIMD allowed by LDS, for workgroups of ``block_size`` threads.

    >>> from gpusim.devices import get_spec
    >>> [lds_limit(get_spec("mi300x"), 256, kib * 1024) for kib in (16, 32, 64)]
    [4, 2, 1]
    """
    fitting = lds_workgroups(spec, lds_bytes)
    if fitting is None:
        return spec.max_waves_per_simd
    return _waves_per_simd(spec, fitting, block_size)


def check_resources(
    spec: DeviceSpec, block_size: int, vgprs: int, sgprs: int, agprs: int, lds_bytes: int
) -> None:
    """Raise OccupancyError, naming the limit, for a kernel no compiler could emit.

    >>> from gpusim.devices import get_spec
    >>> check_resources(get_spec("mi300x"), 2048, 32, 16, 0, 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gpusim.occupancy_model.rules.OccupancyError: block_size 2048 is outside 1..1024, the most ...
    """
    where = f"on {spec.key} ({spec.gfx_target})"
    for name, value in (
        ("vgprs", vgprs),
        ("sgprs", sgprs),
        ("agprs", agprs),
        ("lds_bytes", lds_bytes),
    ):
        if value < 0:
            raise OccupancyError(f"{name} is {value}; register and LDS counts cannot be negative")
    if not 1 <= block_size <= spec.max_threads_per_block:
        raise OccupancyError(
            f"block_size {block_size} is outside 1..{spec.max_threads_per_block}, "
            f"the most threads a workgroup may have {where}"
        )
    most_vgprs = spec.max_vgprs_per_wave_lane
    if spec.unified_agprs:
        used = round_up(vgprs, ACCUM_OFFSET_ALIGN) + agprs if agprs else vgprs
        if used > most_vgprs:
            raise OccupancyError(
                f"{vgprs} VGPRs + {agprs} AGPRs take {used} entries of the unified register "
                f"file, more than the {most_vgprs} one wave may address {where}"
            )
    else:
        if vgprs > most_vgprs:
            raise OccupancyError(
                f"{vgprs} VGPRs is more than the {most_vgprs} one wave may address {where}"
            )
        if agprs > spec.agprs_per_simd_lane:
            raise OccupancyError(
                f"{agprs} AGPRs is more than the {spec.agprs_per_simd_lane} AGPRs "
                f"one wave may use {where}"
            )
    most_sgprs = spec.sgpr_limit_per_wave + MAX_EXTRA_SGPRS
    if sgprs > most_sgprs:
        raise OccupancyError(
            f"{sgprs} SGPRs is more than a wave can hold {where}: {spec.sgpr_limit_per_wave} "
            f"addressable + up to {MAX_EXTRA_SGPRS} for VCC, FLAT_SCRATCH and XNACK_MASK"
        )
    if lds_bytes > spec.lds_bytes_per_workgroup_max:
        raise OccupancyError(
            f"{lds_bytes} bytes of LDS is more than the {spec.lds_bytes_per_workgroup_max} "
            f"one workgroup may allocate {where}"
        )
