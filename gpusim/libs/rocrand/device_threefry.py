"""ThreeFry 2x32-20, 4x32-20, 2x64-20 and 4x64-20 inside kernels: rocRAND's
``threefry{2,4}x{32,64}_20_engine`` (``rocrand_threefry{2,4}_impl.h``) as device functions.

A state is rocRAND's struct ``{counter, key, result, substate}`` in N words each, then
the substate, then the generator word: uint32 words for the 32-bit variants, uint64 for
the 64-bit ones (where rocRAND's ``unsigned int`` substate has a 64-bit slot). Seeding,
rounds and counter moves are threefry.py's (keys from ``key_of``, rotations, Skein's
parity, rocRAND's 4-word MIX pairing): ``rocrand_init(seed, subsequence, offset)`` sets
the key, adds the subsequence to the counter's high half (2x32: word y, 32 bits; 2x64:
word y; 4x: words z, w) and moves ``offset`` numbers on; ``rocrand()`` returns one number
(32 or 64 bits). rocRAND 3.2.0 defines no ``skipahead`` for these states, so neither
does gpusim.

>>> st = np.zeros(8, np.uint32)
>>> THREEFRY[(2, 32)]["rocrand_init"](0, 0, 0, st)
>>> [f"{int(THREEFRY[(2, 32)]['rocrand'](st)):08x}" for _ in range(2)]
['6b200159', '99ba4efe']
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip
from gpusim.libs.rocrand import threefry

_U = np.uint64
TAGS = {(2, 32): 408, (2, 64): 409, (4, 32): 410, (4, 64): 411}  # the rng_type values
# rotations of the four variants, [variant, round % 8, pair]: one array (kernels see it)
THREEFRY_ROT = np.stack([threefry._rot(n, bits) for n, bits in TAGS]).astype(np.uint64)


def _rounds(n: int, bits: int) -> hip.DeviceFunction:
    """ThreeFry-n x bits-20's block function: result = ThreeFry-20(counter, key)."""
    v = list(TAGS).index((n, bits))
    mask = _U(2**bits - 1)
    parity = _U(threefry.PARITY[bits])
    key, res = n, 2 * n

    @hip.DeviceFunction
    def rotl(x, r, p):
        d = THREEFRY_ROT[v, r & 7, p]
        return ((x << d) | (x >> (_U(bits) - d))) & mask

    @hip.DeviceFunction
    def ks(st, j, extra):
        """Word ``j`` (mod n + 1) of the key schedule (the last: the parity word)."""
        j = j % (n + 1)
        return extra if j == n else _U(st[key + j])

    @hip.DeviceFunction
    def rounds(st):
        """result = ThreeFry-20(counter, key)."""
        extra = parity
        for w in range(n):
            extra ^= _U(st[key + w])
        x0 = (_U(st[0]) + _U(st[key])) & mask
        x1 = (_U(st[1]) + _U(st[key + 1])) & mask
        x2, x3 = _U(0), _U(0)
        if n == 4:
            x2 = (_U(st[2]) + _U(st[key + 2])) & mask
            x3 = (_U(st[3]) + _U(st[key + 3])) & mask
        for r in range(20):
            if n == 2 or (r & 2) == 0:
                x0 = (x0 + x1) & mask
                x1 = rotl(x1, r, 0) ^ x0
                x2 = (x2 + x3) & mask
                x3 = rotl(x3, r, 1) ^ x2
            else:
                x0 = (x0 + x3) & mask
                x3 = rotl(x3, r, 0) ^ x0
                x2 = (x2 + x1) & mask
                x1 = rotl(x1, r, 1) ^ x2
            if (r & 3) == 3:
                j = r // 4 + 1
                x0 = (x0 + ks(st, j, extra)) & mask
                x1 = (x1 + ks(st, j + 1, extra)) & mask
                if n == 2:
                    x1 = (x1 + _U(j)) & mask
                else:
                    x2 = (x2 + ks(st, j + 2, extra)) & mask
                    x3 = (x3 + ks(st, j + 3, extra) + _U(j)) & mask
        st[res], st[res + 1] = x0, x1
        if n == 4:
            st[res + 2], st[res + 3] = x2, x3

    return rounds


def _counter(n: int, bits: int) -> tuple[hip.DeviceFunction, hip.DeviceFunction]:
    """(add, discard): moves of the n-word counter and the substate."""
    mask = _U(2**bits - 1)
    sub = 3 * n

    @hip.DeviceFunction
    def add(st, first, value):
        """counter[first:] += value (64 bits) with carries, wrapping at the top word."""
        c = _U(value)
        w = first
        while w < n and c != 0:
            old = _U(st[w])
            nxt = _U(0)
            if bits == 64:
                new = old + c
                if new < old:
                    nxt = _U(1)
            else:
                s = old + (c & mask)
                new = s & mask
                nxt = (c >> _U(32)) + (s >> _U(32))
            st[w] = new
            c = nxt
            w += 1

    @hip.DeviceFunction
    def discard(offset, st):
        """Move ``offset`` numbers on: the substate, then whole blocks (``discard_impl``)."""
        s = _U(st[sub]) + _U(offset) % _U(n)
        blocks = _U(offset) // _U(n)
        if s >= _U(n):
            s -= _U(n)
            blocks += _U(1)
        st[sub] = s
        add(st, 0, blocks)

    return add, discard


def _engine(n: int, bits: int) -> dict:
    """The device functions of ThreeFry-n x bits-20 (closures over n and bits)."""
    mask = _U(2**bits - 1)
    key, res, sub, tag = n, 2 * n, 3 * n, TAGS[(n, bits)]
    rounds = _rounds(n, bits)
    add, discard = _counter(n, bits)

    @hip.DeviceFunction
    def init(seed, subsequence, offset, st):
        """rocrand_init(seed, subsequence, offset, state)."""
        s = _U(seed)
        for w in range(3 * n + 1):
            st[w] = 0
        for w in range(n):
            st[key + w] = ((s >> _U((64 // n) * w)) & mask) if n == 4 else (
                (s >> _U(32 * w)) & mask)
        st[sub + 1] = tag
        add(st, n // 2, subsequence)
        discard(offset, st)
        rounds(st)

    @hip.DeviceFunction
    def next_number(st):
        """rocrand(): the next number of the block; a new block after the last."""
        i = int(st[sub])
        out = st[res + i]
        if i == n - 1:
            st[sub] = 0
            add(st, 0, _U(1))
            rounds(st)
        else:
            st[sub] = i + 1
        return out

    return {"rocrand_init": init, "rocrand": next_number, "words": 3 * n + 2,
            "dtype": np.uint32 if bits == 32 else np.uint64, "tag": tag}


THREEFRY = {nb: _engine(*nb) for nb in TAGS}
