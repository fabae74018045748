"""pycachesim (module ``cachesim``) as the oracle: build the same hierarchy, map counters.

pycachesim counts some events differently; ``as_pycachesim`` converts our counters into
its definitions so the two can be compared field by field:

==============  ===============================================================
pycachesim      ours
==============  ===============================================================
LOAD_count      loads + store_misses (write-allocate: a store miss is a load)
LOAD_byte       load_bytes + store_misses * line (write-allocate)
STORE_count     stores
STORE_byte      store_bytes
HIT_count       load_hits (pycachesim does not count store hits at all)
MISS_count      load_misses + store_misses (write-allocate)
EVICT_count     writebacks + write_throughs: everything stored to the next level
                (pycachesim does not count clean evictions at all)
HIT_byte,       not compared: pycachesim adds min(line, request length) per line,
MISS_byte       which is not the bytes of that line
==============  ===============================================================

Semantics that differ (so tests keep to what both define the same way):

- pycachesim's store hits leave the LRU order unchanged: compare with
  ``Cache(..., store_updates_lru=False)``.
- pycachesim's write-back + no-write-allocate allocates the line dirty without
  fetching it (write-validate); ours forwards the store: not compared.
- pycachesim clips a write-through store that straddles lines wrongly (the first
  piece keeps the full length): write-through levels are compared on stores that stay
  within one line.
- pycachesim's ``Cache.set_load_from`` / ``set_store_to`` (used by ``from_dict``) assert
  the line size the wrong way round; we build bottom-up with the constructor instead.
- pycachesim 0.3.1 cannot show its contents: ``backend.contains`` crashes the
  interpreter and ``backend.cached`` returns garbage; contents are compared by probing
  (replay the trace, load one line, see whether it hits).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from cachesim import Cache as PCache
from cachesim import CacheSimulator, MainMemory

from gpusim.memsim import Cache

FIELDS = ("LOAD_count", "LOAD_byte", "STORE_count", "STORE_byte", "HIT_count", "MISS_count",
          "EVICT_count")  # fmt: skip


def build(levels: Sequence[Cache]) -> tuple[CacheSimulator, list[PCache]]:
    """The pycachesim hierarchy with the same geometry and policies, LRU."""
    below = None
    made = []
    for c in reversed(levels):
        below = PCache(
            c.name, sets=c.sets, ways=c.ways, cl_size=c.line, replacement_policy="LRU",
            write_back=c.write_back, write_allocate=c.write_allocate,
            load_from=below, store_to=below,
        )  # fmt: skip
        made.append(below)
    mem = MainMemory()
    mem.load_to(made[0])  # the last level talks to memory
    mem.store_from(made[0])
    return CacheSimulator(made[-1], mem), made[::-1]


def run(cs: CacheSimulator, addr, size=4, is_store=None) -> None:
    """Feed a trace to pycachesim in order (one batched call when it is all loads)."""
    addr = np.asarray(addr, dtype=np.int64)
    if is_store is None and np.ndim(size) == 0:
        cs.load(addr.tolist(), length=int(size))  # a list is pycachesim's fastest input
        return
    sizes = np.broadcast_to(np.asarray(size, dtype=np.int64), addr.shape).tolist()
    stores = np.broadcast_to(np.asarray(is_store, dtype=bool), addr.shape).tolist()
    load, store = cs.first_level.backend.load, cs.first_level.backend.store
    for a, n, st in zip(addr.tolist(), sizes, stores, strict=True):
        if st:
            store(a, length=n)
        else:
            load(a, length=n)


def their_stats(caches: Sequence[PCache]) -> dict[str, dict[str, int]]:
    return {c.name: {f: int(c.stats()[f]) for f in FIELDS} for c in caches}


def as_pycachesim(level: Cache, s: dict) -> dict[str, int]:
    """Our counters of one level in pycachesim's definitions (see the module table)."""
    wa_misses = s["store_misses"] if level.write_allocate else 0
    return {
        "LOAD_count": s["loads"] + wa_misses,
        "LOAD_byte": s["load_bytes"] + wa_misses * level.line,
        "STORE_count": s["stores"],
        "STORE_byte": s["store_bytes"],
        "HIT_count": s["load_hits"],
        "MISS_count": s["load_misses"] + wa_misses,
        "EVICT_count": s["writebacks"] + s["write_throughs"],
    }


def ours_in_their_terms(levels: Sequence[Cache], stats: dict) -> dict[str, dict[str, int]]:
    return {c.name: as_pycachesim(c, stats[c.name]) for c in levels}


def compare(levels: Sequence[Cache], addr, size=4, is_store=None) -> dict:
    """Run one trace through ours and pycachesim; assert every comparable counter agrees.

    Returns our stats (for further checks by the caller).
    """
    from gpusim.memsim import Hierarchy

    ours = Hierarchy(levels).run(addr, size, is_store)
    cs, caches = build(levels)
    run(cs, addr, size, is_store)
    assert ours_in_their_terms(levels, ours) == their_stats(caches)
    mem = cs.main_memory.stats()
    assert ours["memory"]["loads"] == mem["LOAD_count"]
    assert ours["memory"]["stores"] == mem["STORE_count"]
    assert ours["memory"]["store_bytes"] == mem["STORE_byte"]
    return ours
