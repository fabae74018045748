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


def _m_numbers(dim: int, bits: int) -> list[int]:
    if dim == 0:
        return [1] * bits
    poly, vinit = _joe_kuo()
    p = int(poly[dim])
    s = p.bit_length() - 1
    m = [int(v) for v in vinit[dim][:s]]
    for k in range(s, bits):
        new = m[k - s] ^ (m[k - s] << s)
        for j in range(1, s):
            if (p >> (s - j)) & 1:
                new ^= m[k - j] << j
        m.append(new)
    return m[:bits]


@functools.cache
def _table(dimensions: int, bits: int) -> np.ndarray:
    dtype = np.uint32 if bits == 32 else np.uint64
    out = np.zeros((dimensions, bits), dtype)
    for d in range(dimensions):
        m = _m_numbers(d, bits)
        out[d] = [(mk << (bits - 1 - k)) for k, mk in enumerate(m)]
    return out


def vectors32(dimensions: int) -> np.ndarray:
    """(dimensions, 32) uint32 direction vectors (rocRAND's JOEKUO6 32-bit table)."""
    return _table(_round_up(dimensions), 32)[:dimensions]


def vectors64(dimensions: int) -> np.ndarray:
    """(dimensions, 64) uint64 direction vectors (rocRAND's JOEKUO6 64-bit table)."""
    return _table(_round_up(dimensions), 64)[:dimensions]


def _round_up(d: int) -> int:
    """Tables are built in chunks of 64 dimensions so growing D reuses the cache."""
    return min(MAX_DIMENSIONS, -(-d // 64) * 64)
