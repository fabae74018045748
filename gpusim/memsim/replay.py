"""The timing model's replay: ``GpuMemoryModel.run(trace, detail=False)`` in one compiled call.

The default timing model (``gpusim.engine.estimate``) replays a sampled trace of a few
hundred rows at every first launch of a shape. ``GpuMemoryModel.run`` does that level by
level with NumPy between the levels: about 40 array operations of a few microseconds
each, more time than the caches themselves. ``replay`` runs the same steps in one numba
call, with the same compiled kernels::

    dispatch.place              device order, (XCD, CU) and step of every row
    coalescer.coalesce_batch    line requests of the global rows (+ _sector_masks)
    gpu._run_level              vL1D per CU  -> L2 per XCD  -> MALL   (lru.access_batch)
    gpu.no_fetch_on_write       plain stores' fills dropped below the L2 and the MALL
    lru.collect_dirty           kernel-end write-back of dirty L2 / MALL lines
    lru.count_stream            HBM bytes

and returns what ``run(detail=False)`` returns: every counter of every instance, the
requests between levels, HBM bytes, the coalescing summary, the dispatch; LDS bank
conflicts and atomic statistics come from ``run``'s own functions. The model's state
(warm L2 and MALL, counters) changes exactly as ``run`` changes it, so the two can be
mixed on one model. ``run`` stays the reference (tests/memsim/test_replay.py compares
them on random traces) and serves what only views read (per-site statistics, request
streams).

>>> from gpusim.memsim.gpu import GpuMemoryModel
>>> from gpusim.trace.record import Access, Trace, STORE
>>> prog = lambda t: [Access(4 * t.gid), Access((1 << 20) + 4 * t.gid, kind=STORE)]
>>> tr = Trace.from_lane_addresses(64, 256, prog)           # copy 64 KiB of floats
>>> r = replay(GpuMemoryModel("mi300x"), tr)
>>> r.requests_per_instruction, r.hbm_read_bytes, r.hbm_write_bytes
(2.0, 65536, 65536)
"""

from __future__ import annotations

import functools

import numba
import numpy as np

from gpusim.memsim.cache import Cache
from gpusim.memsim.coalescer import Coalesced, _popcount, _sector_masks, coalesce_batch
from gpusim.memsim.dispatch import Dispatch, check_shape, place
from gpusim.memsim.gpu import (
    DRAM_SECTOR,
    GpuMemoryModel,
    GpuMemoryResult,
    _atomic_stats,
    _level_dict,
    _run_level,
    hashed,
    no_fetch_on_write,
    resident_workgroups,
)
from gpusim.memsim.lru import collect_dirty, count_stream
from gpusim.trace.record import ATOMIC, GLOBAL, LOAD, Trace

_NONE = np.full((1, 1), -1, np.int64)  # tags and counters of an absent MALL
_REQUESTS = ("l1_to_l2_read", "l1_to_l2_write", "l1_to_l2_atomic", "l2_to_fabric_read",
             "l2_to_fabric_write")  # GpuMemoryResult.requests, in _replay's order


