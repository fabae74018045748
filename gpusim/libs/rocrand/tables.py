"""rocRAND's Sobol tables on the host: ``rocrand_get_direction_vectors32/64`` and
``rocrand_get_scramble_constants32/64`` (``library/src/rocrand.cpp``, rocRAND 3.2.0).

In C each call writes a pointer to a host table (``rocrand_h_sobol32_direction_vectors``
and its kin: 20000 dimensions x 32 or 64 words, dimension-major, then 20000 scramble
constants) that a program copies to the device and hands to the device API's
``rocrand_init(vectors + d * 32, ...)``. Here the pointer is returned as a flat read-only
NumPy array holding the same words: the tables the host generators use (sobol_vectors.py,
quasi.py). A direction-vector set of the other width, or not a set at all, is
ROCRAND_STATUS_OUT_OF_RANGE, as ``rocrand.cpp``'s ``switch`` returns.

>>> v = rocrand_get_direction_vectors32(
...     rocrand_direction_vector_set.ROCRAND_DIRECTION_VECTORS_32_JOEKUO6)
>>> v.shape, [hex(int(w)) for w in v[32:35]]  # dimension 1's first three vectors
((640000,), ['0x80000000', '0xc0000000', '0xa0000000'])
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from gpusim.libs.rocrand import quasi, sobol_vectors
from gpusim.libs.rocrand.status import RocrandError, rocrand_direction_vector_set, rocrand_status

_SET = rocrand_direction_vector_set
_SETS = {32: {_SET.ROCRAND_DIRECTION_VECTORS_32_JOEKUO6: False,
              _SET.ROCRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6: True},
         64: {_SET.ROCRAND_DIRECTION_VECTORS_64_JOEKUO6: False,
              _SET.ROCRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6: True}}


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False  # a const pointer: the library's table is not the caller's
    return a


@functools.cache
def _vectors(bits: int, scrambled: bool) -> np.ndarray:
    table = sobol_vectors._table(sobol_vectors.MAX_DIMENSIONS, bits).reshape(-1)
    if scrambled:  # the scrambled set: every vector + 640000 (+ 1280000), wrapping
        table = table + table.dtype.type(quasi.SCRAMBLE_OFFSET[bits])
    return _read_only(table.copy())


def _direction_vectors(bits: int, set: Any, what: str) -> np.ndarray:
    sets = _SETS[bits]
    key = next((s for s in sets if isinstance(set, (int, np.integer)) and int(set) == s), None)
    if key is None:
        names = ", ".join(s.name for s in sets)
        raise RocrandError(rocrand_status.ROCRAND_STATUS_OUT_OF_RANGE, what,
                           f"set={set!r} is not a {bits}-bit direction vector set; pass "
                           f"{names}")
    return _vectors(bits, sets[key])


def rocrand_get_direction_vectors32(set: Any) -> np.ndarray:  # noqa: A002 - C name
    """The 32-bit direction vectors of ``set`` (a ``rocrand_direction_vector_set``): 20000 x
    32 uint32, dimension d at ``[32 d : 32 d + 32]``.

    >>> s = rocrand_direction_vector_set.ROCRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6
    >>> int(rocrand_get_direction_vectors32(s)[0])  # 0x80000000 + 640000
    2148123648
    """
    return _direction_vectors(32, set, "rocrand_get_direction_vectors32")


def rocrand_get_direction_vectors64(set: Any) -> np.ndarray:  # noqa: A002 - C name
    """The 64-bit direction vectors of ``set``: 20000 x 64 uint64, dimension d at
    ``[64 d : 64 d + 64]``.

    >>> s = rocrand_direction_vector_set.ROCRAND_DIRECTION_VECTORS_64_JOEKUO6
    >>> hex(int(rocrand_get_direction_vectors64(s)[1]))
    '0x4000000000000000'
    """
    return _direction_vectors(64, set, "rocrand_get_direction_vectors64")


@functools.cache
def _constants(bits: int) -> np.ndarray:
    return _read_only(quasi.scramble_constants(bits, sobol_vectors.MAX_DIMENSIONS))


def rocrand_get_scramble_constants32() -> np.ndarray:
    """Scrambled Sobol32's 20000 uint32 constants, one a dimension.

    >>> int(rocrand_get_scramble_constants32()[0])  # std::mt19937's first output
    3499211612
    """
    return _constants(32)


def rocrand_get_scramble_constants64() -> np.ndarray:
    """Scrambled Sobol64's 20000 uint64 constants (two mt19937 outputs, high word first).

    >>> hex(int(rocrand_get_scramble_constants64()[0]))
    '0xd091bb5c22ae9ef6'
    """
    return _constants(64)
