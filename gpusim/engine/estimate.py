"""Default modeled time of a launch: a traced sample of work-groups, scaled, memoised.

Every launch gets a time that reflects its accesses and instructions, without a full
trace::

    launch_key(launch)      kernel + argument types, grid, block, LDS, device, each
                            array's shape and strides, scalar values, and the address
                            of every integer array (its contents may be indices)
      memo hit            --> the time and breakdown of the first such launch
      miss: a Tracer(sample=SAMPLE) --> about SAMPLE work-groups spread over the grid run
                              instrumented (runs of consecutive ones; half of them
                              when the first half's work-groups all do the same work:
                              ``trace.tracer._phases``; fewer past ~32 K lane accesses:
                              ``TraceLimits.sample_events``), the rest fast
            estimate()    --> the memory model on a *scaled machine*, then
                              timing.kernel_time on the real one

The scaled machine keeps the ratios that decide cache behaviour when only a fraction
``f`` of the work-groups is replayed: compute units and cache capacities (L2, Infinity
Cache) shrink by the same factor (``scaled_spec``), so the sample's resident
work-groups per cache byte and its reuse distance per cache byte match the whole
launch's (set sampling, as in cache-simulation literature; the vL1D is per CU and stays
whole). The scaled machine also hashes addresses to cache sets (``hash_sets``: a
2-D array's rows do not all fall in one set) and fills L2 misses by 64-byte pieces
(``sectors``), both calibrated against an H200 (benchmarks/calibration).
``breakdown["estimate"]`` says which way the time was made: ``"sampled"``,
``"memo"``, ``"traced"``, or ``"first-order"`` when the sample could not be traced (an
internal failure of the trace variant, never the user's: ``first_order``; the launch
itself runs as usual and ``breakdown["estimate_failure"]`` says why).
A memo entry is stale when an integer array's *contents* change between launches of
the same shapes (say, a new permutation in the same buffer):
re-allocate, or trace (``gpusim.config.trace``) to model that launch again.

>>> from gpusim.devices import get_spec
>>> small = scaled_spec(get_spec("mi300x"), 1 / 38)
>>> small.cu_count, small.xcd_count, small.l2_bytes // 1024
(8, 8, 108)
"""

from __future__ import annotations

import dataclasses
import functools
import math
import threading
from typing import Any

import numpy as np

from gpusim.devices import DeviceSpec
from gpusim.memsim import GpuMemoryModel
from gpusim.memsim.chase import longest_chain
from gpusim.memsim.period import holding_level, with_reuse, wrapped_loads
from gpusim.memsim.replay import replay
from gpusim.occupancy_model import occupancy
from gpusim.timing import kernel_estimate, kernel_time
from gpusim.trace.record import GLOBAL
from gpusim.trace.tracer import TracedLaunch

ENABLED = True  # False: launches keep the first-order estimate (benchmarks' baseline)
SAMPLE = 64  # work-groups traced per modeled launch at most (a grid this small: all,
# unless their lane accesses pass trace.tracer.LIMITS.sample_events)
MEMO_SIZE = 4096  # remembered launch shapes; the oldest half goes when it is full
_memo: dict[tuple, tuple[float, dict]] = {}
_models: dict[DeviceSpec, GpuMemoryModel] = {}
_lock = threading.Lock()


def launch_key(launch: Any) -> tuple:
    """What a launch's modeled time depends on (module docstring)."""
    # the kernel's dispatcher itself, not its id(): the key keeps it alive, so a kernel
    # collected and replaced by another at the same address cannot alias its entry
    parts: list[Any] = [launch.kernel.run, launch.grid, launch.block,
                        launch.dynamic_lds_bytes, launch.device.key]
    for a in launch.args:
        if isinstance(a, np.ndarray):
            parts.append((a.shape, a.strides, a.dtype.str,
                          a.ctypes.data if a.dtype.kind in "iu" else 0))
        elif isinstance(a, np.void):  # a record scalar: mutable, so its type and bytes
            parts.append((a.dtype, a.tobytes()))
        elif isinstance(a, (int, float, complex, bool, np.generic)):
            parts.append(a)
        else:  # records, tuples: their type
            parts.append(type(a))
    return tuple(parts)


def remembered(key: tuple) -> tuple[float, dict] | None:
    """The memoised (seconds, breakdown) of an earlier launch with this key, if any."""
    hit = _memo.get(key)
    if hit is None:
        return None
    return hit[0], {**hit[1], "estimate": "memo"}


def forget() -> None:
    """Drop every memoised launch time (the next launch of each shape is modeled again)."""
    with _lock:
        _memo.clear()