def replay(model: GpuMemoryModel, trace: Trace, *, workgroups_per_cu: int | None = None,
           flush: bool = True, flush_mall: bool = True) -> GpuMemoryResult:
    """``model.run(trace, detail=False, ...)`` in one compiled call (module docstring).

    >>> from gpusim.trace.record import Access
    >>> tr = Trace.from_lane_addresses(4, 64, lambda t: [Access(4 * t.gid)])  # 1 KiB read
    >>> replay(GpuMemoryModel("mi300x"), tr).levels["vL1D"]["misses"]
    8
    """
    spec = model.spec
    if workgroups_per_cu is None:
        workgroups_per_cu = resident_workgroups(trace, spec)
    check_shape(spec.xcd_count, spec.cus_per_xcd, workgroups_per_cu)
    mall = model.mall
    cold = model.touched == {}  # reset() since the last run: only filled sets are dirty
    before = None if cold else {k: v.copy() for k, v in model.counters.items()}  # else 0
    mem_before = None if cold else model.memory.copy()
    out = _replay(
        np.ascontiguousarray(trace.wave, np.int64),
        np.ascontiguousarray(trace.workgroup, np.int64),
        np.ascontiguousarray(trace.space, np.int8), np.ascontiguousarray(trace.kind, np.int8),
        np.ascontiguousarray(trace.addr, np.int64), np.ascontiguousarray(trace.active, np.bool_),
        np.ascontiguousarray(trace.bytes_per_lane, np.int64),
        spec.xcd_count, spec.cus_per_xcd, workgroups_per_cu,
        model.tags["vL1D"], model.counters["vL1D"], _geometry(model.l1),
        model.tags["L2"], model.counters["L2"], _geometry(model.l2),
        model.tags["MALL"] if mall else _NONE, model.counters["MALL"] if mall else _NONE,
        _geometry(mall or model.l2), mall is not None,
        model.hash_sets, DRAM_SECTOR.bit_length() - 1 if model.sectors else 0,
        flush, flush_mall, model.memory, cold,
    )  # fmt: skip
    (order, cu, step, wgs, wg_cu, wg_start, wg_end, waves,
     lines, offsets, requested, useful, requests, lowest, narrowest, l2_sets, mall_sets) = out
    model.touched = ({"L2": l2_sets, **({"MALL": mall_sets} if mall else {})} if cold
                     else None)
    if narrowest <= 0:  # found before any state changed, as coalesce() would say it
        raise ValueError("bytes_per_lane must be >= 1")
    if lowest < 0:
        raise ValueError(f"addresses must be >= 0; found {lowest}")
    per_inst = {k: v - before[k] if before else v.copy() for k, v in model.counters.items()}
    mem = model.memory - mem_before if mem_before is not None else model.memory.copy()
    lds_summary, lds_sites = model._lds(trace, False)
    lane_ops, hottest, line_stats = _atomic_stats(trace, model.l2.line_bits)
    d = Dispatch(order, cu // spec.cus_per_xcd, cu, step, wgs, wg_cu, wg_start, wg_end,
                 spec.xcd_count, spec.cus_per_xcd, workgroups_per_cu)
    return GpuMemoryResult(
        device=spec.key, per_instance=per_inst,
        requests=dict(zip(_REQUESTS, requests.tolist(), strict=True)),
        levels={k: _level_dict(v.sum(axis=0)) for k, v in per_inst.items()},
        hbm_read_bytes=int(mem[2]), hbm_write_bytes=int(mem[3]), instructions={},
        coalescing=Coalesced(lines, offsets, requested, useful, model.l1.line).summary(
            trace.kind[order[trace.space[order] == GLOBAL]] == LOAD),
        coalescing_by_site={}, lds=lds_summary, lds_by_site=lds_sites,
        atomic_lane_ops=lane_ops, atomic_hottest_line_ops=hottest, atomic_requests=line_stats,
        line_bytes={lv.name: lv.line for lv in (model.l1, model.l2, mall) if lv},
        waves=int(waves), workgroups=len(wgs), scale=trace.launch.scale, dispatch=d,
    )  # fmt: skip


