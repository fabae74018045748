"""The living definition of ``gpusim.memsim`` caches: plain Python, depth first, slow.

Written independently of the numba kernels: one ``OrderedDict`` per set (LRU order),
requests handled recursively (a miss asks the next level before filling), no request
streams. The numba hierarchy must give identical counters and contents on any trace,
for every write policy; pycachesim checks the policies it shares with us.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from gpusim.memsim import COUNTER_NAMES, Cache


class RefLevel:
    def __init__(self, spec: Cache, below: RefLevel | RefMemory) -> None:
        self.spec = spec
        self.below = below
        self.sets: list[OrderedDict[int, bool]] = [OrderedDict() for _ in range(spec.sets)]
        self.c = dict.fromkeys(COUNTER_NAMES, 0)

    def _set(self, cl: int) -> OrderedDict[int, bool]:
        return self.sets[cl % self.spec.sets]

    def _fill(self, cl: int, dirty: bool) -> None:
        s = self._set(cl)
        if len(s) == self.spec.ways:
            victim, was_dirty = s.popitem(last=False)  # least recently used
            self.c["evictions"] += 1
            if was_dirty:
                self.c["writebacks"] += 1
                self.below.store(victim * self.spec.line, self.spec.line)
        s[cl] = dirty

    def _through(self, addr: int, size: int, cl: int) -> None:
        lo = max(addr, cl * self.spec.line)
        hi = min(addr + size, (cl + 1) * self.spec.line)
        self.c["write_throughs"] += 1
        self.c["write_through_bytes"] += hi - lo
        self.below.store(lo, hi - lo)

    def load(self, addr: int, size: int) -> None:
        self.c["loads"] += 1
        self.c["load_bytes"] += size
        line = self.spec.line
        for cl in range(addr // line, (addr + size - 1) // line + 1):
            s = self._set(cl)
            if cl in s:
                self.c["load_hits"] += 1
                s.move_to_end(cl)
            else:
                self.c["load_misses"] += 1
                self.below.load(cl * line, line)  # fetch first, then make room
                self._fill(cl, False)

    def store(self, addr: int, size: int) -> None:
        spec = self.spec
        self.c["stores"] += 1
        self.c["store_bytes"] += size
        for cl in range(addr // spec.line, (addr + size - 1) // spec.line + 1):
            s = self._set(cl)
            if cl in s:
                self.c["store_hits"] += 1
                if spec.store_updates_lru:
                    s.move_to_end(cl)
                if spec.write_back:
                    s[cl] = True
                else:
                    self._through(addr, size, cl)
            else:
                self.c["store_misses"] += 1
                if spec.write_allocate:
                    self.below.load(cl * spec.line, spec.line)
                    self._fill(cl, spec.write_back)
                    if not spec.write_back:
                        self._through(addr, size, cl)
                else:
                    self._through(addr, size, cl)

    def contents(self) -> list[list[tuple[int, bool]]]:
        return [[(cl * self.spec.line, d) for cl, d in reversed(s.items())] for s in self.sets]


class RefMemory:
    def __init__(self) -> None:
        self.c = {"loads": 0, "stores": 0, "load_bytes": 0, "store_bytes": 0}

    def load(self, addr: int, size: int) -> None:
        self.c["loads"] += 1
        self.c["load_bytes"] += size

    def store(self, addr: int, size: int) -> None:
        self.c["stores"] += 1
        self.c["store_bytes"] += size


class RefHierarchy:
    def __init__(self, levels: Sequence[Cache]) -> None:
        self.memory = RefMemory()
        below: RefLevel | RefMemory = self.memory
        made = []
        for spec in reversed(levels):
            below = RefLevel(spec, below)
            made.append(below)
        self.levels = made[::-1]

    def run(self, addr, size, is_store) -> None:
        first = self.levels[0]
        for a, n, st in zip(addr, size, is_store, strict=True):
            (first.store if st else first.load)(int(a), int(n))

    def stats(self) -> dict[str, dict[str, int]]:
        out = {lv.spec.name: dict(lv.c) for lv in self.levels}
        out["memory"] = dict(self.memory.c)
        return out