@functools.lru_cache(maxsize=256)  # replace() re-validates the spec: ~0.1 ms a call
def scaled_spec(spec: DeviceSpec, fraction: float, shared: float = 1.0) -> DeviceSpec:
    """``spec`` with CUs, L2 and Infinity Cache scaled by about ``fraction`` (at least one
    CU per XCD and one set per cache); vL1D, bandwidths and everything else unchanged.
    ``shared`` (``shared_footprint``): how many times larger the caches are kept because
    the sample's lines are also the other work-groups' lines."""
    if fraction >= 1:
        return spec
    cus = max(1, round(spec.cus_per_xcd * fraction)) * spec.xcd_count
    kept = min(1.0, cus / spec.cu_count * shared)  # caches follow the CUs, and the sharing

    def cache(size: int, line: int, ways: int) -> int:
        unit = line * ways
        return max(1, round(size * kept / unit)) * unit if size else 0

    return dataclasses.replace(
        spec, cu_count=cus, l2_channels=1,  # channels only matter for bandwidth (real spec)
        l2_bytes=cache(spec.l2_bytes, spec.l2_line_bytes, spec.l2_ways),
        infinity_cache_bytes=cache(spec.infinity_cache_bytes,
                                   spec.infinity_cache_line_bytes, 16))  # fmt: skip


@functools.lru_cache(maxsize=1024)  # ~0.25 ms a call; a first launch's time counts
def _occupancy(threads: int, lds_bytes: int, spec: DeviceSpec, regs: tuple) -> Any:
    vgprs, sgprs, agprs = regs
    return occupancy(block_size=threads, lds_bytes=lds_bytes, device=spec, vgprs=vgprs,
                     sgprs=sgprs, agprs=agprs)


