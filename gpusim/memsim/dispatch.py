"""Workgroup dispatch in hardware order, and the device-wide order of trace rows.

Caches see what the hardware interleaves, not program order, so the memory model first
decides where and when each workgroup runs::

    workgroup i --> XCD  i % xcd_count            (MI300X: round-robin over 8 XCDs;
                                                   ROCm docs, MI300 microarchitecture)
                --> CU   round-robin over the XCD's CUs, up to ``workgroups_per_cu``
                         resident per CU (the occupancy model's number); the rest wait
                         and start, in order, on the CU whose workgroup retired
    each step   --> every resident wave issues its next memory instruction; the order
                    inside a step is CU slot 0 of XCD 0, 1, ..., 7, then CU slot 1, ...
                    (XCDs interleave finely, as the shared Infinity Cache sees them)

Simplifications (a model, said so):

- one step per memory instruction for every wave: compute between memory instructions,
  latency differences and the wave scheduler's priorities are not modelled, so waves of
  equal length progress in lockstep;
- a workgroup retires when its last wave has issued its last memory instruction; its
  slot is refilled at the next step (dispatch latency is not modelled);
- CU numbering inside an XCD (shader engines, arrays) and the SPI's exact choice of CU
  are not public; round-robin over CU indices is the assumption;
- only the workgroups present in the trace are placed (a sampled trace keeps each
  workgroup's XCD, ``id % xcd_count``, and packs the sampled ones onto its CUs).

>>> import numpy as np
>>> from gpusim.trace.record import Access, Trace
>>> tr = Trace.from_lane_addresses(16, 64, lambda t: [Access(4 * t.gid)])
>>> d = dispatch(tr, xcd_count=8, cus_per_xcd=38, workgroups_per_cu=2)
>>> d.xcd.tolist()                                  # workgroup i runs on XCD i % 8
[0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]
>>> d.cu.tolist()[:9], d.cu.tolist()[8]             # global CU id = xcd * 38 + local CU
([0, 38, 76, 114, 152, 190, 228, 266, 1], 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from gpusim.devices import DeviceSpec
from gpusim.trace.record import Trace


@dataclass(frozen=True)
class Dispatch:
    """Where and when things ran.

    Per trace row (indexed like the trace): ``xcd``, ``cu`` (global CU id =
    ``xcd * cus_per_xcd + local``), ``step`` (when it issued). ``order``: trace row
    indices in device issue order. Per traced workgroup (ascending ids ``workgroups``):
    ``wg_cu``, ``wg_start``, ``wg_end`` (steps), for the dispatch view.
    """

    order: np.ndarray
    xcd: np.ndarray
    cu: np.ndarray
    step: np.ndarray
    workgroups: np.ndarray
    wg_cu: np.ndarray
    wg_start: np.ndarray
    wg_end: np.ndarray
    xcd_count: int
    cus_per_xcd: int
    workgroups_per_cu: int

    @property
    def steps(self) -> int:
        return int(self.wg_end.max(initial=0))


def dispatch(trace: Trace, *, xcd_count: int, cus_per_xcd: int, workgroups_per_cu: int) -> Dispatch:
    """Place the trace's workgroups on CUs and interleave their waves (module docstring)."""
    check_shape(xcd_count, cus_per_xcd, workgroups_per_cu)
    order, cu, step, wgs, wg_cu, wg_start, wg_end, _ = place(
        np.ascontiguousarray(trace.wave, np.int64),
        np.ascontiguousarray(trace.workgroup, np.int64), xcd_count, cus_per_xcd,
        workgroups_per_cu)
    return Dispatch(order, cu // cus_per_xcd, cu, step, wgs, wg_cu, wg_start, wg_end,
                    xcd_count, cus_per_xcd, workgroups_per_cu)


