"""Memory model: coalescer, LDS banks and a set-associative LRU cache hierarchy.

Usable on its own, on any address trace, and fed by the engine's memory traces::

    wavefront memory instruction (lane addresses, active mask, bytes per lane)
        |                                   |
        | global                            | LDS
        v                                   v
    coalescer.py distinct cache lines   lds.py  banks x 4 B: conflict degree,
        |        per instruction,               cycles, extra (conflict) cycles
        |        bytes requested / moved
        v
    hierarchy.py  Hierarchy([...]).run(addresses, sizes, is_store)
        |
        +--> vL1D  per CU, write-through       cache.py: Cache (Spec, frozen) and
        |      | misses, stores                          CacheState (numpy arrays)
        +--> L2    per XCD, write-back         lru.py:   access_batch (numba): one
        |      | misses, write-backs                     call per level per chunk
        +--> MALL  Infinity Cache (MI300X, RDNA3)
        |      | misses, write-backs
        +--> memory (HBM): bytes read and written

    device.py  levels_for(spec) / hierarchy_for(spec): the levels of a DeviceSpec

The whole device, replaying one kernel's trace (per-CU vL1D, per-XCD L2, one MALL)::

    ../trace/record.py  Trace: one row per wavefront memory instruction (+ TraceBuilder;
                 re-exported here)
    dispatch.py  workgroups -> XCD i % 8 -> CU round-robin, resident per occupancy;
                 resident waves interleave one instruction per step
    gpu.py       GpuMemoryModel.run(trace) -> GpuMemoryResult (levels, HBM bytes,
                 coalescing and LDS conflicts per source site)
    counters.py  kernel_counters(result, counts, spec): rocprof / Omniperf names
    replay.py    the timing model's replay: GpuMemoryModel.run(trace, detail=False) in
                 one compiled call
    period.py    wrapped accesses (addresses repeating every P work-groups), replayed once
    residency.py what a device's caches still hold from earlier kernels (issue 31)
    hashset.py   a tiny open-addressing hash set for the numba kernels ("seen here?")

What the views read from a replay (per request, not only totals)::

    streams.py   each level's requests: line, time step, instance, outcome
    reuse.py     reuse distance: distinct lines between two uses of one line
    chase.py     dependent loads: the longest chain of loads fed by the load before

Cache levels are set-associative with true LRU; a request touches every line its byte
range covers; loads fill every level they miss (not inclusive, not exclusive); stores
follow each level's policy (write-back/write-allocate by default, or write-through /
no-write-allocate). Hit, miss, request and write-back counts agree exactly with pycachesim
(the test oracle) for the same geometry and trace; ``tests/memsim/pycachesim_oracle.py`` lists
how its counters map to ours and where its semantics differ.

=============================  ==============================================================
``Cache(name, size, ways,      one level's description; ``write_back``, ``write_allocate``,
line, ...)``                   ``store_updates_lru`` (False = pycachesim's store behaviour)
``Hierarchy(levels)``          ``.run(addresses, sizes=4, is_store=False)`` -> counts per level
                               + ``"memory"``; ``.stats()``, ``.flush()``, ``.reset()``,
                               ``.reset_stats()``, ``.contents(name)``
``coalesce(addr, active,       line requests per wavefront instruction (``Coalesced``);
bytes_per_lane, line)``        ``.trace()`` feeds ``Hierarchy.run``
``bank_conflicts(addr, ...)``  LDS conflict degree / cycles per instruction (``LdsConflicts``)
``levels_for(spec)``,          vL1D / L2 / MALL of a device profile
``hierarchy_for(spec)``
``Trace``, ``TraceBuilder``    the engine's memory trace; ``Trace.from_lane_addresses``
                               builds one from NumPy formulas
``dispatch(trace, ...)``       hardware-order placement and the device-wide row order
``GpuMemoryModel(spec)``       ``.run(trace, workgroups_per_cu=...)`` -> ``GpuMemoryResult``
``kernel_counters(...)``       counters by their rocprofv3 names
=============================  ==============================================================

Counters per level (``COUNTER_NAMES``): ``loads``, ``stores`` (requests), ``load_bytes``,
``store_bytes``, ``load_hits``, ``load_misses``, ``store_hits``, ``store_misses`` (lines
touched), ``evictions`` (valid lines replaced), ``writebacks`` (dirty lines sent down),
``write_throughs`` / ``write_through_bytes`` (stores passed down); ``run`` adds ``hits``,
``misses`` and ``hit_rate``.

>>> import numpy as np
>>> from gpusim.memsim import Cache, Hierarchy
>>> h = Hierarchy([Cache("L1", size=32 * 1024, ways=4, line=64),
...                Cache("L2", size=4 << 20, ways=16, line=128)])
>>> stats = h.run(np.arange(0, 64 * 1024, 4, dtype=np.int64))   # 4-byte loads
>>> stats["L1"]["hits"], stats["L1"]["misses"], stats["L2"]["hits"], stats["L2"]["misses"]
(15360, 1024, 512, 512)
"""

from gpusim.memsim.cache import COUNTER_NAMES, Cache, CacheState
from gpusim.memsim.coalescer import Coalesced, coalesce
from gpusim.memsim.counters import InstructionCounts, kernel_counters
from gpusim.memsim.device import hierarchy_for, levels_for
from gpusim.memsim.dispatch import Dispatch, dispatch, dispatch_for
from gpusim.memsim.gpu import GpuMemoryModel, GpuMemoryResult
from gpusim.memsim.hierarchy import MEMORY, Hierarchy
from gpusim.memsim.lds import LdsConflicts, bank_conflicts
from gpusim.trace.record import Access, LaunchInfo, Site, Trace, TraceBuilder

__all__ = [
    "COUNTER_NAMES",
    "MEMORY",
    "Access",
    "Cache",
    "CacheState",
    "Coalesced",
    "Dispatch",
    "GpuMemoryModel",
    "GpuMemoryResult",
    "Hierarchy",
    "InstructionCounts",
    "LaunchInfo",
    "LdsConflicts",
    "Site",
    "Trace",
    "TraceBuilder",
    "bank_conflicts",
    "coalesce",
    "dispatch",
    "dispatch_for",
    "hierarchy_for",
    "kernel_counters",
    "levels_for",
]
