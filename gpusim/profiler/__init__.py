"""Profiling: records emitted by the runtime, collected by ``gpusim.profile()``.

    records.py   plain dataclasses: KernelRecord, CopyRecord, MemsetRecord, ...
    session.py   the ``profile()`` context manager, summary table, rocprofv3-style CSV

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

__all__ = ["CopyRecord", "HostRecord", "KernelRecord", "MemsetRecord", "MigrationRecord",
           "Record", "Profile", "emit", "profile", "profiling"]
__all__ += ["CollectiveRecord", "CollectiveStep"]
