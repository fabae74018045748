"""Profiling: records emitted by the runtime, collected by ``gpusim.profile()``.

    records.py   plain dataclasses: KernelRecord, CopyRecord, MemsetRecord, ...,
                 CollectiveRecord (an RCCL call) with its CollectiveSteps
    format.py    how records read: one-line summaries, HTML tables, us/ms
    session.py   the ``profile()`` context manager, rocprofv3-style CSV
    summary.py   ``Profile.summary()``: time, kernels' counters, memory traffic

Views (gpusim.viz) and tables read these records, never engine internals.
"""

from gpusim.profiler.records import (
    CollectiveRecord,
    CollectiveStep,
    CopyRecord,
    HostRecord,
    KernelRecord,
    MemsetRecord,
    MigrationRecord,
    Record,
)
from gpusim.profiler.session import Profile, emit, profile, profiling

__all__ = ["CollectiveRecord", "CollectiveStep", "CopyRecord", "HostRecord", "KernelRecord",
           "MemsetRecord", "MigrationRecord", "Record", "Profile", "emit", "profile",
           "profiling"]