def check_shape(xcd_count: int, cus_per_xcd: int, workgroups_per_cu: int) -> None:
    """Raise ValueError unless the device has CUs and at least one workgroup fits on one.

    >>> check_shape(8, 38, 0)
    Traceback (most recent call last):
    ...
    ValueError: workgroups_per_cu=0: not one workgroup fits on a CU, ...
    """
    if workgroups_per_cu < 1:
        raise ValueError(
            f"workgroups_per_cu={workgroups_per_cu}: not one workgroup fits on a CU, so the "
            "launch cannot run (check the occupancy limiter: registers or LDS)"
        )
    if xcd_count < 1 or cus_per_xcd < 1:
        raise ValueError("xcd_count and cus_per_xcd must be >= 1")


def dispatch_for(trace: Trace, spec: DeviceSpec, workgroups_per_cu: int) -> Dispatch:
    """``dispatch`` with the device's XCD and CU counts."""
    return dispatch(
        trace,
        xcd_count=spec.xcd_count,
        cus_per_xcd=spec.cus_per_xcd,
        workgroups_per_cu=workgroups_per_cu,
    )


@numba.njit(cache=True, nogil=True)
def _stable_order(keys):
    """Indices that sort ``keys`` stably; no sort when they already are (the usual case:
    the engine's traces come work-group by work-group, wave by wave). A bottom-up merge
    sort: numba's ``np.argsort(kind="mergesort")`` adds seconds to a first compile."""
    n = keys.shape[0]
    order = np.arange(n)
    if _ascending(keys):
        return order
    spare = np.empty(n, np.int64)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):  # the left run first on ties: stable
                if j >= hi or (i < mid and keys[order[i]] <= keys[order[j]]):
                    spare[k] = order[i]
                    i += 1
                else:
                    spare[k] = order[j]
                    j += 1
        order, spare = spare, order
        width *= 2
    return order


@numba.njit(cache=True, nogil=True, inline="always")
def _ascending(keys):
    """Whether ``keys`` never decrease."""
    for i in range(1, keys.shape[0]):
        if keys[i] < keys[i - 1]:
            return False
    return True


@numba.njit(cache=True, nogil=True, inline="always")
def _starts(sorted_keys):
    """Positions where a new value begins in ``sorted_keys``, then its length."""
    n = sorted_keys.shape[0]
    out = np.empty(n + 1, np.int64)
    m = 0
    for i in range(n):
        if i == 0 or sorted_keys[i] != sorted_keys[i - 1]:
            out[m] = i
            m += 1
    out[m] = n
    return out[:m + 1].copy()


@numba.njit(cache=True, nogil=True)
def place(wave, workgroup, xcds, cus, slots):
    """Dispatch in one compiled call (``dispatch`` and the compiled replay share it):
    ``(order, cu, step, workgroups, wg_cu, wg_start, wg_end, waves)`` as in ``Dispatch``,
    ``cu`` and ``step`` per trace row, ``waves`` the number of distinct waves.

    >>> w = np.array([0, 0, 1], np.int64)        # wave 0: rows 0, 1; wave 1: row 2
    >>> order, cu, step, *_ = place(w, w, 2, 1, 1)  # one wave per workgroup, 2 XCDs
    >>> order.tolist(), cu.tolist(), step.tolist()
    ([0, 2, 1], [0, 0, 1], [0, 1, 0])
    """
    n = wave.shape[0]
    by_wave = _stable_order(wave)  # waves, each with its rows in program order
    wave_start = _starts(wave[by_wave])
    n_waves = wave_start.shape[0] - 1
    wave_wg = workgroup[by_wave[wave_start[:-1]]]
    # workgroups in id order, each owning a contiguous run of its waves (waves in id order)
    wave_order = _stable_order(wave_wg)
    wg_wave_start = _starts(wave_wg[wave_order])
    n_wg = wg_wave_start.shape[0] - 1
    wgs = wave_wg[wave_order[wg_wave_start[:-1]]]
    ws = wave_start[wave_order]  # wave ranges reordered to follow workgroup order
    we = wave_start[wave_order + 1]
    # per-XCD queues of workgroup indices, ascending ids inside each (a counting sort)
    queue_start = np.zeros(xcds + 1, np.int64)
    for g in range(n_wg):
        queue_start[wgs[g] % xcds + 1] += 1
    queue_start = np.cumsum(queue_start)
    queue = np.empty(n_wg, np.int64)
    fill = queue_start[:-1].copy()
    for g in range(n_wg):
        x = wgs[g] % xcds
        queue[fill[x]] = g
        fill[x] += 1
    order = np.empty(n, np.int64)
    row_cu = np.empty(n, np.int64)
    row_step = np.empty(n, np.int64)
    wg_cu = np.full(n_wg, -1, np.int64)
    wg_start = np.zeros(n_wg, np.int64)
    wg_end = np.zeros(n_wg, np.int64)
    _simulate(by_wave, ws, we, wg_wave_start, queue, queue_start, xcds, cus, slots,
              order, row_cu, row_step, wg_cu, wg_start, wg_end)
    cu = np.empty(n, np.int64)
    step = np.empty(n, np.int64)
    for i in range(n):
        cu[order[i]] = row_cu[i]
        step[order[i]] = row_step[i]
    return order, cu, step, wgs, wg_cu, wg_start, wg_end, n_waves


