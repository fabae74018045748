"""Wrapped accesses: loads whose addresses repeat every ``P`` work-groups.

A sampled trace (``engine.estimate``) replays a few runs of consecutive work-groups on a
scaled machine. Reuse between work-groups far apart is invisible to it: in
``out[i] = a[(i * 64) % a.size]`` work-group ``w + 1024`` reads exactly the lines of
``w`` (the index wraps around the array), so the whole launch reads each of those lines
from memory once, while the sample sees every line for the first time. This module
finds such loads in the sample itself, without tracing more work-groups:

* per work-group, the site's lowest address ``a(w)``, and its addresses relative to it;
* every traced work-group the same relative addresses (the same shape, shifted), and
  ``a(w + 1) - a(w) = d`` constant within each run of consecutive work-groups;
* the runs far apart land where ``a(w0) + (w - w0) d`` lands after wrapping around the
  array that holds ``a(w0)``: ``base + (a(w0) - base + (w - w0) d) mod M`` for an array
  of ``M`` bytes at ``base``, and at least one of them did wrap.

Then ``a(w)`` repeats with period ``P = M / gcd(d, M)`` work-groups: a load of
work-group ``w >= P`` touches lines work-group ``w mod P`` touched (``wrapped_loads``). A
2-D tile walk, a gather or a plain stream fails one of the checks and is left alone.

>>> import numpy as np
>>> from gpusim.memsim.trace import Access, Trace
>>> base, m = 1 << 20, 128                        # 128 floats at 1 MiB: no wrap at stride 1
>>> def copy(stride):                             # out[i] = a[(i * stride) % a.size]
...     return lambda t: [Access(base + (t.gid * stride % m) * 4)]
>>> runs = np.flatnonzero(np.arange(32) % 8 < 2)  # work-groups 0, 1, 8, 9, 16, 17, ...
>>> def sample(stride):                           # 32 work-groups of 4 threads
...     return Trace.from_lane_addresses(32, 4, copy(stride), wave_size=4).take(runs)
>>> wrapped_loads(sample(8), [(base, m * 4)]), wrapped_loads(sample(1), [(base, m * 4)])
({0: 4}, {})
"""

from __future__ import annotations

import dataclasses
import math

import numba
import numpy as np

from gpusim.devices import DeviceSpec
from gpusim.memsim.gpu import GpuMemoryResult
from gpusim.memsim.trace import GLOBAL, LOAD, Trace


def wrapped_loads(trace: Trace, extents: list[tuple[int, int]]) -> dict[int, int]:
    """Global load sites whose addresses repeat every ``P`` work-groups, ``P`` smaller
    than the grid: ``{site: P}``. ``extents``: (device address, bytes) of each array
    argument (where an index can wrap around)."""
    rows = np.flatnonzero((trace.space == GLOBAL) & (trace.kind == LOAD))
    if not len(rows) or not extents:
        return {}
    # every (site, work-group)'s lowest address in one pass: a first launch pays for it
    big = np.iinfo(np.int64).max
    rows = rows[np.lexsort((trace.workgroup[rows], trace.site[rows]))]
    site, wg = trace.site[rows], trace.workgroup[rows]
    new = np.empty(len(rows), bool)  # where a (site, work-group) group starts
    new[0] = True
    np.not_equal(site[1:], site[:-1], out=new[1:])
    new[1:] |= wg[1:] != wg[:-1]
    first = np.flatnonzero(new)
    low = np.minimum.reduceat(np.where(trace.active[rows], trace.addr[rows], big).min(axis=1),
                              first)
    sites = site[first]
    bounds = np.append(np.flatnonzero(np.append(True, sites[1:] != sites[:-1])), len(first))
    base, size = (np.array(v, np.int64) for v in zip(*extents, strict=True))
    steps, sizes = _wrapped_steps(wg[first], low, bounds, base, size)
    ends = np.append(first[1:], len(rows))
    out = {}
    for k in np.flatnonzero(steps):  # candidates: now the costly check of their shape
        a, b = bounds[k], bounds[k + 1]
        shapes = [np.unique(trace.addr[r][trace.active[r]] - lo) for r, lo in
                  zip((rows[i:j] for i, j in zip(first[a:b], ends[a:b], strict=True)),
                      low[a:b], strict=True)]
        if any(not np.array_equal(x, shapes[0]) for x in shapes[1:]):
            continue  # not one shape shifted: a gather, a boundary, a 2-D walk
        period = int(sizes[k]) // math.gcd(int(steps[k]), int(sizes[k]))
        if period < trace.launch.total_workgroups:
            out[int(sites[a])] = period
    return out


