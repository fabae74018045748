"""Analytical, explained kernel time: the binding resource, with latency exposure.

``kernel_time(spec, counts, memory, occupancy=..., workgroups=...)`` returns
``(seconds, breakdown)``. Every resource gets a time; the kernel takes the longest one
plus the launch cost, and ``breakdown["bound"]`` names it (docs/timing_model.md)::

    valu     VALU instructions x (wave / SIMD lanes) clocks / active SIMDs
    mfma     matrix-core cycles (each MFMA's passes x 4, from the ISA guides) / active SIMDs,
             at the engine clock measured under dense MFMA load (``mfma_load_clock_mhz``)
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
             (loads x (average latency + the vL1D streaming its lines) + LDS ops x
             LDS latency) / MLP clocks, a single load all of its latency, a chain of
             dependent loads one by one

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
    # Work-group dispatch: the dispatcher hands out work-groups at this many seconds each,
    # a throughput term (``dispatch``) no kernel beats. gfx942: fitted on an empty kernel
    # timed with events, 8.6 us for one work-group and 487 us for 2^20 (issue 31's
    # published figures: 0.456 ns per extra work-group); 0 elsewhere (not measured).
    dispatch_s_per_workgroup: float = 0.0
    # Address translation for loads that wander (a pointer chase): past the reach of the
    # TLBs a load pays a page walk with probability 1 - reach / footprint. 0: not modeled.
    tlb_reach_bytes: int = 0
    tlb_walk_cycles: float = 0.0


_CDNA_LAT = {"vL1D": 120, "L2": 250, "MALL": 450, "HBM": 750, "LDS": 64}
_CDNA = "16-wide SIMDs (ROCm Compute Profiler 'Pipeline descriptions'); latencies: " + LAT
# MI300X load-to-use latencies, cycles: fitted (set equal) to RRZE-HPC gpu-benches'
# pointer chase on an MI300X (gpu-latency/mi300x.txt, at 2092 MHz: vL1D 116-120, L2
# 203-215 to 3.4 MB, MALL 454-459 to 64 MB, HBM 835-907 past 256 MB); LDS as before.
# HBM is 788 + the TLB term below: 788 + 107 x (1 - 64/407) = 878 at 407 MB, and 891 at
# 1.87 GB (measured 890).
_GFX942_LAT = {"vL1D": 118, "L2": 213, "MALL": 456, "HBM": 788, "LDS": 64}
_GFX942_LAT_SRC = ("fitted: RRZE-HPC gpu-benches gpu-latency/mi300x.txt (pointer chase,"
                   " https://github.com/RRZE-HPC/gpu-benches); benchmarks/calibration/"
                   "published.py")
ARCH: dict[str, ArchRates] = {
    "gfx942": ArchRates(16, _GFX942_LAT, "16-wide SIMDs (ROCm Compute Profiler 'Pipeline"
                        " descriptions'); latencies: " + _GFX942_LAT_SRC + "; L2 interleave"
                        " 256 B over 16 channels (ROCm Compute Profiler docs, 'L2 cache');"
                        " dispatch 0.456 ns per work-group: fitted on issue 31's empty-kernel"
                        " figures; TLB reach 64 MiB and a 107-cycle walk: fitted on the same"
                        " chase's rise past 64 MB (456 cycles to 534 at 242 MB, in the MALL)",
                        dispatch_s_per_workgroup=(487e-6 - 8.6e-6) / ((1 << 20) - 1),
                        tlb_reach_bytes=64 << 20, tlb_walk_cycles=107.0),
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


# Achieved (sustained) bandwidths where published measurements exist, by device key; the
# profile's peaks stay as the roofs (``breakdown["roof_*"]``). Each fitted on one published
# figure (benchmarks/calibration/mi300x_published.json, role "fitted").
# Each entry: (achieved, the profile's peak it was measured against, source); a profile
# changed by hand (a what-if) keeps the same fraction of its peak.
ACHIEVED: dict[str, dict[str, tuple[float, float, str]]] = {
    "mi300x": {
        "l1_bytes_per_clock_per_cu": (
            60.8, 128.0, "fitted: RRZE-HPC gpu-benches gpu-cache/mi300x.txt, 38.8 TB/s for a"
            " 4-32 kB data set re-read by one block per CU = 60.8 B/clk/CU at 2.1 GHz (peak 128)"),
        "infinity_cache_gbs": (
            6400.0, 17200.0, "fitted: about 6.4 TB/s MALL read bandwidth measured with"
            " rocm-amdgpu-bench (issue 31), inside RRZE-HPC gpu-benches gpu-cache/mi300x.txt's"
            " 5.4-7.1 TB/s for 41-125 MB data sets; peak 17.2 TB/s (CDNA 3 white paper)"),
        "memory_bandwidth_gbs": (
            4200.0, 5300.0, "fitted: RRZE-HPC gpu-benches gpu-stream/mi300x.txt, read kernel"
            " 4199 GB/s at full occupancy; peak 5.3 TB/s (ROCm MI300 microarchitecture page)"),
        "peer_link_gbs": (
            46.0, 64.0, "fitted: ROCm blog 'Understanding RCCL Bandwidth and xGMI Performance on"
            " AMD Instinct MI300X' (2025): one xGMI link measures 45-47 GB/s per direction,"
            " about 48 usable of 64 rated after CRC and protocol overhead"),
        "host_link_pinned_gbs": (
            55.0, 63.0, "fitted: host<->device pinned copies about 55 GB/s on PCIe 5.0 x16"
            " (issue 31's figure; 63 GB/s raw)"),
    },
}


def achieved(spec: DeviceSpec, name: str) -> float:
    """The sustained rate of profile field ``name`` where one is published (``ACHIEVED``),
    else the profile's peak."""
    got = ACHIEVED.get(spec.key, {}).get(name)
    peak = float(getattr(spec, name))
    return peak * got[0] / got[1] if got else peak


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
    chain: float = 0.0,
    chain_bytes: float = 0.0,
) -> tuple[float, dict[str, float | str]]:
    """Modeled seconds of one kernel and the breakdown (module docstring).

    ``counts``: the engine's launch totals; ``memory``: the memory model's result
    (``None``: every VMEM instruction moves 4 B per lane through every level, no reuse);
    ``occupancy``: waves per SIMD, or an ``Occupancy``; ``workgroups``: in the launch;
    ``chain``: the longest run of dependent loads in one wave (``memsim.chase``: a
    pointer chase), which pay their full latency one after another instead of ``mlp``
    at a time; ``chain_bytes``: the array it wanders over: past the TLB's reach
    (``ArchRates.tlb_reach_bytes``) each of its loads also pays a page walk with
    probability 1 - reach / bytes.
    """
    arch = rates_for(spec)
    launch_s = arch.launch_s if launch_s is None else launch_s
    f = spec.clock_mhz * 1e6
    waves = max(1, counts.waves)
    occ = int(getattr(occupancy, "waves_per_simd", occupancy))
    if occ < 1:
        raise ValueError(f"occupancy {occ} waves per SIMD: the kernel cannot be resident")
    active_cus = max(1, min(spec.cu_count, workgroups))
    simds = max(1, min(active_cus * spec.simds_per_cu, waves))
    resident = max(1, min(occ, math.ceil(waves / simds)))
    rounds = math.ceil(waves / (simds * resident))
    cpi = spec.wave_size / arch.valu_lanes_per_simd  # clocks per VALU instruction
    # FLOP-carrying VALU: an FMA is one instruction of two FLOPs
    floats = min(counts.valu, (counts.flops - counts.fma) / spec.wave_size)
    valu = floats + (counts.valu - floats) * arch.int_op_cycles  # in float-issue units
    valu_cycles = valu * cpi
    level_bytes, hit = _traffic(spec, counts, memory)
    times = _resource_times(spec, arch, counts, memory, level_bytes, valu_cycles, simds,
                            active_cus, workgroups)
    wave_cycles, avg, walk = _wave_cycles(spec, arch, counts, memory, level_bytes, hit,
                                          valu_cycles, mlp, chain, chain_bytes)
    times["latency"] = rounds * wave_cycles / f

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
        "dependent_chain": float(chain),
        "tlb_walk_cycles": walk,
        "model": "kernel_model" if memory else "no-trace",
        # the peaks, shown as roofs (the times above use the achieved rates)
        "roof_vL1D_gbs": spec.l1_bytes_per_clock_per_cu * spec.cu_count * f / GB,
        "roof_HBM_gbs": float(spec.memory_bandwidth_gbs),
        "roof_MALL_gbs": float(spec.infinity_cache_gbs),
    }
    breakdown.update({f"bytes_{k}": float(v) for k, v in level_bytes.items()})
    return seconds, breakdown