@numba.njit(cache=True, nogil=True)
def _replay(wave, workgroup, space, kind, addr, active, width, xcds, cus, slots,
            l1_tags, l1_counters, l1, l2_tags, l2_counters, l2, mall_tags, mall_counters,
            mall, has_mall, hash_sets, sector_bits, flush, flush_mall, memory, cold
            ):  # fmt: skip
    """The steps of ``GpuMemoryModel.run`` in its order; the caches' state is updated in
    place. Returns the dispatch, the coalescer's arrays, the five request counts, the
    lowest address and narrowest access of the global rows (checked first), and the L2
    and MALL sets the requests reached (``cold``: the caches were empty, so the
    kernel-end flush sweeps only those)."""
    order, cu, step, wgs, wg_cu, wg_start, wg_end, waves = place(wave, workgroup, xcds,
                                                                 cus, slots)
    rows = order[space[order] == GLOBAL]  # global rows in device order
    g_addr, g_active, g_width = addr[rows], active[rows], width[rows]
    lowest = g_addr.min() if g_addr.size else 0
    narrowest = g_width.min() if g_width.size else 1
    requests = np.zeros(5, np.int64)
    if lowest < 0 or narrowest <= 0:
        empty = np.zeros(0, np.int64)
        return (order, cu, step, wgs, wg_cu, wg_start, wg_end, waves, empty,
                np.zeros(1, np.int64), empty, empty, requests, lowest, narrowest, empty,
                empty)
    l1_tags[:] = -1  # kernel-start invalidate of every vector L1
    l1_bits = l1[2]
    lines, offsets, requested, useful = coalesce_batch(g_addr, g_active, g_width, l1_bits)
    n_req = lines.shape[0]
    store = np.empty(n_req, np.uint8)
    req_cu = np.empty(n_req, np.int64)
    inst = np.empty(n_req, np.int64)  # the request's CU; -1: an atomic, past the vL1D
    is_atomic = np.zeros(n_req, np.bool_)
    for k in range(rows.shape[0]):
        r = rows[k]
        for j in range(offsets[k], offsets[k + 1]):
            store[j] = kind[r] != LOAD
            is_atomic[j] = kind[r] == ATOMIC
            req_cu[j] = cu[r]
            inst[j] = -1 if is_atomic[j] else cu[r]
    # vL1D -> L2 -> MALL -> HBM; (a, s, st, src) = what a level sends down
    into_l1 = hashed(lines, l1_bits) if hash_sets else lines
    a, s, st, src1 = _level(l1_tags, l1_counters, l1, into_l1,
                               np.full(1, np.int64(1) << l1_bits), store, inst)
    plain_store = (st == 1) & ~is_atomic[src1]  # atomics need the old data: they fetch
    xcd = req_cu[src1] // cus
    fills = 0
    for j in range(st.shape[0]):
        fills += st[j] == 0
    requests[0] = fills  # vL1D fills
    requests[2] = is_atomic.sum()
    requests[1] = st.shape[0] - fills - requests[2]  # write-throughs
    l2_sets = (_sets_of(a, s, xcd, l2, l2_tags.shape[0]) if cold
               else np.zeros(0, np.int64))
    a, s, st, src2 = _level(l2_tags, l2_counters, l2, a, s, st, xcd)
    if sector_bits:  # an L2 fill reads only the sectors its request asked for
        wanted = _popcount(_sector_masks(g_addr, g_active, g_width, lines, offsets,
                                         l1_bits, sector_bits)) << sector_bits
        for j in range(s.shape[0]):
            if st[j] == 0:
                s[j] = min(s[j], wanted[src1[src2[j]]])
    a, s, st, _ = no_fetch_on_write(a, s, st, plain_store, src2)
    if flush:
        a, s, st = _flush(l2_tags, l2_counters, l2, a, s, st, l2_sets, cold)
    n_writes = 0
    for j in range(st.shape[0]):
        n_writes += st[j] != 0
    requests[3] = st.shape[0] - n_writes  # L2 line fills (load or atomic misses)
    requests[4] = n_writes  # L2 write-backs, kernel-end flush included
    mall_sets = np.zeros(0, np.int64)
    if has_mall:
        plain_store = st == 1  # everything the L2 writes is a whole-line write-back
        at_mall = np.zeros(a.shape[0], np.int64)
        if cold:
            mall_sets = _sets_of(a, s, at_mall, mall, mall_tags.shape[0])
        a, s, st, src3 = _level(mall_tags, mall_counters, mall, a, s, st, at_mall)
        a, s, st, _ = no_fetch_on_write(a, s, st, plain_store, src3)
        if flush and flush_mall:
            a, s, st = _flush(mall_tags, mall_counters, mall, a, s, st, mall_sets, cold)
    count_stream(s, st, a.shape[0], memory)
    return (order, cu, step, wgs, wg_cu, wg_start, wg_end, waves, lines, offsets,
            requested, useful, requests, lowest, narrowest, l2_sets, mall_sets)



