"""Reuse distance: how many distinct lines a cache saw between two uses of one line.

For a fully associative LRU cache of ``C`` lines, an access hits exactly when its reuse
(LRU stack) distance is below ``C`` (Mattson et al., "Evaluation techniques for storage
hierarchies", IBM Systems Journal 1970), so the histogram of distances shows at a glance
which cache sizes a kernel's reuse fits in. First uses have no distance (``-1``, cold).

Computed in O(n log n) with a Fenwick tree over positions: each line keeps a marker at
its latest use; the distance of a reuse is the number of markers after the previous use.
Streams of several instances (one vL1D per CU) are measured per instance.

>>> import numpy as np
>>> reuse_distances(np.array([1, 2, 3, 1, 1, 2])).tolist()
[-1, -1, -1, 2, 0, 2]
>>> reuse_distances(np.array([7, 7, 7, 7]), instance=np.array([0, 1, 0, 1])).tolist()
[-1, -1, 0, 0]
"""

from __future__ import annotations

import numba
import numpy as np


def reuse_distances(lines: np.ndarray, instance: np.ndarray | None = None) -> np.ndarray:
    """Distance per access (``-1`` for a first use), per ``instance`` when given."""
    lines = np.asarray(lines, np.int64)
    if instance is None:
        instance = np.zeros(len(lines), np.int64)
    order = np.argsort(np.asarray(instance, np.int64), kind="stable")
    keys = np.stack([np.asarray(instance, np.int64)[order], lines[order]], axis=1)
    _, ids = np.unique(keys, axis=0, return_inverse=True) if len(lines) else (None, order)
    out = np.empty(len(lines), np.int64)
    out[order] = _distances(np.asarray(ids, np.int64).ravel())
    return out


def histogram(distances: np.ndarray) -> dict[str, list[int]]:
    """Counts in power-of-two bins: ``edges[i] <= d < edges[i + 1]``, plus ``cold``."""
    d = distances[distances >= 0]
    top = int(d.max()) if len(d) else 0
    edges = [0, 1] + [1 << k for k in range(1, max(1, top.bit_length()) + 1)]
    counts, _ = np.histogram(d, bins=edges)
    return {"edges": edges, "counts": counts.tolist(),
            "cold": int(np.count_nonzero(distances < 0))}


@numba.njit(cache=True, nogil=True)
def _distances(ids):
    n = ids.shape[0]
    tree = np.zeros(n + 1, np.int64)  # Fenwick tree of latest-use markers by position
    last = np.full(ids.max() + 1 if n else 1, -1, np.int64)
    out = np.empty(n, np.int64)
    total = 0
    for t in range(n):
        p = last[ids[t]]
        if p < 0:
            out[t] = -1
        else:
            below = 0  # markers at positions <= p
            i = p + 1
            while i > 0:
                below += tree[i]
                i -= i & -i
            out[t] = total - below
            i = p + 1
            while i <= n:
                tree[i] -= 1
                i += i & -i
            total -= 1
        i = t + 1
        while i <= n:
            tree[i] += 1
            i += i & -i
        total += 1
        last[ids[t]] = t
    return out
