"""Trace mode at launch: the first work-groups run instrumented, the rest on the fast path.

::

    launch(ck, ..., tracer=Tracer(addresses, sample=0))
      traced work-groups    trace variant (mode "trace"): a prefix of the grid, or with
                            ``sample=n`` about n spread over it (``plan_spans``: the
                            first and middle runs, the others only if those
                            work-groups differ in work, ``_phases``); the
                            first alone (it sizes what fits), then the rest split over
                            the host's cores, each worker with its own share of the
                            event buffers (``_split``, ``_merge``): lane events +
                            per-thread counters (tracelib); a sample (a few dozen
                            work-groups) runs all of it on one worker, in one
                            hand-off (each costs ~0.2 ms wall; ``_inline``), or on
                            the launching thread when the kernel has no loop
                            (``_bounded``: its work is bounded, no watchdog needed)
      the other blocks      the fast path, on every core, as without tracing
    tracer.result -> TracedLaunch: the Trace (rows.py), InstructionCounts for the
                     whole launch, which work-groups were traced

Bounded in memory (``LIMITS``): at most ``max_workgroups`` work-groups are traced (a
prefix of the grid: consecutive work-groups share cache lines, as the first dispatch
rounds do on hardware), at most ``max_events`` lane accesses (16 B each while tracing)
and ``max_rows`` wavefront instructions in the Trace. A launch cut short says so:
``LaunchInfo.sampled`` and ``sampled_workgroups``; the memory model scales by it. A
single work-group bigger than the limits is traced in part (``truncated``).

Instruction counts: a wave issues an instruction when any of its lanes needs it, so its
VALU/branch/SALU/SMEM counts are its busiest lane's (``trace/costs.py``); FLOPs are summed
over lanes; memory instructions are the trace's rows. Traced totals are scaled to the
whole launch.

>>> import numpy as np
>>> from gpusim.compile import lang as hip
>>> from gpusim.devices import get_spec
>>> from gpusim.engine import launch
>>> def copy(a, b):
...     i = hip.grid(1)
...     if i < b.size:
...         b[i] = a[i]
>>> a, b = np.arange(512, dtype=np.float32), np.zeros(512, np.float32)
>>> tracer = Tracer(addresses=(4096, 1 << 20))
>>> launch(copy, grid=4, block=128, args=(a, b), device=get_spec("mi300x"), tracer=tracer)
>>> r = tracer.result
>>> len(r.trace), r.counts.vmem_read, r.counts.vmem_write, bool(b[511] == 511)
(16, 8, 8, True)
>>> int(r.trace.addr[0, 1] - r.trace.addr[0, 0]), r.sampled
(4, False)
"""

from __future__ import annotations

import functools
import math
import threading
import warnings
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from gpusim.compile import CompiledKernel, compile_kernel
from gpusim.engine.watchdog import STOP_FAULT
from gpusim.engine.workers import host_cores, run_workers
from gpusim.errors import KernelCompileError
from gpusim.memsim.counters import InstructionCounts
from gpusim.trace import events as tracelib
from gpusim.trace.record import ATOMIC, GLOBAL, LDS, LOAD, STORE, LaunchInfo, Site, Trace
from gpusim.trace.rows import trace_rows


@dataclass(frozen=True)
class TraceLimits:
    """How much one launch may trace (see the module docstring)."""

    max_workgroups: int = 2048
    max_events: int = 1 << 23  # 128 MiB of lane events while tracing
    max_rows: int = 1 << 17  # wavefront instructions kept (75 MiB at wave64, worst case)
    # a spread sample (the default model) stops adding work-groups past this many lane
    # events: every event costs ~50 ns to trace, turn into rows and replay, so a heavy
    # work-group's sample is a few of them (a 512^2 tiled matmul's: one, 0.3 M events)
    sample_events: int = 1 << 15


LIMITS = TraceLimits()
SPAN = 8  # consecutive work-groups per run of a spread sample (plan_spans)
_variants: dict[tuple, CompiledKernel] = {}
_lock = threading.Lock()
_buffers: list[np.ndarray] = []  # the event buffers, kept between launches
_per_wg: list[tuple[np.ndarray, np.ndarray]] = []  # each worker's tr[5], tr[6], kept too
_buffer_lock = threading.Lock()  # one traced launch at a time uses them


