"""ThreeFry 2x32-20, 4x32-20, 2x64-20, 4x64-20 (Salmon et al., SC'11; Random123), as
rocRAND runs them (``rocrand_threefry2_impl.h``, ``rocrand_threefry4_impl.h``, 3.2.0).

Counter-based like Philox: 20 rounds of add-rotate-xor (Skein's MIX) with a key
injection every 4 rounds, keyed by the seed. rocRAND's keys from the 64-bit seed:
2x32 ``(lo, hi)``; 2x64 ``(seed, seed >> 32)``; 4x32 ``(u32) (seed, seed >> 16, seed >> 32,
seed >> 48)``; 4x64 the same shifts as 64-bit words. A subsequence moves the counter's
high half (2x32: word y, 32-bit; 2x64: word y; 4x: words z, w). The host generator is one
stream from (seed, subsequence 0, offset), offset counted in the generator's numbers
(64-bit numbers for the x64 variants), like Philox.

Known answers (Random123 ``kat_vectors``): 2x32-20 of counter 0, key 0 -> 6b200159 99ba4efe.
The 4-word variants differ from Random123: rocRAND 3.2.0 switches the
word pairing of the MIX steps when ``round & 2`` is set (``rocrand_threefry4_impl.h``),
Random123 every round (``round & 1``). gpusim follows rocRAND; ``block(..., pairing=1)``
is Random123's function, which the tests hold to its known answers.

>>> [f"{v:08x}" for v in block(np.zeros(2, np.uint64), np.zeros(2, np.uint64), 32)]
['6b200159', '99ba4efe']
"""

from __future__ import annotations

import numba
import numpy as np

ROT2 = {32: (13, 15, 26, 6, 17, 29, 16, 24), 64: (16, 42, 12, 31, 16, 32, 24, 21)}
ROT4 = {32: ((10, 26), (11, 21), (13, 27), (23, 5), (6, 20), (17, 11), (25, 10), (18, 20)),
        64: ((14, 16), (52, 57), (23, 40), (5, 37), (25, 33), (46, 12), (58, 22), (32, 32))}
PARITY = {32: 0x1BD11BDA, 64: 0x1BD11BDAA9FC1A22}  # SKEIN_KS_PARITY32 / 64


@numba.njit(cache=True, nogil=True)
def _rotl(x, d, bits, mask):
    return ((x << np.uint64(d)) | (x >> np.uint64(bits - d))) & mask


@numba.njit(cache=True, nogil=True)
def _schedule(key, parity):
    """The key schedule: the key words and their XOR with Skein's parity constant."""
    n = key.size
    ks = np.empty(n + 1, np.uint64)
    ks[n] = parity
    for i in range(n):
        ks[i] = key[i]
        ks[n] ^= key[i]
    return ks


@numba.njit(cache=True, nogil=True)
def _rounds(x, ks, bits, rot, out, pairing):
    """20 ThreeFry rounds of counter ``x`` (N words) with key schedule ``ks`` into ``out``
    (words in scalars: this is the hot loop of the host generator)."""
    n = x.size
    mask = np.uint64(0xFFFFFFFFFFFFFFFF) if bits == 64 else np.uint64(0xFFFFFFFF)
    x0 = (x[0] + ks[0]) & mask
    x1 = (x[1] + ks[1]) & mask
    x2 = (x[2] + ks[2]) & mask if n == 4 else np.uint64(0)
    x3 = (x[3] + ks[3]) & mask if n == 4 else np.uint64(0)
    for r in range(20):
        if n == 2:
            x0 = (x0 + x1) & mask
            x1 = _rotl(x1, rot[r & 7, 0], bits, mask) ^ x0
        elif (r & pairing) == 0:
            x0 = (x0 + x1) & mask
            x1 = _rotl(x1, rot[r & 7, 0], bits, mask) ^ x0
            x2 = (x2 + x3) & mask
            x3 = _rotl(x3, rot[r & 7, 1], bits, mask) ^ x2
        else:
            x0 = (x0 + x3) & mask
            x3 = _rotl(x3, rot[r & 7, 0], bits, mask) ^ x0
            x2 = (x2 + x1) & mask
            x1 = _rotl(x1, rot[r & 7, 1], bits, mask) ^ x2
        if (r & 3) == 3:
            j = r // 4 + 1
            x0 = (x0 + ks[j % (n + 1)]) & mask
            x1 = (x1 + ks[(j + 1) % (n + 1)]) & mask
            if n == 2:
                x1 = (x1 + np.uint64(j)) & mask
            else:
                x2 = (x2 + ks[(j + 2) % (n + 1)]) & mask
                x3 = (x3 + ks[(j + 3) % (n + 1)] + np.uint64(j)) & mask
    out[0], out[1] = x0, x1
    if n == 4:
        out[2], out[3] = x2, x3


