"""A tiny open-addressing hash set for numba kernels: "is this key new here?" in O(1).

The coalescer asks it once per lane ("has this instruction already requested this
line?") and the LDS model once per dword ("has this phase already read this word?").
A linear scan of what was seen costs O(lanes) per question: 64 x 64 compares per
uncoalesced instruction, which made those ten times slower than coalesced ones.

No clearing between uses: each slot remembers the ``mark`` that filled it, and a caller
starts a fresh, empty set by using a new mark (a counter).

>>> import numpy as np
>>> keys, marks = new_table(8)
>>> [insert(keys, marks, 1, k) for k in (5, 9, 5)], insert(keys, marks, 2, 5)
([True, True, False], True)
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def new_table(max_keys: int) -> tuple[np.ndarray, np.ndarray]:
    """Slots for up to ``max_keys`` keys per mark (at most half full: short probes)."""
    size = 16
    while size < 2 * max_keys:
        size *= 2
    return np.empty(size, np.int64), np.zeros(size, np.int64)


@numba.njit(cache=True, nogil=True, inline="always")
def insert(keys, marks, mark, key):
    """Add ``key`` to the set named ``mark`` (>= 1); True when it was not there yet."""
    mask = keys.shape[0] - 1
    h = key ^ (key >> 16)  # fold high bits down: strided line numbers still spread
    h = (h ^ (h >> 7)) & mask
    while True:
        if marks[h] != mark:
            marks[h] = mark
            keys[h] = key
            return True
        if keys[h] == key:
            return False
        h = (h + 1) & mask
