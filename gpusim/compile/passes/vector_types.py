"""CUDA vector types in kernels (``cuda.float32x4(a, b, c, d)``, ``v.x``; part of ``resolve``
and ``infer``).

A vector value is a named tuple (``lang_vectors.py``), which numba compiles natively, so
the only work is the constructor. ``resolve`` turns ``cuda.float32x4(...)`` into a
``MathCall`` of the device library's ``float32x4`` (marked ``vector``); ``infer``, which
knows the argument types, flattens it the way numba.cuda's constructor overloads do:
each argument is a number (converted to the base type, as numba converts an argument to
the parameter's type) or a vector of the same base type (its members in order), and
together they must give exactly n elements:

>>> import numba
>>> from gpusim.compile import lang_vectors as cuda
>>> from gpusim.compile.pipeline import front_end
>>> from gpusim.compile.ir import unparse
>>> def k(out):
...     v = cuda.float32x2(1, 2)
...     w = cuda.float32x3(0.5, v)
...     out[0] = w.z
>>> kir = front_end(k, wave_size=64, arg_types=(numba.float32[:],), passes=(
...     "parse", "subset", "resolve", "normalize", "uniformity", "lower", "infer"))
>>> print(unparse(kir.func.body[1]))
w = cuda.float32x3(np.float32(0.5), v.x, v.y)
>>> str(kir.types["w"])
'float32x3(float32 x 3)'

Members are read as a named tuple's (``v.x``); everything else numba.cuda offers on them
(passing them to device functions, tuples of them, iterating such a tuple) is the named
tuple's too.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

import numpy as np
from numba.core import types

from gpusim.compile.ir import Cast, MathCall
from gpusim.compile.lang_vectors import FIELDS, is_vector_type


def vector_call(node: ast.Call, fn: Any, args: list[ast.expr]) -> ast.expr | None:
    """``cuda.<vector type>(args)`` as a ``MathCall`` that ``infer`` flattens; None when
    ``fn`` is not a vector type."""
    if not is_vector_type(fn):
        return None
    call = MathCall(qualname=f"cuda.{fn.name}", func=fn, args=args, impl=fn.name)
    call.vector = fn
    return ast.copy_location(call, node)


def _is_vector_value(ty: Any) -> bool:
    return isinstance(ty, types.BaseNamedTuple) and is_vector_type(ty.instance_class)


def vector_type(typer: Any, node: MathCall) -> Any:
    """The numba type of a vector constructor call, flattening its arguments first."""
    cls = node.vector
    if not getattr(node, "flat", False):
        members: list[ast.expr] = []
        dtype = np.dtype(str(cls.base_type))
        for arg in node.args:
            ty = typer.expr(arg)
            if getattr(arg, "vector", None) is not None and arg.vector.base_type == cls.base_type:
                members += arg.args  # float32x3(float32x2(a, b), c): its members, once
            elif _is_vector_value(ty) and ty.instance_class.base_type == cls.base_type:
                members += [ast.copy_location(ast.Attribute(copy.deepcopy(arg), f, ast.Load()),
                                              arg) for f in ty.instance_class._fields]
            elif isinstance(ty, (types.Number, types.Boolean)):
                members.append(ast.copy_location(Cast(dtype=dtype, arg=arg), arg))
            else:
                same = ", ".join(f"{cls.base_type}x{n}" for n in range(1, cls.num_elements))
                raise typer.fail(arg, f"cuda.{cls.name}() is built from {cls.base_type} "
                                 f"numbers{' and vectors (' + same + ')' if same else ''}, "
                                 f"not {ty}", instead=f"convert: {cls.base_type}(x), or "
                                 "pass the vector's members (v.x, v.y)")
        if len(members) != cls.num_elements:
            raise typer.fail(node, f"cuda.{cls.name}() needs {cls.num_elements} elements "
                             f"({', '.join(FIELDS[:cls.num_elements])}); these arguments "
                             f"give {len(members)}",
                             instead=f"{cls.num_elements} numbers, or smaller vectors and "
                             "numbers that add up to it")
        node.args, node.flat = members, True
    for arg in node.args:
        typer.expr(arg)
    return types.NamedUniTuple(cls.base_type, cls.num_elements, cls)