@numba.njit(cache=True, nogil=True)
def _wrapped_steps(ids, low, bounds, base, size):  # pragma: no cover - compiled
    """Per site (work-groups ``bounds[k]:bounds[k+1]`` of ``ids``/``low``): the step
    between consecutive work-groups modulo its array's size and that size, when the
    lowest addresses follow ``base + (low[0] - base + (w - w0) step) mod size`` and
    wrap at least once (module docstring); 0 and 0 otherwise."""
    n = len(bounds) - 1
    steps, sizes = np.zeros(n, np.int64), np.zeros(n, np.int64)
    for k in range(n):
        a, b = bounds[k], bounds[k + 1]
        if b - a < 3 or low[a] == np.iinfo(np.int64).max:
            continue
        j = 0
        while j < len(base) and not (base[j] <= low[a] < base[j] + size[j]):
            j += 1
        if j == len(base):
            continue
        m, step = size[j], -1
        for i in range(a + 1, b):  # the same step (mod m) in every run of neighbours
            if ids[i] == ids[i - 1] + 1:
                d = (low[i] - low[i - 1]) % m
                if step >= 0 and d != step:
                    step = 0
                    break
                step = d
        if step <= 0:
            continue
        wrapped = False
        for i in range(a, b):  # every work-group where the wrapped stride puts it
            ahead = low[a] - base[j] + (ids[i] - ids[a]) * step
            wrapped = wrapped or ahead >= m
            if base[j] + ahead % m != low[i]:
                step = 0
                break
        if step > 0 and wrapped:
            steps[k], sizes[k] = step, m
    return steps, sizes


_LOAD_SIDE = ("loads", "load_bytes", "load_hits", "load_misses")


def holding_level(spec: DeviceSpec, period: int, lines_per_workgroup: float) -> str | None:
    """The nearest cache that keeps a line from work-group ``w`` until ``w + period``
    reads it again: the L2 of the work-groups' XCD (work-group ``i`` runs on XCD
    ``i mod xcd_count``; the same XCD only when ``period`` is a multiple of it) when
    the lines those ``period / xcd_count`` work-groups touch fit its capacity, else
    the Infinity Cache (shared) when all ``period`` work-groups' lines fit; else None.

    >>> from gpusim.devices import get_spec
    >>> h200, mi300x = get_spec("h200"), get_spec("mi300x")
    >>> holding_level(h200, 1024, 256), holding_level(h200, 2048, 256)
    ('L2', None)
    >>> holding_level(mi300x, 1024, 256), holding_level(mi300x, 1028, 256)
    ('L2', 'MALL')
    """
    line = spec.l2_line_bytes
    if period % spec.xcd_count == 0 and (
            period // spec.xcd_count * lines_per_workgroup * line <= spec.l2_bytes):
        return "L2"
    if spec.infinity_cache_bytes and period * lines_per_workgroup * line <= (
            spec.infinity_cache_bytes):
        return "MALL"
    return None


def with_reuse(full: GpuMemoryResult, without: GpuMemoryResult, first: float,
               level: str) -> GpuMemoryResult:
    """``full`` (the sample's replay) with the wrapped loads' reuse: ``without`` is the
    replay of the same sample without those loads; in the whole launch only a fraction
    ``first`` (period / work-groups) of their line fills at ``level`` are first uses,
    the rest hit there. Below ``level`` their load traffic shrinks to that fraction."""
    names = list(full.levels)
    levels = {}
    for k, name in enumerate(names):
        f, w = full.levels[name], without.levels[name]
        d = dict(f)
        if name == level:
            saved = (1 - first) * (f["load_misses"] - w["load_misses"])
            d["load_misses"] -= saved
            d["load_hits"] += saved
        elif k > names.index(level):
            for key in _LOAD_SIDE:
                d[key] = w[key] + first * (f[key] - w[key])
        d["hits"] = d["load_hits"] + d["store_hits"]
        d["misses"] = d["load_misses"] + d["store_misses"]
        touched = d["hits"] + d["misses"]
        d["hit_rate"] = d["hits"] / touched if touched else 0.0
        levels[name] = d
    reads = without.hbm_read_bytes + first * (full.hbm_read_bytes - without.hbm_read_bytes)
    return dataclasses.replace(full, levels=levels, hbm_read_bytes=round(reads))
