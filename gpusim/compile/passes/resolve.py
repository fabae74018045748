"""Pass 3, resolve: decide what every name in a kernel refers to.

Local names stay names. Any other name is looked up in the function's closure, module
globals and builtins, and rewritten:

- kernel-language stubs (``hip.threadIdx.x``, ``cuda.syncthreads()``, ``from gpusim.hip
  import shfl_down``) -> ``Intrinsic`` nodes, whichever module they were reached through;
- numbers -> compile-time constants (``TILE = 16`` at module level stays ``TILE``);
- NumPy arrays -> read-only constant arrays passed to the kernel;
- ``np.float32(x)``, ``int(x)``, ``numba.int32(x)`` -> ``Cast``; ``math.*`` and NumPy math
  -> ``MathCall``; ``@hip.jit(device=True)`` functions -> calls inlined later.

Anything else is a ``KernelCompileError`` that names the line and what is allowed.

>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.passes.parse import parse_function
>>> def k(out):
...     out[hip.threadIdx.x] = hip.warpsize
>>> unit = resolve_function(*parse_function(k), ns={"hip": hip}, wave_size=64)
>>> import ast; print(ast.dump(unit.fn.body[0].targets[0].slice))
Intrinsic(args=[])
"""

from __future__ import annotations

import ast
import builtins
import cmath
import enum
import math
import re
import types
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from gpusim.compile import lang
from gpusim.compile.device import bf16, mathlib
from gpusim.compile.device.mathlib import MATH_EXTRAS
from gpusim.compile.diagnostics import SourceFile, compile_error
from gpusim.compile.ir import Cast, Intrinsic, MathCall
from gpusim.compile.lang_fp16 import HalfFunction
from gpusim.compile.passes.grid_group import rewrite_grid_groups
from gpusim.compile.passes.operators import operator_expression
from gpusim.compile.passes.static_args import (
    CONSTANT,
    OBJECT,
    as_device_function,
    constant_node,
    constant_value,
    is_static_object,
)
from gpusim.compile.passes.type_args import type_argument
from gpusim.compile.passes.vector_types import vector_call

# Python builtins a kernel may call, and the NumPy functions it may use as math.
BUILTIN_CALLS = {"range", "len", "min", "max", "abs", "print", "round", "pow", "complex"}
NUMPY_MATH = {
    "sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "floor", "ceil", "trunc", "rint", "abs", "absolute", "fabs", "sign", "minimum",
    "maximum", "fmin", "fmax", "power", "hypot", "isnan", "isinf", "isfinite", "copysign",
    "fmod", "square", "reciprocal", "deg2rad", "rad2deg", "floor_divide", "remainder",
    "invert", "bitwise_not", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
    "right_shift", "degrees", "radians", "equal", "not_equal", "greater", "greater_equal",
    "less", "less_equal", "logical_and", "logical_or", "logical_xor", "logical_not",
}
# Keyword names the kernel language accepts, mapped to positions.
KEYWORDS = {
    "shared.array": ("shape", "dtype"), "local.array": ("shape", "dtype"),
    "const.array_like": ("ary",), "shfl": ("var", "src_lane", "width"),
    "shfl_up": ("var", "delta", "width"), "shfl_down": ("var", "delta", "width"),
    "shfl_xor": ("var", "lane_mask", "width"), "grid": ("ndim",), "gridsize": ("ndim",),
}
_INTERNAL = re.compile(r"^_|__")
_STATIC_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
               ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
               ast.Mod: lambda a, b: a % b, ast.LShift: lambda a, b: a << b}


@dataclass
class FunctionUnit:
    """A resolved kernel or device function."""

    fn: ast.FunctionDef
    src: SourceFile
    params: list[str]
    constants: dict[str, Any] = field(default_factory=dict)
    const_arrays: dict[str, np.ndarray] = field(default_factory=dict)
    const_sources: dict[str, np.ndarray] = field(default_factory=dict)  # the user's arrays
    renamed: dict[str, str] = field(default_factory=dict)  # new name -> user's name
    kept: list[int] | None = None  # device function: arguments not bound at compile time


