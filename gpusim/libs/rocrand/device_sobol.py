"""Sobol32, Sobol64 and their scrambled forms inside kernels: rocRAND's
``sobol{32,64}_engine`` and ``scrambled_sobol{32,64}_engine`` (``rocrand_sobol32.h`` ...)
as device functions.

One state runs one dimension: ``rocrand_init(vectors, offset, state)`` (scrambled:
``rocrand_init(vectors, scramble_constant, offset, state)``) copies that dimension's 32
(64) direction vectors and moves to point ``offset``; ``rocrand()`` returns the point and
steps by the Gray code (the vector of the lowest zero bit of the index), XORed with the
scramble constant for the scrambled forms. The state is rocRAND's struct word for word
(d, i, vectors[32 or 64], then the scramble constant) and the generator word: uint32
words for the 32-bit forms, uint64 for the 64-bit ones. The vectors and constants are
sobol_vectors.py's and quasi.py's (``scramble_constants``), rocRAND's tables.

>>> from gpusim.libs.rocrand import sobol_vectors
>>> st = np.zeros(35, np.uint32)
>>> SOBOL[(32, False)]["rocrand_init"](sobol_vectors.vectors32(1)[0], 0, st)
>>> [hex(int(SOBOL[(32, False)]["rocrand"](st))) for _ in range(4)]
['0x0', '0x80000000', '0xc0000000', '0x40000000']
"""

from __future__ import annotations

import numpy as np

from gpusim.compile import lang as hip

_U = np.uint64
TAGS = {(32, False): 501, (64, False): 504, (32, True): 502, (64, True): 505}  # rng_types


def _engine(bits: int, scrambled: bool) -> dict:
    """The device functions of one Sobol form (closures over bits and scrambled)."""
    mask = _U(2**bits - 1)
    vec, const = 2, 2 + bits
    tag_at = const + 1 if scrambled else const
    tag = TAGS[(bits, scrambled)]

    @hip.DeviceFunction
    def discard(offset, st):
        """i += offset; d = the XOR of the vectors of the Gray code's set bits."""
        i = (_U(st[1]) + _U(offset)) & mask
        st[1] = i
        g = i ^ (i >> _U(1))
        d = _U(0)
        for k in range(bits):
            if (g >> _U(k)) & _U(1):
                d ^= _U(st[vec + k])
        st[0] = d

    @hip.DeviceFunction
    def setup(vectors, offset, st):
        for k in range(bits):
            st[vec + k] = vectors[k]
        st[0], st[1], st[tag_at] = 0, 0, tag
        discard(offset, st)

    @hip.DeviceFunction
    def init(vectors, offset, st):
        """rocrand_init(vectors, offset, state)."""
        setup(vectors, offset, st)

    @hip.DeviceFunction
    def init_scrambled(vectors, scramble_constant, offset, st):
        """rocrand_init(vectors, scramble_constant, offset, state)."""
        setup(vectors, offset, st)
        st[const] = scramble_constant

    @hip.DeviceFunction
    def next_point(st):
        """rocrand(): the current point; then d ^= vectors[lowest zero bit of i], i += 1."""
        p = _U(st[0])
        if scrambled:
            p ^= _U(st[const])
        i = _U(st[1])
        z = 0
        while (i >> _U(z)) & _U(1):
            z += 1
        st[0] = _U(st[0]) ^ _U(st[vec + z])
        st[1] = (i + _U(1)) & mask
        return p

    return {"rocrand_init": init_scrambled if scrambled else init, "rocrand": next_point,
            "skipahead": discard, "words": tag_at + 1,
            "dtype": np.uint32 if bits == 32 else np.uint64, "tag": tag}


SOBOL = {key: _engine(*key) for key in TAGS}
