"""Compile-time arguments of device functions (part of ``resolve`` and ``normalize``).

numba.cuda specialises a device function on arguments that are not runtime values:
``helper(ary, uint32, cuda.atomic.add, cast_func, 32, (4, 8))`` passes a type, an
intrinsic, another device function and constants that the callee uses as a dtype, a
function to call and a shared-array shape. Since device functions are inlined here,
the same meaning comes from binding such parameters to their values in the callee's
namespace before it is resolved, as if the callee had named the global directly.

Two kinds: *objects* (types, intrinsics, device/jit functions, math functions) are
always bound; *constants* (numbers and tuples of them, literal or global) are bound
only when the callee never assigns the parameter, and passed as values otherwise.

>>> import ast, numba
>>> from gpusim.compile.passes.parse import parse_function
>>> def helper(a, dt, n):
...     n = n + 1
>>> fn, _ = parse_function(helper)
>>> ns, kept = bind_static(fn, {1: (OBJECT, numba.uint32), 2: (CONSTANT, 4)})
>>> sorted(ns), kept, [a.arg for a in fn.args.args]
(['dt'], [0, 2], ['a', 'n'])
"""

from __future__ import annotations

import ast
import types
from typing import Any

import numba
import numpy as np

from gpusim.compile import lang
from gpusim.compile.ir import Cast

OBJECT, CONSTANT = "object", "constant"
_NUMBERS = (bool, int, float, complex, np.number, np.bool_)
_jit_wrappers: dict[Any, lang.DeviceFunction] = {}


def is_static_object(value: Any) -> bool:
    """A value a kernel cannot hold in a variable but can pass to a device function."""
    if isinstance(value, lang._Value):
        return False
    if isinstance(value, (lang.Stub, lang.DeviceFunction, numba.types.Type, np.ufunc,
                          types.BuiltinFunctionType, types.FunctionType)):
        return True
    if isinstance(value, numba.core.dispatcher.Dispatcher):
        return True
    if any(value is f for f in (int, float, bool, complex, abs, min, max, round, pow)):
        return True  # (identity: `in` would compare an array argument element-wise)
    return isinstance(value, type) and issubclass(value, np.generic)


def as_device_function(value: Any) -> lang.DeviceFunction | None:
    """A ``@numba.njit`` function called from a kernel is inlined like a device function
    (numba.cuda compiles it for the device); one wrapper per function, so recursion is
    still recognised by identity."""
    if isinstance(value, lang.DeviceFunction):
        return value
    if isinstance(value, numba.core.dispatcher.Dispatcher):
        if value not in _jit_wrappers:
            _jit_wrappers[value] = lang.DeviceFunction(value.py_func)
        return _jit_wrappers[value]
    return None


def constant_value(node: ast.expr, constants: dict[str, Any]) -> Any:
    """The value of a resolved argument that is a number or a tuple of numbers, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, _NUMBERS):
        return node.value
    if isinstance(node, ast.Name) and isinstance(constants.get(node.id), _NUMBERS):
        return constants[node.id]
    if isinstance(node, ast.Tuple):
        parts = [constant_value(e, constants) for e in node.elts]
        if all(p is not None for p in parts):
            return tuple(parts)
    return None


def bind_static(fn: ast.FunctionDef, static: dict[int, tuple[str, Any]]
                ) -> tuple[dict[str, Any], list[int]]:
    """Remove the statically bound parameters from ``fn``; return the names to add to
    its namespace and the indices of the arguments still passed at run time."""
    assigned = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Store)}
    params = fn.args.args
    ns: dict[str, Any] = {}
    kept: list[int] = []
    for i, param in enumerate(params):
        kind, value = static.get(i, (None, None))
        if kind == OBJECT or (kind == CONSTANT and param.arg not in assigned):
            ns[param.arg] = value
        else:
            kept.append(i)
    fn.args.args = [params[i] for i in kept]
    return ns, kept


def constant_node(value: Any, old: ast.AST) -> ast.expr:
    """A number or tuple of numbers as an expression (a constant bound to a parameter)."""
    if isinstance(value, tuple):
        new: ast.expr = ast.Tuple(elts=[constant_node(v, old) for v in value], ctx=ast.Load())
    elif isinstance(value, (np.number, np.bool_)):
        new = Cast(dtype=np.dtype(type(value)), arg=ast.Constant(value=value.item()))
    else:
        new = ast.Constant(value=value)
    ast.copy_location(new, old)
    new.gsrc = getattr(old, "gsrc", None)
    return new

