"""Explicit jit signatures: ``@cuda.jit("void(uint32[:], uint32)")``.

numba.cuda compiles a kernel with a signature for exactly those types and converts each
launch argument to them: a Python int passed for a ``uint32`` parameter *is* a uint32 in
the kernel (``cuda.brev`` reverses 32 bits, not 64). The emulator compiles for the types
it is launched with, so honouring a signature means converting the scalar arguments
before they are typed. Array arguments are checked against the declared element type and
dimensions (numba refuses a mismatch too); numbers wrap as C casts do.

>>> sigs = parse_signatures("void(uint32[:], uint32)")
>>> [str(t) for t in sigs[0]]
['array(uint32, 1d, A)', 'uint32']
>>> import numpy as np
>>> args = declared_args(sigs, (np.zeros(1, np.uint32), -1), "k")
>>> type(args[1]).__name__, int(args[1])
('uint32', 4294967295)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import typeof
from numba.core import sigutils, types
from numba.core.registry import cpu_target
from numba.np.numpy_support import as_dtype

from gpusim.errors import KernelCompileError


def parse_signatures(spec: Any) -> list[tuple]:
    """Argument types of each signature in ``spec`` (a string, a numba signature, or a
    list of them); a ``KernelCompileError`` naming the signature if numba cannot read it."""
    specs = spec if isinstance(spec, (list, tuple)) and not _is_arg_tuple(spec) else [spec]
    out = []
    for one in specs:
        try:
            args, _ = sigutils.normalize_signature(one)
        except Exception as exc:  # numba raises TypeError, NameError, SyntaxError...
            raise KernelCompileError(f"cannot read the jit signature {one!r}: {exc}; write "
                                     "it as numba does, e.g. \"void(float32[:], int32)\"") from None
        out.append(tuple(args))
    return out


def _is_arg_tuple(spec: Any) -> bool:
    """A tuple of numba types is one signature's arguments, not a list of signatures."""
    return isinstance(spec, tuple) and all(isinstance(t, types.Type) for t in spec)


def _is_array(arg: Any) -> bool:
    """A host or device array (a NumPy scalar has a dtype too, but no shape to index)."""
    return hasattr(arg, "shape") and hasattr(arg, "dtype") and not isinstance(arg, np.generic)


def _fits(ty: Any, arg: Any) -> bool:
    """Whether ``arg`` can be passed as ``ty``; wrappers (``cuda.In(a)``) are left to the
    runtime, which unwraps them."""
    if isinstance(ty, types.Array):
        if not _is_array(arg):
            return not isinstance(arg, (bool, int, float, complex, np.generic))
        return arg.ndim == ty.ndim and (not isinstance(ty.dtype, types.Number)
                                        or np.dtype(arg.dtype) == as_dtype(ty.dtype))
    return not _is_array(arg)


def convert_scalar(ty: Any, value: Any) -> Any:
    """``value`` as the NumPy scalar of numba type ``ty`` (integers wrap, as a C cast does).

    >>> convert_scalar(types.int8, 200), convert_scalar(types.float32, 1)
    (np.int8(-56), np.float32(1.0))
    """
    if not isinstance(ty, (types.Number, types.Boolean)):
        return value
    dt = as_dtype(ty)
    if isinstance(ty, types.Integer) and isinstance(value, (int, np.integer)):
        return np.array(int(value) & ((1 << 64) - 1), np.uint64).astype(dt)[()]
    return np.array(value).astype(dt)[()]


def _cost(sig: tuple, args: tuple) -> int:
    """How far the numbers in ``args`` are from ``sig`` (numba's conversion kinds: exact,
    promote, safe, unsafe), summed; numba launches the closest signature."""
    ctx, total = cpu_target.typing_context, 0
    for ty, arg in zip(sig, args, strict=True):
        if isinstance(ty, (types.Number, types.Boolean)):
            kind = ctx.can_convert(typeof(arg), ty)
            total += 99 if kind is None else int(kind)
    return total


def declared_args(sigs: list[tuple], args: tuple, kernel: str) -> tuple:
    """``args`` converted to the signature they fit best (numba's choice among several).

    >>> sigs = parse_signatures(["(float64[::1], float32)", "(float64[::1], float64)"])
    >>> type(declared_args(sigs, (np.zeros(1), 2**-25), "k")[1]).__name__
    'float64'
    """
    fitting = [sig for sig in sigs if len(sig) == len(args)
               and all(_fits(t, a) for t, a in zip(sig, args, strict=True))]
    if fitting:
        sig = min(fitting, key=lambda s: _cost(s, args))
        return tuple(convert_scalar(t, a) for t, a in zip(sig, args, strict=True))
    shown = " or ".join("(" + ", ".join(str(t) for t in sig) + ")" for sig in sigs)
    got = ", ".join(str(getattr(a, "dtype", type(a).__name__)) for a in args)
    raise KernelCompileError(f"kernel '{kernel}' was declared for {shown} but launched with "
                             f"({got}); pass arguments of the declared types, or drop the "
                             "signature to compile for what is passed")
