"""Pass 4, normalize: one barrier or collective per statement, device functions inlined.

After this pass:

- every barrier / wave collective is a statement of its own, ``_k3 = hip.shfl_down(_a1,
  _a2)`` or ``hip.syncthreads()``, whose operands are constants or plain names (so the
  ``split`` pass can cut the kernel there and read each lane's operand);
- every ``@hip.jit(device=True)`` call is inlined (``inline.py``);
- where such a call sits in a short-circuit position (``a and f(x)``, ``x if c else f(y)``,
  a ``while`` condition) the expression becomes ``if`` statements, so the call runs
  exactly for the threads that evaluate it -- a ballot there sees only those lanes;
- ``shared.array`` / ``local.array`` / ``const.array_like`` declarations are collected
  into ``KernelIR.arrays`` and removed from the body (storage is set up per work-group).

Operands of ``+``, calls and so on may be evaluated in another order than Python's; C++
leaves that order unspecified too, so HIP semantics are kept.

>>> import ast
>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.pipeline import front_end
>>> def k(a, out):
...     out[0] = a + hip.shfl_down(a * 2, 1)
>>> kir = front_end(k, wave_size=64, passes=("parse", "subset", "resolve", "normalize"))
>>> from gpusim.compile.ir import unparse
>>> print(unparse(kir.func.body))
_a1 = a * 2
_k2 = hip.shfl_down(_a1, 1)
out[0] = a + _k2
"""

from __future__ import annotations

import ast
from typing import Any

from gpusim.compile.diagnostics import compile_error
from gpusim.compile.ir import (
    MFMA_OPS,
    ArrayDecl,
    Intrinsic,
    KernelIR,
    is_array_decl,
    is_sync,
)
from gpusim.compile.lang import Overload
from gpusim.compile.passes.inline import inline_call, load_device_function
from gpusim.compile.passes.recursion import SeparateFunctions
from gpusim.compile.passes.resolve import local_names

# hip.mfma_*(a, b, acc) writes its result into a private array: a statement, like a barrier
_VOID_SYNC = ("syncthreads", "syncwarp", "sync_grid", *MFMA_OPS)


def _hoistable(node: ast.AST) -> bool:
    return is_sync(node) or (isinstance(node, ast.Call) and hasattr(node, "devfn"))


def _needs_hoist(node: ast.AST) -> bool:
    return any(_hoistable(n) for n in ast.walk(node))


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


