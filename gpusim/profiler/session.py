"""``gpusim.profile()``: collect records of everything that runs, like rocprofv3.

>>> import numpy as np, gpusim
>>> from gpusim import hip
>>> with gpusim.profile() as prof:
...     d = hip.to_device(np.zeros(1024, np.float32))
>>> [(r.name, r.direction, r.nbytes) for r in prof.copies]
[('copy_to_device', 'HtoD', 4096)]
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from gpusim.profiler.records import (
    CollectiveRecord,
    CopyRecord,
    KernelRecord,
    MemsetRecord,
    MigrationRecord,
    Record,
)
from gpusim.profiler.summary import summary_html, summary_text

_active: list[Profile] = []
_flush: Callable[[], None] = lambda: None  # noqa: E731 - replaced by the runtime


def set_flusher(flush: Callable[[], None]) -> None:
    """The runtime registers how to run pending work (this layer cannot import it)."""
    global _flush
    _flush = flush


def emit(record: Record) -> None:
    """Hand a new record to every active profile session."""
    for session in _active:
        session.records.append(record)


def profiling() -> bool:
    """True while a ``with gpusim.profile()`` block is open."""
    return bool(_active)


def memory_requested() -> bool:
    """True while a ``with gpusim.profile(memory=True)`` block is open (kernels trace)."""
    return any(session.memory for session in _active)


class Profile:
    """Records of one ``with gpusim.profile()`` block."""

    def __init__(self, memory: bool = False):
        self.memory = memory
        self.records: list[Record] = []

    def _complete(self) -> list[Record]:
        _flush()
        return self.records

    @property
    def kernels(self) -> list[KernelRecord]:
        return [r for r in self._complete() if isinstance(r, KernelRecord)]

    @property
    def copies(self) -> list[CopyRecord]:
        return [r for r in self._complete() if isinstance(r, CopyRecord)]

    @property
    def memsets(self) -> list[MemsetRecord]:
        return [r for r in self._complete() if isinstance(r, MemsetRecord)]

    @property
    def collectives(self) -> list[CollectiveRecord]:
        return [r for r in self._complete() if isinstance(r, CollectiveRecord)]

    @property
    def migrations(self) -> list[MigrationRecord]:
        return [r for r in self._complete() if isinstance(r, MigrationRecord)]

    def stats(self) -> list[dict[str, object]]:
        """Per-name totals, longest first (rocprofv3 --stats): name, kind, calls,
        total_ns, average_ns, percent of the summed time."""
        groups: dict[tuple[str, str], list[Record]] = {}
        for r in self._complete():
            groups.setdefault((type(r).__name__.removesuffix("Record"), r.name), []).append(r)
        total = sum(r.duration_ns for r in self.records) or 1
        rows = [
            {"kind": kind, "name": name, "calls": len(rs),
             "total_ns": sum(r.duration_ns for r in rs),
             "average_ns": sum(r.duration_ns for r in rs) // len(rs),
             "percent": 100.0 * sum(r.duration_ns for r in rs) / total}
            for (kind, name), rs in groups.items()
        ]
        return sorted(rows, key=lambda row: -row["total_ns"])

    def summary(self) -> None:
        """Print time per operation, each kernel's counters and the memory traffic
        (``gpusim.profiler.summary``)."""
        print(summary_text(self))

    def __repr__(self) -> str:
        counts = {}
        for r in self._complete():
            counts[r.kind.lower()] = counts.get(r.kind.lower(), 0) + 1
        plural = {"copy": "copies"}
        what = ", ".join(f"{n} {plural.get(k, k + 's') if n > 1 else k}"
                         for k, n in counts.items()) or "no records"
        return f"<Profile{' (memory)' if self.memory else ''}: {what}>"

    def _repr_html_(self) -> str:
        return summary_html(self)

    def to_csv(self, path: str | Path, kind: str = "kernel") -> Path:
        """Write a rocprofv3-style trace: ``kind="kernel"`` (kernel_trace.csv columns)
        or ``"memory_copy"`` (memory_copy_trace.csv columns)."""
        writers = {"kernel": (KERNEL_COLUMNS, _kernel_row, self.kernels),
                   "memory_copy": (COPY_COLUMNS, _copy_row, self.copies)}
        if kind not in writers:
            raise ValueError(f"kind must be one of {sorted(writers)}, got {kind!r}")
        columns, row, records = writers[kind]
        path = Path(path)
        with path.open("w", newline="") as fh:
            out = csv.writer(fh, quoting=csv.QUOTE_NONNUMERIC)
            out.writerow(columns)
            for r in records:
                out.writerow(row(r))
        return path


KERNEL_COLUMNS = [
    "Kind", "Agent_Id", "Queue_Id", "Stream_Id", "Thread_Id", "Dispatch_Id", "Kernel_Id",
    "Kernel_Name", "Correlation_Id", "Start_Timestamp", "End_Timestamp", "LDS_Block_Size",
    "Scratch_Size", "VGPR_Count", "Accum_VGPR_Count", "SGPR_Count", "Workgroup_Size_X",
    "Workgroup_Size_Y", "Workgroup_Size_Z", "Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z",
]
COPY_COLUMNS = [
    "Kind", "Direction", "Stream_Id", "Source_Agent_Id", "Destination_Agent_Id",
    "Correlation_Id", "Start_Timestamp", "End_Timestamp",
]
_DIRECTION = {"HtoD": "MEMORY_COPY_HOST_TO_DEVICE", "DtoH": "MEMORY_COPY_DEVICE_TO_HOST",
              "DtoD": "MEMORY_COPY_DEVICE_TO_DEVICE", "PtoP": "MEMORY_COPY_DEVICE_TO_DEVICE",
              "HtoH": "MEMORY_COPY_HOST_TO_HOST"}


def _kernel_row(r: KernelRecord) -> list[object]:
    return ["KERNEL_DISPATCH", r.device, r.stream, r.stream, 0, r.correlation_id, 0,
            r.name, r.correlation_id, r.start_ns, r.end_ns, r.lds_bytes, r.scratch_bytes,
            r.vgprs or 0, r.agprs or 0, r.sgprs or 0, *r.block, *r.grid_size]


def _copy_row(r: CopyRecord) -> list[object]:
    src = "host" if r.src_device is None else r.src_device
    dst = "host" if r.dst_device is None else r.dst_device
    return ["MEMORY_COPY", _DIRECTION[r.direction], r.stream, src, dst, r.correlation_id,
            r.start_ns, r.end_ns]


@contextmanager
def profile(memory: bool = False) -> Iterator[Profile]:
    """Record every kernel, copy, memset and migration issued inside the block.

    ``memory=True`` also traces kernels launched inside the block: their records get
    cache and instruction counters (``counters``, rocprof names), a modeled time from
    the memory and timing models (``breakdown``) and per-instruction coalescing and LDS
    bank statistics (``memory``); see ``gpusim.trace.report``.
    """
    session = Profile(memory)
    _active.append(session)
    try:
        yield session
    finally:
        _active.remove(session)
        _flush()
