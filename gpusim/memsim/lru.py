"""The cache kernels: pure numba functions over a level's numbers and ``CacheState`` arrays.

``access_batch`` runs a whole batch of requests through one level and writes the
requests that level sends to the next one (fills, write-backs, write-throughs) into
output arrays; ``hierarchy.py`` drains those into the next level. Every function takes
plain numbers and arrays (no objects), so numba compiles each once and caches it on
disk (``cache=True``): a new process or notebook pays no compile time again.

>>> import numpy as np
>>> from gpusim.memsim.cache import Cache, CacheState, contents, counters_dict
>>> c = Cache("L1", size=256, ways=2, line=64)             # 2 sets x 2 ways
>>> st = CacheState.empty(c)
>>> stop, n_out = run_batch(c, st, np.array([0, 4, 128, 256], dtype=np.int64))
>>> counts = counters_dict(st.counters)
>>> counts["load_hits"], counts["load_misses"], counts["evictions"], n_out
(1, 3, 1, 3)
>>> contents(c, st)                                         # 256 evicted line 0
[[(256, False), (128, False)], []]
"""

from __future__ import annotations

import numba
import numpy as np

from gpusim.memsim.cache import (
    EVICTIONS,
    LOAD_BYTES,
    LOAD_HITS,
    LOAD_MISSES,
    LOADS,
    STORE_BYTES,
    STORE_HITS,
    STORE_MISSES,
    STORES,
    WRITE_THROUGH_BYTES,
    WRITE_THROUGHS,
    WRITEBACKS,
    Cache,
    CacheState,
)


# This kernel's length is its speed: its loop body runs once per line of every request.
# Split into helpers (LRU lookup, store lookup, emit a request, fill + write-back), it ran
# 4M-access traces 2-3x slower where a fill helper took the miss path (inline="always" or
# not), and 4-11% slower on store mixes with only the lookup and emit helpers.
@numba.njit(cache=True, nogil=True)
def access_batch(
    tags, counters,  # State
    sets, ways, line_bits, write_back, write_allocate, store_lru,  # Spec numbers
    req_addr, req_size, req_store, start,  # requests; size/store arrays may have length 1
    out_addr, out_size, out_store,  # requests for the next level, written from index 0
    out_src,  # the request index behind each of them (an empty array: not wanted)
):  # fmt: skip
    """Run requests ``start ..`` through one level; return ``(stop, n_out)``.

    ``tags`` entries are ``line << 1 | dirty`` in recency order per set (``CacheState``).
    Stops early (``stop < len(req_addr)``) when ``out_*`` could overflow: a request may
    emit two next-level requests per line it touches (fill + write-back, or fill +
    write-through). The caller drains ``out_*[:n_out]`` to the next level and calls again.
    Emitted order is what the next level must see: the fill of a missing line before
    the write-back of the victim it displaces (pycachesim's order).
    """
    n = req_addr.shape[0]
    size_step = 1 if req_size.shape[0] > 1 else 0
    store_step = 1 if req_store.shape[0] > 1 else 0
    set_mask = sets - 1 if sets & (sets - 1) == 0 else -1  # AND instead of % when possible
    line = np.int64(1) << line_bits
    cap = out_addr.shape[0]
    want_src = out_src.shape[0] > 0
    # Counts live in locals, added to ``counters`` once at the end: an array element
    # updated in the loop may alias ``tags``, so LLVM would store it every time.
    loads = stores = load_bytes = store_bytes = 0
    load_hits = load_misses = store_hits = store_misses = 0
    evictions = writebacks = throughs = through_bytes = 0
    n_out = 0
    i = start
    while i < n:
        addr = req_addr[i]
        size = req_size[i * size_step]
        is_store = req_store[i * store_step] != 0
        first = addr >> line_bits
        last = (addr + size - 1) >> line_bits
        if n_out + 2 * (last - first + 1) > cap:
            break  # let the caller drain the next level first
        if is_store:
            stores += 1
            store_bytes += size
        else:
            loads += 1
            load_bytes += size
        for cl in range(first, last + 1):
            key = cl << 1 | 1  # compare with the dirty bit forced on: t | 1 == key
            base = (cl & set_mask if set_mask >= 0 else cl % sets) * ways
            if not is_store or (write_allocate and store_lru):
                # Scan and shift in one pass: each way moves down one place until the
                # line is found; it (hit) or the last way (miss: the victim) ends up in
                # ``carry`` and goes to the front, where a miss then puts the new line.
                carry = tags[base]
                hit = carry | 1 == key
                if not hit:
                    for w in range(base + 1, base + ways):
                        t = tags[w]
                        tags[w] = carry
                        carry = t
                        if t | 1 == key:
                            hit = True
                            break
                    tags[base] = carry
                at = base
                fill = not hit
            else:  # a store that must not refresh LRU order, or must not allocate
                at = -1
                for w in range(base, base + ways):
                    if tags[w] | 1 == key:
                        at = w
                        break
                hit = at >= 0
                fill = not hit and write_allocate
                if (hit and store_lru) or fill:
                    end = at if hit else base + ways - 1
                    carry = tags[end]  # the line to refresh, or the victim
                    for w in range(end, base, -1):
                        tags[w] = tags[w - 1]
                    tags[base] = carry
                    at = base
            if hit:
                if not is_store:
                    load_hits += 1
                    continue
                store_hits += 1
                if write_back:
                    tags[at] |= 1
                    continue
                through = True  # write-through: this line's bytes go below
            else:
                through = is_store
                if is_store:
                    store_misses += 1
                else:
                    load_misses += 1
                if fill:
                    out_addr[n_out] = cl << line_bits  # fetch the whole line from below
                    out_size[n_out] = line
                    out_store[n_out] = 0
                    if want_src:
                        out_src[n_out] = i
                    n_out += 1
                    victim = tags[base]  # put there by the shift above
                    if victim != -1:
                        evictions += 1
                        if victim & 1:
                            writebacks += 1
                            out_addr[n_out] = (victim >> 1) << line_bits
                            out_size[n_out] = line
                            out_store[n_out] = 1
                            if want_src:
                                out_src[n_out] = i
                            n_out += 1
                    if is_store and write_back:
                        tags[base] = key  # dirty
                        through = False
                    else:
                        tags[base] = key ^ 1  # clean
            if through:
                lo = max(addr, cl << line_bits)
                hi = min(addr + size, (cl + 1) << line_bits)
                out_addr[n_out] = lo
                out_size[n_out] = hi - lo
                out_store[n_out] = 1
                if want_src:
                    out_src[n_out] = i
                n_out += 1
                throughs += 1
                through_bytes += hi - lo
        i += 1
    counters[LOADS] += loads
    counters[STORES] += stores
    counters[LOAD_BYTES] += load_bytes
    counters[STORE_BYTES] += store_bytes
    counters[LOAD_HITS] += load_hits
    counters[LOAD_MISSES] += load_misses
    counters[STORE_HITS] += store_hits
    counters[STORE_MISSES] += store_misses
    counters[EVICTIONS] += evictions
    counters[WRITEBACKS] += writebacks
    counters[WRITE_THROUGHS] += throughs
    counters[WRITE_THROUGH_BYTES] += through_bytes
    return i, n_out


