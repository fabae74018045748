"""Lane events -> wavefront instructions: the rows of a ``gpusim.memsim.Trace``.

The trace variant runs a work-group's threads one after another, so it records *lane*
events: (region instance, site, kind, thread, address) in execution order. A wavefront
executes a static instruction for all its active lanes at once, so the k-th time lane
``t`` executes site ``s`` within one region instance is the same wavefront instruction
for every lane of ``t``'s wave. ``assign_rows`` numbers those instructions in one pass:

    events of one (region instance, wave) come together, thread after thread;
    row of (site-kind, k) = the first time any lane of the wave reached it

so rows of a wave come in its program order (exact under uniform control flow; after
a divergent branch, the path of the lowest lane that took it comes first: the order
of a branch's two sides is not modelled). ``rows_to_fields`` then scatters the lane
addresses into ``[rows, wave_size]`` tables and gives every row its ``Trace`` fields.

>>> import numpy as np
>>> t = np.arange(4)                                          # 4 threads, wave size 2
>>> key = lambda ri, sk, t: (ri << 26) | (sk << 10) | t
>>> keys = np.array([key(1, 0, 0), key(1, 4, 0), key(1, 0, 1), key(1, 4, 1),
...                  key(1, 0, 2), key(1, 0, 3), key(1, 0, 3)], np.int64)
>>> row_of, sk, wave, first = assign_rows(keys, 2)
>>> row_of.tolist(), sk.tolist(), wave.tolist()      # thread 3 hits site 0 twice
([0, 1, 0, 1, 2, 2, 3], [0, 4, 0, 0], [0, 0, 1, 1])
"""

from __future__ import annotations

import numba
import numpy as np

from gpusim.trace.events import SITE_KIND_BITS, THREAD_BITS

_T_MASK = (1 << THREAD_BITS) - 1
_SK_MASK = (1 << SITE_KIND_BITS) - 1
_RI_SHIFT = THREAD_BITS + SITE_KIND_BITS


@numba.njit(cache=True, nogil=True)
def _assign(keys, wave_bits, n_sk):
    n = keys.shape[0]
    row_of = np.empty(n, np.int64)
    occ = np.zeros(n_sk, np.int64)  # the current thread's executions of each site-kind
    owner = np.full(n_sk, -1, np.int64)  # the event that started occ[sk]'s thread
    used = np.zeros(n_sk, np.int64)  # k's the current (instance, wave) has rows for
    kcap = 16
    rowmap = np.full((n_sk, kcap), -1, np.int64)  # (site-kind, k) -> row, this wave
    group, thread, start, nrows = -1, -1, -1, 0
    for e in range(n):
        key = keys[e]
        t = key & _T_MASK
        sk = (key >> THREAD_BITS) & _SK_MASK
        g = (key >> _RI_SHIFT) * 1024 + (t >> wave_bits)  # a power-of-two wave: a shift
        if g != group:  # a new wave or region instance: forget the old rows
            for s in range(n_sk):
                for k in range(used[s]):
                    rowmap[s, k] = -1
                used[s] = 0
            group, thread = g, -1  # (the same thread in a new wave group: counts anew)
        if t != thread:  # a new thread: its counts start from 0 (occ is reset lazily,
            thread, start = t, e  # per site-kind: a thread reaches a few of them)
        if owner[sk] != start:
            owner[sk], occ[sk] = start, 0
        k = occ[sk]
        occ[sk] = k + 1
        if k >= kcap:  # a site executed more often than the table holds: grow it
            bigger = np.full((n_sk, 2 * kcap), -1, np.int64)
            bigger[:, :kcap] = rowmap
            rowmap, kcap = bigger, 2 * kcap
        r = rowmap[sk, k]
        if r < 0:
            r = nrows
            nrows += 1
            rowmap[sk, k] = r
            used[sk] = max(used[sk], k + 1)
        row_of[e] = r
    # Each row's first event, site-kind and wave, after the loop: rows are numbered in
    # order of first use, and writing them in the loop above made it 4x slower (a tree
    # reduction's 20,000 events: 136 -> 530 us; LLVM's code for the hot path, not the
    # rare stores themselves).
    row_first = np.empty(nrows, np.int64)
    r = 0
    for e in range(n):
        if row_of[e] == r:
            row_first[r] = e
            r += 1
    first_keys = keys[row_first]
    row_sk = (first_keys >> THREAD_BITS) & _SK_MASK
    row_wave = (first_keys & _T_MASK) >> wave_bits
    return row_of, row_sk, row_wave, row_first


def assign_rows(keys: np.ndarray, wave_size: int, n_sites: int | None = None
                ) -> tuple[np.ndarray, ...]:
    """(row of each event, site-kind / wave in the work-group / first event of each row).

    ``n_sites``: more than the largest site number (found from ``keys`` if not given).
    """
    keys = np.ascontiguousarray(keys, np.int64)
    if n_sites is None:
        n_sites = int(((keys >> THREAD_BITS) & _SK_MASK).max(initial=0)) // 4 + 1
    return _assign(keys, _wave_bits(wave_size), 4 * n_sites)


def _wave_bits(wave_size: int) -> int:
    if wave_size < 1 or wave_size & (wave_size - 1):
        raise ValueError(f"wave size {wave_size} is not a power of two")
    return wave_size.bit_length() - 1


