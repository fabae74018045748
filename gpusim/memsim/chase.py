"""Dependent loads: the longest chain of loads whose address came from the load before.

A pointer chase (``j = buf[j]``) cannot overlap its loads: each waits for the one before
to return, so a wave pays the full latency per step. The trace holds addresses, not
values, so the chain is found from the arrays' contents: in one wave's global loads, in
program order, load *k* depends on load *k-1* when its (first active lane's) address is
``base + value * itemsize`` of the array it falls in, where ``value`` is what load *k-1*
read (an integer array's element at that load's address). ``longest_chain`` returns the
longest run of such loads in any traced wave (1 when no load depends on the one before)
and the size of the array it wanders over (what decides its TLB misses,
``timing.kernel_model``).

An indirect gather (``a[idx[i]]``) makes runs of two (idx, then a), which overlap from one
iteration to the next: only a chain of many dependent loads changes the time.

>>> import numpy as np
>>> from gpusim.trace.record import Trace, Access
>>> buf = np.array([3, 0, 1, 2], np.int64)     # 0 -> 3 -> 2 -> 1 -> 0
>>> seq = [0, 3, 2, 1]
>>> tr = Trace.from_lane_addresses(1, 1, lambda t: [Access(4096 + 8 * j, bytes=8) for j in seq])
>>> longest_chain(tr, [(4096, buf)])
Chain(length=4, nbytes=32)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gpusim.trace.record import GLOBAL, LOAD, Trace


class Chain(NamedTuple):
    length: int  # dependent loads one after another (1: none depends on the one before)
    nbytes: int  # the array the longest chain reads


def longest_chain(trace: Trace, arrays: list[tuple[int, np.ndarray]]) -> Chain:
    """Longest run of dependent global loads in one wave (see the module docstring);
    ``arrays``: (traced device address, host ndarray) of the kernel's array arguments."""
    ints = [(int(a), x) for a, x in arrays
            if isinstance(x, np.ndarray) and x.dtype.kind in "iu" and x.size
            and x.flags.c_contiguous]
    if not ints:
        return Chain(1, 0)
    rows = np.flatnonzero((trace.space == GLOBAL) & (trace.kind == LOAD))
    if len(rows) < 2:
        return Chain(1, 0)
    act = trace.active[rows]
    has = act.any(axis=1)
    rows = rows[has]
    if len(rows) < 2:
        return Chain(1, 0)
    lane = np.argmax(trace.active[rows], axis=1)
    addr = trace.addr[rows, lane].astype(np.int64)
    wave = trace.wave[rows].astype(np.int64)
    order = np.lexsort((rows, wave))
    addr, wave = addr[order], wave[order]
    # which integer array each address falls in, and the value read there
    ints.sort(key=lambda p: p[0])
    bases = np.array([b for b, _ in ints], np.int64)
    ends = np.array([b + x.nbytes for b, x in ints], np.int64)
    j = np.searchsorted(bases, addr, side="right") - 1
    inside = (j >= 0) & (addr < ends[np.maximum(j, 0)])
    value = np.full(len(addr), np.iinfo(np.int64).min, np.int64)
    size = np.zeros(len(addr), np.int64)
    for k, (b, x) in enumerate(ints):
        sel = np.flatnonzero(inside & (j == k))
        if len(sel):
            flat = x.reshape(-1)
            idx = (addr[sel] - b) // x.itemsize
            value[sel] = flat[np.clip(idx, 0, flat.size - 1)].astype(np.int64)
            size[sel] = x.itemsize
    # load k depends on load k-1 (same wave) if
    # addr_k = base(array of k) + value_{k-1} * its itemsize
    base_k = np.where(inside, bases[np.maximum(j, 0)], -1)
    dep = np.zeros(len(addr), bool)
    prev_ok = (wave[1:] == wave[:-1]) & inside[1:] & (size[1:] > 0)
    dep[1:] = prev_ok & (addr[1:] == base_k[1:] + value[:-1] * size[1:])
    if not dep.any():
        return Chain(1, 0)
    # longest run of True (runs broken where dep is False or the wave changes)
    d = np.concatenate([[0], dep.astype(np.int8), [0]])
    starts = np.flatnonzero(np.diff(d) == 1)
    stops = np.flatnonzero(np.diff(d) == -1)
    best = int(np.argmax(stops - starts))
    array = ints[int(j[starts[best]])][1]
    return Chain(int(stops[best] - starts[best]) + 1, int(array.nbytes))
