"""Per-kernel counters named as rocprofv3 / ROCm Compute Profiler (Omniperf) name them.

``kernel_counters(result, counts, spec)`` maps a ``GpuMemoryResult`` (``gpu.py``) and the
engine's ``InstructionCounts`` to ``{counter name: value}``. A name is a real one only
where the model counts the same event; what has no real counter is prefixed ``GPUSIM_``.

Sources (``SOURCES`` below names the one for each counter):

- [SDK] rocprofiler-sdk counter definitions, ``source/share/rocprofiler-sdk/counter_defs.yaml``
  (github.com/ROCm/rocprofiler-sdk): SQ_*, TCC_*, FETCH_SIZE / WRITE_SIZE formulas per
  architecture; their descriptions as in the SDK's gfx908 test table
  ``source/lib/rocprofiler-sdk/counters/tests/metrics_test.h``.
- [RPC] ROCm Compute Profiler analysis configs,
  ``src/rocprof_compute_soc/analysis_configs/gfx942/0200_system-speed-of-light.yaml``
  (github.com/ROCm/rocprofiler-compute): vL1D hit rate =
  100 - 100 (TCP_TCC_READ_REQ + TCP_TCC_WRITE_REQ + TCP_TCC_ATOMIC_WITH_RET_REQ +
  TCP_TCC_ATOMIC_WITHOUT_RET_REQ) / TCP_TOTAL_CACHE_ACCESSES; vL1D bytes =
  TCP_TOTAL_CACHE_ACCESSES x line; LDS bank conflicts/access = SQ_LDS_BANK_CONFLICT /
  (SQ_LDS_IDX_ACTIVE - SQ_LDS_BANK_CONFLICT).
- [DOC] ROCm docs, "MI300 and MI200 Series performance counters and metrics".

Fabric (EA) requests per line: gfx94x reads a 128 B L2 line in one request (counted by
TCC_BUBBLE, FETCH_SIZE's 128 B term); gfx90a/gfx908 read in 64 B requests; writes go
out as 64 B requests (TCC_EA*_WRREQ_64B). RDNA 3 (gfx11) names its L2 GL2C. Counts are
sums over all instances (CUs, L2 channels) like the ``_sum`` counters; SQ_LDS_* are
summed CU-cycles. A sampled trace's memory counters are scaled to the whole launch.

>>> from gpusim.trace.record import Access, Trace
>>> tr = Trace.from_lane_addresses(8, 256, lambda t: [Access(4 * t.gid)])
>>> from gpusim.memsim.gpu import GpuMemoryModel
>>> c = kernel_counters(GpuMemoryModel("mi300x").run(tr), spec="mi300x")
>>> c["SQ_WAVES"], c["SQ_INSTS_VMEM_RD"], c["TCP_TOTAL_CACHE_ACCESSES_sum"], c["FETCH_SIZE"]
(32, 32, 64, 8.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from gpusim.devices import DeviceSpec, get_spec
from gpusim.memsim.gpu import GpuMemoryResult

SDK, RPC, DOC = "rocprofiler-sdk counter_defs.yaml", "rocprofiler-compute gfx942 SoL", "ROCm docs"
MODEL = "gpusim model quantity (no real counter)"
SOURCES: dict[str, str] = {
    **{
        n: SDK
        for n in (
            "SQ_WAVES",
            "SQ_INSTS_VALU",
            "SQ_INSTS_SALU",
            "SQ_INSTS_SMEM",
            "SQ_INSTS_VMEM_RD",
            "SQ_INSTS_VMEM_WR",
            "SQ_INSTS_LDS",
            "SQ_LDS_BANK_CONFLICT",
            "TCC_HIT_sum",
            "TCC_MISS_sum",
            "TCC_EA_RDREQ_sum",
            "TCC_EA_RDREQ_32B_sum",
            "TCC_EA_WRREQ_sum",
            "TCC_EA_WRREQ_64B_sum",
            "TCC_EA0_RDREQ_sum",
            "TCC_EA0_RDREQ_32B_sum",
            "TCC_EA0_WRREQ_sum",
            "TCC_EA0_WRREQ_64B_sum",
            "TCC_BUBBLE_sum",
            "FETCH_SIZE",
            "WRITE_SIZE",
            "GL2C_HIT_sum",
            "GL2C_MISS_sum",
            "GL2C_EA_RDREQ_128B_sum",
            "GL2C_EA_WRREQ_sum",
            "GL2C_EA_WRREQ_64B_sum",
            "GRBM_GUI_ACTIVE",
        )
    },
    **{
        n: RPC
        for n in (
            "SQ_LDS_IDX_ACTIVE",
            "TCP_TOTAL_CACHE_ACCESSES_sum",
            "TCP_TCC_READ_REQ_sum",
            "TCP_TCC_WRITE_REQ_sum",
            "TCP_TCC_ATOMIC_WITH_RET_REQ_sum",
            "TCP_TCC_ATOMIC_WITHOUT_RET_REQ_sum",
            "TCC_REQ_sum",
        )
    },
    **{n: DOC for n in ("TCC_READ_sum", "TCC_WRITE_sum", "TCC_ATOMIC_sum", "TCC_WRITEBACK_sum",
                        "SQ_INSTS_MFMA")},
    **{
        n: MODEL
        for n in (
            "GPUSIM_MALL_HIT",
            "GPUSIM_MALL_MISS",
            "GPUSIM_HBM_READ_BYTES",
            "GPUSIM_HBM_WRITE_BYTES",
            "GPUSIM_COALESCING_EFFICIENCY",
            "GPUSIM_FLOPS",
            "GPUSIM_MFMA_FLOPS",
            "GPUSIM_MFMA_BUSY_CYCLES",
            "GPUSIM_SAMPLED",
            "GPUSIM_TRACE_SCALE",
        )
    },
}


@dataclass(frozen=True)
class InstructionCounts:
    """Wavefront instructions the whole launch executed (totals over all waves), what
    the engine counts per kernel. ``flops``: floating-point operations over all lanes
    (optional, for FLOP rates). Keys of ``from_mapping`` are these field names.

    >>> InstructionCounts.from_mapping({"waves": 4, "valu": 40}).valu
    40
    """

    waves: int
    valu: int = 0
    salu: int = 0
    smem: int = 0
    branch: int = 0
    vmem_read: int = 0
    vmem_write: int = 0
    vmem_atomic: int = 0
    lds: int = 0
    flops: int = 0
    fma: int = 0  # fused multiply-adds over all lanes (each 2 of ``flops``, 1 VALU lane op)
    mfma: int = 0  # matrix-core (MFMA) instructions, per wave
    mfma_cycles: int = 0  # cycles the waves' matrix cores are busy with them
    mfma_flops: int = 0  # their operations (2 M N K per block; not in ``flops``)

    @classmethod
    def from_mapping(cls, d: Mapping[str, Any]) -> InstructionCounts:
        known = {f.name for f in fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ValueError(
                f"unknown instruction count(s) {sorted(unknown)}; known: {sorted(known)}"
            )
        return cls(**{k: int(v) for k, v in d.items()})

    @classmethod
    def from_trace(cls, result: GpuMemoryResult, waves: int) -> InstructionCounts:
        """Memory instructions from a traced kernel (scaled), no ALU counts: the fallback
        when the engine gave no counts."""
        i, s = result.instructions, result.scale
        return cls(
            waves=waves,
            vmem_read=round(i["global_load"] * s),
            vmem_write=round(i["global_store"] * s),
            vmem_atomic=round(i["global_atomic"] * s),
            lds=round((i["lds_load"] + i["lds_store"] + i["lds_atomic"]) * s),
        )

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def _ea_names(gfx: str) -> tuple[str, int, int]:
    """(prefix of fabric counters, bytes per read request, L2 name) for an architecture."""
    if gfx.startswith("gfx94") or gfx.startswith("gfx95"):
        return "TCC_EA0_", 128, "TCC"
    if gfx.startswith("gfx1"):
        return "GL2C_EA_", 128, "GL2C"
    return "TCC_EA_", 64, "TCC"


def kernel_counters(
    result: GpuMemoryResult | None,
    counts: InstructionCounts | None = None,
    *,
    spec: DeviceSpec | str,
    seconds: float | None = None,
    waves: int | None = None,
) -> dict[str, float]:
    """Counters of one kernel (module docstring). ``seconds``: modeled duration, for
    GRBM_GUI_ACTIVE; ``waves``: the launch's waves when ``counts`` is not given."""
    spec = get_spec(spec) if isinstance(spec, str) else spec
    out: dict[str, float] = {}
    if counts is None and result is not None:
        w = waves if waves is not None else round(result.waves * result.scale)
        counts = InstructionCounts.from_trace(result, w)
    if counts is not None:
        out.update(
            SQ_WAVES=counts.waves,
            SQ_INSTS_VALU=counts.valu,
            SQ_INSTS_SALU=counts.salu,
            SQ_INSTS_SMEM=counts.smem,
            SQ_INSTS_VMEM_RD=counts.vmem_read,
            SQ_INSTS_VMEM_WR=counts.vmem_write + counts.vmem_atomic,  # atomics write
            SQ_INSTS_LDS=counts.lds,
            # floating-point operations over all lanes, VALU and matrix cores (roofline)
            GPUSIM_FLOPS=counts.flops + counts.mfma_flops,
            SQ_INSTS_MFMA=counts.mfma,
            # rocprofv3's SQ_INSTS_VALU_MFMA_MOPS_<type> count these in units of 512
            GPUSIM_MFMA_FLOPS=counts.mfma_flops,
            GPUSIM_MFMA_BUSY_CYCLES=counts.mfma_cycles,
        )
    if seconds is not None:
        out["GRBM_GUI_ACTIVE"] = round(seconds * spec.clock_mhz * 1e6)
    if result is not None:
        out.update(_memory_counters(result, spec.gfx_target))
    return out


