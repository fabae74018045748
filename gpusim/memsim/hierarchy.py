"""``Hierarchy``: cache levels chained by request streams, run on whole address traces.

A load that misses a level fetches the whole line from the next level (so loads fill
every level on the way); a dirty line evicted from a write-back level is stored to the
next level; stores follow each level's write policy (``cache.py``). Past the last level
is memory (HBM), which only counts what reaches it. Levels are neither inclusive nor
exclusive (an eviction below does not remove the line above), as in pycachesim.

Each level handles its request stream in order, and what a level sends down depends
only on that stream, so running level 1 over a chunk, then level 2 over what level 1
sent, ... gives exactly the counts of handling every access depth first. That is how
``run`` works: one numba call per level per chunk, never one call per access.

>>> import numpy as np
>>> h = Hierarchy([Cache("L1", size=32 * 1024, ways=4, line=64),
...                Cache("L2", size=4 << 20, ways=16, line=128)])
>>> stats = h.run(np.arange(0, 1 << 20, 4, dtype=np.int64))   # stream 1 MiB, 4-byte loads
>>> stats["L1"]["hits"], stats["L1"]["misses"], stats["L2"]["misses"]
(245760, 16384, 8192)
>>> stats["memory"]["load_bytes"] == 1 << 20                      # every byte came from HBM once
True
>>> h.run(np.arange(0, 1 << 20, 4, dtype=np.int64))["L2"]["hits"]  # again: L2 (4 MiB) holds it
16384
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gpusim.memsim.cache import Cache, CacheState, contents, counters_dict
from gpusim.memsim.lru import collect_dirty, count_stream, run_batch

MEMORY = "memory"  # the stats key for what reaches device memory past the last level
_MEM_NAMES = ("loads", "stores", "load_bytes", "store_bytes")
_BUFFER = 1 << 15  # next-level requests buffered per level before draining downwards


class Hierarchy:
    """Cache levels, first (closest to the lanes) to last, then memory.

    ``run(addresses, sizes=None, is_store=None)`` returns the counts of that batch per
    level name, plus ``"memory"``; ``stats()`` the totals since construction or
    ``reset()``. State persists between runs (warm caches), like hardware between
    kernels.

    >>> h = Hierarchy([Cache("L1", size=128, ways=2, line=64)])   # one set, two ways
    >>> s = h.run([0, 64, 0], is_store=[False, True, False])
    >>> s["L1"]["load_hits"], s["L1"]["store_hits"], s["L1"]["misses"]
    (1, 0, 2)
    >>> h.contents("L1")
    [[(0, False), (64, True)]]
    >>> h.flush()["memory"]["store_bytes"]            # the dirty line goes to memory
    64
    """

    def __init__(self, levels: Sequence[Cache]) -> None:
        levels = tuple(levels)
        if not levels:
            raise ValueError("Hierarchy needs at least one Cache level")
        for c in levels:
            if not isinstance(c, Cache):
                raise TypeError(f"Hierarchy levels must be memsim.Cache, got {type(c).__name__}")
        names = [c.name for c in levels]
        if len(set(names)) != len(names) or MEMORY in names:
            raise ValueError(f"level names must be unique and not {MEMORY!r}: {names}")
        self.levels: tuple[Cache, ...] = levels
        self.states: tuple[CacheState, ...] = tuple(CacheState.empty(c) for c in levels)
        self._memory = np.zeros(len(_MEM_NAMES), dtype=np.int64)
        self._buffers = [self._new_buffer(_BUFFER) for _ in levels]

    # ---- public -----------------------------------------------------------------------

    def run(
        self,
        addresses: Any,
        sizes: Any = None,
        is_store: Any = None,
    ) -> dict[str, dict[str, Any]]:
        """Send a trace through the levels; return this batch's counts.

        ``addresses``: byte addresses (int64, >= 0), in program order. ``sizes``: bytes
        per access, a scalar or one per address (default 4). ``is_store``: bool, scalar or
        one per address (default: all loads).
        """
        addr, size, store = _as_trace(addresses, sizes, is_store)
        before = self._snapshot()
        self._feed(0, addr, size, store)
        return self._delta(before)

    def flush(self) -> dict[str, dict[str, Any]]:
        """Write every dirty line back, level by level (e.g. at kernel end); return counts."""
        before = self._snapshot()
        for i, (spec, st) in enumerate(zip(self.levels, self.states, strict=True)):
            out = np.empty(st.tags.shape[0], dtype=np.int64)
            n = collect_dirty(st.tags, st.counters, spec.line_bits, out)
            if n:
                size = np.full(1, spec.line, dtype=np.int64)
                self._feed(i + 1, out[:n], size, np.ones(1, dtype=np.uint8))
        return self._delta(before)

    def stats(self) -> dict[str, dict[str, Any]]:
        """Totals since construction or the last ``reset`` / ``reset_stats``."""
        out = {
            c.name: _level_dict(st.counters) for c, st in zip(self.levels, self.states, strict=True)
        }
        out[MEMORY] = dict(zip(_MEM_NAMES, (int(v) for v in self._memory), strict=True))
        return out

    def reset(self) -> None:
        """Cold caches (contents dropped without write-back) and zero counters."""
        for st in self.states:
            st.reset()
        self._memory[:] = 0

    def reset_stats(self) -> None:
        """Zero the counters, keep the contents (measure a warm steady state)."""
        for st in self.states:
            st.counters[:] = 0
        self._memory[:] = 0

    def contents(self, name: str) -> list[list[tuple[int, bool]]]:
        """Lines held by level ``name``: per set, ``(line address, dirty)``, MRU first."""
        i = self._index(name)
        return contents(self.levels[i], self.states[i])

    def __repr__(self) -> str:
        parts = [
            f"{c.name}: {c.size} B, {c.ways}-way, {c.line} B lines, {c.sets} sets, {c.policy}"
            for c in self.levels
        ]
        return "Hierarchy(" + "; ".join(parts) + ")"

    # ---- internals --------------------------------------------------------------------

    def _feed(self, i: int, addr: np.ndarray, size: np.ndarray, store: np.ndarray) -> None:
        """Run requests through level ``i`` and, as its buffer fills, everything below."""
        if i == len(self.levels):
            self._count_memory(addr, size, store)
            return
        spec, st = self.levels[i], self.states[i]
        pos, n = 0, addr.shape[0]
        while pos < n:
            out = self._buffers[i]
            stop, n_out = run_batch(spec, st, addr, size, store, pos, out)
            if n_out:
                self._feed(i + 1, out[0][:n_out], out[1][:n_out], out[2][:n_out])
            elif stop == pos:  # one request spans more lines than the buffer holds
                self._buffers[i] = self._new_buffer(2 * out[0].shape[0])
            pos = stop

    def _count_memory(self, addr: np.ndarray, size: np.ndarray, store: np.ndarray) -> None:
        count_stream(size, store, addr.shape[0], self._memory)  # numba: no boolean masks

    @staticmethod
    def _new_buffer(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.uint8)

    def _snapshot(self) -> list[np.ndarray]:
        return [st.counters.copy() for st in self.states] + [self._memory.copy()]

    def _delta(self, before: list[np.ndarray]) -> dict[str, dict[str, Any]]:
        out = {
            c.name: _level_dict(st.counters - b)
            for c, st, b in zip(self.levels, self.states, before[:-1], strict=True)
        }
        mem = self._memory - before[-1]
        out[MEMORY] = dict(zip(_MEM_NAMES, (int(v) for v in mem), strict=True))
        return out

    def _index(self, name: str) -> int:
        for i, c in enumerate(self.levels):
            if c.name == name:
                return i
        raise KeyError(f"no level {name!r}; levels are {[c.name for c in self.levels]}")


def _level_dict(counters: np.ndarray) -> dict[str, Any]:
    d: dict[str, Any] = counters_dict(counters)
    touched = d["hits"] + d["misses"]
    d["hit_rate"] = d["hits"] / touched if touched else 0.0
    return d


def _as_trace(addresses: Any, sizes: Any, is_store: Any) -> tuple[np.ndarray, ...]:
    """Validate and convert a trace to the kernels' dtypes (length-1 arrays broadcast)."""
    raw = np.asarray(addresses)
    if raw.ndim != 1:
        raise ValueError(f"addresses must be 1-D, got shape {raw.shape}")
    if raw.size and raw.dtype.kind not in "iu":
        raise TypeError(f"addresses must be integers (byte addresses), got dtype {raw.dtype}")
    addr = np.ascontiguousarray(raw, dtype=np.int64)
    n = addr.shape[0]
    if n and addr.min() < 0:
        raise ValueError(f"addresses must be >= 0; found {int(addr.min())}")
    size = np.ascontiguousarray(4 if sizes is None else sizes, dtype=np.int64).reshape(-1)
    store = np.ascontiguousarray(False if is_store is None else is_store, dtype=np.uint8)
    store = store.reshape(-1)
    for label, arr in (("sizes", size), ("is_store", store)):
        if arr.shape[0] not in (1, n):
            raise ValueError(f"{label} has {arr.shape[0]} entries for {n} addresses")
    if size.shape[0] and size.min() <= 0:
        raise ValueError(f"sizes must be >= 1 byte; found {int(size.min())}")
    return addr, size, store