def local_names(fn: ast.FunctionDef) -> set[str]:
    """Parameters and every name the body assigns (Python's rule for locals)."""
    names = {a.arg for a in fn.args.args}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def as_dtype(value: Any) -> np.dtype | None:
    """The NumPy dtype ``np.float32``, ``numba.float32``, ``'float32'``, ``float`` ... name."""
    if value is float:
        return np.dtype(np.float64)
    if value is int:
        return np.dtype(np.int64)
    if value is bool:
        return np.dtype(np.bool_)
    if isinstance(value, numba.types.Type):
        try:
            return numba.np.numpy_support.as_dtype(value)
        except (NotImplementedError, numba.core.errors.NumbaNotImplementedError):
            return None
    if isinstance(value, type) and issubclass(value, np.generic) or isinstance(value, (str,
                                                                                      np.dtype)):
        try:
            dt = np.dtype(value)
        except TypeError:
            return None
        return dt if dt.kind in "biufc" else None
    return None


class _Resolver(ast.NodeTransformer):
    def __init__(self, unit: FunctionUnit, ns: dict[str, Any], wave_size: int, kernel: str):
        self.unit, self.ns, self.wave_size, self.kernel = unit, ns, wave_size, kernel
        self.locals = local_names(unit.fn)

    def fail(self, node: ast.AST, msg: str, instead: str = "", construct: str = ""):
        return compile_error(self.unit.src, node, msg, instead=instead, construct=construct,
                             kernel=self.kernel)

    # -- lookups --------------------------------------------------------------------
    def lookup(self, node: ast.AST) -> tuple[bool, Any]:
        """(True, value) if ``node`` is a name/attribute chain naming a non-local object."""
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return False, None
            if node.id in self.ns:
                return True, self.ns[node.id]
            if hasattr(builtins, node.id):
                return True, getattr(builtins, node.id)
            raise self.fail(node, f"name '{node.id}' is not defined",
                            instead="define it at module level or assign it in the kernel")
        if isinstance(node, ast.Attribute):
            found, base = self.lookup(node.value)
            if not found:
                return False, None
            if isinstance(base, lang._Value):
                if node.attr in base._fields:
                    return True, ("value", f"{base.name}.{node.attr}")
                raise self.fail(node, f"hip.{base.name} has no field '{node.attr}'",
                                instead=f"hip.{base.name}.x, .y or .z")
            try:
                return True, getattr(base, node.attr)
            except AttributeError:
                where = getattr(base, "__name__", type(base).__name__)
                raise self.fail(node, f"'{where}' has no attribute '{node.attr}'") from None
        return False, None

    # -- expressions ----------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.locals:
            new = self.unit_rename(node.id)
            return ast.copy_location(ast.Name(id=new, ctx=node.ctx), node) if new else node
        return self.value_node(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        found, _ = self.lookup(node)
        if found:
            return self.value_node(node)
        node.value = self.visit(node.value)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        found, base = (self.lookup(node.value) if isinstance(node.value, (ast.Name, ast.Attribute))
                       else (False, None))
        if found and isinstance(base, enum.EnumMeta):  # Color['red']: a member, by name
            if not (isinstance(node.slice, ast.Constant) and node.slice.value in base.__members__):
                raise self.fail(node, f"{ast.unparse(node)} is not a member of {base.__name__}",
                                instead=f"one of {', '.join(base.__members__)} in quotes")
            member = base[node.slice.value].value
            if isinstance(member, (int, float)):
                return _copy(ast.Constant(value=member), node)
        return self.generic_visit(node)

    def value_node(self, node: ast.expr) -> ast.expr:
        """Rewrite a non-local name used as a value."""
        _, value = self.lookup(node)
        if isinstance(value, enum.Enum) and isinstance(value.value, (int, float)):
            value = value.value  # IntEnum / Enum members are their values, as in numba
        if isinstance(value, tuple) and value[:1] == ("value",):
            return _copy(Intrinsic(name=value[1]), node)
        if isinstance(value, lang._Value):
            if value._fields:
                raise self.fail(node, f"hip.{value.name} is a group of three values",
                                instead=f"hip.{value.name}.x (or .y, .z)")
            return _copy(Intrinsic(name=value.name), node)
        if isinstance(value, (bool, int, float, complex, np.number, np.bool_)):
            if isinstance(value, int) and not isinstance(value, bool) and not (
                    -2**63 <= value < 2**64):
                raise self.fail(node, f"the constant {value} does not fit in 64 bits")
            if isinstance(node, ast.Name):
                name = self.add_constant(node.id, value)
                return _copy(ast.Name(id=name, ctx=ast.Load()), node)
            return _copy(ast.Constant(value=value), node) if isinstance(
                value, (bool, int, float, complex)) else _copy(
                Cast(dtype=np.dtype(type(value)), arg=ast.Constant(value=value.item())), node)
        if isinstance(value, tuple) and constant_value(constant_node(value, node), {}) is not None:
            return constant_node(value, node)  # a tuple of numbers (a global, or bound shape)
        if isinstance(value, np.ndarray):  # a global array: a constant, frozen when compiled
            stem = node.id if isinstance(node, ast.Name) else ast.unparse(node).replace(".", "_")
            return _copy(ast.Name(id=self.add_const_array(stem, value), ctx=ast.Load()), node)
        if isinstance(value, types.ModuleType) and value.__name__.startswith("numba.cuda"):
            raise self.fail(node, "this is numba's real CUDA module, which the emulator "
                            "cannot run", instead="`from gpusim import cuda`")
        what = _describe(value)
        raise self.fail(node, f"{ast.unparse(node)} ({what}) cannot be used as a value in a "
                        "kernel", instead="numbers, arrays, and calls of hip.* functions")

    def visit_Call(self, node: ast.Call) -> ast.AST:
        found, fn = self.lookup(node.func)
        if not found and isinstance(node.func, ast.Attribute) and not node.keywords:
            # a method of a value (z.conjugate(), a.sum()): numba types it
            node.func.value = self.visit(node.func.value)
            node.args = [self.method_argument(a) for a in node.args]
            node.method = True
            return node
        if not found:
            raise self.fail(node, f"calling {ast.unparse(node.func)} is not supported",
                            instead="array attributes are a.shape, a.size, a.ndim; functions "
                            "must be hip.* intrinsics, math functions or device functions")
        devfn = as_device_function(fn)
        if (isinstance(fn, lang.Stub) or devfn is not None) and any(
                isinstance(a, ast.Starred) for a in node.args):
            node.args = self.spread(node.args)
        if isinstance(fn, lang.Stub) and not isinstance(fn, lang._Value):
            return self.intrinsic_call(node, fn.name)
        if isinstance(fn, lang.LocalStruct):  # a library state type: a local/shared array
            if node.args or node.keywords:
                raise self.fail(node, f"{fn.__name__}() takes no arguments")
            intr = _copy(Intrinsic(name=f"{fn.space}.array", args=[]), node)
            intr.const, intr.init, intr.struct = ((fn.size,), fn.dtype), fn.init, fn.__name__
            return intr
        if devfn is not None:
            return self.device_call(node, devfn)
        args = [self.visit(a) for a in node.args]
        kwargs = {kw.arg: self.visit(kw.value) for kw in node.keywords}
        spelled = operator_expression(fn, args) if _hashable(fn) and not kwargs else None
        if spelled is not None:  # operator.add(a, b) is a + b
            return _copy(spelled, node)
        if getattr(fn, "__gpusim_kernel__", False):
            raise self.fail(node, "launching a kernel from a kernel (dynamic parallelism) is "
                            "not supported", instead="launch it from host code after this one")
        vector = vector_call(node, fn, args)  # cuda.float32x4(...): typed by `infer`
        if vector is not None:
            return vector
        dtype = as_dtype(fn)
        if dtype is not None and not isinstance(fn, str):
            if len(args) != 1 or kwargs:
                raise self.fail(node, f"{ast.unparse(node.func)}(...) takes one value to convert")
            return _copy(Cast(dtype=fn if fn in (int, float, bool) else dtype, arg=args[0]), node)
        if kwargs and fn is not print:
            raise self.fail(node, f"keyword arguments to {ast.unparse(node.func)} are not "
                            "supported", instead="pass the arguments by position")
        if fn is lang.printf:  # C's printf: called as `printf`, like print (codegen/expr.py)
            if not args or not (isinstance(args[0], ast.Constant)
                                and isinstance(args[0].value, str)):
                raise self.fail(node, "hip.printf needs a format string constant first",
                                instead='hip.printf("i = %d\\n", i)')
            return _copy(ast.Call(func=ast.Name(id="printf", ctx=ast.Load()), args=args,
                                  keywords=[]), node)
        if isinstance(fn, HalfFunction):  # cuda.fp16.*: lowered by the `half` pass
            return _copy(MathCall(qualname=f"cuda.fp16.{fn.name}", func=fn, args=args,
                                  impl=fn.impl), node)
        if fn is round and len(args) == 2:  # numba.cuda's algorithm (device/mathlib.py)
            return _copy(MathCall(qualname="builtins.round", func=fn, args=args,
                                  impl="round_ndigits"), node)
        extra = MATH_EXTRAS.get(fn) if _hashable(fn) else None
        if extra is not None:  # numba's CPU target lacks it: the device library has it
            return _copy(MathCall(qualname=f"{extra.replace('_', '.', 1)}",
                                  func=getattr(mathlib, extra), args=args, impl=extra), node)
        for module in (math, cmath):
            if isinstance(fn, types.BuiltinFunctionType) and fn is getattr(
                    module, fn.__name__, None):
                return _copy(MathCall(qualname=f"{module.__name__}.{fn.__name__}", func=fn,
                                      args=args), node)
        if getattr(np, getattr(fn, "__name__", ""), None) is fn and fn.__name__ in NUMPY_MATH:
            return _copy(MathCall(qualname=f"np.{fn.__name__}", func=fn, args=args), node)
        if getattr(builtins, getattr(fn, "__name__", ""), None) is fn and (
                fn.__name__ in BUILTIN_CALLS):
            if fn is print and kwargs:
                raise self.fail(node, "print(sep=..., end=...) is not supported in kernels",
                                instead="print(a, b)")
            return _copy(ast.Call(func=ast.Name(id=fn.__name__, ctx=ast.Load()), args=args,
                                  keywords=[]), node)
        raise self.fail(node, f"call to unknown function '{ast.unparse(node.func)}' "
                        f"({_describe(fn)})", construct="call",
                        instead="hip.* intrinsics, math.* / NumPy math functions, "
                        "min/max/abs/len/range/print, or a @hip.jit(device=True) function")

    def method_argument(self, node: ast.expr) -> ast.expr:
        """An argument of a value's method: a number type stays a type (``a.view(np.int32)``)."""
        found, value = (self.lookup(node) if isinstance(node, (ast.Name, ast.Attribute))
                        else (False, None))
        return type_argument(node, found, value) or self.visit(node)

    def spread(self, args: list[ast.expr]) -> list[ast.expr]:
        """``f(*(a, b))`` -> ``f(a, b)`` for intrinsics and device functions, whose
        arguments are bound one by one before types are known (numbers' calls keep ``*t``)."""
        out: list[ast.expr] = []
        for a in args:
            if isinstance(a, ast.Starred) and not isinstance(a.value, ast.Tuple):
                raise self.fail(a, "`*` unpacking of a variable into a device function or "
                                "intrinsic is not supported", instead="pass the arguments "
                                "one by one: f(t[0], t[1])")
            out.extend(a.value.elts if isinstance(a, ast.Starred) else [a])
        return out

    def device_call(self, node: ast.Call, devfn: lang.DeviceFunction) -> ast.expr:
        """A device function call; types, intrinsics, functions and constants among its
        arguments are bound when it is inlined (``static_args.py``)."""
        if node.keywords:
            raise self.fail(node, "keyword arguments to device functions are not supported",
                            instead="pass the arguments by position")
        args: list[ast.expr] = []
        static: dict[int, tuple[str, Any]] = {}
        for i, arg in enumerate(node.args):
            found, value = (self.lookup(arg) if isinstance(arg, (ast.Name, ast.Attribute))
                            else (False, None))
            if found and is_static_object(value):
                static[i] = (OBJECT, value)
                args.append(_copy(ast.Constant(value=None), arg))  # dropped when inlined
                continue
            new = self.visit(arg)
            const = constant_value(new, self.unit.constants)
            if const is not None:
                static[i] = (CONSTANT, const)
            args.append(new)
        call = _copy(ast.Call(func=ast.Name(id=devfn.__name__, ctx=ast.Load()), args=args,
                              keywords=[]), node)
        call.devfn, call.static = devfn, static
        return call

    def intrinsic_call(self, node: ast.Call, name: str) -> ast.expr:
        names = KEYWORDS.get(name, ())
        args: list[ast.expr | None] = list(node.args)
        for kw in node.keywords:
            if kw.arg not in names:
                raise self.fail(node, f"hip.{name}() has no keyword argument '{kw.arg}'",
                                instead=f"hip.{name}({', '.join(names) or '...'})")
            pos = names.index(kw.arg)
            while len(args) <= pos:
                args.append(None)
            args[pos] = kw.value
        if any(a is None for a in args):
            raise self.fail(node, f"hip.{name}() is missing an argument",
                            instead=f"hip.{name}({', '.join(names)})")
        if name in ("shared.array", "local.array", "const.array_like", "grid", "gridsize"):
            return self.static_intrinsic(node, name, args)
        args = [self.visit(a) for a in args]
        if name == "bf16":  # device/bf16.py: typed by numba (a uint16 passes through)
            return _copy(MathCall(qualname="hip.bf16", func=bf16.bf16_bits, args=args,
                                  impl="bf16_bits"), node)
        if name == "cbrt":  # numba.cuda's cuda.cbrt is math.cbrt
            return _copy(MathCall(qualname="math.cbrt", func=mathlib.math_cbrt, args=args,
                                  impl="math_cbrt"), node)
        if name == "atomic.compare_and_swap":  # numba.cuda: compare_and_swap(ary, old, val)
            if len(args) != 3:
                raise self.fail(node, "hip.atomic.compare_and_swap takes (ary, expected, val)")
            name, args = "atomic.cas", [args[0], ast.Constant(value=0), args[1], args[2]]
        return _copy(Intrinsic(name=name, args=args), node)

    def static_intrinsic(self, node: ast.Call, name: str, args: list) -> ast.expr:
        """Intrinsics whose arguments must be known when the kernel compiles."""
        intr = _copy(Intrinsic(name=name, args=[]), node)
        if name in ("grid", "gridsize"):
            ndim = self.static_eval(args[0], f"the argument of hip.{name}")
            if len(args) != 1 or ndim not in (1, 2, 3):
                raise self.fail(node, f"hip.{name}(n) needs n = 1, 2 or 3")
            intr.const = ndim
        elif name == "const.array_like":
            value = self.static_eval(args[0], "the argument of hip.const.array_like")
            if len(args) != 1 or not isinstance(value, np.ndarray):
                raise self.fail(node, "hip.const.array_like(a) needs a host NumPy array a")
            intr.const = np.ascontiguousarray(value).copy()  # a snapshot, as numba.cuda takes
        else:
            if len(args) != 2:
                raise self.fail(node, f"hip.{name} takes (shape, dtype)",
                                instead=f"hip.{name}((16, 16), np.float32)")
            shape = self.static_eval(args[0], f"the shape of hip.{name}")
            shape = shape if isinstance(shape, tuple) else (shape,)
            if not all(isinstance(s, (int, np.integer)) and s >= 0 for s in shape):
                raise self.fail(args[0], f"the shape of hip.{name} must be whole numbers >= 0, "
                                f"got {shape!r}")
            dtype = as_dtype(self.static_eval(args[1], f"the dtype of hip.{name}"))
            if dtype is None:
                raise self.fail(args[1], f"hip.{name}: {ast.unparse(args[1])} is not a "
                                "number type", instead="np.float32, np.int32, 'float64', ...")
            if name == "local.array" and 0 in shape:
                raise self.fail(args[0], "hip.local.array needs a size > 0")
            intr.const = (tuple(int(s) for s in shape), dtype)
        return intr

    def static_eval(self, node: ast.expr, what: str) -> Any:
        """Evaluate a compile-time constant expression (numbers, globals, tuples, + - * //)."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Tuple):
            return tuple(self.static_eval(e, what) for e in node.elts)
        if isinstance(node, ast.Name) and node.id in self.locals:  # N = 100 in the kernel
            assigned = _only_assignment(self.unit.fn, node.id)
            if assigned is not None:  # numba propagates it as a constant
                return self.static_eval(assigned, what)
        if isinstance(node, (ast.Name, ast.Attribute)):
            found, value = self.lookup(node)
            if found:
                if isinstance(value, lang._Value) and value.name == "warpsize":
                    return self.wave_size
                if not isinstance(value, lang.Stub) and not (isinstance(value, tuple)
                                                             and value[:1] == ("value",)):
                    return value
        if isinstance(node, ast.BinOp) and type(node.op) in _STATIC_OPS:
            left, right = self.static_eval(node.left, what), self.static_eval(node.right, what)
            return _STATIC_OPS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.static_eval(node.operand, what)
        if isinstance(node, ast.Subscript):  # SHAPE[0] of a global tuple
            base = self.static_eval(node.value, what)
            if isinstance(base, tuple):
                return base[self.static_eval(node.slice, what)]
        raise self.fail(node, f"{what} must be known when the kernel compiles",
                        instead="a number, a module-level constant, or a tuple of them")

    # -- helpers --------------------------------------------------------------------
    def unit_rename(self, name: str) -> str | None:
        """User names that could clash with generated ones (``_t``, ``x__s``) get renamed."""
        if not _INTERNAL.search(name):
            return None
        for new, old in self.unit.renamed.items():
            if old == name:
                return new
        base = "u_" + re.sub("_+", "_", name).strip("_")
        new, k = base, 1
        while new in self.locals or new in self.unit.renamed:
            k += 1
            new = f"{base}{k}"
        self.unit.renamed[new] = name
        return new

    def add_constant(self, name: str, value: Any) -> str:
        new = self.unit_rename(name) or name
        self.unit.constants[new] = value
        if new != name:
            self.unit.renamed[new] = name
        return new

    def add_const_array(self, stem: str, value: np.ndarray) -> str:
        for name, arr in self.unit.const_sources.items():
            if arr is value:
                return name
        name = "const_" + re.sub(r"\W+", "_", stem).strip("_")
        self.unit.const_arrays[name] = np.ascontiguousarray(value).copy()
        self.unit.const_sources[name] = value
        return name

    def statements(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """Resolve a statement list; an ``if`` on a compile-time constant keeps only the
        branch taken (numba prunes dead branches the same way, so the other branch is
        never typed: ``if neg_idx:`` with ``neg_idx=False`` bound by a caller)."""
        out: list[ast.stmt] = []
        for stmt in stmts:
            new = self.visit(stmt)
            out.extend(new if isinstance(new, list) else [new])
        return out

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        node.test = self.visit(node.test)
        value = constant_value(node.test, self.unit.constants)
        if value is not None and not isinstance(value, tuple):
            taken = self.statements(node.body if value else node.orelse)
            return taken or [_copy(ast.Pass(), node)]
        node.body = self.statements(node.body)
        node.orelse = self.statements(node.orelse)
        return node

    def visit_For(self, node: ast.For) -> ast.For:
        node.target, node.iter = self.visit(node.target), self.visit(node.iter)
        node.body, node.orelse = self.statements(node.body), self.statements(node.orelse)
        return node

    def visit_While(self, node: ast.While) -> ast.While:
        node.test = self.visit(node.test)
        node.body, node.orelse = self.statements(node.body), self.statements(node.orelse)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self.unit_rename(node.arg) or node.arg
        return node


def _only_assignment(fn: ast.FunctionDef, name: str) -> ast.expr | None:
    """The value of ``name = value`` if that is the only statement binding ``name``."""
    binds = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name
             and not isinstance(n.ctx, ast.Load)]
    assigns = [s for s in ast.walk(fn) if isinstance(s, ast.Assign) and len(s.targets) == 1
               and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name]
    params = {a.arg for a in fn.args.args}
    return assigns[0].value if len(binds) == len(assigns) == 1 and name not in params else None


def _copy(new: ast.AST, old: ast.AST) -> ast.AST:
    ast.copy_location(new, old)
    new.gsrc = getattr(old, "gsrc", None)
    return new


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _describe(value: Any) -> str:
    if isinstance(value, types.ModuleType):
        return f"module {value.__name__}"
    if callable(value):
        return f"a Python {type(value).__name__} that kernels cannot call"
    return f"a {type(value).__name__}"


def resolve_function(fn: ast.FunctionDef, src: SourceFile, *, ns: dict[str, Any],
                     wave_size: int, kernel: str | None = None) -> FunctionUnit:
    """Resolve every name in ``fn`` against ``ns``; returns the rewritten function."""
    unit = FunctionUnit(fn=fn, src=src, params=[])
    rewrite_grid_groups(fn, ns, wave_size)  # hip.cg / cuda.cg groups, before names resolve
    resolver = _Resolver(unit, ns, wave_size, kernel or fn.name)
    fn.args = resolver.visit(fn.args)
    fn.body = resolver.statements(fn.body)
    unit.params = [a.arg for a in fn.args.args]
    return unit
