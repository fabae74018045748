"""LDS bank model: bank-conflict degree and extra cycles of wavefront LDS instructions.

The LDS has ``lds_banks`` banks of ``lds_bank_width_bytes`` each (32 x 4 B on CDNA:
ROCm Compute Profiler docs, *Local data share*); dword address ``a // 4`` lives in bank
``(a // 4) % 32``. Each bank serves one dword per clock, so lanes that hit **different
dwords of one bank** in the same clock serialise; lanes reading the **same dword** are
served together (broadcast), which is not a conflict.

A wavefront instruction is served in *phases* (clocks without conflicts); only lanes in
the same phase can conflict. What is documented:

- 32-bit (and narrower) accesses: "bank conflicts are determined by what addresses are
  accessed on each half wavefront boundary. Threads 0 through 31 are checked for
  conflicts as are threads 32 through 63" (AMD APP OpenCL Optimization Guide, GCN LDS
  section, the architecture CDNA inherits).
- 64-bit accesses: requests "generated from a quarter-wavefront" (16 lanes) should avoid
  conflicts (same guide, float2 example).
- 128-bit accesses: ``ds_write_b128`` runs in 8 phases of 8 consecutive lanes;
  ``ds_read_b128`` in 8 phases with the lane groups 0-3+20-23, 4-7+16-19, 8-11+28-31,
  12-15+24-27 and the same +32 (Composable Kernel docs, *Understanding AMD GPU LDS and
  Bank Conflicts*, written for gfx942).

All three are "a phase moves at most banks x width = 128 B", so lanes per phase =
``banks * width // bytes_per_lane`` (bytes rounded up to a power of two, at least the
bank width); the ``ds_read_b128`` grouping is used for 16-byte loads of 64-lane waves on
32 banks. Wave32 devices and other widths follow the same rule (an assumption: the
sources above describe wave64 GCN/CDNA). Per phase the degree is the most distinct
dwords any one bank must serve; the instruction takes the sum of its phases' degrees in
clocks, ``extra_cycles`` = that minus the conflict-free count (one per active phase),
the quantity rocprof's ``SQ_LDS_BANK_CONFLICT`` accumulates.

>>> import numpy as np
>>> lanes = np.arange(64)
>>> column = lanes * 32 * 4          # tile[lane][0] of a float tile[64][32]: one bank
>>> padded = lanes * 33 * 4          # tile[64][33]: padding spreads the column over banks
>>> r = bank_conflicts(np.stack([column, padded]))
>>> r.degree.tolist(), r.cycles.tolist(), r.extra_cycles.tolist()
([32, 1], [64, 2], [62, 0])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np


@dataclass(frozen=True)
class LdsConflicts:
    """Per instruction: ``degree`` (worst phase), ``cycles`` (sum over phases),
    ``ideal_cycles`` (active phases), ``extra_cycles`` (cycles - ideal)."""

    degree: np.ndarray
    cycles: np.ndarray
    ideal_cycles: np.ndarray

    @property
    def extra_cycles(self) -> np.ndarray:
        """Clocks lost to bank conflicts per instruction."""
        return self.cycles - self.ideal_cycles

    def summary(self) -> dict[str, float]:
        """Totals over the batch: instructions, cycles, extra (conflict) cycles, rate."""
        cycles = int(self.cycles.sum())
        extra = int(self.extra_cycles.sum())
        return {
            "instructions": len(self.degree),
            "cycles": cycles,
            "bank_conflict_cycles": extra,
            "bank_conflict_rate": extra / cycles if cycles else 0.0,
            "max_degree": int(self.degree.max()) if len(self.degree) else 0,
        }


def bank_conflicts(
    addresses: Any,
    active: Any = None,
    bytes_per_lane: Any = 4,
    is_store: Any = False,
    banks: int = 32,
    bank_width: int = 4,
) -> LdsConflicts:
    """Bank-conflict degree and cycles of a batch of LDS instructions.

    ``addresses``: (instructions, lanes) LDS byte offsets, or (lanes,) for one;
    ``active``: lane mask; ``bytes_per_lane`` and ``is_store``: scalar or one per
    instruction; ``banks`` / ``bank_width``: from the device (``spec.lds_banks``,
    ``spec.lds_bank_width_bytes``).

    >>> bank_conflicts([0, 0, 0, 0] + [4 * i for i in range(28)]).degree.tolist()  # broadcast
    [1]
    >>> bank_conflicts([0, 128, 256, 384]).degree.tolist()   # 4 dwords in bank 0: 4-way
    [4]
    """
    addr = np.atleast_2d(np.asarray(addresses, dtype=np.int64))
    n_inst, lanes = addr.shape
    mask = np.ones(addr.shape, np.bool_) if active is None else np.asarray(active, np.bool_)
    mask = np.atleast_2d(mask)
    if mask.shape != addr.shape:
        raise ValueError(f"active has shape {mask.shape}, addresses {addr.shape}")
    width = np.broadcast_to(np.asarray(bytes_per_lane, dtype=np.int64), (n_inst,))
    store = np.broadcast_to(np.asarray(is_store, dtype=np.bool_), (n_inst,))
    if n_inst and width.min() <= 0:
        raise ValueError("bytes_per_lane must be >= 1")
    if addr.size and addr.min() < 0:
        raise ValueError(f"LDS addresses must be >= 0; found {int(addr.min())}")
    if banks <= 0 or bank_width <= 0 or bank_width & (bank_width - 1):
        raise ValueError("banks must be >= 1 and bank_width a power of two")
    return rows_conflicts(addr, mask, width, store, np.arange(n_inst), banks=banks,
                          bank_width=bank_width)


def rows_conflicts(addresses: np.ndarray, active: np.ndarray, bytes_per_lane: np.ndarray,
                   is_store: np.ndarray, rows: np.ndarray, *, banks: int = 32,
                   bank_width: int = 4) -> LdsConflicts:
    """``bank_conflicts`` of instructions ``rows`` of the tables ``addresses``,
    ``active`` (instructions x lanes), ``bytes_per_lane`` and ``is_store`` (one per
    instruction), read in place: a trace's LDS rows without copying them out.

    >>> addr = np.stack([np.arange(64) * 4, np.arange(64) * 128])
    >>> on, four = np.ones((2, 64), bool), np.full(2, 4)
    >>> rows_conflicts(addr, on, four, np.zeros(2, bool), np.array([1])).degree.tolist()
    [32]
    """
    degree, cycles, ideal, lowest = _conflicts_rows(
        np.ascontiguousarray(addresses, np.int64), np.ascontiguousarray(active, np.bool_),
        np.ascontiguousarray(bytes_per_lane, np.int64), np.ascontiguousarray(is_store, np.bool_),
        np.ascontiguousarray(rows, np.int64), banks, bank_width, bank_width.bit_length() - 1,
    )  # fmt: skip
    if lowest < 0:
        raise ValueError(f"LDS addresses must be >= 0; found {lowest}")
    return LdsConflicts(degree, cycles, ideal)


@numba.njit(cache=True, nogil=True)
def _grouping(width, is_store, lanes, banks, bank_width):
    """Which grouping of lanes into phases an access form gets: -1 the ``ds_read_b128``
    groups, else the lanes per phase (consecutive lanes)."""
    if width == 16 and not is_store and lanes == 64 and banks == 32:
        return -1
    wide = bank_width
    while wide < width:  # b96 is served like b128: round up to a power of two
        wide *= 2
    return max(1, banks * bank_width // wide)


@numba.njit(cache=True, nogil=True)
def phase_of_lane(lane, width, is_store, lanes, banks, bank_width):
    """The phase (clock group) a lane is served in; see the module docstring."""
    per_phase = _grouping(width, is_store, lanes, banks, bank_width)
    if per_phase < 0:
        j = lane % 32  # ds_read_b128 groups: 0-3+20-23, 4-7+16-19, 8-11+28-31, 12-15+24-27
        group = j // 4 if j < 16 else ((j - 16) // 4) ^ 1
        return (lane // 32) * 4 + group
    return lane // per_phase


@numba.njit(cache=True, nogil=True)
def _conflicts_rows(addr, mask, width, store, rows, banks, bank_width, shift):
    """Per row: the phases' worst bank degree, their summed degrees, the active phases;
    and the lowest active address (checked by the caller)."""
    n_inst, lanes = rows.shape[0], addr.shape[1]
    degree = np.zeros(n_inst, np.int64)
    cycles = np.zeros(n_inst, np.int64)
    ideal = np.zeros(n_inst, np.int64)
    widest = 1
    for k in range(n_inst):
        widest = max(widest, width[rows[k]])
    words = lanes * ((widest >> shift) + 2)  # dwords one phase can touch, at most
    count = np.zeros(banks, np.int64)  # distinct dwords each bank serves in this phase
    seen = np.empty((banks, words), np.int64)  # which: a phase's few, scanned, no hashing
    touched = np.empty(banks, np.int64)  # banks to clear after the phase
    order = np.empty(lanes, np.int64)  # lanes grouped by phase
    first = np.zeros(lanes + 1, np.int64)  # phase p owns order[first[p]:first[p + 1]]
    n_phases = 0
    grouped = 0  # the grouping order/first hold (_grouping): 0 none yet
    lowest = 0
    for k in range(n_inst):
        r = rows[k]
        w, st = width[r], store[r]
        g = _grouping(w, st, lanes, banks, bank_width)
        if g != grouped:  # regroup the lanes only when the grouping changes (loads and
            grouped = g   # stores of one width share it: no regrouping between them)
            n_phases = _group_lanes(w, st, lanes, banks, bank_width, order, first)
        for p in range(n_phases):
            deg = n_touched = 0
            for j in range(first[p], first[p + 1]):
                lane = order[j]
                if not mask[r, lane]:
                    continue
                a = addr[r, lane]
                lowest = min(lowest, a)
                for d in range(a >> shift, ((a + w - 1) >> shift) + 1):
                    b = d % banks
                    c = count[b]
                    new = True
                    for q in range(c):  # the same dword again: broadcast, free
                        if seen[b, q] == d:
                            new = False
                            break
                    if new:
                        if c == 0:
                            touched[n_touched] = b
                            n_touched += 1
                        seen[b, c] = d
                        count[b] = c + 1
                        deg = max(deg, c + 1)
            if deg:
                degree[k] = max(degree[k], deg)
                cycles[k] += deg
                ideal[k] += 1
            for q in range(n_touched):
                count[touched[q]] = 0
    return degree, cycles, ideal, lowest


@numba.njit(cache=True, nogil=True)
def _group_lanes(width, is_store, lanes, banks, bank_width, order, first):
    """Counting sort of the lanes by phase into ``order``/``first``; returns the phases."""
    n_phases = 0
    first[:] = 0
    for lane in range(lanes):
        p = phase_of_lane(lane, width, is_store, lanes, banks, bank_width)
        first[p + 1] += 1
        n_phases = max(n_phases, p + 1)
    for p in range(n_phases):
        first[p + 1] += first[p]
    fill = first[:n_phases].copy()
    for lane in range(lanes):
        p = phase_of_lane(lane, width, is_store, lanes, banks, bank_width)
        order[fill[p]] = lane
        fill[p] += 1
    return n_phases
