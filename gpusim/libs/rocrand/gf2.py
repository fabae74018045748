"""Linear maps over GF(2) on generator states of a few 32-bit words (XORWOW: 5, LFSR113:
4), packed as rocRAND packs its jump matrices: ``m[(32 i + j) * n + k]`` is word k of the
image of bit j of word i. Skipping ahead by v steps applies A^v, built from the binary
powers A^(2^k) (rocRAND stores base-4 powers; the product is the same matrix).

>>> shift = pack(lambda w: [w[1], w[0]], 2)   # swap two words
>>> times(shift, np.array([1, 2], np.uint32))
array([2, 1], dtype=uint32)
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

from gpusim.config import config


def pack(step: Callable[[list[int]], list[int]], n: int) -> np.ndarray:
    """The packed matrix of a linear ``step`` on ``n`` words (applied to each unit vector)."""
    out = np.zeros(32 * n * n, np.uint32)
    for i in range(n):
        for j in range(32):
            unit = [0] * n
            unit[i] = 1 << j
            out[(32 * i + j) * n:(32 * i + j + 1) * n] = [w & 0xFFFFFFFF for w in step(unit)]
    return out


@numba.njit(cache=True, nogil=True)
def times(m, v):
    """M v for a state ``v`` of n words."""
    n = v.size
    r = np.zeros(n, np.uint32)
    for i in range(n):
        for j in range(32):
            if (v[i] >> np.uint32(j)) & np.uint32(1):
                b = (32 * i + j) * n
                for k in range(n):
                    r[k] ^= m[b + k]
    return r


@numba.njit(cache=True, nogil=True)
def square(m, n):
    """M M: column b of M M is M applied to column b of M."""
    out = np.empty_like(m)
    for b in range(32 * n):
        out[n * b:n * b + n] = times(m, m[n * b:n * b + n])
    return out


def power_tables(m: np.ndarray, n: int, subsequence_log2: int) -> tuple[np.ndarray, np.ndarray]:
    """(A^(2^k), A^(2^(L + k))) for k = 0..63: offset and subsequence jump tables.

    Kept in ``gpusim.config.cache_dir`` once computed (keyed by A), so importing the
    device API does not load the squaring code in every new process.
    """
    key = hashlib.sha1(m.tobytes() + bytes([n, subsequence_log2])).hexdigest()[:16]
    path = Path(config.cache_dir or tempfile.gettempdir()) / "rocrand" / f"gf2_{key}.npz"
    try:
        with np.load(path) as z:
            return z["offset"], z["subsequence"]
    except (OSError, KeyError, ValueError):
        pass
    offset, sub = _powers(m, n, subsequence_log2)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.npz")
        np.savez(tmp, offset=offset, subsequence=sub)
        os.replace(tmp, path)  # atomic: a reader never sees half a file
    except OSError:  # a read-only cache: compute again next time
        pass
    return offset, sub


def _powers(m: np.ndarray, n: int, subsequence_log2: int) -> tuple[np.ndarray, np.ndarray]:
    offset, sub = [], []
    for k in range(subsequence_log2 + 64):
        if k < 64:
            offset.append(m)
        if k >= subsequence_log2:
            sub.append(m)
        m = square(m, n)
    return np.stack(offset), np.stack(sub)


@numba.njit(cache=True, nogil=True)
def jump(tables, v, count):
    """v <- A^count v (in place), one table entry per set bit of ``count``."""
    k = 0
    while count:
        if count & np.uint64(1):
            r = times(tables[k], v)
            for i in range(v.size):
                v[i] = r[i]
        count >>= np.uint64(1)
        k += 1
