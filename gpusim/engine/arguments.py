"""Kernel arguments: the one check of what a kernel can take, and their numba types.

A kernel takes NumPy arrays (the engine's view of device memory), numbers and ``Enum``
members (numba types them by their class, and compares them with ``==`` and ``is`` as
numba does). Anything else (a Python list, a string, an object) is refused here, before
anything runs, with ``HipError(hipErrorInvalidValue)`` naming the parameter and the fix.
The runtime turns device arrays into their device views first and refuses freed ones
with the same message shape (``bad_argument``), so a learner meets one wording.

>>> import numpy as np
>>> [str(t) for t in arg_types((np.zeros(4, np.float32), 2.0))]
['array(float32, 1d, C)', 'float64']
>>> def k(a, n):
...     pass
>>> try:
...     arg_types(([1, 2], 3), k)
... except Exception as e:
...     print(e.code.name, "'a'" in str(e))
hipErrorInvalidValue True
"""

from __future__ import annotations

import enum
import inspect
from typing import Any

import numpy as np
from numba import typeof
from numba.core import types

from gpusim.errors import HipError, hipError_t

_NUMBERS = (bool, int, float, complex, np.generic)
_types: dict[tuple, Any] = {}  # cheap key -> numba type (typeof costs ~20 us an array)


def param_name(kernel: Any, k: int) -> str:
    """``'name'`` of the kernel's ``k``-th parameter, or ``#k+1`` when unknown."""
    func = getattr(kernel, "py_func", kernel)
    try:
        names = list(inspect.signature(func).parameters)
    except (TypeError, ValueError):
        names = []
    return f"'{names[k]}'" if k < len(names) else f"#{k + 1}"


def bad_argument(kernel: Any, k: int, problem: str, fix: str, *, kind: str = "",
                 code: hipError_t = hipError_t.hipErrorInvalidValue) -> HipError:
    """The error for kernel argument ``k``: which kernel, which parameter, what, the fix
    (``kind`` names the error class first, e.g. "use after free")."""
    name = getattr(kernel, "__name__", None) or getattr(kernel, "name", "kernel")
    lead = f"{kind}: " if kind else ""
    return HipError(code, f"kernel '{name}': {lead}argument {param_name(kernel, k)} {problem}. "
                          f"{fix}")


def _fix_for(arg: Any) -> tuple[str, str]:
    what = type(arg).__name__
    if isinstance(arg, (list, tuple)):
        return (f"is a Python {what}", "Kernels take arrays: pass hip.to_device("
                "np.asarray(values, dtype=np.float32)) (or a NumPy array)")
    return (f"is a {what}, which a kernel cannot take",
            "Kernels take device arrays (hip.to_device(...)), NumPy arrays and numbers")


def _key(arg: Any) -> tuple:
    if isinstance(arg, np.ndarray):
        f = arg.flags
        return (arg.dtype, arg.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned)
    if isinstance(arg, int) and not isinstance(arg, (bool, enum.Enum)):  # (IntEnum: its class)
        return (int, arg.bit_length() < 64, arg < 0)  # typeof: int64, else uint64 or error
    if isinstance(arg, np.void):  # a record: its type is its dtype's
        return (np.void, arg.dtype)
    return (type(arg),)


def _number_tuple(arg: Any) -> bool:
    """A tuple (or named tuple) of numbers and such tuples: passed by value, as numba does;
    a plain tuple may hold arrays too (the runtime stages each, as numba.cuda does)."""
    return isinstance(arg, tuple) and all(
        isinstance(v, _NUMBERS) or _number_tuple(v)
        or (type(arg) is tuple and isinstance(v, np.ndarray)) for v in arg)


def arg_types(args: tuple, kernel: Any = None) -> tuple:
    """numba types of launch arguments; ``HipError(hipErrorInvalidValue)`` for one a
    kernel cannot take (naming ``kernel``'s parameter)."""
    out = []
    for k, arg in enumerate(args):
        if _number_tuple(arg):
            out.append(typeof(arg))  # (not cached by _key: the type depends on the items)
            continue
        if not isinstance(arg, (np.ndarray, enum.Enum, *_NUMBERS)):
            raise bad_argument(kernel, k, *_fix_for(arg))
        key = _key(arg)
        ty = _types.get(key)
        if ty is None:
            ty = typeof(arg)
            if isinstance(ty, types.Array) and not ty.is_c_contig and not ty.is_f_contig:
                ty = ty.copy(layout="A")
            _types[key] = ty
        out.append(ty)
    return tuple(out)
