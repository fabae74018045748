"""What a device's caches still hold from earlier kernels (issue 31).

Hardware keeps cache contents between kernels unless something invalidates them. On
gfx942 (LLVM AMDGPUUsage, *Memory Model GFX942*, as we read it): the kernel-start
acquire invalidates the vector L1 (``buffer_inv``); the L2 needs no invalidation or
write-back for memory local to its agent (MTYPE RW: "all work-groups on the same agent
share the same L2"), and the kernel-end release writes dirty L2 lines back
(``buffer_wbl2``) without dropping them; the Infinity Cache (MALL) is memory-side and
keeps everything. NVIDIA's L2 likewise persists between kernels. So a warm-up launch
helps where the data fits: this module remembers, per device, the array extents recent
kernels touched, most recent last, and calls an extent *warm* when the distinct bytes
touched since its last use (itself included) fit the last-level cache (the MALL, or the
whole L2 without one). The memory model then replays the kernel's accesses to warm
extents once before the timed replay (vL1D invalidated in between), so hits come out
of the same cache model as everything else.

Simplifications: a kernel is taken to touch every byte of its array arguments; copies
(hipMemcpy, SDMA) neither warm nor evict; ``gpusim.config.cold_caches = True`` (or
``GPUSIM_COLD_CACHES=1``) models every kernel from cold caches, as before.

>>> r = Residency()
>>> r.warm(1, [(0, 1 << 20)], capacity=8 << 20)
(False,)
>>> r.touch(1, [(0, 1 << 20)]); r.warm(1, [(0, 1 << 20)], capacity=8 << 20)
(True,)
>>> r.touch(1, [(1 << 30, 16 << 20)]); r.warm(1, [(0, 1 << 20)], capacity=8 << 20)
(False,)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

MAX_EXTENTS = 256  # remembered per device; older ones count as evicted


class Residency:
    def __init__(self) -> None:
        self._dev: dict[Any, OrderedDict[int, tuple[int, int]]] = {}
        self._gen = 0
        self._lock = threading.Lock()

    def touch(self, device: Any, extents: list[tuple[int, int]]) -> None:
        """A kernel on ``device`` used these (address, bytes) extents: all of them stream
        through the caches together, so they share one generation."""
        with self._lock:
            d = self._dev.setdefault(device, OrderedDict())
            self._gen += 1
            for addr, nbytes in extents:
                if nbytes <= 0:
                    continue
                d.pop(addr, None)
                d[addr] = (nbytes, self._gen)
            while len(d) > MAX_EXTENTS:
                d.popitem(last=False)

    def warm(self, device: Any, extents: list[tuple[int, int]], *, capacity: int
             ) -> tuple[bool, ...]:
        """Per extent: whether its lines are still in the last-level cache (the distinct
        bytes of its kernel and of every later one fit ``capacity``)."""
        with self._lock:
            d = self._dev.get(device)
            if not d:
                return tuple(False for _ in extents)
            by_gen: dict[int, int] = {}
            for nbytes, gen in d.values():
                by_gen[gen] = by_gen.get(gen, 0) + nbytes
            since: dict[int, int] = {}
            total = 0
            for gen in sorted(by_gen, reverse=True):
                total += by_gen[gen]
                since[gen] = total
            out = []
            for addr, nbytes in extents:
                got = d.get(addr)
                out.append(got is not None and got[0] >= nbytes
                           and since[got[1]] <= capacity)
        return tuple(out)

    def forget(self, device: Any = None) -> None:
        with self._lock:
            if device is None:
                self._dev.clear()
            else:
                self._dev.pop(device, None)


RESIDENCY = Residency()


def last_level_bytes(spec: Any) -> int:
    """The capacity that decides whether data survives between kernels."""
    if getattr(spec, "infinity_cache_bytes", 0):
        return int(spec.infinity_cache_bytes)
    return int(spec.l2_bytes) * int(getattr(spec, "xcd_count", 1) or 1)


def cold_requested() -> bool:
    from gpusim.config import config

    return bool(getattr(config, "cold_caches", False))
