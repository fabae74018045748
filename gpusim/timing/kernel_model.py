"""Analytical, explained kernel time: the binding resource, with latency exposure.

``kernel_time(spec, counts, memory, occupancy=..., workgroups=...)`` returns
``(seconds, breakdown)``. Every resource gets a time; the kernel takes the longest one
plus the launch cost, and ``breakdown["bound"]`` names it (docs/timing_model.md)::

    valu     VALU instructions x (wave / SIMD lanes) clocks / active SIMDs
    salu     SALU + SMEM + branch instructions / active CUs (one scalar unit each)
    lds      LDS clocks (bank model: conflict degree per phase) / active CUs
    vL1D     vL1D bytes / (B/clk/CU x active CUs)
    L2       L2 bytes / (B/clk/channel x channels x active XCDs)
    MALL     Infinity Cache bytes / its peak bandwidth
    HBM      HBM bytes / memory bandwidth
    atomic   the busiest L2 channel's atomic requests, each max(2, 3.5 x its lanes on
             one word) clocks (fitted to the H200's reductions and histograms,
             benchmarks/calibration; assumed for the AMD targets)
    latency  rounds x (issue + exposed latency) per wave, where rounds =
             ceil(waves / (active SIMDs x resident waves per SIMD)) and each wave waits
             (loads x average latency + LDS ops x LDS latency) / MLP clocks

Occupancy enters through ``rounds``: more resident waves per SIMD, fewer rounds, so a
latency-bound kernel speeds up until a bandwidth term binds. Figures that are not in
the device profile (SIMD width, latencies, launch floor, atomics) live in ``ARCH`` with
their sources.

>>> from gpusim.devices import get_spec
>>> spec = get_spec("mi300x")
>>> c = InstructionCounts(waves=16384, valu=16384 * 8, vmem_read=2 * 16384, vmem_write=16384)
>>> t1, b1 = kernel_time(spec, c, occupancy=1, workgroups=4096)
>>> t8, b8 = kernel_time(spec, c, occupancy=8, workgroups=4096)
>>> b1["bound"], b8["bound"], t8 < t1
('latency', 'HBM', True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gpusim.devices import DeviceSpec
from gpusim.memsim import GpuMemoryResult
from gpusim.memsim.counters import InstructionCounts
from gpusim.timing.costs import KERNEL_LAUNCH_S

if TYPE_CHECKING:
    from gpusim.occupancy_model import Occupancy

GB = 1e9
# Memory-level parallelism: independent loads one wave has in flight before it waits.
# Model assumption: compilers issue a few loads ahead of the first s_waitcnt.
MLP = 2.0

LAT = (
    "model assumption: order of magnitude of pointer-chasing measurements (Chips and"
    " Cheese, 'Testing AMD's Giant MI300X', 2024; Tee et al., 'The MALL is Open', SC25"
    " workshops); only orderings are tested"
)


@dataclass(frozen=True)
class ArchRates:
    """What one architecture's timing needs beyond its device profile (the profile has
    the bandwidths: ``l1_bytes_per_clock_per_cu``, ``l2_bytes_per_clock_per_channel``,
    ``lds_bytes_per_clock_per_cu``, ``infinity_cache_gbs``, with their sources)."""

    valu_lanes_per_simd: int  # a wave's VALU instruction takes wave_size / lanes clocks
    latency_cycles: dict[str, int]  # vL1D, L2, MALL, HBM, LDS: load-to-use, unloaded
    sources: str
    launch_s: float = KERNEL_LAUNCH_S  # the floor every kernel pays (costs.py)
    # Atomics: an L2 channel performs one request (a wavefront's lanes on one line) in
    # max(request cycles, lane cycles x its lanes on the busiest word); a channel holds
    # the lines of every `interleave`-th block of addresses. Fitted to the H200's
    # reductions and histograms (benchmarks/calibration); assumed for the AMD targets.
    atomic_request_cycles: float = 2.0
    atomic_lane_cycles: float = 3.5
    l2_interleave_bytes: int = 256
    # Issue clocks of an integer VALU instruction relative to a float one: the counts'
    # VALU instructions that carry no FLOP (all but (flops - fma) / wave size) are integer work
    # (addresses, loop counters, modulo) and cost this many times more.
    int_op_cycles: float = 1.0


_CDNA_LAT = {"vL1D": 120, "L2": 250, "MALL": 450, "HBM": 750, "LDS": 64}
_CDNA = "16-wide SIMDs (ROCm Compute Profiler 'Pipeline descriptions'); latencies: " + LAT
ARCH: dict[str, ArchRates] = {
    "gfx942": ArchRates(16, _CDNA_LAT, _CDNA + "; L2 interleave 256 B over 16 channels"
                        " (ROCm Compute Profiler docs, 'L2 cache')"),
    "gfx90a": ArchRates(16, _CDNA_LAT, _CDNA),
    "gfx908": ArchRates(16, _CDNA_LAT, _CDNA),
    "gfx1100": ArchRates(32, {"vL1D": 100, "L2": 250, "MALL": 400, "HBM": 600, "LDS": 64},
                         "SIMD32 (RDNA 3 ISA guide); latencies: " + LAT),
    "sm_90": ArchRates(
        32,
        {"vL1D": 40, "L2": 260, "MALL": 260, "HBM": 650, "LDS": 30},
        "calibration target (h200): a warp instruction issues in one clock on an SM"
        " sub-partition's 32 FP32 lanes (NVIDIA H100 architecture white paper);"
        " latencies: order of magnitude of Chips and Cheese, 'Nvidia's H100: Funny L2,"
        " and Tons of Bandwidth' (2023), pointer chasing; launch floor 35 us: measured,"
        " a 12 MiB vector add timed with CUDA events around a numba-cuda launch takes"
        " 42 us; atomics' 4 KiB interleave: fitted, the H200's 1 KiB histogram behaves"
        " as one channel (benchmarks/calibration); integer ops at 4x: numba-cuda types"
        " Python integers as int64, two 32-bit instructions each (PTX add.cc/addc), and"
        " Hopper issues 32-bit integer add/compare/multiply at half its FP32 rate (CUDA C++"
        " Programming Guide, 'Arithmetic Instructions' throughput table, compute"
        " capability 9.0: 64 vs 128 per SM per clock)",
        launch_s=35e-6,
        l2_interleave_bytes=4096,
        int_op_cycles=4.0,
    ),
}


def rates_for(spec: DeviceSpec) -> ArchRates:
    """The ``ARCH`` entry for a device, with a clear error for an unknown target."""
    try:
        return ARCH[spec.gfx_target]
    except KeyError:
        raise ValueError(
            f"no timing rates for {spec.gfx_target} ({spec.key}); known: "
            f"{sorted(ARCH)}. Add an ArchRates entry with sources."
        ) from None


def kernel_time(
    spec: DeviceSpec,
    counts: InstructionCounts,
    memory: GpuMemoryResult | None = None,
    *,
    occupancy: int | Occupancy,
    workgroups: int,
    mlp: float = MLP,
    launch_s: float | None = None,
) -> tuple[float, dict[str, float | str]]:
    """Modeled seconds of one kernel and the breakdown (module docstring).

    ``counts``: the engine's launch totals; ``memory``: the memory model's result
    (``None``: every VMEM instruction moves 4 B per lane through every level, no reuse);
    ``occupancy``: waves per SIMD, or an ``Occupancy``; ``workgroups``: in the launch.
    """
    arch = rates_for(spec)
    launch_s = arch.launch_s if launch_s is None else launch_s
    f = spec.clock_mhz * 1e6
    waves = max(1, counts.waves)
    occ = int(getattr(occupancy, "waves_per_simd", occupancy))
    if occ < 1:
        raise ValueError(f"occupancy {occ} waves per SIMD: the kernel cannot be resident")
    active_cus = max(1, min(spec.cu_count, workgroups))
    active_xcds = max(1, min(spec.xcd_count, workgroups))
    simds = max(1, min(active_cus * spec.simds_per_cu, waves))
    resident = max(1, min(occ, math.ceil(waves / simds)))
    rounds = math.ceil(waves / (simds * resident))
    cpi = spec.wave_size / arch.valu_lanes_per_simd  # clocks per VALU instruction
    # FLOP-carrying VALU: an FMA is one instruction of two FLOPs
    floats = min(counts.valu, (counts.flops - counts.fma) / spec.wave_size)
    valu = floats + (counts.valu - floats) * arch.int_op_cycles  # in float-issue units
    level_bytes, hit = _traffic(spec, counts, memory)
    lds_cycles = _lds_cycles(spec, counts, memory)

    times: dict[str, float] = {
        "valu": valu * cpi / (simds * f),
        "salu": (counts.salu + counts.smem + counts.branch) / (active_cus * f),
        "lds": lds_cycles / (active_cus * f),
        "vL1D": level_bytes["vL1D"] / (spec.l1_bytes_per_clock_per_cu * active_cus * f),
        "L2": level_bytes["L2"]
        / (spec.l2_bytes_per_clock_per_channel * spec.l2_channels * active_xcds * f),
        "HBM": level_bytes["HBM"] / (spec.memory_bandwidth_gbs * GB),
    }
    if spec.has_infinity_cache and spec.infinity_cache_gbs:
        times["MALL"] = level_bytes["MALL"] / (spec.infinity_cache_gbs * GB)
    if memory is not None and memory.atomic_lane_ops:
        # the busiest line serialises its requests; all lines share the L2 channels
        times["atomic"] = memory.scale * _atomic_cycles(spec, arch, memory) / f
    # Latency exposure: per wave, issue + the loads' and LDS ops' latency it must wait.
    lat = arch.latency_cycles
    avg = _average_latency(lat, hit, spec.has_infinity_cache)
    issue = (
        valu * cpi
        + counts.salu
        + counts.smem
        + counts.branch
        + counts.vmem_read
        + counts.vmem_write
        + counts.vmem_atomic
        + counts.lds
    ) / waves
    stall = ((counts.vmem_read + counts.vmem_atomic) * avg + counts.lds * lat["LDS"]) / waves
    times["latency"] = rounds * (issue + stall / mlp) / f

    bound = max(times, key=times.__getitem__)
    seconds = launch_s + times[bound]
    breakdown: dict[str, float | str] = {
        "launch": launch_s,
        **times,
        "bound": bound,
        "waves_per_simd": float(resident),
        "rounds": float(rounds),
        "active_cus": float(active_cus),
        "avg_load_latency_cycles": avg,
        "model": "kernel_model" if memory else "no-trace",
    }
    breakdown.update({f"bytes_{k}": float(v) for k, v in level_bytes.items()})
    return seconds, breakdown


def _traffic(
    spec: DeviceSpec, c: InstructionCounts, m: GpuMemoryResult | None
) -> tuple[dict[str, float], dict[str, float]]:
    """Bytes at each level, and load hit rates per level (for the average latency)."""
    if m is None:  # no trace: coalesced 4 B lanes, nothing reused (first-order roofline)
        b = float((c.vmem_read + c.vmem_write + c.vmem_atomic) * spec.wave_size * 4)
        return {"vL1D": b, "L2": b, "MALL": b, "HBM": b}, {}
    s, lv = m.scale, m.levels
    l1 = lv["vL1D"]
    out = {
        "vL1D": (l1["hits"] + l1["misses"] + m.requests["l1_to_l2_atomic"])
        * m.line_bytes["vL1D"]
        * s,
        "L2": (lv["L2"]["load_bytes"] + lv["L2"]["store_bytes"]) * s,
        "MALL": (lv["MALL"]["load_bytes"] + lv["MALL"]["store_bytes"]) * s if "MALL" in lv else 0.0,
        "HBM": float(m.hbm_read_bytes + m.hbm_write_bytes) * s,
    }
    loads = l1["load_hits"] + l1["load_misses"]
    hit = {"vL1D": l1["load_hits"] / loads if loads else 0.0, "L2": lv["L2"]["hit_rate"]}
    if "MALL" in lv:
        hit["MALL"] = lv["MALL"]["hit_rate"]
    return out, hit


def _atomic_cycles(spec: DeviceSpec, arch: ArchRates, m: GpuMemoryResult) -> float:
    """Clocks of the busiest L2 channel's atomic requests (traced ones, unscaled)."""
    req = m.atomic_requests
    channel = (req[:, 0] // arch.l2_interleave_bytes) % (spec.l2_channels * spec.xcd_count)
    cost = np.maximum(arch.atomic_request_cycles, arch.atomic_lane_cycles * req[:, 1])
    return float(np.bincount(channel, weights=cost).max(initial=0.0))


def _average_latency(lat: dict[str, int], hit: dict[str, float], mall: bool) -> float:
    """Load-to-use latency weighted by where loads are served (all HBM without a trace)."""
    if not hit:
        return float(lat["HBM"])
    below_l2 = lat["HBM"]
    if mall and "MALL" in hit:
        below_l2 = hit["MALL"] * lat["MALL"] + (1 - hit["MALL"]) * lat["HBM"]
    below_l1 = hit["L2"] * lat["L2"] + (1 - hit["L2"]) * below_l2
    return hit["vL1D"] * lat["vL1D"] + (1 - hit["vL1D"]) * below_l1


def _lds_cycles(spec: DeviceSpec, c: InstructionCounts, m: GpuMemoryResult | None) -> float:
    """LDS clocks: the bank model's cycles per traced instruction x the engine's count;
    conflict-free 4 B per lane when nothing was traced."""
    if m is not None and m.lds["instructions"]:
        return c.lds * m.lds["cycles"] / m.lds["instructions"]
    return c.lds * math.ceil(spec.wave_size * 4 / spec.lds_bytes_per_clock_per_cu)