@functools.lru_cache(maxsize=64)  # never written: the same few levels at every first launch
def _geometry(spec: Cache) -> np.ndarray:
    """A level's numbers for ``_level``: sets, ways, line bits, write-back,
    write-allocate, stores refresh LRU."""
    return np.array([spec.sets, spec.ways, spec.line_bits, spec.write_back,
                     spec.write_allocate, spec.store_updates_lru], np.int64)


# The two helpers below are ``GpuMemoryModel._level`` and ``._flush`` compiled; inlined
# into ``_replay`` (each compiled function re-optimises everything it calls: a first
# launch on an empty numba cache pays for every level of calls).
@numba.njit(cache=True, nogil=True, inline="always")
def _level(tags, counters, geometry, addr, size, store, inst):
    """``_run_level`` with room for the worst case (two requests out per line touched):
    the outgoing (addr, size, store, source)."""
    sets, ways, line_bits, write_back, write_allocate, store_lru = geometry
    size_step = 1 if size.shape[0] > 1 else 0
    lines = 0
    for i in range(addr.shape[0]):
        a = addr[i]
        lines += ((a + size[i * size_step] - 1) >> line_bits) - (a >> line_bits) + 1
    cap = 2 * lines + 2
    out_addr, out_size = np.empty(cap, np.int64), np.empty(cap, np.int64)
    out_store, out_src = np.empty(cap, np.uint8), np.empty(cap, np.int64)
    n = _run_level(tags, counters, sets, ways, line_bits, write_back != 0,
                   write_allocate != 0, store_lru != 0, addr, size, store, inst,
                   out_addr, out_size, out_store, out_src)  # fmt: skip
    return out_addr[:n], out_size[:n], out_store[:n], out_src[:n]


@numba.njit(cache=True, nogil=True, inline="always")
def _sets_of(addr, size, inst, geometry, instances):
    """``instance * sets + set`` of every line the requests reach, sorted, once each."""
    sets, line_bits = geometry[0], geometry[2]
    size_step = 1 if size.shape[0] > 1 else 0
    seen = np.zeros(instances * sets, np.bool_)
    out = np.empty(min(seen.shape[0], 2 * addr.shape[0] + 16), np.int64)
    n = 0
    for i in range(addr.shape[0]):
        a = addr[i]
        for line in range(a >> line_bits, ((a + size[i * size_step] - 1) >> line_bits) + 1):
            f = inst[i] * sets + line % sets
            if not seen[f]:
                seen[f] = True
                if n == out.shape[0]:  # requests spanning several lines: grow
                    bigger = np.empty(min(seen.shape[0], 2 * n), np.int64)
                    bigger[:n] = out
                    out = bigger
                out[n] = f
                n += 1
    if 16 * n < seen.shape[0]:  # a few: sort them
        return np.sort(out[:n])
    n = 0  # many: the flags hold them in order
    for f in range(seen.shape[0]):
        if seen[f]:
            out[n] = f
            n += 1
    return out[:n].copy()


@numba.njit(cache=True, nogil=True, inline="always")
def _flush(tags, counters, geometry, addr, size, store, touched, cold):
    """The stream with every instance's dirty lines appended as line-sized stores; with
    ``cold``, only the ``touched`` sets can hold any (in the order a full sweep finds
    them: by instance, then set)."""
    sets, ways, line_bits = geometry[0], geometry[1], geometry[2]
    n = addr.shape[0]
    buf = np.empty(n + (touched.shape[0] * ways if cold else tags.shape[0] * tags.shape[1]),
                   np.int64)
    buf[:n] = addr
    m = n
    if cold:
        for f in touched:
            first = f % sets * ways
            m += collect_dirty(tags[f // sets, first:first + ways], counters[f // sets],
                               line_bits, buf[m:])
    else:
        for i in range(tags.shape[0]):
            m += collect_dirty(tags[i], counters[i], line_bits, buf[m:])
    sizes = np.full(m, np.int64(1) << line_bits)
    stores = np.ones(m, np.uint8)
    sizes[:n] = size
    stores[:n] = store
    return buf[:m].copy(), sizes, stores
