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
>>> from gpusim.memsim.trace import Access, Trace
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
from gpusim.memsim.trace import Trace


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
    if workgroups_per_cu < 1:
        raise ValueError(
            f"workgroups_per_cu={workgroups_per_cu}: not one workgroup fits on a CU, so the "
            "launch cannot run (check the occupancy limiter: registers or LDS)"
        )
    if xcd_count < 1 or cus_per_xcd < 1:
        raise ValueError("xcd_count and cus_per_xcd must be >= 1")
    n = len(trace)
    # Waves, each with its rows in program order (stable sort keeps that order).
    by_wave = np.argsort(trace.wave, kind="stable")
    waves, wave_first = np.unique(trace.wave[by_wave], return_index=True)
    wave_start = np.append(wave_first, n).astype(np.int64)
    wave_wg = trace.workgroup[by_wave][wave_first]
    # Workgroups in id order, each owning a contiguous run of its waves.
    wgs, wave_wg_idx = np.unique(wave_wg, return_inverse=True)
    wave_order = np.lexsort((waves, wave_wg_idx))
    wg_wave_start = np.searchsorted(wave_wg_idx[wave_order], np.arange(len(wgs) + 1))
    ws = wave_start[wave_order]  # wave ranges reordered to follow workgroup order
    we = wave_start[wave_order + 1]
    # Per-XCD queues of workgroup indices (ascending ids inside each XCD).
    wg_xcd = (wgs % xcd_count).astype(np.int64)
    queue = np.argsort(wg_xcd, kind="stable").astype(np.int64)
    queue_start = np.searchsorted(wg_xcd[queue], np.arange(xcd_count + 1)).astype(np.int64)

    order = np.empty(n, np.int64)
    row_cu = np.empty(n, np.int64)
    row_step = np.empty(n, np.int64)
    wg_cu = np.full(len(wgs), -1, np.int64)
    wg_start = np.zeros(len(wgs), np.int64)
    wg_end = np.zeros(len(wgs), np.int64)
    _simulate(by_wave, ws.astype(np.int64), we.astype(np.int64),
              wg_wave_start.astype(np.int64), queue, queue_start,
              xcd_count, cus_per_xcd, workgroups_per_cu,
              order, row_cu, row_step, wg_cu, wg_start, wg_end)  # fmt: skip
    cu = np.empty(n, np.int64)
    step = np.empty(n, np.int64)
    cu[order] = row_cu
    step[order] = row_step
    return Dispatch(
        order,
        cu // cus_per_xcd,
        cu,
        step,
        wgs,
        wg_cu,
        wg_start,
        wg_end,
        xcd_count,
        cus_per_xcd,
        workgroups_per_cu,
    )


def dispatch_for(trace: Trace, spec: DeviceSpec, workgroups_per_cu: int) -> Dispatch:
    """``dispatch`` with the device's XCD and CU counts."""
    return dispatch(
        trace,
        xcd_count=spec.xcd_count,
        cus_per_xcd=spec.cus_per_xcd,
        workgroups_per_cu=workgroups_per_cu,
    )


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