def _resource_times(
    spec: DeviceSpec, arch: ArchRates, counts: InstructionCounts,
    memory: GpuMemoryResult | None, level_bytes: dict[str, float], valu_cycles: float,
    simds: int, active_cus: int, workgroups: int,
) -> dict[str, float]:
    """Seconds each throughput resource needs (every term of the module docstring but
    ``latency``), in the order the breakdown lists them."""
    f = spec.clock_mhz * 1e6
    active_xcds = max(1, min(spec.xcd_count, workgroups))
    times: dict[str, float] = {
        "valu": valu_cycles / (simds * f),
        # one matrix core per SIMD, busy for each MFMA's cycles (passes x 4, ISA guide),
        # at the clock the power manager holds under dense matrix work (the profile's
        # mfma_load_clock_mhz, as rocBLAS's model uses: MI300X 1207 MHz, measured)
        "mfma": counts.mfma_cycles / (simds * spec.mfma_load_clock_mhz * 1e6),
        "salu": (counts.salu + counts.smem + counts.branch) / (active_cus * f),
        "lds": _lds_cycles(spec, counts, memory) / (active_cus * f),
        "vL1D": level_bytes["vL1D"]
        / (achieved(spec, "l1_bytes_per_clock_per_cu") * active_cus * f),
        "L2": level_bytes["L2"]
        / (spec.l2_bytes_per_clock_per_channel * spec.l2_channels * active_xcds * f),
        "HBM": level_bytes["HBM"] / (achieved(spec, "memory_bandwidth_gbs") * GB),
    }
    if spec.has_infinity_cache and spec.infinity_cache_gbs:
        times["MALL"] = level_bytes["MALL"] / (achieved(spec, "infinity_cache_gbs") * GB)
    if arch.dispatch_s_per_workgroup:
        times["dispatch"] = workgroups * arch.dispatch_s_per_workgroup
    if memory is not None and memory.atomic_lane_ops:
        # the busiest line serialises its requests; all lines share the L2 channels
        times["atomic"] = memory.scale * _atomic_cycles(spec, arch, memory) / f
    return times