@numba.njit(cache=True, nogil=True)
def _fields(row_of, keys, addr, row_sk, row_wave, row_wg, ids, site_bytes, site_space,
            nrows, wave_size, waves_per_wg):
    table = np.zeros((nrows, wave_size), np.int64)
    active = np.zeros((nrows, wave_size), np.bool_)
    for e in range(row_of.shape[0]):
        r = row_of[e]
        if r < nrows:
            lane = keys[e] & _T_MASK & (wave_size - 1)
            table[r, lane] = addr[e]
            active[r, lane] = True
    nbytes, kind = np.empty(nrows, np.int32), np.empty(nrows, np.int8)
    space, site = np.empty(nrows, np.int8), np.empty(nrows, np.int32)
    wave, wg = np.empty(nrows, np.int64), np.empty(nrows, np.int64)
    for r in range(nrows):
        s = row_sk[r] >> 2  # site-kind = site * 4 + kind
        site[r], kind[r] = s, row_sk[r] & 3
        nbytes[r], space[r] = site_bytes[s], site_space[s]
        wg[r] = ids[row_wg[r]]
        wave[r] = wg[r] * waves_per_wg + row_wave[r]
    return table, active, nbytes, kind, space, site, wave, wg


@numba.njit(cache=True, nogil=True)
def _trace_rows(keys, addr, ends, ids, wave_bits, n_sk, site_bytes, site_space,
                waves_per_wg, max_rows):  # fmt: skip
    row_of, row_sk, row_wave, row_first = _assign(keys, wave_bits, n_sk)
    row_wg = np.searchsorted(ends, row_first, side="right")  # index into ids
    kept, nrows, cut = ids.shape[0], row_sk.shape[0], False
    if nrows > max_rows:  # keep whole work-groups while they fit
        over = row_wg[max_rows]  # the work-group that does not
        if over > 0:
            kept, nrows = over, np.searchsorted(row_wg, over)
        else:  # the first one alone is too big: keep its first rows
            kept, nrows, cut = 1, max_rows, True
    fields = _fields(row_of, keys, addr, row_sk, row_wave, row_wg, ids, site_bytes,
                     site_space, nrows, np.int64(1) << wave_bits, waves_per_wg)
    per = np.zeros(8, np.int64)  # rows per space * 4 + kind
    for r in range(nrows):
        per[fields[4][r] * 4 + fields[3][r]] += 1
    return fields, kept, cut, per


def trace_rows(keys: np.ndarray, addr: np.ndarray, ends: np.ndarray, ids: np.ndarray,
               wave_size: int, site_bytes: np.ndarray, site_space: np.ndarray,
               waves_per_wg: int, max_rows: int) -> tuple:
    """The work-groups' lane events (``keys``, ``addr``; work-group ``ids[j]``'s end
    before ``ends[j]``) as ``Trace`` fields, in one compiled call: ``assign_rows``, then
    ``rows_to_fields`` for the work-groups whose rows fit ``max_rows`` (part of the first
    if it alone does not). Returns (fields, work-groups kept, whether the first was cut,
    rows per ``space * 4 + kind``).

    >>> keys = np.array([(1 << 26) | (4 << 10) | t for t in range(4)], np.int64)  # site 1
    >>> f, kept, cut, per = trace_rows(keys, keys * 0 + 64, np.array([2, 4]),
    ...     np.array([7, 9]), 2, np.array([4, 8], np.int32), np.array([0, 1], np.int8), 1, 99)
    >>> f[7].tolist(), kept, cut, per.tolist()     # one LDS load per work-group
    ([7, 9], 2, False, [0, 0, 0, 0, 2, 0, 0, 0])
    """
    return _trace_rows(np.ascontiguousarray(keys, np.int64), np.ascontiguousarray(addr),
                       ends, ids, _wave_bits(wave_size), site_bytes.shape[0] * 4,
                       site_bytes, site_space, waves_per_wg, max_rows)


def rows_to_fields(row_of: np.ndarray, keys: np.ndarray, addr: np.ndarray, nrows: int,
                   wave_size: int, rows: tuple[np.ndarray, ...], site_bytes: np.ndarray,
                   site_space: np.ndarray, waves_per_wg: int) -> tuple[np.ndarray, ...]:
    """The first ``nrows`` rows as ``Trace`` fields, in its order: ``addr[rows, lanes]``,
    ``active``, bytes per lane, kind, space, site, wave, workgroup. ``rows``: each
    row's (site-kind, wave in its work-group, index into ``ids``) and ``ids`` (the
    work-groups' ids in the grid); ``site_bytes`` / ``site_space``: per site.

    >>> keys = np.array([(1 << 26) | (4 << 10) | t for t in range(3)], np.int64)  # site 1
    >>> row_of = np.array([0, 0, 1])                          # wave size 2: lanes 0, 1 | 0
    >>> f = rows_to_fields(row_of, keys, keys * 0 + 64, 2, 2, (np.array([4, 4]),
    ...                    np.array([0, 1]), np.array([0, 0]), np.array([5])),
    ...                    np.array([4, 8], np.int32), np.array([0, 1], np.int8), 2)
    >>> f[0].tolist(), f[1].tolist(), f[2].tolist(), f[5].tolist(), f[6].tolist()
    ([[64, 64], [64, 0]], [[True, True], [True, False]], [8, 8], [1, 1], [10, 11])
    """
    row_sk, row_wave, row_wg, ids = rows
    _wave_bits(wave_size)
    return _fields(np.ascontiguousarray(row_of), np.ascontiguousarray(keys),
                   np.ascontiguousarray(addr), row_sk, row_wave, row_wg, ids, site_bytes,
                   site_space, nrows, wave_size, waves_per_wg)
