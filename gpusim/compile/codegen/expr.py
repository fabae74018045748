"""Expressions and per-thread statements of the generated code (part of ``generate``).

Kernel-language nodes become plain Python the generated module can run:

====================  ===========================================
``hip.threadIdx.x``   ``_tx`` (the thread loop's variable)
``hip.blockIdx.y``    ``_by``;  ``blockDim.x`` -> ``_bdx``; ``gridDim.z`` -> ``_gdz``
``hip.grid(1)``       ``_bx * _bdx + _tx``
``a[i, j]``           ``a[_ix(i, a.shape[0], site, _b, _t, _ctl), ...]`` (bounds-checked)
``hip.atomic.add``    ``atomic_add(...)`` on global memory, ``plain_add`` on LDS
====================  ===========================================

>>> from gpusim.compile.ir import Intrinsic
>>> ast.unparse(ExprGen(kir=None, wave_size=64).visit(Intrinsic(name="blockDim.x")))
'_bdx'
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from numba.core import types

from gpusim.compile.ir import Cast, Intrinsic, KernelIR, MathCall

AXES = {"x": 0, "y": 1, "z": 2}
PREFIX = {"threadIdx": "_t", "blockIdx": "_b", "blockDim": "_bd", "gridDim": "_gd"}


def alias(name: str) -> str:
    """How generated code refers to a device-library name (always with a leading ``_``)."""
    return name if name.startswith("_") else "_" + name


def _name(id_: str) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Load())


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


class ExprGen(ast.NodeTransformer):
    """Rewrites one expression (or assignment target) for the generated code."""

    def __init__(self, kir: KernelIR | None, wave_size: int, used: set[str] | None = None):
        self.kir = kir
        self.wave = wave_size
        self.used = used if used is not None else set()  # devicelib names referenced
        self.arrays: dict[str, Any] = {}
        if kir is not None:
            self.arrays = dict(kir.arrays)
            for p in kir.array_params():
                self.arrays[p] = None  # a global array argument
            for name, ty in (kir.types or {}).items():
                if isinstance(ty, types.Array) and name not in self.arrays:
                    self.arrays[name] = None  # a view (row = a[i, :]): indexed with checks
        self.access = "read"
        self.store_access = "write"  # "update" while writing the target of `a[i] += v`
        self.instrument = None  # the generation mode's hooks (instrument.py), if any
        self.unchecked = False  # writing a region the ranges pass proved in bounds

    def helper(self, name: str) -> ast.Name:
        """A device-library name, imported as ``_name`` so no user variable can hide it."""
        self.used.add(name)
        return _name(alias(name))

    # -- kernel language --------------------------------------------------------------
    def visit_Intrinsic(self, node: Intrinsic) -> ast.expr:
        name = node.name
        group, _, axis = name.partition(".")
        if group in PREFIX and axis:
            return _name(f"{PREFIX[group]}{axis}")
        if name == "warpsize":
            return ast.Constant(self.wave)
        if name == "laneid":
            return _expr(f"(_t & {self.wave - 1})")
        if name in ("grid", "gridsize"):
            fmt = "_b{a} * _bd{a} + _t{a}" if name == "grid" else "_gd{a} * _bd{a}"
            parts = [fmt.format(a=a) for a in "xyz"[:node.const]]
            return _expr(parts[0] if node.const == 1 else f"({', '.join(parts)})")
        if name.startswith("atomic."):
            return self.atomic(node)
        if name in ("popc", "ffs", "clz", "brev", "fma"):
            return ast.Call(self.helper(name), [self.visit(a) for a in node.args], [])
        if name.startswith("threadfence"):
            return ast.Call(self.helper("threadfence"), [], [])
        raise AssertionError(f"intrinsic {name} reached expression codegen")

    def atomic(self, node: Intrinsic) -> ast.expr:
        op = node.name.split(".")[1]
        ary = node.args[0]
        # an array, or a view of one (a[i:]): named by its generated text
        name = ary.id if isinstance(ary, ast.Name) else ast.unparse(self.visit(ary))
        space = self.kir.arrays[name].space if name in self.kir.arrays else "global"
        fn = f"atomic_{op}" if space == "global" else f"plain_{op}"
        self.access = "atomic"
        index = self.checked_index(name, node.args[1], node)
        self.access = "read"
        args = [_expr(name), index] + [self.visit(a) for a in node.args[2:]]
        return ast.Call(self.helper(fn), args, [])

    def visit_Cast(self, node: Cast) -> ast.expr:
        arg = self.visit(node.arg)
        dt = node.dtype
        if any(dt is t for t in (int, float, bool)):  # `in` would match dtype('float64')
            return ast.Call(_name(dt.__name__), [arg], [])
        tname = "bool_" if dt.kind == "b" else dt.name
        return ast.Call(_expr(f"np.{tname}"), [arg], [])

    def visit_MathCall(self, node: MathCall) -> ast.expr:
        if node.impl:
            func = self.helper(node.impl)
        elif node.qualname.startswith("cmath."):  # imported only by kernels that use it
            func = ast.Attribute(self.helper("cmath"), node.qualname[6:], ast.Load())
        else:
            func = _expr(node.qualname)
        return ast.Call(func, [self.visit(a) for a in node.args], [])

    def visit_Call(self, node: ast.Call) -> ast.expr:
        if isinstance(node.func, ast.Name) and node.func.id == "printf":  # hip.printf
            return ast.Call(self.helper("printf"), [self.visit(a) for a in node.args], [])
        return self.generic_visit(node)

    # -- memory -----------------------------------------------------------------------
    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        base = node.value
        if isinstance(base, ast.Name) and base.id in self.arrays:
            what = self.access if isinstance(node.ctx, ast.Load) else self.store_access
            saved, self.access = self.access, what
            index = self.checked_index(base.id, node.slice, node)
            self.access = saved
            return ast.Subscript(value=_name(base.id), slice=index, ctx=node.ctx)
        if isinstance(getattr(base, "numba_type", None), types.Array):  # x[0][i]: an array
            name = ast.unparse(base)  # the user's text names it in a fault
            inner = self.visit(base)  # held in a tuple, checked like a named one; the
            what = self.access if isinstance(node.ctx, ast.Load) else self.store_access
            saved, self.access = self.access, what  # trace and sanitizer hooks know
            hooks, self.instrument = self.instrument, None  # named arrays only: not seen
            index = self.checked_index(name, node.slice, node,
                                       shape_of=ast.unparse(inner))
            self.access, self.instrument = saved, hooks
            return ast.Subscript(value=inner, slice=index, ctx=node.ctx)
        return self.generic_visit(node)

    def checked_index(self, array: str, index: ast.expr, at: ast.AST,
                      shape_of: str = "") -> ast.expr:
        """``_ix(i, bound, site, _b, _t, _ctl)`` for each index of ``array`` (whose shape is
        ``shape_of``'s when that is given: the generated text of an unnamed array)."""
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        ty = getattr(index, "numba_type", None)
        if isinstance(ty, types.BaseTuple) and not isinstance(index, ast.Tuple):  # a[gid]
            parts = [ast.Subscript(index, ast.Constant(k), ast.Load()) for k in range(len(ty))]
        decl = self.arrays.get(array)
        user = self.kir.user_name(array)
        space = decl.space if decl is not None else "global"
        site = self.kir.add_site(at, self.access, array=user, space=space, var=array)
        checked, bounds = [], []
        for k, p in enumerate(parts):
            if isinstance(p, ast.Slice):  # a view: numba clamps slice bounds, as NumPy does
                checked.append(self.visit(p))
                bounds.append(_expr(f"{shape_of or array}.shape[{k}]"))
                continue
            if decl is not None and not decl.dynamic:
                bound: ast.expr = ast.Constant(decl.shape[k])
            else:
                bound = _expr(f"{shape_of or array}.shape[{k}]")
            what, self.access = self.access, "read"  # arrays read inside an index: reads
            checked.append(self.check(self.visit(p), bound, site))
            self.access = what
            bounds.append(bound)
        if self.instrument is not None:  # e.g. the sanitizer records the access
            hooked = self.instrument.index(self, array, checked, bounds, site, space)
            if hooked is not None:
                return hooked
        return checked[0] if len(checked) == 1 else ast.Tuple(checked, ast.Load())


    def check(self, index: ast.expr, bound: ast.expr, site: int) -> ast.expr:
        """``_ix(i, n, site, _b, _t, _ctl)``: ``i``, or a bounds fault naming site and thread
        (plain ``i`` where the region's test has shown every index in bounds)."""
        if self.unchecked:
            return index
        return ast.Call(self.helper("_ix"), [index, bound, ast.Constant(site), _name("_b"),
                                             _name("_t"), _name("_ctl")], [])


def expr_source(gen: ExprGen, node: ast.expr) -> str:
    """Source text of ``node`` after rewriting (the node itself is not modified)."""
    return ast.unparse(gen.visit(copy.deepcopy(node)))
