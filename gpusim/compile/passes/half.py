"""Pass 7b, half: float16 lowered onto what numba's CPU target has (after ``infer``).

numba compiles the generated module for the CPU, which has no float16 (see
``device/half.py``). So, with the types ``infer`` gave every expression (numba.cuda's
float16 rules, ``half_types.py``), this pass rewrites the kernel:

=================================  ================================================
``h[i]`` (float16 array element)   ``f16_value(h[i])``: the uint16 bits -> float32
``h[i] = v``                       ``h[i] = f16_bits(v)``: v rounded to float16, bits
``h[i] += v``                      ``h[i] = f16_bits(f16_value(h[i]) + v)``
``a + b`` typed float16            ``f16_round(a + b)`` (computed in float32, exact)
``np.float16(x)``                  ``f16_round(x)`` (rounded from float64 directly)
``math.sin(x)`` typed float16      ``f16_round(np.sin(np.float64(x)))``
``cuda.fp16.hadd(a, b)``           ``hadd(a, b)`` (device library); ``hsin`` as above
=================================  ================================================

and the storage: float16 variables, per-thread spills and scalar arguments become
float32, float16 arrays (arguments, LDS, local, const) uint16 arrays of the same bits;
the launch passes arguments that way (``CompiledKernel.device_args``).

>>> import numba
>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.pipeline import front_end
>>> def k(h, out):
...     out[0] = h[0] * h[1]
>>> f2 = numba.types.float16[::1]
>>> kir = front_end(k, wave_size=64, arg_types=(f2, f2), passes=(
...     "parse", "subset", "resolve", "normalize", "uniformity", "lower", "infer", "half"))
>>> from gpusim.compile.ir import unparse
>>> unparse(kir.func.body[0])
'out[0] = f16_bits(f16_round(f16_value(h[0]) * f16_value(h[1])))'
>>> [str(t) for t in storage_types(kir.arg_types)]
['array(uint16, 1d, C)', 'array(uint16, 1d, C)']
"""

from __future__ import annotations

import ast
import copy
from typing import Any

import numpy as np
from numba.core import types

from gpusim.compile.device import half as device_half
from gpusim.compile.diagnostics import compile_error
from gpusim.compile.ir import Cast, Intrinsic, KernelIR, MathCall
from gpusim.compile.lang_fp16 import HalfFunction
from gpusim.compile.passes.half_types import MATH, is_half

F16, U16 = np.dtype(np.float16), np.dtype(np.uint16)
F64 = np.dtype(np.float64)


def storage(ty: Any) -> Any:
    """The numba type generated code keeps a value of type ``ty`` in."""
    if is_half(ty):
        return types.float32
    if isinstance(ty, types.Array) and is_half(ty.dtype):
        return ty.copy(dtype=types.uint16)
    if type(ty) is types.UniTuple:
        return types.UniTuple(storage(ty.dtype), ty.count)
    if type(ty) is types.Tuple:
        return types.Tuple([storage(t) for t in ty.types])
    return ty


def storage_types(arg_types: tuple) -> tuple:
    """Launch argument types as the generated code takes them."""
    return tuple(storage(t) for t in arg_types)


def half_positions(arg_types: tuple) -> tuple[int, ...]:
    """Which launch arguments are float16 numbers or float16 arrays."""
    return tuple(k for k, t in enumerate(arg_types) if storage(t) != t)


def storage_value(value: Any) -> Any:
    """A float16 launch argument as the generated code takes it: an array's uint16 view
    (the same memory: the kernel's stores land in the caller's array), a number as float32.

    >>> storage_value(np.float16(1.5)), storage_value(np.ones(1, np.float16)).dtype
    (np.float32(1.5), dtype('uint16'))
    """
    if isinstance(value, np.ndarray):
        return value.view(U16) if value.dtype == F16 else value
    return np.float32(value)


def _typed(node: ast.AST) -> Any:
    return getattr(node, "numba_type", None)


def _half_elements(node: ast.AST) -> bool:
    """``node`` is an array whose elements are float16 (so ``node[i]`` is stored bits)."""
    ty = _typed(node)
    return isinstance(ty, types.Array) and is_half(ty.dtype)