def _rot(n: int, bits: int) -> np.ndarray:
    if n == 2:
        return np.array([[r, 0] for r in ROT2[bits]], np.int64)
    return np.array(ROT4[bits], np.int64)


def block(counter: np.ndarray, key: np.ndarray, bits: int, pairing: int = 2) -> np.ndarray:
    """One ThreeFry-N x bits - 20 block (N = counter size), as uint64 words; ``pairing``
    1 is Random123's 4-word round order, 2 rocRAND's."""
    out = np.empty(counter.size, np.uint64)
    ks = _schedule(key.astype(np.uint64), np.uint64(PARITY[bits]))
    _rounds(counter.astype(np.uint64), ks, bits, _rot(counter.size, bits), out, pairing)
    return out


@numba.njit(cache=True, nogil=True)
def _fill(out, base, key, bits, rot, parity, first):
    """out[i] = number ``first + i`` counting from block counter ``base``."""
    n = base.size
    mask = np.uint64(0xFFFFFFFFFFFFFFFF) if bits == 64 else np.uint64(0xFFFFFFFF)
    ctr = base.copy()
    res = np.empty(n, np.uint64)
    ks = _schedule(key, parity)
    nblocks = (first + out.size + n - 1) // n
    for j in range(nblocks):
        _rounds(ctr, ks, bits, rot, res, 2)
        for s in range(n):
            i = n * j + s - first
            if 0 <= i < out.size:
                out[i] = res[s]
        for w in range(n):  # counter + 1 with carries (bump_counter)
            ctr[w] = (ctr[w] + np.uint64(1)) & mask
            if ctr[w] != 0:
                break


def key_of(seed: int, n: int, bits: int) -> np.ndarray:
    """rocRAND's key words for ``seed`` (see the module docstring)."""
    seed &= 0xFFFFFFFFFFFFFFFF
    shifts = (0, 32) if n == 2 else (0, 16, 32, 48)
    mask = (1 << bits) - 1
    return np.array([(seed >> s) & mask for s in shifts], np.uint64)


def counter_of(n: int, bits: int, subsequence: int, block_index: int) -> np.ndarray:
    """The counter words of ``block_index`` in ``subsequence``."""
    if n == 2:
        sub_bits = 32 if bits == 32 else 64  # 2x32 adds the subsequence to one 32-bit word
        value = block_index + ((subsequence % (1 << sub_bits)) << bits)
    else:
        value = block_index + (subsequence << (2 * bits))
    value %= 1 << (n * bits)
    mask = (1 << bits) - 1
    return np.array([(value >> (bits * w)) & mask for w in range(n)], np.uint64)


def stream(n: int, bits: int, seed: int, position: int, count: int,
           subsequence: int = 0) -> np.ndarray:
    """``count`` numbers (uint64) of stream (seed, subsequence) from number ``position``."""
    out = np.empty(count, np.uint64)
    _fill(out, counter_of(n, bits, subsequence, position // n), key_of(seed, n, bits), bits,
          _rot(n, bits), np.uint64(PARITY[bits]), position % n)
    return out


def words(n: int, bits: int):
    """A ``StreamEngine`` word function: 32-bit words of the stream (64-bit numbers are
    two words, low first; positions and counts are in words)."""
    def fn(seed: int, position: int, count: int) -> np.ndarray:
        if bits == 32:
            return stream(n, 32, seed, position, count).astype(np.uint32)
        return stream(n, 64, seed, position // 2, count // 2).view(np.uint32)
    return fn
