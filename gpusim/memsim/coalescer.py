"""Coalescer: one wavefront memory instruction -> the cache-line requests it becomes.

The vL1D's address unit (TA) merges the lanes of a vector memory instruction into
requests of one cache line each ("All cache accesses in vL1D are for a single cache
line's worth of data", ROCm Compute Profiler docs, *Vector L1 cache*). Here an
instruction becomes its **distinct lines, in order of the first lane touching each**; a
lane whose bytes straddle a line boundary touches both lines.

Per instruction we report:

- ``requests``: lines requested (what vL1D sees; ``bytes_moved = requests * line``),
- ``bytes_requested``: active lanes x bytes per lane (what the program asked for),
- ``bytes_useful``: distinct bytes among them (lanes reading the same word count once),
- ``efficiency = bytes_useful / bytes_moved``: 1.0 when every fetched byte is used.

Simplification (documented, not hidden): the real TA works on groups of lanes per
cycle and its exact merging rules are not public; merging over the whole wavefront
gives the minimum number of line requests, which is what the coalescing lessons
compare.

>>> import numpy as np
>>> lanes = np.arange(64)
>>> c = coalesce(np.stack([lanes * 4, lanes * 4 * 32]), bytes_per_lane=4, line=128)
>>> c.requests.tolist(), c.efficiency.tolist()          # coalesced vs stride 32 floats
([2, 64], [1.0, 0.03125])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from gpusim.memsim.hashset import insert, new_table


@dataclass(frozen=True)
class Coalesced:
    """Line requests of a batch of instructions; instruction ``k`` owns
    ``lines[offsets[k]:offsets[k + 1]]``."""

    lines: np.ndarray  # int64 line byte addresses, all instructions concatenated
    offsets: np.ndarray  # int64, n_instructions + 1
    bytes_requested: np.ndarray  # int64 per instruction
    bytes_useful: np.ndarray  # int64 per instruction
    line: int

    @property
    def requests(self) -> np.ndarray:
        """Line requests per instruction."""
        return np.diff(self.offsets)

    @property
    def bytes_moved(self) -> np.ndarray:
        """Bytes the cache moves per instruction (whole lines)."""
        return self.requests * self.line

    @property
    def efficiency(self) -> np.ndarray:
        """Useful / moved bytes per instruction; 1.0 for an instruction with no active lane."""
        moved = self.bytes_moved
        return np.where(moved > 0, self.bytes_useful / np.maximum(moved, 1), 1.0)

    def summary(self, loads: np.ndarray | None = None) -> dict[str, float]:
        """Totals over the batch (``efficiency`` weighted by bytes moved); ``loads``: which
        instructions are loads, for ``load_requests_per_instruction`` (what a load's
        latency waits for: its slowest line)."""
        requests = int(self.offsets[-1])
        moved = requests * self.line  # every request moves one whole line
        useful = int(self.bytes_useful.sum())
        n = len(self.offsets) - 1
        per_load = {}
        if loads is not None:
            n_loads = int(np.count_nonzero(loads))
            per_load["load_requests_per_instruction"] = (
                float(self.requests[loads].sum()) / n_loads if n_loads else 0.0)
        return {**per_load,
            "instructions": n,
            "requests": requests,
            "requests_per_instruction": requests / n if n else 0.0,
            "bytes_requested": int(self.bytes_requested.sum()),
            "bytes_useful": useful,
            "bytes_moved": moved,
            "efficiency": useful / moved if moved else 1.0,
        }

    def trace(self, is_store: Any = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(addresses, sizes, is_store)`` for ``Hierarchy.run``: one whole-line access per
        request. ``is_store``: a bool, or one per instruction."""
        store = np.broadcast_to(np.asarray(is_store, dtype=bool), (len(self.offsets) - 1,))
        per_request = np.repeat(store, self.requests)
        return self.lines, np.full(1, self.line, dtype=np.int64), per_request


def coalesce(
    addresses: Any,
    active: Any = None,
    bytes_per_lane: Any = 4,
    line: int = 128,
) -> Coalesced:
    """Coalesce a batch of wavefront instructions into line requests.

    ``addresses``: (instructions, lanes) byte addresses, or (lanes,) for one instruction;
    ``active``: bool mask of the same shape (default all lanes); ``bytes_per_lane``:
    scalar or one per instruction (1, 2, 4, 8, 16 for the b8 ... b128 forms); ``line``:
    the cache line size (``spec.l1_line_bytes``: 128 B on MI300X, 64 B before).

    >>> c = coalesce([0, 4, 8, 1000], active=[True, True, False, True], line=64)
    >>> c.lines.tolist(), int(c.bytes_requested[0]), int(c.bytes_useful[0])
    ([0, 960], 12, 12)
    """
    addr = np.atleast_2d(np.asarray(addresses, dtype=np.int64))
    n_inst, lanes = addr.shape
    mask = np.ones(addr.shape, np.bool_) if active is None else np.asarray(active, np.bool_)
    mask = np.atleast_2d(mask)
    if mask.shape != addr.shape:
        raise ValueError(f"active has shape {mask.shape}, addresses {addr.shape}")
    width = np.broadcast_to(np.asarray(bytes_per_lane, dtype=np.int64), (n_inst,))
    if n_inst and width.min() <= 0:
        raise ValueError("bytes_per_lane must be >= 1")
    if addr.size and addr.min() < 0:
        raise ValueError(f"addresses must be >= 0; found {int(addr.min())}")
    if line <= 0 or line & (line - 1):
        raise ValueError(f"line={line} must be a power of two")
    lines, offsets, requested, useful = coalesce_batch(
        np.ascontiguousarray(addr), np.ascontiguousarray(mask), np.ascontiguousarray(width),
        int(line).bit_length() - 1,
    )  # fmt: skip
    return Coalesced(lines, offsets, requested, useful, int(line))