@numba.njit(cache=True, nogil=True)
def collect_dirty(tags, counters, line_bits, out_addr):
    """Clear every dirty bit; write those lines' addresses to ``out_addr``; return count.

    Used by ``Hierarchy.flush`` (write all modified data back, e.g. at kernel end).
    Each line counts as a write-back of this level; recency order is unchanged.
    """
    n = 0
    for start in range(0, tags.shape[0], 64):
        end = min(start + 64, tags.shape[0])
        dirty = 0  # most ways are clean or empty: look for a dirty one without branching
        for w in range(start, end):
            t = tags[w]
            dirty |= t & ~(t >> 63) & 1  # set bit 0, and not the sign of an empty way
        if dirty:
            for w in range(start, end):
                t = tags[w]
                if t != -1 and t & 1:
                    out_addr[n] = (t >> 1) << line_bits
                    n += 1
                    tags[w] = t ^ 1
    counters[WRITEBACKS] += n
    return n


@numba.njit(cache=True, nogil=True)
def count_stream(req_size, req_store, n, memory):
    """Add ``n`` requests to ``memory`` = [loads, stores, load bytes, store bytes]."""
    size_step = 1 if req_size.shape[0] > 1 else 0
    store_step = 1 if req_store.shape[0] > 1 else 0
    loads = stores = load_bytes = store_bytes = 0
    for i in range(n):
        if req_store[i * store_step]:
            stores += 1
            store_bytes += req_size[i * size_step]
        else:
            loads += 1
            load_bytes += req_size[i * size_step]
    memory[0] += loads
    memory[1] += stores
    memory[2] += load_bytes
    memory[3] += store_bytes


_NO_SRC = np.empty(0, np.int64)  # run_batch's callers do not ask which request emitted what


def run_batch(
    spec: Cache,
    state: CacheState,
    addr: np.ndarray,
    size: np.ndarray | None = None,
    is_store: np.ndarray | None = None,
    start: int = 0,
    out: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> tuple[int, int]:
    """Call ``access_batch`` with ``spec``'s numbers; defaults: 4-byte loads.

    ``out`` = (addr, size, store) buffers for the next level's requests; without it one
    big enough for the whole batch is made (single-level use and tests).
    """
    size = np.full(1, 4, dtype=np.int64) if size is None else size
    is_store = np.zeros(1, dtype=np.uint8) if is_store is None else is_store
    if out is None:
        lines = ((addr + size - 1) >> spec.line_bits) - (addr >> spec.line_bits) + 1
        cap = 2 * int(lines.sum()) + 2
        out = (np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.uint8))
    return access_batch(
        state.tags, state.counters,
        spec.sets, spec.ways, spec.line_bits,
        spec.write_back, spec.write_allocate, spec.store_updates_lru,
        addr, size, is_store, start, *out, _NO_SRC,
    )  # fmt: skip
