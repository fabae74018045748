"""Sobol direction vectors from Joe & Kuo's ``new-joe-kuo-6.21201`` numbers.

rocRAND ships its tables precomputed (``rocrand_sobol32_precomputed.bin``: 20000
dimensions x 32 words; ``ROCRAND_DIRECTION_VECTORS_32_JOEKUO6``); they follow from Joe &
Kuo's primitive polynomials and initial numbers m_1..m_s, which SciPy ships
(``scipy/stats/_sobol_direction_numbers.npz``: ``poly``, ``vinit``). Dimension 0 is van der
Corput's (all m = 1). For k > s:
``m_k = m_{k-s} ^ (2^s m_{k-s}) ^ XOR_j 2^j a_j m_{k-j}``, and ``v_k = m_k << (bits - k)``.
The tests hold these against slices of rocRAND's own table.

>>> [hex(int(v)) for v in vectors32(2)[1][:3]]
['0x80000000', '0xc0000000', '0xa0000000']
"""

from __future__ import annotations

import functools
import os

import numpy as np

MAX_DIMENSIONS = 20000  # SOBOL_DIM in rocRAND (rocrand_sobol32_precomputed.h)


@functools.cache
def _joe_kuo() -> tuple[np.ndarray, np.ndarray]:
    import scipy.stats

    path = os.path.join(os.path.dirname(scipy.stats.__file__), "_sobol_direction_numbers.npz")
    with np.load(path) as z:
        return z["poly"].astype(np.int64), z["vinit"].astype(np.int64)


@functools.cache
def _table(dimensions: int, bits: int) -> np.ndarray:
    """The recurrence run for all dimensions at once, one column k at a time (NumPy: the
    full 20000-dimension table in well under a second)."""
    poly, vinit = _joe_kuo()
    p = poly[:dimensions]
    s = np.array([int(x).bit_length() - 1 for x in p])
    m = np.zeros((dimensions, bits), np.uint64)
    rows = np.arange(dimensions)
    for k in range(bits):
        start = s > k  # the first s numbers are Joe & Kuo's initial m_1..m_s
        if start.any():
            m[start, k] = vinit[:dimensions][start, k]
        r = rows[~start]
        base = m[r, k - s[r]]
        new = base ^ (base << s[r].astype(np.uint64))
        for j in range(1, int(s.max(initial=0))):
            on = (j < s[r]) & (((p[r] >> np.maximum(s[r] - j, 0)) & 1) == 1)
            new[on] ^= m[r[on], k - j] << np.uint64(j)
        m[r, k] = new
    m[0] = 1  # dimension 0: van der Corput's
    shifts = np.arange(bits - 1, -1, -1, dtype=np.uint64)
    return (m << shifts).astype(np.uint32 if bits == 32 else np.uint64)


def vectors32(dimensions: int) -> np.ndarray:
    """(dimensions, 32) uint32 direction vectors (rocRAND's JOEKUO6 32-bit table)."""
    return _table(_round_up(dimensions), 32)[:dimensions]


def vectors64(dimensions: int) -> np.ndarray:
    """(dimensions, 64) uint64 direction vectors (rocRAND's JOEKUO6 64-bit table)."""
    return _table(_round_up(dimensions), 64)[:dimensions]


def _round_up(d: int) -> int:
    """Tables are built in chunks of 64 dimensions so growing D reuses the cache."""
    return min(MAX_DIMENSIONS, -(-d // 64) * 64)