@numba.njit(cache=True, nogil=True)
def coalesce_batch(addr, mask, width, line_bits):
    """``coalesce``'s compiled core (the compiled replay calls it too): (line addresses,
    offsets, bytes requested, bytes useful) for checked ``[n, lanes]`` int64 addresses.

    >>> lanes = np.arange(64, dtype=np.int64)[None]
    >>> out = coalesce_batch(4 * lanes, lanes >= 0, np.full(1, 4, np.int64), 7)
    >>> [a.tolist() for a in out]
    [[0, 128], [0, 2], [256], [256]]
    """
    n_inst, lanes = addr.shape
    widest = 1
    for k in range(n_inst):
        widest = max(widest, width[k])
    keys, marks = new_table(lanes * ((widest >> line_bits) + 2))  # lines per instruction
    lines = np.empty(max(16, 2 * n_inst), np.int64)
    offsets = np.zeros(n_inst + 1, np.int64)
    requested = np.zeros(n_inst, np.int64)
    useful = np.zeros(n_inst, np.int64)
    starts = np.empty(lanes, np.int64)
    line = np.int64(1) << line_bits
    for k in range(n_inst):
        w, n = width[k], offsets[k]
        room = n + lanes * ((w >> line_bits) + 2)  # at most this many lines after it
        if room > lines.shape[0]:  # grow the output (amortised doubling)
            bigger = np.empty(2 * room, np.int64)
            bigger[:n] = lines[:n]
            lines = bigger
        # The usual row first: every lane active, each at most a line past the one
        # before; then its lines are one run. A branch-free pass LLVM vectorises
        # (a sample's coalesced rows: 4x faster than ``_ordered_lines``' lane by lane).
        dense, total = lanes > 0 and mask[k, 0], 0
        for lane in range(1, lanes):
            gap = addr[k, lane] - addr[k, lane - 1]
            dense &= mask[k, lane] & (gap >= 0) & (gap <= line)
            total += min(w, gap)
        if dense:
            for cl in range(addr[k, 0] >> line_bits,
                            ((addr[k, lanes - 1] + w - 1) >> line_bits) + 1):
                lines[n] = cl
                n += 1
            offsets[k + 1], useful[k], requested[k] = n, total + w, lanes * w
            continue
        # Else the lanes in address order; out of order (-1 bytes useful), a hash set.
        end, m, total = _ordered_lines(addr[k], mask[k], w, line_bits, lines, n, starts)
        if total < 0:
            end, total = _hashed_lines(starts, m, w, line_bits, lines, n, keys, marks,
                                       k + 1, n_inst)  # a fresh set for each instruction
        offsets[k + 1], useful[k], requested[k] = end, total, m * w
    out = lines[:offsets[n_inst]].copy()
    for j in range(out.shape[0]):
        out[j] <<= line_bits
    return out, offsets, requested, useful


@numba.njit(cache=True, nogil=True, inline="always")
def _ordered_lines(addr, mask, w, line_bits, lines, n, starts):
    """Lines and bytes useful of one row whose active lanes come in address order.

    Returns ``(end, active lanes, bytes useful)``, the lines written to ``lines[n:end]``,
    or bytes useful -1 for lanes out of order; either way ``starts[:active lanes]`` holds
    their addresses. Lanes in order (coalesced, strided, broadcast): a line is new iff
    past the last one, and the union of bytes adds up as it goes; no hashing.
    """
    m, total, ordered = 0, 0, True
    top = -1  # the last line requested (lines come in ascending order here)
    for lane in range(addr.shape[0]):
        if not mask[lane]:
            continue
        a = addr[lane]
        starts[m] = a
        m += 1
        if not ordered:
            continue
        if m > 1:
            gap = a - starts[m - 2]
            if gap < 0:
                ordered = False
                continue
            total += min(w, gap)  # what the lane before added beyond this one
        end = (a + w - 1) >> line_bits
        if end > top:
            for cl in range(max(a >> line_bits, top + 1), end + 1):
                lines[n] = cl
                n += 1
            top = end
    if not ordered:
        return n, m, -1
    return n, m, total + w if m else 0