def _event_buffers(capacity: int) -> tuple[np.ndarray, np.ndarray]:
    """(addresses, keys) for ``capacity`` events: fresh pages cost a fault each on first
    write, so the last launch's buffers are reused."""
    if not _buffers or _buffers[0].shape[0] != capacity:
        _buffers[:] = [np.empty(capacity, np.int64), np.empty(capacity, np.int64)]
    return _buffers[0], _buffers[1]


def _workgroup_buffers(k: int, workgroups: int, counters: int
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Worker ``k``'s ``tr[5]``, ``tr[6]`` for work-groups below ``workgroups``, reused
    like the event buffers: a sample's work-groups reach far into the grid, and fresh
    zeroed pages of that size cost faults at every first launch. Only the traced
    work-groups' entries are written and read, so what earlier launches left is harmless."""
    while len(_per_wg) <= k:
        _per_wg.append((np.empty(0, np.int64), np.empty((0, counters), np.int64)))
    if _per_wg[k][0].shape[0] < workgroups + 1:
        _per_wg[k] = (np.empty(workgroups + 1, np.int64),
                      np.empty((workgroups, counters), np.int64))
    return _per_wg[k][0][:workgroups + 1], _per_wg[k][1][:workgroups]


def traced_variant(ck: CompiledKernel) -> CompiledKernel:
    """The trace-mode compilation of ``ck``'s kernel (cached per argument types)."""
    key = (ck.ir.pyfunc, ck.arg_types, ck.wave_size, ck.ir.target)
    with _lock:
        tk = _variants.get(key)
    if tk is None:
        try:
            tk = compile_kernel(ck.ir.pyfunc, ck.arg_types, wave_size=ck.wave_size,
                                mode="trace", target=ck.ir.target)
            if [(s.line, s.col, s.array) for s in tk.sites] != [
                    (s.line, s.col, s.array) for s in ck.sites]:  # faults name the fast path's
                raise KernelCompileError(f"kernel '{ck.name}': trace and fast variants "
                                         "disagree on fault sites (internal error)")
        except Exception as exc:  # the fast variant compiled: the failure is the trace's
            tk = KernelCompileError(f"kernel '{ck.name}': its trace variant failed to build "
                                    f"({type(exc).__name__}: {exc})")
        with _lock:
            _variants[key] = tk  # a failure too: later launches do not retry it
    if isinstance(tk, KernelCompileError):
        raise tk
    return tk


@dataclass
class TracedLaunch:
    """What a traced launch leaves: its trace and instruction counts (whole launch)."""

    trace: Trace
    counts: InstructionCounts
    sites: dict[int, Any]  # site -> trace.instrument.TraceSite
    traced_workgroups: int
    total_workgroups: int
    truncated: bool = False  # one work-group alone exceeded the limits
    # when rows were cut (``TraceLimits.max_rows``): the kept work-groups' lane events
    # over those in the kept rows; memory instruction counts are scaled up by it (the
    # cut rows are taken to be like the kept ones), and the record says so
    extrapolated: float = 1.0

    @property
    def sampled(self) -> bool:
        return self.traced_workgroups < self.total_workgroups or self.truncated


class Tracer:
    """Traces one launch; pass it to ``engine.launch(..., tracer=...)``.

    ``addresses``: device address of each kernel argument (0 or None for numbers); a
    NumPy array without one is traced at its host address.
    """

    def __init__(self, addresses: tuple | list | None = None, limits: TraceLimits | None = None,
                 sample: int = 0):
        self.addresses = addresses
        self.limits = limits or LIMITS
        self.sample = sample  # 0: a prefix of the grid; n: about n work-groups spread over it
        # work-groups [s, e) of each span ran here; the fast path does the rest (none ran
        # here and no result when the kernel could not be traced: it then runs untraced)
        self.spans: list[tuple[int, int]] = []
        self.result: TracedLaunch | None = None
        self.failure = ""  # why there is no result although the launch ran (internal)
        self._pending: tuple | None = None  # what finish() builds the Trace from

    def run(self, ck: CompiledKernel, call_args: tuple, grid: tuple, block: tuple,
            dynamic_lds_bytes: int, device: Any) -> list[BaseException]:
        """Run the traced work-groups instrumented; returns the errors the workers raised.

        The first traced work-group runs alone first: its event count sizes how many more
        fit the buffers (``spans``), which then run on the host's cores (``_TracedRun``).
        """
        from gpusim.config import config

        try:
            tk = traced_variant(ck)
        except KernelCompileError as exc:  # never lose a launch to the trace: run it plain
            self.failure = str(exc)
            if not self.sample:  # asked for (config.trace, profile(memory=True)): say so
                warnings.warn(f"kernel '{ck.name}' runs untraced: {exc}", stacklevel=2)
            return []
        nblocks, nuser = math.prod(grid), len(ck.params)
        plan = self.plan(nblocks, device.xcd_count)
        phases = _sample_plan(nblocks, self.sample, device.xcd_count)[1] if self.sample else [plan]
        addresses = np.array([self._address(k, a) for k, a in enumerate(call_args[:nuser])]
                             + [0] * (nuser == 0), np.int64)
        ctl = call_args[nuser + len(ck.const_arrays) + 1]  # after (..., lp)
        work = _TracedRun(self, tk, call_args, addresses, ctl, math.prod(block),
                          dynamic_lds_bytes, plan, phases)
        self.spans = [(plan[0][0], plan[0][0] + 1)]
        _buffer_lock.acquire()  # released by finish(), once the Trace is built
        try:
            if self.sample and tk.loop_free:
                errors = _bounded(lambda: work.trace(_inline, 1), ctl)  # straight-line code
            elif self.sample:  # a few dozen work-groups: one thread, one hand-off for them all
                errors = run_workers(lambda: work.trace(_inline, 1), ctl, 1,
                                     config.watchdog_seconds)
            else:
                errors = work.trace(run_workers, host_cores() if config.parallel
                                    and not ck.prints else 1)
        except BaseException:
            _buffer_lock.release()
            raise
        parts = work.parts
        parts[1:] = sorted(parts[1:], key=lambda p: p[1][0][0])  # in work-group order
        self._pending = (tk, parts, plan[0][0], grid, block, device.wave_size)
        if errors:  # a work-group faulted: no trace
            self._pending = None
            _buffer_lock.release()
        elif not self.sample:  # asked for: built now (a sample: while the fast path runs)
            self.finish()
        return errors

    def finish(self) -> None:
        """Build the Trace of what ``run`` traced (``result``; once, later calls do
        nothing) and free the event buffers for the next traced launch. A sample's is
        built here while the fast path runs the other work-groups (``Launch.run``)."""
        if self._pending is None:
            return
        tk, parts, b0, grid, block, wave_size = self._pending
        self._pending = None
        try:  # every work-group ran: a failure from here on is the model's
            self.result = self._build(tk, _merge(parts, b0), grid, block, wave_size)
        except Exception as exc:
            self.failure = f"the trace could not be built ({type(exc).__name__}: {exc})"
            if not self.sample:
                warnings.warn(f"kernel '{tk.name}': {self.failure}", stacklevel=3)
        finally:
            _buffer_lock.release()

    def plan(self, nblocks: int, xcds: int) -> list[tuple[int, int]]:
        """The work-groups ``run`` may trace, as ranges: a spread sample (``plan_spans``)
        or a prefix of the grid. It traces fewer when the first ones' events fill the
        buffers (or ``TraceLimits.sample_events``) or a sample's first phase is uniform.

        >>> Tracer(sample=64).plan(4096, 8)[:2], Tracer().plan(4096, 8)
        ([(0, 8), (536, 544)], [(0, 2048)])
        """
        if self.sample:
            return _sample_plan(nblocks, self.sample, xcds)[0]
        return [(0, min(nblocks, self.limits.max_workgroups))]

    def covers(self, nblocks: int) -> bool:
        """Whether a sampled launch of ``nblocks`` work-groups traces them all (when their
        events fit the buffers and ``TraceLimits.sample_events``: ``run`` leaves any
        that do not to the fast path).

        >>> Tracer(sample=64).covers(64), Tracer(sample=64).covers(65), Tracer().covers(1)
        (True, False, False)
        """
        return bool(self.sample) and nblocks <= self.sample

    def variant(self, ck: CompiledKernel) -> CompiledKernel | None:
        """``ck``'s trace variant, built now; None (with ``failure`` set) if it cannot be."""
        try:
            return traced_variant(ck)
        except KernelCompileError as exc:
            self.failure = str(exc)
            return None

    @property
    def planned(self) -> int:
        """How many work-groups ran instrumented."""
        return sum(e - s for s, e in self.spans)

    def extents(self, args: tuple | list) -> list[tuple[int, int]]:
        """(traced address, bytes) of each array argument: where its accesses fall."""
        return [(self._address(k, a), a.nbytes) for k, a in enumerate(args)
                if isinstance(a, np.ndarray)]

    def _address(self, k: int, arg: Any) -> int:
        if self.addresses is not None and k < len(self.addresses) and self.addresses[k]:
            return int(self.addresses[k])
        return int(arg.ctypes.data) if isinstance(arg, np.ndarray) else 0

    def _build(self, tk: CompiledKernel, merged: tuple, grid: tuple, block: tuple,
               wave_size: int) -> TracedLaunch:
        """The Trace of the work-groups whose events all fit (at least part of the first)."""
        keys, addr, ids, ends, wg_counts, truncated = merged
        sites, nbytes, space, shown = _site_tables(tk)
        waves_per_wg = -(-math.prod(block) // wave_size)
        fields, kept, cut, per = trace_rows(keys, addr, ends, ids, wave_size, nbytes, space,
                                            waves_per_wg, self.limits.max_rows)
        info = LaunchInfo(grid, block, wave_size, sampled=kept < math.prod(grid) or truncated
                          or cut, sampled_workgroups=ids[:kept], kernel=tk.name)
        trace = Trace(*fields, info, shown)
        extra = 1.0
        if cut:  # the first work-group's rows past max_rows: extrapolate, and say so
            events = int(ends[max(kept, 1) - 1]) if len(ends) else 0
            in_rows = int(trace.active.sum())
            if in_rows and events > in_rows:
                extra = events / in_rows
                per = np.round(per * extra).astype(per.dtype)
        truncated = truncated or cut
        counts = _instruction_counts(per, wg_counts[:kept].sum(axis=0), info)
        return TracedLaunch(trace, counts, sites, kept, info.total_workgroups, truncated,
                            extra)


class _TracedRun:
    """The instrumented work-groups of one launch (``Tracer.run``): the share of the event
    buffers each worker fills (``parts``: (buffers, spans) per worker) and the order the
    spans run in: the first work-group alone, then the first phase, then the rest only if
    the first phase's work-groups differ."""

    def __init__(self, tracer: Tracer, tk: CompiledKernel, call_args: tuple,
                 addresses: np.ndarray, ctl: np.ndarray, threads: int, dynamic_lds_bytes: int,
                 plan: list[tuple[int, int]], phases: list[list[tuple[int, int]]]):
        self.tracer, self.tk, self.call_args, self.addresses = tracer, tk, call_args, addresses
        self.ctl, self.threads, self.dyn = ctl, threads, dynamic_lds_bytes
        self.plan, self.phases, self.limits = plan, phases, tracer.limits
        # reused between launches: no page faults each time
        self.events, self.keys = _event_buffers(self.limits.max_events)
        self.last = max(e for _, e in plan)
        self.parts: list[tuple[tuple, list[tuple[int, int]]]] = []

    def buffers(self, lo: int, hi: int, k: int) -> tuple:
        """Worker ``k``'s ``tr`` tuple: events [lo, hi) of the buffers; the trace variant
        files work-group b's events under tr[5][b], tr[6][b]."""
        meta = np.zeros(64, np.int64)[:4]  # its own cache lines: it counts every event
        per_thread = np.zeros((len(tracelib.COUNTERS), self.threads + 1), np.int64)  # tr[3]
        return (self.events[lo:hi], self.keys[lo:hi], meta, per_thread, self.addresses,
                *_workgroup_buffers(k, self.last, len(tracelib.COUNTERS)))

    def _workspace(self) -> tuple:
        ws = self.tk.workspace(self.threads, self.dyn)
        return (ws,) if ws else ()

    def run_spans(self, tr: tuple, spans: list[tuple[int, int]]) -> None:
        """One worker's spans, then its events folded into rows (tracelib.finish)."""
        extra = self._workspace()
        for s, e in spans:
            if self.ctl[0] != 0:
                break
            self.tk.run(s, e, *self.call_args, tr, *extra)
        tracelib.finish(tr, self.tk.wave_size)

    def first(self) -> None:
        """The first work-group alone: its event count sizes what fits."""
        b0 = self.plan[0][0]
        self.parts.append((self.buffers(0, self.limits.max_events, 0), [(b0, b0 + 1)]))
        self.tk.run(b0, b0 + 1, *self.call_args, self.parts[0][0], *self._workspace())

    def run_parts(self, todo: list, run: Any) -> list[BaseException]:
        """``todo``'s (buffers, spans) on ``run``'s workers, one part per claim."""
        from gpusim.config import config

        claims = iter(todo)  # next() is atomic under the GIL

        def worker() -> None:
            for tr, spans in iter(lambda: next(claims, None), None):
                self.run_spans(tr, spans)

        return run(worker, self.ctl, len(todo), config.watchdog_seconds)

    def trace(self, run: Any, cores: int) -> list[BaseException]:
        """The first work-group alone, then the phases; ``run`` is ``run_workers``."""
        from gpusim.config import config

        errors = run(self.first, self.ctl, 1, config.watchdog_seconds)
        if errors:
            return errors
        lim, parts = self.limits, self.parts
        n0 = max(1, int(parts[0][0][2][0]))
        room = min(lim.max_events, lim.sample_events) if self.tracer.sample else lim.max_events
        fitted = _fit([s for p in self.phases for s in p], 1 + max(0, room - n0) // n0)
        head = fitted[:len(self.phases[0])]
        groups = _split(head, cores)
        more = len(groups)  # groups from here on run only if the first phase varies
        groups += _split(fitted[len(head):], cores) if len(fitted) > len(head) else []
        # shares of the buffers in proportion to the work-groups of each group, counted
        # before the first is taken out (its events already sit at the start of share 0)
        sizes = [sum(e - s for s, e in g) for g in groups]
        groups[0][0] = (groups[0][0][0] + 1, groups[0][0][1])  # its first ran already
        edges = np.cumsum([0] + sizes) * (lim.max_events // sum(sizes))
        edges[-1] = lim.max_events
        parts[0] = ((self.events[:edges[1]], self.keys[:edges[1]], *parts[0][0][2:]),
                    groups[0])
        parts.extend((self.buffers(int(edges[k]), int(edges[k + 1]), k), g)
                     for k, g in enumerate(groups) if k)
        self.tracer.spans = head
        errors = self.run_parts(parts[:more], run)
        if not errors and len(parts) > more and not _uniform(parts[:more], self.plan[0][0]):
            self.tracer.spans = fitted
            errors = self.run_parts(parts[more:], run)
        else:
            del parts[more:]
        return errors


_tables: dict[int, tuple] = {}  # id of a trace variant -> (the variant, its tables)


def _site_tables(tk: CompiledKernel) -> tuple:
    """A trace variant's sites (shared by its traces: read-only): site -> TraceSite, bytes
    and space per site number, site -> ``Site`` for views."""
    entry = _tables.get(id(tk))
    if entry is None or entry[0] is not tk:  # (an id can be reused once its owner is gone)
        sites = dict(tk.ir.trace_sites)
        nsite = max(sites, default=-1) + 1
        nbytes, space = np.zeros(nsite, np.int32), np.zeros(nsite, np.int8)
        for s, t in sites.items():
            nbytes[s], space[s] = t.bytes, LDS if t.space == "shared" else GLOBAL
        entry = _tables[id(tk)] = (tk, sites, nbytes, space,
                                   {s: Site(t.line, t.text) for s, t in sites.items()})
    return entry[1:]


def plan_spans(nblocks: int, sample: int, xcds: int = 1) -> list[tuple[int, int]]:
    """About ``sample`` work-groups spread over a grid of ``nblocks``: runs of ``SPAN``
    consecutive ones (neighbours share cache lines, as on hardware; a multiple of the
    XCD count, so every XCD gets its share), the k-th at k x (nblocks / runs) plus k x 3
    runs: the extra offset keeps the runs from sampling the same place of a pattern
    that repeats every power-of-two number of work-groups (a strided copy's passes).

    >>> plan_spans(100, 128)
    [(0, 100)]
    >>> plan_spans(4096, 64)[:3], len(plan_spans(4096, 64))
    ([(0, 8), (536, 544), (1072, 1080)], 8)
    """
    if nblocks <= sample:
        return [(0, nblocks)]
    span = max(xcds, SPAN // xcds * xcds)
    runs = max(1, sample // span)
    step = nblocks // runs
    starts = [min(k * step + 3 * k * span, nblocks - span) for k in range(runs)]
    return [(s, s + span) for s in sorted(set(starts))]


@functools.lru_cache(maxsize=256)  # a first launch's time counts: ~20 us cold
def _sample_plan(nblocks: int, sample: int, xcds: int) -> tuple[list, list]:
    """``plan_spans`` and its ``_phases`` (callers do not change them)."""
    plan = plan_spans(nblocks, sample, xcds)
    return plan, _phases(plan)


def _phases(plan: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """A spread sample in two phases: the first run and one from the middle of the grid,
    then the others, traced only when the first phase's work-groups differ (``_uniform``).

    >>> _phases([(0, 16), (1072, 1088), (2144, 2160), (3216, 3232)])
    [[(0, 16), (2144, 2160)], [(1072, 1088), (3216, 3232)]]
    >>> _phases([(0, 100)])
    [[(0, 100)]]
    """
    if len(plan) < 3:
        return [plan]
    mid = len(plan) // 2
    return [[plan[0], plan[mid]], [s for k, s in enumerate(plan) if k not in (0, mid)]]


def _inline(body: Any, ctl: Any, workers: int, timeout: float) -> list[BaseException]:
    """``run_workers`` on the calling thread, already a worker (its watchdog and Ctrl-C
    stay the caller's): ``body`` ``workers`` times; an exception propagates."""
    for _ in range(workers):
        body()
    return []


def _bounded(body: Any, ctl: Any) -> list[BaseException]:
    """``run_workers(body, ctl, 1, ...)`` on the calling thread, for the sample of a kernel
    without loops: a few dozen work-groups of straight-line code end soon, so they need
    no watchdog, and a Ctrl-C waits only for them. The hand-off to a worker it saves cost
    ~0.3 ms wall and CPU of a vector add's first launch (~0.15x a plain launch; the two
    ways taken in turn in one process, 200 rounds, three runs)."""
    try:
        body()
    except BaseException as exc:  # noqa: BLE001 - reported as a worker's would be
        ctl[0] = STOP_FAULT
        return [exc]
    return []


def _blocks(k: int, spans: list[tuple[int, int]], b0: int) -> np.ndarray:
    """The work-groups worker ``k`` traced, in order (worker 0 also ran ``b0`` first)."""
    return np.concatenate([[b0] * (k == 0)] + [np.arange(s, e) for s, e in spans]
                          ).astype(np.int64)


def _uniform(parts: list[tuple[tuple, list]], b0: int) -> bool:
    """Whether every traced work-group made as many lane accesses and instructions of each
    kind as every other: a kernel whose work does not depend on where in the grid it runs
    (its addresses may: the memory model sees them)."""
    first = np.full(1 + parts[0][0][6].shape[1], -1, np.int64)  # the first one's work
    return all(_same_work(tr[5], tr[6], _blocks(k, spans, b0), tr[2][0], first)
               for k, (tr, spans) in enumerate(parts))


@numba.njit(cache=True, nogil=True)
def _same_work(starts, counts, blocks, end, first):  # pragma: no cover - compiled
    """Whether each of ``blocks`` made as many events (up to the next one's start, the
    last's up to ``end``) and instructions (``counts``) as ``first``, which the first
    work-group seen fills ([0] < 0: none seen yet)."""
    for i in range(blocks.shape[0]):
        b = blocks[i]
        n = (starts[blocks[i + 1]] if i + 1 < blocks.shape[0] else end) - starts[b]
        if first[0] < 0:
            first[0] = n
            first[1:] = counts[b]
        if n != first[0]:
            return False
        for j in range(counts.shape[1]):
            if counts[b, j] != first[1 + j]:
                return False
    return True


def _split(spans: list[tuple[int, int]], workers: int) -> list[list]:
    """``spans`` cut into at most ``workers`` groups of about equal work-groups, in order.

    >>> _split([(0, 10), (20, 30)], 4)
    [[(0, 5)], [(5, 10)], [(20, 25)], [(25, 30)]]
    """
    if workers == 1:  # a sample: one group
        return [list(spans)]
    total = sum(e - s for s, e in spans)
    per = max(1, -(-total // workers))
    groups: list[list] = [[]]
    for s, e in spans:
        while s < e:
            room = per - sum(b - a for a, b in groups[-1])
            if room == 0:
                groups.append([])
                continue
            groups[-1].append((s, min(e, s + room)))
            s = min(e, s + room)
    return groups


def _merge(parts: list[tuple[tuple, list]], b0: int) -> tuple:
    """One event stream from the workers' buffers: (keys, addresses, ids of the kept
    work-groups, their events' ends, their instruction counts, truncated). A worker keeps
    its work-groups up to the first whose events overflowed its share of the buffers;
    region instances are renumbered so that no two workers' share one."""
    keys, addr, ids, ends, counts = [], [], [], [], []
    n = ri = 0
    for k, (tr, spans) in enumerate(parts):
        blocks = _blocks(k, spans, b0)
        if not len(blocks):
            continue
        stop = np.append(tr[5][blocks[1:]], tr[2][0])
        cap = tr[0].shape[0]
        kept = int(np.argmin(stop <= cap)) if stop[-1] > cap else len(blocks)
        if kept == 0 and not ids:  # the first work-group alone overflowed: keep part of it
            return (tr[1][:cap].copy(), tr[0][:cap].copy(), blocks[:1], np.array([cap]),
                    tr[6][blocks[:1]], True)
        m = int(stop[kept - 1]) if kept else 0
        keys.append(tr[1][:m] + (ri << (tracelib.THREAD_BITS + tracelib.SITE_KIND_BITS))
                    if ri else tr[1][:m])  # the first worker's: read in place, no copy
        addr.append(tr[0][:m])
        ids.append(blocks[:kept])
        ends.append(stop[:kept] + n)
        counts.append(tr[6][blocks[:kept]])
        n, ri = n + m, ri + int(tr[2][1]) + 1
    if len(keys) == 1:  # one worker (a sample): its events stay where they are
        return keys[0], addr[0], ids[0], ends[0], counts[0], False
    return (np.concatenate(keys), np.concatenate(addr), np.concatenate(ids),
            np.concatenate(ends), np.concatenate(counts), False)


def _fit(plan: list[tuple[int, int]], most: int) -> list[tuple[int, int]]:
    """The first ``most`` work-groups of ``plan`` (the event buffers' room)."""
    out = []
    for s, e in plan:
        if most <= 0:
            break
        out.append((s, min(e, s + most)))
        most -= out[-1][1] - s
    return out


def _instruction_counts(per: np.ndarray, traced: np.ndarray, info: LaunchInfo
                        ) -> InstructionCounts:
    """Whole-launch counts: traced work-groups' totals x ``info.scale``; ``per``: the
    trace's rows per ``space * 4 + kind`` (memory instructions), ``traced``: the
    work-groups' summed VALU, branch, FLOP, SALU, SMEM and FMA counts."""
    s = info.scale

    def rows(space: int, kind: int | None = None) -> int:
        n = per[space * 4:space * 4 + 4].sum() if kind is None else per[space * 4 + kind]
        return round(int(n) * s)

    valu, branch, flops, salu, smem, fma, mfma, mfma_cycles, mfma_flops = (
        round(int(v) * s) for v in traced)
    return InstructionCounts(
        waves=info.total_waves, valu=valu, salu=salu, smem=smem, branch=branch,
        vmem_read=rows(GLOBAL, LOAD), vmem_write=rows(GLOBAL, STORE),
        vmem_atomic=rows(GLOBAL, ATOMIC), lds=rows(LDS), flops=flops, fma=fma,
        mfma=mfma, mfma_cycles=mfma_cycles, mfma_flops=mfma_flops,
    )  # fmt: skip