def _memory_counters(r: GpuMemoryResult, gfx: str) -> dict[str, float]:
    s = r.scale

    def n(x: float) -> int:
        return round(x * s)

    l1, l2, req = r.levels["vL1D"], r.levels["L2"], r.requests
    atomics = req["l1_to_l2_atomic"]
    ea, read_bytes, l2name = _ea_names(gfx)
    l2_line = r.line_bytes["L2"]
    rd_per_line = max(1, l2_line // read_bytes)
    wr_per_line = max(1, l2_line // 64)
    rdreq, wrreq = (
        n(req["l2_to_fabric_read"] * rd_per_line),
        n(req["l2_to_fabric_write"] * wr_per_line),
    )
    out: dict[str, float] = {
        "SQ_LDS_IDX_ACTIVE": n(r.lds["cycles"]),
        "SQ_LDS_BANK_CONFLICT": n(r.lds["bank_conflict_cycles"]),
        "TCP_TOTAL_CACHE_ACCESSES_sum": n(l1["hits"] + l1["misses"] + atomics),
        "TCP_TCC_READ_REQ_sum": n(req["l1_to_l2_read"]),
        "TCP_TCC_WRITE_REQ_sum": n(req["l1_to_l2_write"]),
        "TCP_TCC_ATOMIC_WITH_RET_REQ_sum": n(atomics),  # HIP atomics return the old value
        "TCP_TCC_ATOMIC_WITHOUT_RET_REQ_sum": 0,
        "TCC_REQ_sum": n(l2["loads"] + l2["stores"]),
        "TCC_READ_sum": n(l2["loads"]),
        "TCC_WRITE_sum": n(l2["stores"] - atomics),
        "TCC_ATOMIC_sum": n(atomics),
        "TCC_WRITEBACK_sum": n(req["l2_to_fabric_write"]),
        f"{l2name}_HIT_sum": n(l2["hits"]),
        f"{l2name}_MISS_sum": n(l2["misses"]),
    }
    if l2name == "GL2C":
        out.update(
            {f"{ea}RDREQ_128B_sum": rdreq, f"{ea}WRREQ_sum": wrreq, f"{ea}WRREQ_64B_sum": wrreq}
        )
        fetch = 128 * rdreq
    else:
        out.update(
            {
                f"{ea}RDREQ_sum": rdreq,
                f"{ea}RDREQ_32B_sum": 0,
                f"{ea}WRREQ_sum": wrreq,
                f"{ea}WRREQ_64B_sum": wrreq,
            }
        )
        if ea == "TCC_EA0_":  # gfx94x: 128 B reads are counted by TCC_BUBBLE
            out["TCC_BUBBLE_sum"] = rdreq
        fetch = read_bytes * rdreq
    # FETCH_SIZE / WRITE_SIZE: kilobytes, by the SDK's formulas over the counters above.
    out["FETCH_SIZE"] = fetch / 1024
    out["WRITE_SIZE"] = 64 * wrreq / 1024
    if "MALL" in r.levels:
        out["GPUSIM_MALL_HIT"] = n(r.levels["MALL"]["hits"])
        out["GPUSIM_MALL_MISS"] = n(r.levels["MALL"]["misses"])
    out.update(
        GPUSIM_HBM_READ_BYTES=n(r.hbm_read_bytes),
        GPUSIM_HBM_WRITE_BYTES=n(r.hbm_write_bytes),
        GPUSIM_COALESCING_EFFICIENCY=r.coalescing["efficiency"],
        GPUSIM_SAMPLED=int(s != 1.0),
        GPUSIM_TRACE_SCALE=s,
    )
    return out