def _wave_cycles(
    spec: DeviceSpec, arch: ArchRates, counts: InstructionCounts,
    memory: GpuMemoryResult | None, level_bytes: dict[str, float], hit: dict[str, float],
    valu_cycles: float, mlp: float, chain: float, chain_bytes: float,
) -> tuple[float, float, float]:
    """Clocks one wave takes per round: issue + the load and LDS latency it must wait;
    with the average load latency and the TLB walk per chained load, in cycles."""
    waves = max(1, counts.waves)
    lat = arch.latency_cycles
    # cache lines one load instruction asks for (the coalescer's count; without one, the
    # vL1D bytes per memory instruction)
    vmem = counts.vmem_read + counts.vmem_write + counts.vmem_atomic
    lines = (memory.coalescing.get("load_requests_per_instruction", 0.0) if memory else 0.0
             ) or level_bytes["vL1D"] / max(1, vmem) / spec.l1_line_bytes
    avg = _load_latency(lat, hit, spec.has_infinity_cache, lines)
    issue = (
        valu_cycles
        + counts.mfma_cycles
        + counts.salu
        + counts.smem
        + counts.branch
        + counts.vmem_read
        + counts.vmem_write
        + counts.vmem_atomic
        + counts.lds
    ) / waves
    # a wave overlaps up to ``mlp`` of its own loads, but never fewer than one: a wave
    # with a single load waits for all of it; and a load is done when the vL1D has
    # streamed all of its lines (64 of them for a stride-32 float gather), one after
    # another at the vL1D's rate
    loads = (counts.vmem_read + counts.vmem_atomic) / waves
    serial = lines * spec.l1_line_bytes / achieved(spec, "l1_bytes_per_clock_per_cu")
    stall = (max(loads, min(loads, 1.0) * mlp) * (avg + serial)
             + counts.lds * lat["LDS"] / waves)
    walk = 0.0
    if chain and arch.tlb_reach_bytes and chain_bytes > arch.tlb_reach_bytes:
        walk = arch.tlb_walk_cycles * (1 - arch.tlb_reach_bytes / chain_bytes)
    exposed = max(stall / mlp, chain * (avg + walk))  # a chain's loads wait one after another
    return issue + exposed, avg, walk


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


def _load_latency(lat: dict[str, int], hit: dict[str, float], mall: bool,
                  lines: float = 1.0) -> float:
    """Expected load-to-use latency of one load instruction: the slowest of its ``lines``
    cache lines, each served where the hit rates say (all HBM without a trace). With one
    line, the hit-rate-weighted average; a gather whose 64 lines mostly hit the L2 still
    waits for the few that go to HBM.

    >>> lat = {"vL1D": 100, "L2": 200, "MALL": 400, "HBM": 800}
    >>> hit = {"vL1D": 0.0, "L2": 0.9, "MALL": 0.0}
    >>> round(_load_latency(lat, hit, True)), round(_load_latency(lat, hit, True, 64))
    (260, 799)
    """
    if not hit:
        return float(lat["HBM"])
    p_l1 = hit["vL1D"]
    p_l2 = (1 - p_l1) * hit["L2"]
    rest = 1 - p_l1 - p_l2
    p_mall = rest * hit["MALL"] if mall and "MALL" in hit else 0.0
    served = [(lat["vL1D"], p_l1), (lat["L2"], p_l2), (lat["MALL"], p_mall),
              (lat["HBM"], rest - p_mall)]
    k = max(1.0, lines)
    expected, below, cum = 0.0, 0.0, 0.0
    for cycles, p in served:  # P(slowest line <= level) = P(one line <= level) ** k
        cum = min(1.0, cum + max(0.0, p))
        at_most = cum**k
        expected += cycles * (at_most - below)
        below = at_most
    return expected + lat["HBM"] * (1 - below)


def _lds_cycles(spec: DeviceSpec, c: InstructionCounts, m: GpuMemoryResult | None) -> float:
    """LDS clocks: the bank model's cycles per traced instruction x the engine's count;
    conflict-free 4 B per lane when nothing was traced."""
    if m is not None and m.lds["instructions"]:
        return c.lds * m.lds["cycles"] / m.lds["instructions"]
    return c.lds * math.ceil(spec.wave_size * 4 / spec.lds_bytes_per_clock_per_cu)