@numba.njit(cache=True, nogil=True, inline="always")
def _hashed_lines(starts, m, w, line_bits, lines, n, keys, marks, mark, n_inst):
    """Lines and bytes useful of lanes in any order, through a hash set of lines.

    Returns ``(end, bytes useful)`` for the lanes at ``starts[:m]``: their distinct lines,
    in order of the first lane touching each, go to ``lines[n:end]`` (hash set ``mark``;
    ``_distinct_bytes`` gets ``mark + n_inst + 1``, apart from every instruction's mark).
    """
    first = n
    single = True  # every lane within one line
    for j in range(m):
        a = starts[j]
        lo, hi = a >> line_bits, (a + w - 1) >> line_bits
        single &= lo == hi
        for cl in range(lo, hi + 1):
            if insert(keys, marks, mark, cl):
                lines[n] = cl
                n += 1
    if single and n - first == m:  # each lane alone in its line: disjoint
        return n, m * w
    return n, _distinct_bytes(starts, m, w, keys, marks, mark + n_inst + 1)


@numba.njit(cache=True, nogil=True)
def _distinct_bytes(starts, m, w, keys, marks, mark):
    """Bytes in the union of the intervals [starts[j], starts[j] + w), j < m."""
    aligned = True
    distinct = 0
    for j in range(m):
        aligned = aligned and starts[j] % w == 0
        # Key space of lines and starts differ; ``mark`` is offset to keep sets apart.
        if insert(keys, marks, mark, starts[j]):
            distinct += 1
    if aligned and w & (w - 1) == 0:
        return distinct * w  # naturally aligned accesses are identical or disjoint
    # General case: sort the starts (insertion sort: lanes usually come sorted, and
    # np.sort would add seconds of first-call compile time), add the non-overlaps.
    for j in range(1, m):
        a = starts[j]
        h = j - 1
        while h >= 0 and starts[h] > a:
            starts[h + 1] = starts[h]
            h -= 1
        starts[h + 1] = a
    return _sorted_union(starts, m, w)


@numba.njit(cache=True, nogil=True)
def _sorted_union(starts, m, w):
    """Bytes in the union of [starts[j], starts[j] + w), j < m, for sorted starts."""
    total = 0
    for j in range(m):
        total += w if j == m - 1 else min(w, starts[j + 1] - starts[j])
    return total


def sector_bytes(c: Coalesced, addresses: Any, active: Any, bytes_per_lane: Any,
                 sector: int = 32) -> np.ndarray:
    """Per line request of ``c``: bytes of the ``sector``-sized pieces of its line that
    its instruction's lanes touch (what a sectored cache fetches on a miss).

    >>> lanes = np.arange(64)
    >>> addr = np.stack([lanes * 4, lanes * 4 * 32])           # coalesced, stride 32
    >>> c = coalesce(addr, line=128)
    >>> sector_bytes(c, addr, None, 4)[:2].tolist(), sector_bytes(c, addr, None, 4)[2:4].tolist()
    ([128, 128], [32, 32])
    """
    addr = np.atleast_2d(np.asarray(addresses, dtype=np.int64))
    mask = (np.ones(addr.shape, np.bool_) if active is None
            else np.atleast_2d(np.asarray(active, np.bool_)))
    width = np.broadcast_to(np.asarray(bytes_per_lane, dtype=np.int64), (addr.shape[0],))
    bits = _sector_masks(np.ascontiguousarray(addr), np.ascontiguousarray(mask),
                         np.ascontiguousarray(width), c.lines, c.offsets,
                         c.line.bit_length() - 1, sector.bit_length() - 1)
    return _popcount(bits) * sector


@numba.njit(cache=True, nogil=True)
def _sector_masks(addr, mask, width, lines, offsets, line_bits, sector_bits):
    out = np.zeros(lines.shape[0], np.int64)
    for k in range(addr.shape[0]):
        j = offsets[k]  # the request last found: coalesced lanes stay on it
        new = offsets[k]  # requests before it were met already: lines come in the order
        last = -1  # of the first lane touching each; the sector the lane before ended in
        for lane in range(addr.shape[1]):
            if not mask[k, lane]:
                continue
            a = addr[k, lane]
            first, end = a >> sector_bits, (a + width[k] - 1) >> sector_bits
            if first == last and end == last:
                continue
            last = end
            for s in range(first, end + 1):
                line = (s << sector_bits) >> line_bits << line_bits
                if lines[j] != line:
                    if new < offsets[k + 1] and lines[new] == line:
                        j = new  # a line no lane before touched (strided lanes: every one)
                    else:  # one met before
                        j = offsets[k]
                        while lines[j] != line:
                            j += 1
                new = max(new, j + 1)
                out[j] |= 1 << (((s << sector_bits) - line) >> sector_bits)
    return out


@numba.njit(cache=True, nogil=True)
def _popcount(bits):
    """Set bits of each entry (at most 64; Kernighan's loop: one pass per set bit)."""
    out = np.zeros(bits.shape[0], np.int64)
    for j in range(bits.shape[0]):
        b = bits[j]
        while b:
            b &= b - 1
            out[j] += 1
    return out
