"""Profile records: plain data that the runtime emits and tables and views consume.

Times are modeled nanoseconds since the system was created. A record is created when
the operation is issued and completed (``start_ns``/``end_ns``, counters) when it runs.

>>> r = CopyRecord(name="hipMemcpy", device=0, stream=0, direction="HtoD", nbytes=4096,
...                pinned=False, src_device=None, dst_device=0)
>>> r.duration_ns
0
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Record:
    """What every record has: what ran, where, and when (modeled)."""

    name: str
    device: int
    stream: int
    correlation_id: int = 0
    start_ns: int = 0
    end_ns: int = 0
    done: bool = False

    @property
    def duration_ns(self) -> int:
        return self.end_ns - self.start_ns


@dataclass
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
    # line ("sites") coalescing or LDS bank statistics; see gpusim.runtime.kernel_trace.
    memory: dict[str, Any] = field(default_factory=dict)

    @property
    def grid_size(self) -> tuple[int, int, int]:
        """Work-items per dimension, as rocprofv3's Grid_Size columns report."""
        return tuple(g * b for g, b in zip(self.grid, self.block, strict=True))


@dataclass
class CopyRecord(Record):
    """One memory copy (hipMemcpy*, copy_to_host, ...)."""

    direction: str = "HtoD"  # HtoD, DtoH, DtoD, PtoP, HtoH
    nbytes: int = 0
    pinned: bool = False
    src_device: int | None = None
    dst_device: int | None = None


@dataclass
class MemsetRecord(Record):
    nbytes: int = 0


@dataclass
class MigrationRecord(Record):
    """Unified-memory pages moved between host and device (faults or a prefetch)."""

    nbytes: int = 0
    pages: int = 0
    faults: int = 0
    to_device: bool = True
    reason: str = "fault"  # "fault" or "prefetch"


@dataclass
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

    @property
    def algbw_gbs(self) -> float:
        """nbytes / modeled time, GB/s (nccl-tests' algbw)."""
        return self.nbytes / self.duration_ns if self.duration_ns else 0.0

    @property
    def busbw_gbs(self) -> float:
        """algbw x nccl-tests' bus factor (2(n-1)/n for AllReduce, see rccl.model)."""
        return self.algbw_gbs * self.bus_factor
