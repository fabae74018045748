"""Philox4x32-10 (Salmon et al., SC'11; Random123), as rocRAND runs it on the host API.

The counter is 128 bits (four 32-bit words, x lowest), the key is the seed's two halves.
Ten rounds of two 32x32->64 multiplies with a Weyl-sequence key bump turn a counter into
four output words. A stream position is ``4 * counter + substate``: rocRAND's
``rocrand_init(seed, subsequence, offset)`` puts the subsequence in the counter's high
64 bits (z, w) and adds ``offset // 4`` to the low 64 bits with ``offset % 4`` as the
substate (``rocrand_philox4x32_10.h``). The host generator is a single stream from
(seed, subsequence 0, offset): the i-th number generated is word ``offset + i``
(``library/src/rng/philox4x32_10.hpp``: engine ``offset = 4 * thread + head`` and
``next4_leap(stride)``, so threads write consecutive groups of four).

Known answers (Random123 ``kat_vectors``): counter 0, key 0 -> 6627e8d5 e169c58d bc57ac4c
9b00dbd8.

>>> [f"{w:08x}" for w in philox_block(0, 0, 0, 0, 0, 0)]
['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']
>>> bool(stream_words(0, 0, 5)[4] == philox_block(1, 0, 0, 0, 0, 0)[0])
True
"""

from __future__ import annotations

import numba
import numpy as np

# Round constants (Random123 philox.h; rocrand_philox4x32_10.h).
M0, M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
W0, W1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
DEFAULT_SEED = 0xDEADBEEFDEADBEEF  # ROCRAND_PHILOX4x32_DEFAULT_SEED
MASK32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@numba.njit(cache=True, nogil=True)
def philox_block(c0, c1, c2, c3, k0, k1):
    """The four words of counter (c0, c1, c2, c3) under key (k0, k1): ten rounds."""
    x0, x1, x2, x3 = np.uint64(c0), np.uint64(c1), np.uint64(c2), np.uint64(c3)
    a, b = np.uint64(k0), np.uint64(k1)
    for _ in range(10):
        p0 = M0 * x0
        p1 = M1 * x2
        y0 = ((p1 >> _S32) ^ x1 ^ a) & MASK32
        y1 = p1 & MASK32
        y2 = ((p0 >> _S32) ^ x3 ^ b) & MASK32
        y3 = p0 & MASK32
        x0, x1, x2, x3 = y0, y1, y2, y3
        a = (a + W0) & MASK32
        b = (b + W1) & MASK32
    return np.uint32(x0), np.uint32(x1), np.uint32(x2), np.uint32(x3)


@numba.njit(cache=True, nogil=True)
def _fill(out, k0, k1, lo, hi, first):
    """out[i] = word ``first + i`` of the blocks counting up from 128-bit (lo, hi)."""
    n = out.size
    nblocks = (first + n + 3) // 4
    for j in range(nblocks):
        c = lo + np.uint64(j)
        h = hi + (np.uint64(1) if c < lo else np.uint64(0))
        w = philox_block(c & MASK32, c >> _S32, h & MASK32, h >> _S32, k0, k1)
        for s in range(4):
            i = 4 * j + s - first
            if 0 <= i < n:
                out[i] = w[s]


def stream_words(seed: int, position: int, n: int, subsequence: int = 0) -> np.ndarray:
    """``n`` words of the stream ``(seed, subsequence)`` from word ``position`` on.

    >>> stream_words(0, 0, 2)
    array([1713891541, 3781805453], dtype=uint32)
    """
    out = np.empty(int(n), np.uint32)
    counter = (int(subsequence) << 64) + int(position) // 4
    counter &= (1 << 128) - 1
    _fill(out, np.uint64(seed & 0xFFFFFFFF), np.uint64((seed >> 32) & 0xFFFFFFFF),
          np.uint64(counter & ((1 << 64) - 1)), np.uint64(counter >> 64), int(position) % 4)
    return out