class Normalizer:
    """Rewrites a statement list; see the module docstring for what comes out."""

    def __init__(self, kir: KernelIR):
        self.kir = kir
        self.counter = [0]
        self.stack: tuple = ()
        self.kernel_locals = local_names(kir.func)
        self.separate = SeparateFunctions(
            kir, self.merge_globals, lambda fn, static=None: load_device_function(
                fn, wave_size=kir.wave_size, kernel=kir.name, static=static))

    def fail(self, node: ast.AST, msg: str, instead: str = "") -> Exception:
        return compile_error(self.kir.src, node, msg, instead=instead, kernel=self.kir.name)

    def assign(self, target: str, value: ast.expr, at: ast.AST) -> ast.Assign:
        stmt = ast.Assign(targets=[_name(target, store=True)], value=value)
        return _locate(stmt, at)

    # -- statements -------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            out.extend(self.stmt(stmt))
        return out

    def stmt(self, s: ast.stmt) -> list[ast.stmt]:
        pre: list[ast.stmt] = []
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                return []
            s = _locate(ast.Assign(targets=[s.target], value=s.value), s)
        if isinstance(s, ast.Assign):
            if is_array_decl(s.value):
                return self.declare(s)
            target = s.targets[0]
            if (len(s.targets) == 1 and isinstance(target, ast.Tuple)
                    and isinstance(s.value, ast.Tuple)
                    and len(target.elts) == len(s.value.elts)
                    and all(is_array_decl(v) for v in s.value.elts)):
                # `a, acc = FragA(), FragC()`: one declaration per name (a declaration
                # reads no variable, so the order is free)
                return self.block([_locate(ast.Assign(targets=[t], value=v), s)
                                   for t, v in zip(target.elts, s.value.elts, strict=True)])
            value = self.expr(s.value, pre)
            s.targets = [self.target(t, pre) for t in s.targets]
            s.value = value
            return pre + [s]
        if isinstance(s, ast.AugAssign):
            s.target = self.target(s.target, pre)
            s.value = self.expr(s.value, pre)
            return pre + [s]
        if isinstance(s, ast.Expr):
            value = s.value
            if isinstance(value, ast.Constant):  # a docstring or a bare constant: no effect
                return []
            if is_sync(value) and value.name in _VOID_SYNC:
                value.args = [self.operand(a, pre) for a in value.args]
                return pre + [s]
            if isinstance(value, ast.Call) and hasattr(value, "devfn"):
                s.value = self.call(value, pre)  # a recursive function's call stays
                return pre + ([s] if getattr(s.value, "separate", None) else [])
            s.value = self.expr(value, pre)
            return pre + [s]
        if isinstance(s, ast.If):
            s.test = self.expr(s.test, pre)
            s.body = self.block(s.body) or [_locate(ast.Pass(), s)]
            s.orelse = self.block(s.orelse)
            return pre + [s]
        if isinstance(s, ast.For):
            s.iter.args = [self.expr(a, pre) for a in s.iter.args]
            s.body = self.block(s.body) or [_locate(ast.Pass(), s)]
            return pre + [s]
        if isinstance(s, ast.While):
            test_pre: list[ast.stmt] = []
            test = self.expr(s.test, test_pre)
            body = self.block(s.body)
            if test_pre:  # the condition needs statements: `while True: ...; if not c: break`
                stop = _locate(ast.If(test=ast.UnaryOp(ast.Not(), test), body=[
                    _locate(ast.Break(), s)], orelse=[]), s)
                s.test, body = _locate(ast.Constant(True), s), test_pre + [stop] + body
            else:
                s.test = test
            s.body = body or [_locate(ast.Pass(), s)]
            return [s]
        if isinstance(s, ast.Return) and s.value is not None:
            s.value = self.expr(s.value, pre)
            return pre + [s]
        if isinstance(s, ast.Assert):
            s.test = self.expr(s.test, pre)
            return pre + [s]
        return [s]

    def target(self, t: ast.expr, pre: list[ast.stmt]) -> ast.expr:
        if isinstance(t, ast.Subscript):
            t.slice = self.expr(t.slice, pre)
        elif isinstance(t, ast.Tuple):
            t.elts = [self.target(e, pre) for e in t.elts]
        return t

    def declare(self, s: ast.Assign) -> list[ast.stmt]:
        decl: Intrinsic = s.value
        if len(s.targets) != 1 or not isinstance(s.targets[0], ast.Name):
            raise self.fail(s, f"assign hip.{decl.name}(...) to a single name",
                            instead=f"tile = hip.{decl.name}(...)")
        name = s.targets[0].id
        if name in self.kir.arrays:
            raise self.fail(s, f"'{self.kir.user_name(name)}' is declared as an array twice",
                            instead="give each shared/local array its own name")
        space = decl.name.split(".")[0]
        if space == "const":
            value = decl.const
            self.kir.arrays[name] = ArrayDecl(name, "const", value.shape, value.dtype, s.lineno,
                                              value=value)
        else:
            shape, dtype = decl.const
            self.kir.arrays[name] = ArrayDecl(name, space, shape, dtype, s.lineno,
                                              struct=getattr(decl, "struct", ""))
        # A LocalStruct's fixed words (lang.LocalStruct), stored where it is declared.
        return [_locate(ast.Assign(targets=[ast.Subscript(
            value=_name(name), slice=ast.Constant(i), ctx=ast.Store())],
            value=ast.Constant(v)), s) for i, v in getattr(decl, "init", ())]

    # -- expressions ------------------------------------------------------------------
    def operand(self, node: ast.expr, pre: list[ast.stmt]) -> ast.expr:
        """A collective's operand: a constant stays, and a private array (an MFMA's
        registers, read and written in place); anything else goes into a temporary."""
        node = self.expr(node, pre)
        if isinstance(node, ast.Constant) or (
                isinstance(node, ast.Name) and node.id in self.kir.arrays):
            return node
        tmp = self.kir.fresh("a")
        pre.append(self.assign(tmp, node, node))
        return _locate(_name(tmp), node)

    def expr(self, node: ast.expr, pre: list[ast.stmt]) -> ast.expr:
        if not _needs_hoist(node):
            return node
        if is_sync(node):
            if node.name in _VOID_SYNC:
                raise self.fail(node, f"hip.{node.name}() returns nothing",
                                instead=f"call it as a statement: hip.{node.name}()")
            node.args = [self.operand(a, pre) for a in node.args]
            tmp = self.kir.fresh("k")
            pre.append(self.assign(tmp, node, node))
            return _locate(_name(tmp), node)
        if isinstance(node, ast.Call) and hasattr(node, "devfn"):
            return self.call(node, pre)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node, pre)
        if isinstance(node, ast.IfExp):
            test = self.expr(node.test, pre)
            body_pre: list[ast.stmt] = []
            else_pre: list[ast.stmt] = []
            body, orelse = self.expr(node.body, body_pre), self.expr(node.orelse, else_pre)
            tmp = self.kir.fresh("v")
            pre.append(_locate(ast.If(test=test, body=body_pre + [self.assign(tmp, body, node)],
                                      orelse=else_pre + [self.assign(tmp, orelse, node)]), node))
            return _locate(_name(tmp), node)
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                setattr(node, field, self.expr(value, pre))
            elif isinstance(value, list):
                setattr(node, field, [self.expr(v, pre) if isinstance(v, ast.expr) else v
                                      for v in value])
        return node

    def boolop(self, node: ast.BoolOp, pre: list[ast.stmt]) -> ast.expr:
        """``a and b``: b (and what it needs) runs only where a is true."""
        tmp = self.kir.fresh("v")
        pre.append(self.assign(tmp, self.expr(node.values[0], pre), node))
        guard = pre
        for value in node.values[1:]:
            # `a and b` goes on to b where a is true; `a or b` where a is false.
            test = ast.UnaryOp(ast.Not(), _name(tmp)) if isinstance(node.op, ast.Or) else _name(
                tmp)
            inner: list[ast.stmt] = []
            new = self.expr(value, inner)
            inner.append(self.assign(tmp, new, value))
            stmt = _locate(ast.If(test=test, body=inner, orelse=[]), value)
            guard.append(stmt)
            guard = inner
        return _locate(_name(tmp), node)

    def call(self, node: ast.Call, pre: list[ast.stmt]) -> ast.expr:
        args = [self.expr(a, pre) for a in node.args]
        devfn = node.devfn
        if isinstance(devfn, Overload):
            devfn = self.overload(devfn, args, node)
        unit = load_device_function(devfn, wave_size=self.kir.wave_size, kernel=self.kir.name,
                                    static=getattr(node, "static", None))
        separate = self.separate.call(devfn, args, node, unit)  # recursive: recursion.py
        if separate is not None:
            return separate
        args = [args[i] for i in unit.kept]
        rename = self.merge_globals(unit)
        stmts, result = inline_call(devfn, args, wave_size=self.kir.wave_size,
                                    kernel=self.kir.name, counter=self.counter,
                                    stack=self.stack, node=node, unit=unit,
                                    rename_globals=rename)
        self.stack = self.stack + (devfn,)
        try:
            pre.extend(self.block(stmts))
        finally:
            self.stack = self.stack[:-1]
        return result

    def overload(self, fn: Overload, args: list[ast.expr], node: ast.AST) -> Any:
        """The version of ``fn`` for the struct that declared its state argument."""
        state = args[fn.arg] if -len(args) <= fn.arg < len(args) else None
        decl = self.kir.arrays.get(state.id) if isinstance(state, ast.Name) else None
        impl = fn.pick(decl.struct) if decl is not None else None
        if impl is None:
            makers = " or ".join(f"{s.__name__}()" for s in fn.structs)
            which = f"argument {fn.arg + 1}" if fn.arg >= 0 else "the last argument"
            raise self.fail(node, f"{fn.__name__}(): {which} must be a state "
                            f"made in this kernel by {makers}",
                            instead=f"st = {fn.structs[0].__name__}() and pass st")
        return impl

    def merge_globals(self, unit: Any) -> dict[str, str]:
        """Add a device function's constants to the kernel's, renaming on a clash with
        another constant or with a kernel local (a kernel parameter ``offset`` would
        otherwise shadow the constant a callee's ``offset`` parameter is bound to)."""
        rename: dict[str, str] = {}
        for name, value in unit.constants.items():
            new, k = name, 1
            while new in self.kernel_locals or (
                    new in self.kir.constants and not _same(self.kir.constants[new], value)):
                k += 1
                new = f"{name}_{k}"
            self.kir.constants[new] = value
            if new != name:
                rename[name] = new
        for name, value in unit.const_arrays.items():
            self.kir.const_arrays.setdefault(name, value)
        return rename


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _locate(new: ast.AST, old: ast.AST) -> ast.AST:
    ast.copy_location(new, old)
    new.gsrc = getattr(old, "gsrc", None)
    for sub in ast.walk(new):
        if not hasattr(sub, "lineno"):
            ast.copy_location(sub, new)
    return new


def normalize(kir: KernelIR) -> None:
    """Run the pass on ``kir.func`` (in place)."""
    kir.func.body = Normalizer(kir).block(kir.func.body)
    for name, value in kir.const_arrays.items():
        kir.arrays.setdefault(name, ArrayDecl(name, "const", value.shape, value.dtype,
                                              kir.src.firstlineno, value=value))
