"""GF(2) jumps inside kernels, for the shift-register states (XORWOW: 5 words, LFSR113: 4).

The tables are gf2.py's packed binary powers A^(2^k) (``m[(32 i + j) n + k]``: word k of
the image of bit j of word i); a jump by ``count`` applies one per set bit. The product
lands in a private scratch state first, since every output word reads every input word.

>>> from gpusim.libs.rocrand import gf2
>>> st = np.array([1, 2], np.uint32)
>>> swap = gf2.pack(lambda w: [w[1], w[0]], 2).reshape(1, -1)
>>> jump(swap, 1, st, 0, 2); st
array([2, 1], dtype=uint32)
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip

_U32, _U = np.uint32, np.uint64
gf2_scratch = hip.LocalStruct("gf2_scratch", 5, np.uint32, doc="A jump's product words.")


@hip.DeviceFunction
def jump(tables, count, st, first, n):
    """st[first:first + n] <- A^count st[first:first + n]."""
    r = gf2_scratch()
    c = _U(count)
    k = 0
    while c != 0:
        if c & _U(1):
            for w in range(n):
                r[w] = _U32(0)
            for i in range(n):
                v = st[first + i]
                for j in range(32):
                    if (v >> _U32(j)) & _U32(1):
                        b = (32 * i + j) * n
                        for w in range(n):
                            r[w] ^= tables[k, b + w]
            for w in range(n):
                st[first + w] = r[w]
        c = c >> _U(1)
        k += 1
