"""Polynomials over GF(2) for MT19937's jump ahead (Haramoto et al., "Efficient jump ahead
for F2-linear random number generators", 2008; rocRAND's ``rocrand_mt19937_precomputed``).

A jump of J steps of a linear generator with minimal polynomial P is q(A) for
q = x^J mod P. rocRAND ships q for J = i 2^1000 (``tools/mt19937_precomputed_generator.cpp``,
made with Matsumoto's ``minipoly_mt19937.c``); gpusim computes the same q: P by
Berlekamp-Massey on one output bit of the generator (P is irreducible, so any nonzero bit
sequence has it as minimal polynomial), then x^J mod P by squaring. Polynomials are bit
arrays in uint64 words, coefficient j in bit j % 64 of word j // 64; ``words32`` gives
rocRAND's layout (coefficient j in bit j % 32 of word j // 32).

>>> p = minimal_polynomial(np.array([1, 1, 0] * 3, np.uint8))  # s_k = s_{k-1} ^ s_{k-2}
>>> [int(b) for b in p]  # x^2 + x + 1: coefficients of 1, x, x^2
[1, 1, 1]
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def _parity(x):
    x ^= x >> np.uint64(32)
    x ^= x >> np.uint64(16)
    x ^= x >> np.uint64(8)
    x ^= x >> np.uint64(4)
    x ^= x >> np.uint64(2)
    x ^= x >> np.uint64(1)
    return x & np.uint64(1)


@numba.njit(cache=True, nogil=True)
def minimal_polynomial(bits):
    """Coefficients (c_0 .. c_L, c_L = 1) of the minimal polynomial of the bit sequence:
    sum_j c_j s_{k+j} = 0 for every k (Berlekamp-Massey on 64-bit words: the connection
    polynomial C and the reversed sequence are packed, so a discrepancy is an AND and a
    parity over L / 64 words)."""
    n = bits.size
    nw = n // 64 + 3
    # window[r, w]: 64 bits of the reversed sequence starting at bit 64 w + r
    rev = np.zeros(64 * (nw + 1), np.uint8)
    rev[:n] = bits[::-1]
    window = np.zeros((64, nw), np.uint64)
    for r in range(64):
        for w in range(nw):
            v = np.uint64(0)
            for k in range(64):
                if rev[64 * w + r + k]:
                    v |= np.uint64(1) << np.uint64(k)
            window[r, w] = v
    c = np.zeros(nw, np.uint64)
    b = np.zeros(nw, np.uint64)
    c[0] = b[0] = 1
    length, m = 0, -1
    for i in range(n):
        o = n - 1 - i  # s_{i-j} is bit o + j of the reversed sequence
        row, base = window[o & 63], o >> 6
        acc = np.uint64(0)
        for w in range(length // 64 + 1):
            acc ^= c[w] & row[base + w]
        if _parity(acc):
            t = c.copy() if 2 * length <= i else c
            q, r = (i - m) >> 6, np.uint64((i - m) & 63)
            for w in range(nw - q):  # c ^= b x^(i - m)
                v = b[w] << r
                if r and w:
                    v |= b[w - 1] >> (np.uint64(64) - r)
                c[w + q] ^= v
            if 2 * length <= i:
                b = t
                length, m = i + 1 - length, i
    out = np.zeros(length + 1, np.uint8)
    for j in range(length + 1):  # P is the connection polynomial reversed
        out[length - j] = (c[j >> 6] >> np.uint64(j & 63)) & np.uint64(1)
    return out


def pack(coefficients: np.ndarray) -> np.ndarray:
    """Bit array -> uint64 words (coefficient j: bit j % 64 of word j // 64)."""
    nbits = -(-coefficients.size // 64) * 64
    padded = np.zeros(nbits, np.uint8)
    padded[:coefficients.size] = coefficients
    return np.packbits(padded, bitorder="little").view(np.uint64).copy()


@numba.njit(cache=True, nogil=True)
def _spread(x):
    """Bits 0..31 of x to the even bits 0..62 (squaring over GF(2))."""
    x &= np.uint64(0xFFFFFFFF)
    x = (x | (x << np.uint64(16))) & np.uint64(0x0000FFFF0000FFFF)
    x = (x | (x << np.uint64(8))) & np.uint64(0x00FF00FF00FF00FF)
    x = (x | (x << np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    x = (x | (x << np.uint64(2))) & np.uint64(0x3333333333333333)
    return (x | (x << np.uint64(1))) & np.uint64(0x5555555555555555)


@numba.njit(cache=True, nogil=True)
def _reduce(r, shifted, degree):
    """r mod P in place, for r of degree < 2 degree; shifted[s] = P << s (s = 0..63)."""
    one = np.uint64(1)
    nw = shifted.shape[1]
    for d in range(r.size * 64 - 1, degree - 1, -1):
        if (r[d >> 6] >> np.uint64(d & 63)) & one:
            k = d - degree
            base = k >> 6
            row = shifted[k & 63]
            for w in range(nw):
                if base + w < r.size:
                    r[base + w] ^= row[w]


@numba.njit(cache=True, nogil=True)
def _power_of_x(exponent_bits, shifted, degree, words):
    """x^e mod P, e given by its bits (most significant first)."""
    r = np.zeros(2 * words + 2, np.uint64)
    r[0] = 1
    for bit in exponent_bits:
        sq = np.zeros_like(r)
        for w in range(words + 1):
            sq[2 * w] = _spread(r[w])
            sq[2 * w + 1] = _spread(r[w] >> np.uint64(32))
        r = sq
        if bit:
            carry = np.uint64(0)
            for w in range(r.size):
                nxt = r[w] >> np.uint64(63)
                r[w] = (r[w] << np.uint64(1)) | carry
                carry = nxt
        _reduce(r, shifted, degree)
    return r[:words]


def x_power_mod(exponent: int, p: np.ndarray) -> np.ndarray:
    """Coefficients of x^exponent mod p (p: coefficient bits, p[-1] = 1) as uint64 words."""
    degree = p.size - 1
    words = -(-degree // 64)
    packed = pack(p)
    shifted = np.zeros((64, words + 1), np.uint64)
    for s in range(64):  # P << s, as the words of a (words + 1)-word number
        as_int = int.from_bytes(packed.tobytes(), "little") << s
        shifted[s] = np.frombuffer(as_int.to_bytes(8 * (words + 1), "little"), np.uint64)
    bits = np.array([int(b) for b in bin(exponent)[2:]], np.uint8)
    return _power_of_x(bits, shifted, degree, words).copy()


def words32(q: np.ndarray, count: int) -> np.ndarray:
    """uint64 coefficient words -> rocRAND's ``count`` uint32 words."""
    return q.view(np.uint32)[:count].copy()
