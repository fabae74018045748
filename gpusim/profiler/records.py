"""Profile records: plain data that the runtime emits and tables and views consume.

Times are modeled nanoseconds since the system was created. A record is created when
the operation is issued and completed (``start_ns``/``end_ns``, counters) when it runs.

>>> r = CopyRecord(name="hipMemcpy", device=0, stream=0, direction="HtoD", nbytes=4096,
...                pinned=False, src_device=None, dst_device=0)
>>> r.duration_ns
0
>>> r
<CopyRecord hipMemcpy HtoD 4.0 KiB pageable, device 0 stream 0, 0 ns (pending)>
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpusim.profiler.format import dim3, format_bytes, format_ns, html_table, percent


@dataclass(repr=False)
class Record:
    """What every record has: what ran, where, and when (modeled).

    It prints as one short line (``repr``) and shows as a table in a notebook
    (``_repr_html_``); ``describe()`` gives the rows of both.
    """

    name: str
    device: int
    stream: int
    correlation_id: int = 0
    start_ns: int = 0
    end_ns: int = 0
    done: bool = False
    graph: str | None = None  # "graph 1 node 3": run as a node of a HIP graph launch

    @property
    def duration_ns(self) -> int:
        return self.end_ns - self.start_ns

    @property
    def kind(self) -> str:
        """'Kernel', 'Copy', 'Memset', 'Migration', 'Host' (the class name's stem)."""
        return type(self).__name__.removesuffix("Record")

    def what(self) -> str:
        """The operation in a few words (subclasses add their specifics)."""
        return self.name

    def describe(self) -> list[tuple[str, str]]:
        """(label, value) rows: the record as a person reads it."""
        when = (f"{format_ns(self.start_ns)} -> {format_ns(self.end_ns)}" if self.done
                else "pending (not run yet)")
        rows = [(self.kind.lower(), self.what()),
                ("device / stream", f"{self.device} / {self.stream}"),
                ("modeled time", format_ns(self.duration_ns)), ("start -> end", when)]
        return rows + ([("graph node", self.graph)] if self.graph else [])

    def _tail(self) -> str:
        return ""

    def __repr__(self) -> str:
        time = format_ns(self.duration_ns) + ("" if self.done else " (pending)")
        graph = f", {self.graph}" if self.graph else ""
        return (f"<{type(self).__name__} {self.what()}, device {self.device} stream "
                f"{self.stream}{graph}, {time}{self._tail()}>")

    def _repr_html_(self) -> str:
        return html_table(self.describe(), caption=f"{self.kind} record")


@dataclass(repr=False)
class KernelRecord(Record):
    """One kernel dispatch (rocprofv3 kernel-trace row, plus the model's breakdown)."""

    grid: tuple[int, int, int] = (1, 1, 1)  # workgroups
    block: tuple[int, int, int] = (1, 1, 1)  # work-items per workgroup
    lds_bytes: int = 0
    scratch_bytes: int = 0
    vgprs: int | None = None
    agprs: int | None = None
    sgprs: int | None = None
    wave_size: int = 64
    occupancy: float | None = None  # fraction of the maximum waves per SIMD
    counters: dict[str, float] = field(default_factory=dict)
    breakdown: dict[str, float | str] = field(default_factory=dict)
    # Traced kernels (profile(memory=True)): sampling, bytes per level, and per source
    # line ("sites") coalescing or LDS bank statistics; see gpusim.trace.report.
    memory: dict[str, Any] = field(default_factory=dict)

    @property
    def grid_size(self) -> tuple[int, int, int]:
        """Work-items per dimension, as rocprofv3's Grid_Size columns report."""
        return tuple(g * b for g, b in zip(self.grid, self.block, strict=True))

    def what(self) -> str:
        return f"{self.name} grid {dim3(self.grid)} x block {dim3(self.block)}"

    def _registers(self) -> str:
        regs = [f"{v} {n}" for n, v in (("VGPRs", self.vgprs), ("AGPRs", self.agprs),
                                         ("SGPRs", self.sgprs)) if v]
        return ", ".join(regs) or "not known"

    def _tail(self) -> str:
        parts = [f"bound {self.breakdown['bound']}"] if "bound" in self.breakdown else []
        if self.occupancy is not None:
            parts.append(f"occupancy {percent(self.occupancy)}")
        levels = self.memory.get("levels", {})
        parts += [f"{n} hit {percent(v['hit_rate'])}" for n, v in levels.items()]
        if "requests_per_instruction" in self.memory:
            parts.append(f"{self.memory['requests_per_instruction']:.3g} requests/instr")
        return "".join(f", {p}" for p in parts)

    def describe(self) -> list[tuple[str, str]]:
        rows = super().describe()
        rows += [("registers per lane / wave", self._registers()),
                 ("LDS per workgroup", format_bytes(self.lds_bytes)),
                 ("occupancy", percent(self.occupancy))]
        if "bound" in self.breakdown:
            rows.append(("bound by", str(self.breakdown["bound"])))
        m = self.memory
        if m:
            rows.append(("requests per memory instruction",
                         f"{m['requests_per_instruction']:.3g}"))
            rows += [(f"{n} hit rate", percent(v["hit_rate"])) for n, v in m["levels"].items()]
            rows.append(("HBM read / written", f"{format_bytes(m['hbm_read_bytes'])} / "
                                               f"{format_bytes(m['hbm_write_bytes'])}"))
            if m["lds"]["instructions"]:
                rows.append(("LDS bank-conflict cycles", str(m["lds"]["bank_conflict_cycles"])))
            traced = f"{m['traced_workgroups']} of {m['total_workgroups']} workgroups"
            rows.append(("traced", traced + (" (sampled)" if m["sampled"] else "")))
        return rows


@dataclass(repr=False)
class CopyRecord(Record):
    """One memory copy (hipMemcpy*, copy_to_host, ...)."""

    direction: str = "HtoD"  # HtoD, DtoH, DtoD, PtoP, HtoH
    nbytes: int = 0
    pinned: bool = False
    src_device: int | None = None
    dst_device: int | None = None

    def what(self) -> str:
        how = "" if self.direction in ("DtoD", "PtoP") else (
            " pinned" if self.pinned else " pageable")
        return f"{self.name} {self.direction} {format_bytes(self.nbytes)}{how}"


@dataclass(repr=False)
class MemsetRecord(Record):
    nbytes: int = 0

    def what(self) -> str:
        return f"{self.name} {format_bytes(self.nbytes)}"


@dataclass(repr=False)
class MigrationRecord(Record):
    """Unified-memory pages moved between host and device (faults or a prefetch)."""

    nbytes: int = 0
    pages: int = 0
    faults: int = 0
    to_device: bool = True
    reason: str = "fault"  # "fault" or "prefetch"

    def what(self) -> str:
        way = "to device" if self.to_device else "to host"
        return (f"{self.name} {format_bytes(self.nbytes)} ({self.pages} pages) {way}, "
                f"{self.reason}")


@dataclass(repr=False)
class HostRecord(Record):
    """A host function run in stream order (hipLaunchHostFunc / stream callback)."""


@dataclass
class CollectiveStep:
    """One step of a collective algorithm: ``nbytes`` from rank ``src`` to rank ``dst``
    over ``link`` ('xGMIx1', 'xGMIx4', 'PCIe'), modeled ``start_ns`` to ``end_ns``."""

    step: int
    src: int
    dst: int
    nbytes: int
    link: str
    start_ns: int
    end_ns: int


@dataclass
class CollectiveRecord(Record):
    """One RCCL collective over all its ranks (for a collectives view and tables).

    ``device``/``stream`` are rank 0's; ``devices[r]`` / ``streams[r]`` are rank r's.
    ``steps`` hold every transfer of the algorithm, summed over channels per step;
    ``nbytes`` is the message size nccl-tests reports (count x element size, the
    larger buffer for AllGather / ReduceScatter). Each rank's part also appears as a
    kernel on its device's stream (a KernelRecord named after the collective).

    >>> r = CollectiveRecord(name="ncclAllReduce", device=0, stream=0,
    ...                      collective="AllReduce", nranks=8, nbytes=8 << 20,
    ...                      bus_factor=1.75, start_ns=0, end_ns=50_000)
    >>> round(r.algbw_gbs, 1), round(r.busbw_gbs, 1)
    (167.8, 293.6)
    """

    collective: str = ""  # AllReduce, Broadcast, Reduce, AllGather, ReduceScatter, ...
    algorithm: str = ""  # RING, TREE or P2P
    nranks: int = 1
    devices: list[int] = field(default_factory=list)
    streams: list[int] = field(default_factory=list)
    count: int = 0
    datatype: str = ""
    op: str | None = None
    root: int | None = None
    nbytes: int = 0
    nchannels: int = 1
    bus_factor: float = 1.0
    steps: list[CollectiveStep] = field(default_factory=list)

    def what(self) -> str:
        return (f"{self.name} {self.algorithm} over {self.nranks} ranks, "
                f"{format_bytes(self.nbytes)}")

    @property
    def algbw_gbs(self) -> float:
        """nbytes / modeled time, GB/s (nccl-tests' algbw)."""
        return self.nbytes / self.duration_ns if self.duration_ns else 0.0

    @property
    def busbw_gbs(self) -> float:
        """algbw x nccl-tests' bus factor (2(n-1)/n for AllReduce, see rccl.model)."""
        return self.algbw_gbs * self.bus_factor
