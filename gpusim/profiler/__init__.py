"""Profiling: records emitted by the runtime, collected by ``gpusim.profile()``.

    records.py   plain dataclasses: KernelRecord, CopyRecord, MemsetRecord, ...
    collective.py  CollectiveRecord (RCCL calls) and their chunk Transfers
    format.py    how records read: one-line summaries, HTML tables, us/ms
    session.py   the ``profile()`` context manager, rocprofv3-style CSV
    summary.py   ``Profile.summary()``: time, kernels' counters, memory traffic

Views (gpusim.viz) and tables read these records, never engine internals.
"""

from gpusim.profiler.collective import CollectiveRecord, Transfer
from gpusim.profiler.records import (
    CopyRecord,
    HostRecord,
    KernelRecord,
    MemsetRecord,
    MigrationRecord,
    Record,
)
from gpusim.profiler.session import Profile, emit, profile, profiling

__all__ = ["CollectiveRecord", "Transfer", "CopyRecord", "HostRecord", "KernelRecord",
           "MemsetRecord", "MigrationRecord", "Record", "Profile", "emit", "profile", "profiling"]
