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
>>> from gpusim.trace.record import Access, Trace
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

import numba
import numpy as np

from gpusim.devices import DeviceSpec
from gpusim.memsim.gpu import GpuMemoryResult
from gpusim.trace.record import GLOBAL, LOAD, Trace


def wrapped_loads(trace: Trace, extents: list[tuple[int, int]]) -> dict[int, int]:
    """Global load sites whose addresses repeat every ``P`` work-groups, ``P`` smaller
    than the grid: ``{site: P}``. ``extents``: (device address, bytes) of each array
    argument (where an index can wrap around)."""
    if not len(trace) or not extents:
        return {}
    base, size = (np.array(v, np.int64) for v in zip(*extents, strict=True))
    sites, periods = _wrapped(trace.site, trace.workgroup, trace.space, trace.kind,
                              trace.addr, trace.active, base, size,
                              trace.launch.total_workgroups)
    return dict(zip(sites.tolist(), periods.tolist(), strict=True))


@numba.njit(cache=True, nogil=True)
def _wrapped(site, workgroup, space, kind, addr, active, base, size, total
             ):  # pragma: no cover - compiled
    """``wrapped_loads`` in one pass (a first launch pays for it): the global loads
    grouped by (site, work-group), each group's lowest address, the steps
    (``_wrapped_steps``), then the shape check of the candidates only."""
    rows = np.flatnonzero((space == GLOBAL) & (kind == LOAD))
    none = np.zeros(0, np.int64)
    if rows.shape[0] == 0:
        return none, none
    key = site[rows].astype(np.int64) * (np.int64(1) << 40) + workgroup[rows]
    rows = rows[np.argsort(key, kind="mergesort")]  # stable: rows keep trace order
    key = site[rows].astype(np.int64) * (np.int64(1) << 40) + workgroup[rows]
    big = np.iinfo(np.int64).max
    first = [0]  # where each (site, work-group) group starts
    for i in range(1, rows.shape[0]):
        if key[i] != key[i - 1]:
            first.append(i)
    first.append(rows.shape[0])
    starts = np.array(first)
    ngroups = starts.shape[0] - 1
    low = np.full(ngroups, big)
    ids, gsite = np.empty(ngroups, np.int64), np.empty(ngroups, np.int64)
    bounds = [0]  # where each site's groups start
    for g in range(ngroups):
        r0 = rows[starts[g]]
        ids[g], gsite[g] = workgroup[r0], site[r0]
        if g and gsite[g] != gsite[g - 1]:
            bounds.append(g)
        for i in range(starts[g], starts[g + 1]):
            r = rows[i]
            for lane in range(addr.shape[1]):
                if active[r, lane] and addr[r, lane] < low[g]:
                    low[g] = addr[r, lane]
    bounds.append(ngroups)
    edges = np.array(bounds)
    steps, sizes = _wrapped_steps(ids, low, edges, base, size)
    out_site, out_period = [], []
    for k in range(edges.shape[0] - 1):
        if steps[k] == 0:
            continue
        same, shape0 = True, none  # every group one shape, shifted: not a gather or a walk
        for g in range(edges[k], edges[k + 1]):
            lanes = []
            for i in range(starts[g], starts[g + 1]):
                r = rows[i]
                for lane in range(addr.shape[1]):
                    if active[r, lane]:
                        lanes.append(addr[r, lane] - low[g])
            shape = np.unique(np.array(lanes))
            if g == edges[k]:
                shape0 = shape
            elif shape.shape[0] != shape0.shape[0] or (shape != shape0).any():
                same = False
                break
        period = sizes[k] // np.gcd(steps[k], sizes[k])
        if same and period < total:
            out_site.append(gsite[edges[k]])
            out_period.append(period)
    return np.array(out_site, np.int64), np.array(out_period, np.int64)


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