@numba.njit(cache=True, nogil=True)
def _simulate(by_wave, ws, we, wg_wave_start, queue, queue_start, xcds, cus, slots,
              order, row_cu, row_step, wg_cu, wg_start, wg_end):  # fmt: skip
    """Step the device: fill slots round-robin, issue one row per live wave per step,
    refill retired slots from the XCD's queue. Writes the outputs in place."""
    n = by_wave.shape[0]
    n_wg = wg_wave_start.shape[0] - 1
    cursor = ws.copy()
    rows_left = np.zeros(n_wg, np.int64)
    for g in range(n_wg):
        for w in range(wg_wave_start[g], wg_wave_start[g + 1]):
            rows_left[g] += we[w] - ws[w]
    qpos = queue_start[:-1].copy()
    slot_wg = np.full(xcds * cus * slots, -1, np.int64)  # position p = cu * slots + s
    # Fixed visiting order of positions: local CU, then XCD, then slot.
    visit = np.empty(xcds * cus * slots, np.int64)
    k = 0
    for c in range(cus):
        for x in range(xcds):
            for s in range(slots):
                visit[k] = (x * cus + c) * slots + s
                k += 1
    for x in range(xcds):  # initial fill: workgroup j of an XCD -> CU j % cus, slot j // cus
        for s in range(slots):
            for c in range(cus):
                if qpos[x] < queue_start[x + 1]:
                    g = queue[qpos[x]]
                    qpos[x] += 1
                    slot_wg[(x * cus + c) * slots + s] = g
                    wg_cu[g] = x * cus + c
    live = visit.copy()  # positions holding a workgroup, in visiting order
    n_live = 0
    for p in visit:
        if slot_wg[p] >= 0:
            live[n_live] = p
            n_live += 1
    n_out = 0
    step = 0
    while n_out < n:
        for i in range(n_live):
            p = live[i]
            g = slot_wg[p]
            for w in range(wg_wave_start[g], wg_wave_start[g + 1]):
                if cursor[w] < we[w]:
                    order[n_out] = by_wave[cursor[w]]
                    row_cu[n_out] = p // slots
                    row_step[n_out] = step
                    cursor[w] += 1
                    rows_left[g] -= 1
                    n_out += 1
        step += 1
        emptied = False
        for i in range(n_live):
            p = live[i]
            g = slot_wg[p]
            if rows_left[g] == 0:
                wg_end[g] = step
                x = p // slots // cus
                if qpos[x] < queue_start[x + 1]:
                    g2 = queue[qpos[x]]
                    qpos[x] += 1
                    slot_wg[p] = g2
                    wg_cu[g2] = p // slots
                    wg_start[g2] = step
                else:
                    slot_wg[p] = -1
                    emptied = True
        if emptied:  # compact the live list, keeping the visiting order
            m = 0
            for i in range(n_live):
                if slot_wg[live[i]] >= 0:
                    live[m] = live[i]
                    m += 1
            n_live = m
