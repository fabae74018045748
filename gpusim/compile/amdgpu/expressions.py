"""Expressions of the typed kernel IR -> LLVM values; array elements -> addresses.

Every expression node carries the numba type ``infer`` gave it (``node.numba_type``);
variables have one type for the whole kernel (``KernelIR.types``). Arrays:

==========  =====================  ==========================================================
space       address space          where the base and shape come from
==========  =====================  ==========================================================
argument    ``addrspace(1)``       kernel arguments: the pointer, then one ``i64`` per
                                   dimension (and byte strides for non-contiguous views)
shared      ``addrspace(3)``       a module global (LDS); shape 0 is ``external`` dynamic LDS
local       ``addrspace(5)``       an ``alloca`` (promoted to registers when LLVM can)
const       ``addrspace(4)``       an ``externally_initialized`` global, like ``__constant__``
==========  =====================  ==========================================================

Indices are used as given: no bounds checks (HIP has none; the emulator's checks are a
teaching aid the hardware does not pay for) and no negative-index wraparound.
``a and b``, ``a or b`` and ``x if c else y`` branch, so the part not taken (often an
out-of-bounds read) is not evaluated, as in Python.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from numba.core import types

from gpusim.compile.amdgpu.emit import (
    BOOL,
    I64,
    TupleValue,
    Value,
    const,
    ll_type,
    mem_type,
    size_of,
)
from gpusim.compile.amdgpu.intrinsics import Intrinsics
from gpusim.compile.amdgpu.ops import NUMPY_OPERATORS, Ops, signature
from gpusim.compile.amdgpu.unsupported import unsupported
from gpusim.compile.ir import Cast, Intrinsic, MathCall
from gpusim.compile.passes.infer import BINOPS, CMPOPS, typing_context


@dataclass
class ArrayInfo:
    """Where an array lives and how to index it."""

    dtype: Any  # numba scalar type of the elements
    space: int  # LLVM address space
    base: str  # pointer operand: %arg.x, @tile, %tile.addr3
    shape: list[Value]
    strides: list[Value] | None = None  # byte strides, for non-contiguous arguments
    order: str = "C"  # "C" or "F" when strides is None
    dynamic: bool = False  # dynamic LDS: its size is the launch's, unknown here

    @property
    def ndim(self) -> int:
        return len(self.shape)


class Expressions(Ops, Intrinsics):
    """Mixin: ``expr(node)``, array addressing, loads and stores."""

    arrays: dict[str, ArrayInfo]
    vars: dict[str, tuple[str, Any]]  # scalar variable -> (alloca pointer, numba type)
    tuples: dict[str, list[tuple[str, Any]]]  # tuple variable -> one slot per element

    def expr(self, node: ast.expr) -> Value | TupleValue:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (str, complex)) or node.value is None:
                raise unsupported(self.kir, node, f"the constant {node.value!r}")
            return const(node.value, node.numba_type)
        if isinstance(node, ast.Name):
            return self.load_name(node)
        if isinstance(node, ast.BinOp):
            return self.binop(BINOPS[type(node.op)], self.scalar(node.left),
                              self.scalar(node.right), node, right=node.right)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, self.scalar(node.operand))
        if isinstance(node, ast.Compare):
            return self.comparison(node)
        if isinstance(node, ast.BoolOp):
            return self.branching(node, node.values, node.numba_type)
        if isinstance(node, ast.IfExp):
            return self.branching(node, [node.body, node.orelse], node.numba_type)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Tuple):
            return TupleValue(tuple(self.scalar(e) for e in node.elts))
        if isinstance(node, Cast):
            return self.convert(self.scalar(node.arg), node.numba_type)
        if isinstance(node, MathCall):
            return self.math_call(node)
        if isinstance(node, Intrinsic):
            out = self.intrinsic_value(node)
            if out is None:
                raise unsupported(self.kir, node, f"hip.{node.name}() used as a value")
            return out
        if isinstance(node, ast.Call):
            return self.builtin(node)
        raise unsupported(self.kir, node, f"{type(node).__name__} expressions")

    def scalar(self, node: ast.expr) -> Value:
        v = self.expr(node)
        if isinstance(v, TupleValue):
            raise unsupported(self.kir, node, "a tuple used as a number")
        return v

    # -- names -------------------------------------------------------------------------
    def load_name(self, node: ast.Name) -> Value | TupleValue:
        name = node.id
        if name in self.vars:
            ptr, ty = self.vars[name]
            return self.fb.op(f"load {ll_type(ty)}, ptr addrspace(5) {ptr}", ty)
        if name in self.tuples:
            return TupleValue(tuple(self.fb.op(f"load {ll_type(ty)}, ptr addrspace(5) {p}", ty)
                                    for p, ty in self.tuples[name]))
        if name in self.kir.constants:
            value = self.kir.constants[name]
            ty = types.unliteral(typing_context().resolve_value_type(value))
            return const(value, ty)
        if name in self.arrays:
            raise unsupported(self.kir, node, f"the array '{self.kir.user_name(name)}' used "
                              "as a value", instead="index it: a[i]")
        raise unsupported(self.kir, node, f"the name '{self.kir.user_name(name)}'")

    # -- control flow inside expressions ----------------------------------------------
    def branching(self, node: ast.expr, parts: list[ast.expr], rt: Any) -> Value:
        """``a and b`` / ``a or b`` / ``b if c else o``: evaluate only the part taken."""
        fb = self.fb
        done = fb.fresh("join")
        incoming: list[tuple[str, str]] = []
        if isinstance(node, ast.IfExp):
            then, orelse = fb.fresh("ifexp.then"), fb.fresh("ifexp.else")
            fb.cbr(self.truth(self.scalar(node.test)), then, orelse)
            for label, part in ((then, node.body), (orelse, node.orelse)):
                fb.start(label)
                v = self.convert(self.scalar(part), rt)
                incoming.append((v.ref, fb.label))
                fb.br(done)
        else:
            is_and = isinstance(node.op, ast.And)
            for k, part in enumerate(parts):
                v = self.convert(self.scalar(part), rt)
                if k == len(parts) - 1:
                    incoming.append((v.ref, fb.label))
                    fb.br(done)
                    break
                test = self.truth(v)
                nxt = fb.fresh("boolop.next")
                incoming.append((v.ref, fb.label))
                if is_and:  # `a and b` is a when a is false
                    fb.cbr(test, nxt, done)
                else:
                    fb.cbr(test, done, nxt)
                fb.start(nxt)
        fb.start(done)
        arms = ", ".join(f"[ {ref}, %{label} ]" for ref, label in incoming)
        return fb.op(f"phi {ll_type(rt)} {arms}", rt)

    def comparison(self, node: ast.Compare) -> Value:
        left = self.scalar(node.left)
        out = None
        for op, comp in zip(node.ops, node.comparators, strict=True):
            right = self.scalar(comp)
            one = self.compare(CMPOPS[type(op)], left, right, node)
            out = one if out is None else self.fb.op(f"and i1 {out.ref}, {one.ref}", BOOL)
            left = right
        return out

    # -- arrays ------------------------------------------------------------------------
    def array_info(self, node: ast.expr) -> ArrayInfo:
        if not (isinstance(node, ast.Name) and node.id in self.arrays):
            raise unsupported(self.kir, node, "indexing something that is not an array")
        return self.arrays[node.id]

    def known_shape(self, node: ast.Name) -> ArrayInfo:
        info = self.array_info(node)
        if info.dynamic:
            raise unsupported(self.kir, node, "the shape of a dynamic shared array",
                              "its size is set by the launch",
                              instead="pass the size as a kernel argument")
        return info

    def element_ptr(self, array: ast.expr, index: ast.expr) -> tuple[str, ArrayInfo]:
        """The address of ``array[index]`` (a pointer operand) and the array's info."""
        info = self.array_info(array)
        idx = self.expr(index)
        parts = [self.convert(p, I64) for p in (idx.items if isinstance(idx, TupleValue)
                                                 else (idx,))]
        space = f"ptr addrspace({info.space})"
        if info.strides is not None:
            offset = None
            for p, stride in zip(parts, info.strides, strict=True):
                term = self.mul(p, stride)
                offset = term if offset is None else self.fb.op(
                    f"add i64 {offset.ref}, {term.ref}", I64)
            ptr = self.fb.op(f"getelementptr inbounds i8, {space} {info.base}, i64 {offset.ref}",
                             None)
            return ptr.ref, info
        dims = list(range(info.ndim)) if info.order == "C" else list(range(info.ndim))[::-1]
        lin = parts[dims[0]]
        for k in dims[1:]:
            scaled = self.mul(lin, info.shape[k])
            lin = self.fb.op(f"add i64 {scaled.ref}, {parts[k].ref}", I64)
        ptr = self.fb.op(f"getelementptr inbounds {mem_type(info.dtype)}, {space} {info.base}, "
                         f"i64 {lin.ref}", None)
        return ptr.ref, info

    def load(self, ptr: str, info: ArrayInfo) -> Value:
        mem = mem_type(info.dtype)
        extra = ", !invariant.load !0" if info.space == 4 else ""
        raw = self.fb.op(f"load {mem}, ptr addrspace({info.space}) {ptr}, "
                         f"align {size_of(info.dtype)}{extra}", info.dtype if mem != "i8" or
                         not isinstance(info.dtype, types.Boolean) else types.uint8)
        if isinstance(info.dtype, types.Boolean):
            return self.truth(raw)
        return raw

    def store(self, ptr: str, info: ArrayInfo, value: Value) -> None:
        v = self.convert(value, info.dtype)
        if isinstance(info.dtype, types.Boolean):
            v = self.fb.op(f"zext i1 {v.ref} to i8", types.uint8)
        self.fb.emit(f"store {mem_type(info.dtype)} {v.ref}, ptr addrspace({info.space}) {ptr}, "
                     f"align {size_of(info.dtype)}")

    def subscript(self, node: ast.Subscript) -> Value:
        if isinstance(node.value, ast.Name) and node.value.id in self.arrays:
            return self.load(*self.element_ptr(node.value, node.slice))
        base = self.expr(node.value)
        if isinstance(base, TupleValue) and isinstance(node.slice, ast.Constant):
            return base.items[node.slice.value]
        raise unsupported(self.kir, node, "indexing a tuple with a variable",
                          instead="a constant index, e.g. t[0]")

    def attribute(self, node: ast.Attribute) -> Value | TupleValue:
        if isinstance(node.value, ast.Name) and node.value.id in self.arrays:
            info = self.known_shape(node.value)
            if node.attr == "shape":
                return TupleValue(tuple(info.shape))
            if node.attr == "ndim":
                return const(info.ndim, I64)
            if node.attr == "size":
                out = info.shape[0]
                for dim in info.shape[1:]:
                    out = self.mul(out, dim)
                return out
        raise unsupported(self.kir, node, f"the attribute .{node.attr}")

    # -- calls -------------------------------------------------------------------------
    def math_call(self, node: MathCall) -> Value:
        if getattr(node, "vector", None) is not None:  # a named tuple (passes/vector_types.py)
            raise unsupported(self.kir, node, f"the vector type {node.qualname}")
        args = [self.scalar(a) for a in node.args]
        name = node.qualname.split(".", 1)[1]
        if name in NUMPY_OPERATORS:
            out = self.binop(NUMPY_OPERATORS[name], *args, node, right=node.args[1])
            return self.convert(out, node.numba_type)
        sig = signature(node.func, tuple(a.ty for a in args))
        return self.math(name, args, sig, node)

    def builtin(self, node: ast.Call) -> Value:
        if getattr(node, "method", False):  # z.conjugate(), a.view(np.int32)
            raise unsupported(self.kir, node, f"the method .{node.func.attr}()")
        name = node.func.id
        if getattr(node, "separate", None):  # passes/recursion.py
            raise unsupported(self.kir, node, f"a call of the recursive device function "
                              f"'{name}'", "calls and a stack are not modelled")
        if name in ("print", "printf"):
            raise unsupported(self.kir, node, f"{name}()", "device printf needs HIP's hostcall "
                              "buffer, which is not modelled", instead="remove the print, or "
                              "pass fallback= counts")
        if name == "len":
            if isinstance(node.args[0], ast.Name) and node.args[0].id in self.arrays:
                return self.known_shape(node.args[0]).shape[0]
            return const(len(self.expr(node.args[0]).items), I64)
        args = [self.scalar(a) for a in node.args]
        rt = node.numba_type
        if name in ("min", "max"):
            return self.minmax(name, args, rt)
        if name == "abs":
            return self.math("abs", args, signature(abs, (args[0].ty,)), node)
        if name == "pow" and len(args) == 2:
            return self.binop(NUMPY_OPERATORS["power"], *args, node, right=node.args[1])
        if name == "round" and len(args) == 1:
            if isinstance(args[0].ty, types.Float):
                return self.convert(self.intrinsic("rint", args[0].ty, args[0]), rt)
            return self.convert(args[0], rt)
        raise unsupported(self.kir, node, f"{name}() with these arguments")

