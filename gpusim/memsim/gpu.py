"""``GpuMemoryModel``: the whole device's memory system replaying one kernel's trace.

::

    Trace --dispatch.py--> rows in device order, each with its (XCD, CU)
      | global rows                                       | LDS rows
      v                                                   v
    coalesce(): line requests per instruction          bank_conflicts(): cycles,
      |                                                  extra cycles per instruction
      v   loads, stores                 atomics (bypass vL1D)
    vL1D   one state per CU  --------------+
      |    misses (fills), write-throughs  |
      v                                    v
    L2     one state per XCD   (atomics: read-modify-write, line made dirty)
      |    misses, write-backs (+ flush of dirty lines at kernel end)
      v
    MALL   one shared Infinity Cache (MI300X, RX 7900 XTX; absent elsewhere)
      |    misses, write-backs (+ flush: written data is charged to this kernel)
      v
    HBM    bytes read and written

Each level is one numba call over the whole request stream in device order: the call
walks the stream and sends each request to its instance's state (the CU's vL1D, the
XCD's L2) through ``lru.access_batch``, so all the levels' semantics are those of
``Hierarchy`` (tested against pycachesim), and what a level emits keeps the global
order for the level below. Never one Python call per access.

Modelled choices, with reasons:

- vL1D is invalidated at kernel start (LLVM AMDGPUUsage, memory model: the command
  processor invalidates the vector L1 between kernel dispatches); L2 and MALL stay
  warm between kernels of one model, like hardware.
- Atomics skip the vL1D and are performed at the L2 (device-scope atomics on
  coarse-grained memory; the L2 is the coherence point: ROCm Compute Profiler docs,
  *L2 cache*). Modelled as a store at the L2: a miss fetches the line, the line
  becomes dirty. System-scope / fine-grained atomics (which go past the L2) are not
  modelled.
- A store that misses allocates its line without fetching it: GPU caches track dirty
  bytes, so writing never reads memory (an atomic does fetch: it reads the old value).
- Stores move whole lines between levels (the coalescer's requests are whole lines);
  byte masks and partial write-backs are not modelled, so HBM write bytes of sparse
  stores are an upper bound.
- At kernel end dirty L2 lines are written back (the kernel-end release) and, so the
  kernel pays for what it wrote, dirty MALL lines are written to HBM too
  (``flush_mall=False`` leaves them in the memory-side cache, as hardware does).

>>> from gpusim.trace.record import Access, Trace, STORE
>>> prog = lambda t: [Access(4 * t.gid), Access((1 << 20) + 4 * t.gid, kind=STORE)]
>>> tr = Trace.from_lane_addresses(64, 256, prog)           # copy 64 KiB of floats
>>> r = GpuMemoryModel("mi300x").run(tr)
>>> r.requests_per_instruction, r.hbm_read_bytes, r.hbm_write_bytes
(2.0, 65536, 65536)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from gpusim.devices import DeviceSpec, get_spec
from gpusim.memsim.cache import COUNTER_NAMES, Cache, counters_dict
from gpusim.memsim.coalescer import coalesce, sector_bytes
from gpusim.memsim.device import MALL_WAYS, levels_for
from gpusim.memsim.dispatch import Dispatch, dispatch_for
from gpusim.memsim.lds import LdsConflicts, rows_conflicts
from gpusim.memsim.lru import access_batch, collect_dirty
from gpusim.memsim.streams import LevelStream, outcomes
from gpusim.trace.record import ATOMIC, GLOBAL, LDS, LOAD, STORE, Trace

# With ``sectors=True`` an L2 miss fetches the 64-byte pieces of the line its request
# touched, not the whole line: NVIDIA L2 lines are four 32 B sectors (CUDA C++
# Programming Guide, 'Device Memory Accesses') fetched at the L2's fetch granularity,
# 64 B by default on the H200 (measured: cuCtxGetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY)
# returns 64, benchmarks/calibration/README.md); AMD's L2 issues 32 B and 64 B fabric
# reads (ROCm Compute Profiler docs, 'L2 cache': TCC_EA0_RDREQ_32B / 64B; 64 B for AMD is
# a model assumption). Capacity stays per line, and the pieces a later request wants
# from a line already present count as hits: read bytes are then a lower bound (exact
# when each line's pieces are wanted together, as in strided and coalesced access).
# The default timing model uses it; full traces do not.
DRAM_SECTOR = 64


@dataclass
class GpuMemoryResult:
    """What one kernel did to the memory system (plain data, for counters and views).

    ``levels[name]``: counters of that level summed over its instances (``COUNTER_NAMES``
    plus ``hits``, ``misses``, ``hit_rate``); ``per_instance[name]``: [instances,
    counters] arrays (vL1D per CU, L2 per XCD). ``requests``: line requests between
    levels. ``coalescing`` / ``lds``: totals; ``*_by_site``: per static instruction.
    ``streams``: each level's requests with time step and outcome (``streams.py``).
    Counts cover the traced workgroups; ``scale`` turns them into whole-launch estimates.
    """

    device: str
    levels: dict[str, dict[str, float]]
    per_instance: dict[str, np.ndarray] = field(repr=False)
    requests: dict[str, int]
    hbm_read_bytes: int
    hbm_write_bytes: int
    instructions: dict[str, int]
    coalescing: dict[str, float]
    coalescing_by_site: dict[int, dict[str, float]] = field(repr=False)
    lds: dict[str, float]
    lds_by_site: dict[int, dict[str, float]] = field(repr=False)
    atomic_lane_ops: int
    atomic_hottest_line_ops: int
    atomic_requests: np.ndarray = field(repr=False)  # [line address, same-word lanes]
    line_bytes: dict[str, int]
    waves: int
    workgroups: int
    scale: float
    dispatch: Dispatch | None = field(default=None, repr=False)
    streams: dict[str, LevelStream] = field(default_factory=dict, repr=False)

    @property
    def requests_per_instruction(self) -> float:
        """Line requests per global memory instruction (1-2 coalesced, up to 64 not)."""
        return self.coalescing["requests_per_instruction"]


class GpuMemoryModel:
    """Per-CU vL1D, per-XCD L2, one MALL and HBM of a device (module docstring).

    ``run(trace, workgroups_per_cu=...)`` replays a kernel; state persists between
    runs (warm L2/MALL) until ``reset()``.
    """

    def __init__(
        self, spec: DeviceSpec | str, *, infinity_cache: bool = True, mall_ways: int = MALL_WAYS,
        hash_sets: bool = False, sectors: bool = False,
    ) -> None:
        self.spec = get_spec(spec) if isinstance(spec, str) else spec
        self.hash_sets = hash_sets  # XOR-fold high line bits into the set index (hashed)
        self.sectors = sectors  # L2 fills read only the requested sectors (DRAM_SECTOR)
        levels = levels_for(self.spec, infinity_cache=infinity_cache, mall_ways=mall_ways)
        self.l1, self.l2 = levels[0], levels[1]
        self.mall: Cache | None = levels[2] if len(levels) > 2 else None
        count = {"vL1D": self.spec.cu_count, "L2": self.spec.xcd_count, "MALL": 1}
        self.tags = {
            c.name: np.full((count[c.name], c.sets * c.ways), -1, np.int64) for c in levels
        }
        self.counters = {
            c.name: np.zeros((count[c.name], len(COUNTER_NAMES)), np.int64) for c in levels
        }
        self.memory = np.zeros(4, np.int64)  # HBM loads, stores, load bytes, store bytes
        # (instance x sets + set) of every L2 / MALL set filled since the last reset, when
        # only a replay ran (memsim/replay.py), else None: reset() and the next replay's
        # kernel-end flush then need not sweep a scaled machine's 100 000 MALL ways
        self.touched: dict[str, np.ndarray] | None = {}

    def reset(self) -> None:
        """Cold caches and zero counters."""
        for name, level in self.levels.items():
            if self.touched is None or name == "vL1D":  # (a vL1D is small)
                self.tags[name][:] = -1
            elif name in self.touched:
                clear_sets(self.tags[name], self.touched[name], level.sets, level.ways)
            self.counters[name][:] = 0
        self.memory[:] = 0
        self.touched = {}

    @property
    def levels(self) -> dict[str, Cache]:
        """Each level's ``Cache`` by name."""
        return {c.name: c for c in (self.l1, self.l2, self.mall) if c is not None}

    def run(
        self,
        trace: Trace,
        *,
        workgroups_per_cu: int | None = None,
        flush: bool = True,
        flush_mall: bool = True,
        detail: bool = True,
    ) -> GpuMemoryResult:
        """Replay ``trace``; ``workgroups_per_cu`` from the occupancy model (default: as
        many as wave slots and barriers allow, i.e. no register or LDS limit).
        ``detail=False`` leaves out what only views and records read (per-level request
        streams, per-site statistics, instruction counts): the timing model needs none."""
        spec = self.spec
        if workgroups_per_cu is None:
            workgroups_per_cu = resident_workgroups(trace, spec)
        before = {k: v.copy() for k, v in self.counters.items()}
        mem_before = self.memory.copy()
        self.touched = None  # run() changes sets replay() does not record
        self.tags["vL1D"][:] = -1  # kernel-start invalidate of every vector L1

        d = dispatch_for(trace, spec, workgroups_per_cu)
        glob = np.flatnonzero(trace.space[d.order] == GLOBAL)
        rows = d.order[glob]  # global rows in device order
        c = coalesce(
            trace.addr[rows], trace.active[rows], trace.bytes_per_lane[rows], line=self.l1.line
        )
        nreq = c.requests
        kind = np.repeat(trace.kind[rows], nreq)
        cu = np.repeat(d.cu[rows], nreq)
        step = np.repeat(d.step[rows], nreq)
        is_atomic = kind == ATOMIC
        inst = np.where(is_atomic, -1, cu)  # atomics pass the vL1D untouched
        store = (kind != LOAD).astype(np.uint8)
        size = np.full(1, self.l1.line, np.int64)
        # vL1D -> L2 -> MALL -> HBM: each level one call over the whole request stream;
        # (a, s, st, src) = what a level sends down: address, size, store?, source index.
        lines = hashed(c.lines, self.l1.line_bits) if self.hash_sets else c.lines
        a, s, st, src = self._level(self.l1, lines, size, store, inst)
        streams: dict[str, LevelStream] = {}
        keep = streams if detail else None  # where the levels record their streams
        if keep is not None:
            keep["vL1D"] = LevelStream(lines, step, inst, outcomes(store, src, st))
        wanted = sector_bytes(c, trace.addr[rows], trace.active[rows], trace.bytes_per_lane[rows],
                              DRAM_SECTOR)[src] if self.sectors else None
        l1_store = st
        a, s, st, step = self._l2_pass(a, s, st, step[src], (cu // spec.cus_per_xcd)[src],
                                       is_atomic[src], wanted, d.steps if flush else None, keep)
        requests = _request_counts(l1_store, is_atomic, st)
        if self.mall is not None:
            a, s, st = self._mall_pass(self.mall, a, s, st, step, flush and flush_mall, keep)
        self._count_memory(a, s, st)

        per_inst = {k: v - before[k] for k, v in self.counters.items()}
        mem = self.memory - mem_before
        lds_summary, lds_sites = self._lds(trace, detail)
        lane_ops, hottest, line_stats = _atomic_stats(trace, self.l2.line_bits)
        return GpuMemoryResult(
            device=spec.key, per_instance=per_inst,
            levels={k: _level_dict(v.sum(axis=0)) for k, v in per_inst.items()},
            requests=requests,
            hbm_read_bytes=int(mem[2]), hbm_write_bytes=int(mem[3]),
            instructions=_instruction_counts(trace) if detail else {},
            coalescing=c.summary(trace.kind[rows] == LOAD),
            coalescing_by_site=_coalescing_by_site(c, trace.site[rows]) if detail else {},
            lds=lds_summary, lds_by_site=lds_sites, atomic_lane_ops=lane_ops,
            atomic_hottest_line_ops=hottest, atomic_requests=line_stats,
            line_bytes={lv.name: lv.line for lv in (self.l1, self.l2, self.mall) if lv},
            waves=int(len(np.unique(trace.wave))), workgroups=int(len(d.workgroups)),
            scale=trace.launch.scale, dispatch=d, streams=streams,
        )  # fmt: skip

    # ---- internals --------------------------------------------------------------------

    def _l2_pass(
        self, addr: np.ndarray, size: np.ndarray, store: np.ndarray, step: np.ndarray,
        xcd: np.ndarray, atomic: np.ndarray, wanted: np.ndarray | None, flush_at: int | None,
        keep: dict[str, LevelStream] | None,
    ) -> tuple[np.ndarray, ...]:
        """The L2's requests to the fabric (addr, size, store, time step) for the vL1D's.

        ``xcd``, ``atomic``, ``step``: per vL1D request; ``wanted``: the sector bytes an L2
        fill reads (``sectors=True``); ``flush_at``: the time step of the kernel-end flush
        of dirty lines (None: no flush); ``keep``: where to record the L2's stream.
        """
        a, s, st, src = self._level(self.l2, addr, size, store, xcd)
        if keep is not None:
            keep["L2"] = LevelStream(addr, step, xcd, outcomes(store, src, st))
        if wanted is not None:  # an L2 fill reads only the sectors its request asked for
            s = np.where(st == 0, np.minimum(np.broadcast_to(s, a.shape), wanted[src]), s)
        plain_store = (store == 1) & ~atomic  # atomics need the old data: they fetch
        a, s, st, src = no_fetch_on_write(a, s, st, plain_store, src)
        step = step[src]
        if flush_at is not None:
            a, s, st = self._flush(self.l2, a, s, st)
            step = np.concatenate([step, np.full(len(a) - len(step), flush_at, np.int64)])
        return a, s, st, step

    def _mall_pass(
        self, mall: Cache, addr: np.ndarray, size: np.ndarray, store: np.ndarray,
        step: np.ndarray, flush: bool, keep: dict[str, LevelStream] | None,
    ) -> tuple[np.ndarray, ...]:
        """The requests to HBM (addr, size, store) of the ``mall`` level for the L2's;
        ``flush``: its dirty lines too; ``keep``: where to record its stream."""
        plain_store = store == 1  # everything the L2 writes is a whole-line write-back
        a, s, st, src = self._level(mall, addr, size, store, np.zeros(len(addr), np.int64))
        if keep is not None:
            keep["MALL"] = LevelStream(addr, step, np.zeros(len(step), np.int64),
                                       outcomes(store, src, st))
        a, s, st, _ = no_fetch_on_write(a, s, st, plain_store, src)
        if flush:
            a, s, st = self._flush(mall, a, s, st)
        return a, s, st

    def _level(
        self, spec: Cache, addr: np.ndarray, size: np.ndarray, store: np.ndarray, inst: np.ndarray
    ) -> tuple[np.ndarray, ...]:
        """Run one level over the stream; return its outgoing (addr, size, store, source)."""
        addr = np.ascontiguousarray(addr, np.int64)
        sizes = np.broadcast_to(size, addr.shape)
        lines = ((addr + sizes - 1) >> spec.line_bits) - (addr >> spec.line_bits) + 1
        cap = 2 * int(lines.sum()) + 2  # at most two requests out per line touched
        out = (
            np.empty(cap, np.int64),
            np.empty(cap, np.int64),
            np.empty(cap, np.uint8),
            np.empty(cap, np.int64),
        )
        n = _run_level(self.tags[spec.name], self.counters[spec.name], spec.sets, spec.ways,
                       spec.line_bits, spec.write_back, spec.write_allocate,
                       spec.store_updates_lru, addr, np.ascontiguousarray(size, np.int64),
                       np.ascontiguousarray(store, np.uint8),
                       np.ascontiguousarray(inst, np.int64), *out)  # fmt: skip
        return tuple(o[:n] for o in out)

    def _flush(
        self, spec: Cache, addr: np.ndarray, size: np.ndarray, store: np.ndarray
    ) -> tuple[np.ndarray, ...]:
        """Append every instance's dirty lines (as line-sized stores) to the stream."""
        tags, counters = self.tags[spec.name], self.counters[spec.name]
        buf = np.empty(tags.shape[1], np.int64)
        extra = [
            buf[: collect_dirty(tags[i], counters[i], spec.line_bits, buf)].copy()
            for i in range(tags.shape[0])
        ]
        wb = np.concatenate(extra) if extra else np.empty(0, np.int64)
        sizes = np.broadcast_to(size, addr.shape)
        return (
            np.concatenate([addr, wb]),
            np.concatenate([sizes, np.full(len(wb), spec.line, np.int64)]),
            np.concatenate([store, np.ones(len(wb), np.uint8)]),
        )

    def _count_memory(self, addr: np.ndarray, size: np.ndarray, store: np.ndarray) -> None:
        sizes = np.broadcast_to(size, addr.shape)
        w = store.astype(bool)
        self.memory += [
            np.count_nonzero(~w),
            np.count_nonzero(w),
            int(sizes[~w].sum()),
            int(sizes[w].sum()),
        ]

    def _lds(self, trace: Trace, detail: bool = True
             ) -> tuple[dict[str, float], dict[int, dict[str, float]]]:
        rows = np.flatnonzero(trace.space == LDS)
        if not len(rows):  # most kernels: skip the bank model's checks and set-up
            none = np.zeros(0, np.int64)
            return LdsConflicts(none, none, none).summary(), {}
        r = rows_conflicts(trace.addr, trace.active, trace.bytes_per_lane,
                           trace.kind != LOAD, rows, banks=self.spec.lds_banks,
                           bank_width=self.spec.lds_bank_width_bytes)
        by_site: dict[int, dict[str, float]] = {}
        site = trace.site[rows]
        for s in np.unique(site) if detail else ():
            m = site == s
            by_site[int(s)] = {
                "instructions": int(m.sum()), "cycles": int(r.cycles[m].sum()),
                "bank_conflict_cycles": int(r.extra_cycles[m].sum()),
                "max_degree": int(r.degree[m].max()),
            }  # fmt: skip
        return r.summary(), by_site


@numba.njit(cache=True, nogil=True)
def _run_level(tags, counters, sets, ways, line_bits, write_back, write_allocate, store_lru,
               req_addr, req_size, req_store, req_inst,
               out_addr, out_size, out_store, out_src):  # fmt: skip
    """Send request ``i`` to instance ``req_inst[i]`` (``-1``: pass it through untouched);
    what each emits goes to ``out_*`` in order, with ``out_src`` = ``i``. Consecutive
    requests for one instance (a wavefront's lines, a CU's stream) go in one batch."""
    n = req_addr.shape[0]
    size_step = 1 if req_size.shape[0] > 1 else 0
    n_out = 0
    i = 0
    while i < n:
        k = req_inst[i]
        j = i + 1
        while j < n and req_inst[j] == k:
            j += 1
        if k < 0:
            for r in range(i, j):
                out_addr[n_out] = req_addr[r]
                out_size[n_out] = req_size[r * size_step]
                out_store[n_out] = req_store[r]
                out_src[n_out] = r
                n_out += 1
        else:
            stop, m = access_batch(
                tags[k], counters[k], sets, ways, line_bits, write_back, write_allocate,
                store_lru, req_addr[i:j], req_size[i * size_step:(j - 1) * size_step + 1],
                req_store[i:j], 0, out_addr[n_out:], out_size[n_out:], out_store[n_out:],
                out_src[n_out:],
            )  # fmt: skip
            if stop != j - i:
                raise RuntimeError("cache output buffer too small (internal error)")
            for q in range(n_out, n_out + m):
                out_src[q] += i
            n_out += m
        i = j
    return n_out


@numba.njit(cache=True, nogil=True)
def clear_sets(tags, touched, sets, ways):
    """Empty the sets ``touched`` (each ``instance * sets + set``) of ``tags``."""
    for f in touched:
        i, first = f // sets, f % sets * ways
        tags[i, first:first + ways] = -1


@numba.njit(cache=True, nogil=True)
def no_fetch_on_write(addr, size, store, src_is_write, src):
    """Drop the line fetches that plain stores caused: GPU caches keep byte masks, so a
    write allocates its line without reading memory (atomics still fetch: they read).
    Returns the kept requests and their sources.

    >>> a, st = np.array([0, 128, 256], np.int64), np.array([0, 1, 0], np.uint8)
    >>> no_fetch_on_write(a, a, st, np.array([True, False]), np.array([0, 1, 1]))[0].tolist()
    [128, 256]
    """
    keep = (store == 1) | ~src_is_write[src]
    return addr[keep], size[keep], store[keep], src[keep]


def resident_workgroups(trace: Trace, spec: DeviceSpec) -> int:
    """Workgroups per CU when the occupancy model says nothing: as many as wave slots
    and barriers allow (no register or LDS limit).

    >>> from gpusim.trace.record import Access
    >>> tr = Trace.from_lane_addresses(1, 256, lambda t: [Access(4 * t.gid)])
    >>> resident_workgroups(tr, get_spec("mi300x"))
    8
    """
    wpw = trace.launch.waves_per_workgroup
    resident = spec.max_waves_per_cu // wpw
    return min(resident, spec.max_workgroups_per_cu) if wpw > 1 else resident


def _request_counts(l1_store: np.ndarray, atomic: np.ndarray, l2_store: np.ndarray
                    ) -> dict[str, int]:
    """Line requests between levels, by kind, from the store flags of what the vL1D and
    the L2 sent down (``atomic``: per vL1D request)."""
    n_atomic = int(np.count_nonzero(atomic))
    l2_reads = int(np.count_nonzero(l1_store == 0))
    return {
        "l1_to_l2_read": l2_reads,  # vL1D fills
        "l1_to_l2_write": len(l1_store) - l2_reads - n_atomic,  # write-throughs
        "l1_to_l2_atomic": n_atomic,
        # L2 line fills (load or atomic misses); write-backs, kernel-end flush included
        "l2_to_fabric_read": int(np.count_nonzero(l2_store == 0)),
        "l2_to_fabric_write": int(np.count_nonzero(l2_store)),
    }


def _level_dict(counters: np.ndarray) -> dict[str, float]:
    d: dict[str, Any] = counters_dict(counters)
    touched = d["hits"] + d["misses"]
    d["hit_rate"] = d["hits"] / touched if touched else 0.0
    return d


def _instruction_counts(trace: Trace) -> dict[str, int]:
    """Traced wavefront instructions by space and kind (what SQ_INSTS_* would count)."""
    out = {}
    for sname, sp in (("global", GLOBAL), ("lds", LDS)):
        for kname, kd in (("load", LOAD), ("store", STORE), ("atomic", ATOMIC)):
            out[f"{sname}_{kname}"] = int(
                np.count_nonzero((trace.space == sp) & (trace.kind == kd))
            )
    return out


def _coalescing_by_site(c: Any, site: np.ndarray) -> dict[int, dict[str, float]]:
    out = {}
    sites, which = np.unique(site, return_inverse=True)
    n = len(sites)

    def per_site(values: np.ndarray) -> list[int]:
        return np.bincount(which, weights=values, minlength=n).astype(np.int64).tolist()

    inst = np.bincount(which, minlength=n).tolist()
    req, moved = per_site(c.requests), per_site(c.bytes_moved)
    asked, useful = per_site(c.bytes_requested), per_site(c.bytes_useful)
    for k, s in enumerate(sites.tolist()):
        out[s] = {
            "instructions": inst[k], "requests": req[k],
            "requests_per_instruction": req[k] / inst[k],
            "bytes_requested": asked[k], "bytes_useful": useful[k],
            "bytes_moved": moved[k], "efficiency": useful[k] / moved[k] if moved[k] else 1.0,
        }  # fmt: skip
    return out


@numba.njit(cache=True, nogil=True)
def hashed(addr: np.ndarray, line_bits: int) -> np.ndarray:
    """Addresses with line-index bits 7-27 XOR-folded into bits 0-6 (a bijection: the
    high bits stay). Hardware hashes addresses to cache sets so that power-of-two
    strides (the rows of a 2-D array) spread over the sets instead of filling one; the
    exact hashes are not public, this fold is the model's (``hash_sets=True``).

    >>> rows = np.arange(4, dtype=np.int64) << 14        # four rows 16 KiB apart
    >>> ((hashed(rows, 7) >> 7) % 128).tolist()           # different sets of 128
    [0, 1, 2, 3]
    """
    line = addr >> line_bits
    high = line >> 7
    fold = (high ^ (high >> 7) ^ (high >> 14)) & 0x7F
    return addr ^ (fold << line_bits)


def _atomic_stats(trace: Trace, line_bits: int) -> tuple[int, int, np.ndarray]:
    """Global atomic lane operations; how many of them hit the busiest 4-byte word; and
    one row per (atomic instruction, cache line it touches): [line address, most lanes
    on one word]. The L2 performs a request's lanes on distinct words together and
    same-word lanes one after another (the timing model prices these rows)."""
    rows = np.flatnonzero((trace.space == GLOBAL) & (trace.kind == ATOMIC))
    if not len(rows):
        return 0, 0, np.zeros((0, 2), np.int64)
    lanes, hottest, per_line = _atomic_rows(trace.addr, trace.active, rows, line_bits)
    return int(lanes), int(hottest), per_line


@numba.njit(cache=True, nogil=True)
def _atomic_rows(addr, active, rows, line_bits):  # pragma: no cover - compiled
    """``_atomic_stats`` of ``rows``: each row's active words sorted, so that its lines
    come in order with each word's lanes together."""
    n = 0
    for r in rows:
        for lane in range(addr.shape[1]):
            n += active[r, lane]
    every = np.empty(n, np.int64)  # every lane's word, for the busiest one
    out = np.empty((n, 2), np.int64)
    words = np.empty(addr.shape[1], np.int64)
    at = m = 0
    for r in rows:
        c = 0
        for lane in range(addr.shape[1]):
            if active[r, lane]:
                words[c] = every[at] = addr[r, lane] >> 2
                c += 1
                at += 1
        mine = np.sort(words[:c])
        i = 0
        while i < c:  # one line: its busiest word
            line, serial = (mine[i] << 2) >> line_bits, 0
            while i < c and (mine[i] << 2) >> line_bits == line:
                j = i
                while j < c and mine[j] == mine[i]:
                    j += 1
                serial, i = max(serial, j - i), j
            out[m, 0], out[m, 1] = line << line_bits, serial
            m += 1
    every = np.sort(every)
    hottest, i = 0, 0
    while i < n:
        j = i
        while j < n and every[j] == every[i]:
            j += 1
        hottest, i = max(hottest, j - i), j
    return n, hottest, out[:m].copy()