def estimate(traced: TracedLaunch, spec: DeviceSpec, *, block: tuple, lds_bytes: int,
             resources: dict | None = None, key: tuple | None = None,
             extents: list[tuple[int, int]] | None = None,
             arrays: list | None = None, warm: tuple | None = None
             ) -> tuple[float, dict[str, Any]]:
    """(seconds, breakdown) of a launch from its sampled trace; memoised under ``key``.
    ``extents``: (address, bytes) of the array arguments, where a wrapped index lands
    (``memsim.period``); ``arrays``: the array arguments (their contents find dependent
    loads, ``memsim.chase``); ``warm``: per extent, whether earlier kernels left it in
    the caches (``memsim.residency``): its accesses are replayed once before the timed
    replay, the vL1D invalidated in between (kernel start)."""
    regs = tuple((resources or {}).get(k) for k in ("vgprs", "sgprs", "agprs"))
    occ = _occupancy(math.prod(block), lds_bytes, spec, regs)
    fraction = traced.traced_workgroups / traced.total_workgroups
    shared = shared_footprint(traced.trace, extents, fraction) if fraction < 1 else 1.0
    small = scaled_spec(spec, fraction, shared)
    with _lock:  # one model per scaled machine, cold for every kernel
        model = _models.get(small)
        if model is None:
            model = _models[small] = GpuMemoryModel(small, hash_sets=True, sectors=True)
        per_cu = max(1, occ.workgroups_per_cu)
        model.reset()
        warmed = warm_up(model, traced.trace, extents, warm, per_cu)
        mem = replay(model, traced.trace, workgroups_per_cu=per_cu)
        wrapped = wrapped_loads(traced.trace, extents) if traced.sampled and extents else {}
        level = _holding(spec, traced.trace, wrapped)
        if level is not None:  # reuse the sample cannot see: replay it without those loads
            model.reset()
            warm_up(model, traced.trace, extents, warm, per_cu)
            rest = traced.trace.take(np.flatnonzero(~np.isin(traced.trace.site, list(wrapped))))
            without = replay(model, rest, workgroups_per_cu=per_cu)
            mem = with_reuse(mem, without, max(wrapped.values()) / traced.total_workgroups,
                             level)
    seconds, breakdown = kernel_time(spec, traced.counts, mem,
                                     occupancy=max(1, occ.waves_per_simd),
                                     workgroups=traced.total_workgroups,
                                     **chain_of(traced, extents, arrays))
    breakdown["estimate"] = "sampled" if traced.sampled else "traced"
    breakdown["warm_caches"] = warmed
    if traced.extrapolated != 1.0:  # a work-group's rows past TraceLimits.max_rows
        breakdown["truncated_extrapolated"] = traced.extrapolated
    breakdown["traced_workgroups"] = float(traced.traced_workgroups)
    if level is not None:
        breakdown["wrapped_period"] = float(max(wrapped.values()))
    if key is not None:
        with _lock:
            if len(_memo) >= MEMO_SIZE:
                for old in list(_memo)[: MEMO_SIZE // 2]:
                    del _memo[old]
            _memo[key] = (seconds, breakdown)
    return seconds, breakdown


def shared_footprint(trace: Any, extents: list[tuple[int, int]] | None,
                     fraction: float, line: int = 128) -> float:
    """How much the caches of the scaled machine must grow because work-groups share data.

    Shrinking the caches with the sample (``scaled_spec``) is right when each work-group
    has lines of its own: the whole launch's footprint is the sample's divided by
    ``fraction``. It cannot exceed the arrays themselves, though: when every work-group
    re-reads one buffer (a table, a matrix operand, a cache benchmark), the whole launch's
    footprint in that array is at most the array. So per array extent, the projected
    footprint is min(sample's lines / fraction, the extent's lines), and the caches keep
    (sample's lines / fraction) / projected times their scaled size, rounded down to a
    power of two (one memory model per size). 1 when the work-groups share nothing.

    >>> from gpusim.trace.record import Trace, Access
    >>> tr = Trace.from_lane_addresses(1, 64, lambda t: [Access(4096 + 4 * t.tx, bytes=4)])
    >>> shared_footprint(tr, [(4096, 256)], 1 / 64)      # all 64 work-groups read it
    64.0
    >>> shared_footprint(tr, [(4096, 64 * 256)], 1 / 64)  # each its own 256 B
    1.0
    """
    if not extents:
        return 1.0
    glob = trace.space == GLOBAL
    lines = np.unique(trace.addr[glob][trace.active[glob]].astype(np.int64) // line)
    if not len(lines):
        return 1.0
    private = float(len(lines))
    projected = 0.0
    for addr, nbytes in extents:
        lo, hi = addr // line, -(-(addr + nbytes) // line)
        inside = int(np.searchsorted(lines, hi) - np.searchsorted(lines, lo))
        if inside:
            private -= inside
            projected += min(inside / fraction, hi - lo)
    projected += private / fraction
    share = len(lines) / fraction / projected
    return float(2 ** math.floor(math.log2(max(1.0, share)) + 1e-9))


def chain_of(traced: TracedLaunch, extents: list | None, arrays: list | None) -> dict:
    """``kernel_time``'s ``chain`` and ``chain_bytes``: the longest dependent-load chain of
    one wave (``memsim.chase``), scaled up when a work-group's rows were cut short
    (``TracedLaunch.extrapolated``), and the bytes it wanders over; zeros without one."""
    if not extents or not arrays:
        return {"chain": 0.0, "chain_bytes": 0.0}
    pairs = [(a, x) for (a, _), x in zip(extents, arrays, strict=False)]
    n, nbytes = longest_chain(traced.trace, pairs)
    if n < 2:
        return {"chain": 0.0, "chain_bytes": 0.0}
    return {"chain": float(n) * traced.extrapolated, "chain_bytes": float(nbytes)}


def warm_up(model: GpuMemoryModel, trace: Any, extents: list | None, warm: tuple | None,
            per_cu: int) -> bool:
    """Replay ``trace``'s global accesses to the warm extents (what earlier kernels left in
    the L2 and Infinity Cache), then invalidate the vL1D as a kernel start does. True if
    anything was warmed."""
    if not extents or not warm or not any(warm):
        return False
    glob = trace.space == GLOBAL
    lane = np.argmax(trace.active, axis=1)
    first = trace.addr[np.arange(len(lane)), lane]
    keep = np.zeros(len(first), bool)
    for (addr, nbytes), w in zip(extents, warm, strict=False):
        if w:
            keep |= (first >= addr) & (first < addr + nbytes)
    rows = np.flatnonzero(glob & keep)
    if not len(rows):
        return False
    replay(model, trace.take(rows), workgroups_per_cu=per_cu)
    model.tags["vL1D"][:] = -1
    return True


def _holding(spec: DeviceSpec, trace: Any, wrapped: dict[int, int]) -> str | None:
    """Where the wrapped loads' lines wait for their next use (``period.holding_level``),
    from the distinct global lines a traced work-group touches; the longest period
    decides (a site with a shorter one reuses sooner)."""
    if not wrapped:
        return None
    glob = np.flatnonzero(trace.space == GLOBAL)
    lines = trace.addr[glob] >> (spec.l2_line_bytes.bit_length() - 1)
    wg = np.broadcast_to(trace.workgroup[glob, None], lines.shape)
    on = trace.active[glob]
    pairs = np.unique(np.stack([wg[on], lines[on]]), axis=1)
    per_wg = pairs.shape[1] / len(np.unique(trace.workgroup))
    return holding_level(spec, max(wrapped.values()), per_wg)


def first_order(spec: DeviceSpec, *, threads: int, bytes_moved: int, failure: str
                ) -> tuple[float, dict[str, Any]]:
    """(seconds, breakdown) when the sampled trace failed: ``timing.kernel_estimate``'s
    roofline, with the reason in the breakdown (not memoised: the next launch says it too).

    >>> from gpusim.devices import get_spec
    >>> t, why = first_order(get_spec("mi300x"), threads=1024, bytes_moved=8192, failure="x")
    >>> why["estimate"], why["estimate_failure"]
    ('first-order', 'x')
    """
    seconds, breakdown = kernel_estimate(spec, threads=threads, bytes_moved=bytes_moved)
    return seconds, {**breakdown, "estimate": "first-order", "estimate_failure": failure}