class _Lower(ast.NodeTransformer):
    def __init__(self, kir: KernelIR):
        self.kir = kir

    def fail(self, node: ast.AST, msg: str, instead: str = "") -> Exception:
        return compile_error(self.kir.src, node, msg, instead=instead, kernel=self.kir.name)

    def call(self, impl: str, args: list[ast.expr], at: ast.AST) -> MathCall:
        """A call of the device library's ``impl`` (``device/half.py``)."""
        node = MathCall(qualname=impl, func=getattr(device_half, impl), args=args, impl=impl)
        ast.copy_location(node, at)
        node.gsrc = getattr(at, "gsrc", None)
        return node

    def rounded(self, node: ast.expr) -> MathCall:
        return self.call("f16_round", [node], node)

    # -- expressions ------------------------------------------------------------------
    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and is_half(_typed(node)) and _half_elements(
                node.value):
            return self.call("f16_value", [node], node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        return self.rounded(node) if is_half(_typed(node)) else node

    def visit_Cast(self, node: Cast) -> ast.expr:
        self.generic_visit(node)
        if not isinstance(node.dtype, type) and np.dtype(node.dtype) == F16:
            return self.rounded(node.arg)
        return node

    def visit_MathCall(self, node: MathCall) -> ast.expr:
        self.generic_visit(node)
        fn = node.func
        if isinstance(fn, HalfFunction):
            if fn.impl:
                return node  # IEEE-exact in the device library
            arg = node.args[0]
            arg = arg if is_half(_typed(arg)) else self.rounded(arg)  # numba.cuda converts
            return self.rounded(self.math(fn.name, fn.ufunc, arg, node))
        if is_half(_typed(node)) and fn in MATH:
            ufunc = getattr(np, MATH[fn])
            return self.rounded(self.math(fn.__name__, ufunc, node.args[0], node))
        return node

    def math(self, name: str, ufunc: Any, arg: ast.expr, at: ast.AST) -> ast.expr:
        """``name`` of a float16 ``arg``, computed in float64 (rounded by the caller)."""
        wide = ast.copy_location(Cast(dtype=F64, arg=arg), at)
        if name == "hexp10":
            out: ast.expr = ast.BinOp(ast.Constant(10.0), ast.Pow(), wide)
        elif name == "hrcp":
            out = ast.BinOp(ast.Constant(1.0), ast.Div(), wide)
        elif name == "hrsqrt":
            root = MathCall(qualname="np.sqrt", func=np.sqrt, args=[wide])
            out = ast.BinOp(ast.Constant(1.0), ast.Div(), ast.copy_location(root, at))
        else:
            out = MathCall(qualname=f"np.{ufunc.__name__}", func=ufunc, args=[wide])
        return ast.copy_location(out, at)

    def visit_Intrinsic(self, node: Intrinsic) -> ast.expr:
        self.generic_visit(node)
        const = node.const
        if node.name in ("shared.array", "local.array") and const and const[1] == F16:
            node.const = (const[0], U16)
        elif isinstance(const, np.ndarray) and const.dtype == F16:
            node.const = const.view(U16)
        return node

    # -- statements -------------------------------------------------------------------
    def half_store(self, target: ast.AST) -> bool:
        if isinstance(target, (ast.Tuple, ast.List)):
            if any(self.half_store(t) for t in target.elts):
                raise self.fail(target, "a float16 array element cannot be a target of "
                                "tuple unpacking", instead="unpack into variables, then store")
            return False
        return isinstance(target, ast.Subscript) and _half_elements(target.value)

    def visit_Assign(self, node: ast.Assign) -> ast.stmt:
        node.value = self.visit(node.value)
        halves = [self.half_store(t) for t in node.targets]
        node.targets = [self.visit(t) for t in node.targets]
        if any(halves):
            if len(node.targets) > 1:
                raise self.fail(node, "a float16 array element in a chained assignment",
                                instead="one assignment per float16 element")
            node.value = self.call("f16_bits", [node.value], node.value)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        target = node.target
        element = self.half_store(target)
        variable = isinstance(target, ast.Name) and is_half(self.kir.types.get(target.id))
        if not (element or variable):
            self.generic_visit(node)
            return node
        # h[i] op= v is h[i] = h[i] op v, rounded where the result is stored
        load = copy.deepcopy(target)
        load.ctx = ast.Load()
        value = ast.copy_location(ast.BinOp(self.visit(load), node.op, self.visit(node.value)),
                                  node)
        new = ast.copy_location(ast.Assign(targets=[self.visit(target)], value=value), node)
        new.gsrc = getattr(node, "gsrc", None)
        if element:
            new.value = self.call("f16_bits", [value], node)
        elif isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            new.value = self.rounded(value)
        return new


def lower_half(kir: KernelIR) -> None:
    """Run the pass: rewrites ``kir.func`` and the storage types (see the module doc)."""
    kir.func.body = [_Lower(kir).visit(s) for s in kir.func.body]
    kir.types = {name: storage(ty) for name, ty in kir.types.items()}
    for decl in kir.arrays.values():
        if decl.dtype == F16:
            decl.dtype = U16
            if isinstance(decl.value, np.ndarray):
                decl.value = decl.value.view(U16)
    kir.const_arrays = {name: storage_value(a) for name, a in kir.const_arrays.items()}
    kir.constants = {name: np.float32(v) if isinstance(v, np.float16) else v
                     for name, v in kir.constants.items()}
