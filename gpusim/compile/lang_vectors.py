"""CUDA's built-in vector types (``cuda.float32x4``, ``cuda.int3`` ...), numba.cuda's set.

numba.cuda has 40 of them: ``<base>x<n>`` for the ten integer and float types and n = 1..4,
with the members ``.x .y .z .w`` (as many as n), and CUDA C's names as aliases
(``float4`` is ``float32x4``, ``int3`` is ``int32x3``, ``long2`` and ``longlong2`` are
``int64x2`` ...; numba/cuda/stubs.py, ``map_vector_type_stubs_to_alias``). A kernel builds
one from numbers and smaller vectors of the same base type whose elements add up to n
(``float32x4(v2, z, w)``, "fancy creation"), reads its members, and passes it to device
functions.

Each type here is a named tuple, which is also how the compiler represents the value:
numba compiles named tuples natively, so ``v = cuda.float32x4(a, b, c, d)`` becomes
``v = _float32x4(np.float32(a), ...)`` in the generated code and ``v.x`` stays ``v.x``
(``passes/vector_types.py``). Built on the host they behave as numba's simulator's do
(numba.cuda's real ones cannot be built outside a kernel):

>>> v = float32x2(1, 2.5)
>>> w = float4(v, 3, int8x1(4))
>>> [float(c) for c in w], type(w).__name__, w.z.dtype, float4 is float32x4
([1.0, 2.5, 3.0, 4.0], 'float32x4', dtype('float32'), True)
>>> float32x3(v)
Traceback (most recent call last):
  ...
TypeError: float32x3 takes 3 elements, got 2
"""

from __future__ import annotations

import inspect
from collections import namedtuple
from typing import Any

from numba.core import types

FIELDS = ("x", "y", "z", "w")
# CUDA C's names for each base type (numba/cuda/stubs.py: char = int8, long = longlong = int64)
C_NAMES = {"int8": ("char",), "int16": ("short",), "int32": ("int",),
           "int64": ("long", "longlong"), "uint8": ("uchar",), "uint16": ("ushort",),
           "uint32": ("uint",), "uint64": ("ulong", "ulonglong"), "float32": ("float",),
           "float64": ("double",)}


class Vector(tuple):
    """What every vector type derives from (the compiler recognises them by it)."""

    __slots__ = ()
    name: str = ""
    num_elements: int = 0
    base_type: Any = None
    aliases: list[str] = []

    def __new__(cls, *parts: Any) -> Vector:
        flat: list[Any] = []
        for p in parts:
            flat.extend(p if isinstance(p, Vector) else (cls.base_type.cast_python_value(p),))
        if len(flat) != cls.num_elements:
            raise TypeError(f"{cls.name} takes {cls.num_elements} elements, got {len(flat)}")
        return tuple.__new__(cls, flat)


def _make(base: str, n: int) -> type:
    name = f"{base}x{n}"
    fields = namedtuple(f"_{name}", FIELDS[:n])  # noqa: PYI024 - the members x, y, z, w
    cls = type(name, (fields, Vector), {
        "__slots__": (), "__new__": Vector.__new__, "name": name, "num_elements": n,
        "base_type": getattr(types, base), "aliases": [c + str(n) for c in C_NAMES[base]],
        "__module__": __name__,
        "__doc__": f"cuda.{name}: {n} {base} value(s) .{', .'.join(FIELDS[:n])}"})
    cls.user_facing_object = cls  # numba.cuda's tests read the constructor from here
    # what numba sees (it types and lowers the constructor by this signature): one
    # parameter per member, as the generated code always passes them
    cls.__signature__ = inspect.Signature([inspect.Parameter(
        f, inspect.Parameter.POSITIONAL_OR_KEYWORD) for f in FIELDS[:n]])
    return cls


def is_vector_type(value: Any) -> bool:
    """Whether ``value`` is one of the vector types (the class, not a value of it).

    >>> is_vector_type(float32x4), is_vector_type(tuple), is_vector_type(float32x4(1, 2, 3, 4))
    (True, False, False)
    """
    return isinstance(value, type) and issubclass(value, Vector) and value is not Vector


# name -> type, in numba's order (as numba.cuda.vector_types.vector_types)
vector_types: dict[str, type] = {f"{b}x{n}": _make(b, n) for b in C_NAMES for n in (1, 2, 3, 4)}
aliases: dict[str, type] = {a: t for t in vector_types.values() for a in t.aliases}
globals().update(vector_types)
globals().update(aliases)

__all__ = list(vector_types)
