"""``raise SomeError`` / ``raise SomeError("constant")`` in kernels (part of ``parse``).

numba.cuda lets a kernel (or device function) raise an exception class, with constant
arguments only; the launch then raises that exception on the host, its message prefixed
with the raising thread (``tid=[x, y, z] ctaid=[x, y, z]: message``). (numba reports it when
the kernel is compiled with ``debug=True``; its simulator, and gpusim, always do: a
thread stopping silently is what a learner would least expect.)

The raise becomes a failing device-side assert that carries the exception: the generated
code stops the thread there as an ``assert`` does, and the launch's fault report
(``engine/faults.py``) builds the exception from the fault site.

>>> import ast
>>> fn = ast.parse("def k(x):\\n    if x:\\n        raise ValueError('bad x')").body[0]
>>> rewrite_raises(fn, {}, None)
>>> stmt = fn.body[0].body[0]
>>> ast.unparse(stmt), stmt.raises
('assert False', (<class 'ValueError'>, ('bad x',)))
"""

from __future__ import annotations

import ast
import builtins
from typing import Any

from gpusim.compile.diagnostics import SourceFile, compile_error

_CONSTANT = (str, int, float, bool, complex, type(None))


class _Raises(ast.NodeTransformer):
    def __init__(self, ns: dict[str, Any], src: SourceFile | None, local: set[str]):
        self.ns, self.src, self.local = ns, src, local

    def fail(self, node: ast.AST, msg: str) -> Exception:
        return compile_error(self.src, node, msg, construct="raise", instead=(
            "raise an exception class, or one with constant arguments: "
            "raise ValueError('x must be positive')"))

    def value(self, node: ast.expr) -> Any:
        """The module-level object ``node`` (a constant, a name or an attribute chain) names."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name) and node.id not in self.local:
            if node.id in self.ns:
                return self.ns[node.id]
            if hasattr(builtins, node.id):
                return getattr(builtins, node.id)
        if isinstance(node, ast.Attribute):
            base = self.value(node.value)
            if hasattr(base, node.attr):
                return getattr(base, node.attr)
        raise self.fail(node, f"`{ast.unparse(node)}` is computed in the kernel; a raise "
                        "takes only an exception class and constants")

    def visit_Raise(self, node: ast.Raise) -> ast.stmt:
        if node.exc is None or node.cause is not None:
            raise self.fail(node, "a bare `raise` or `raise ... from ...` is not supported "
                            "in kernels")
        call = node.exc if isinstance(node.exc, ast.Call) else None
        cls = self.value(call.func if call else node.exc)
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            raise self.fail(node, f"`{ast.unparse(node.exc)}` is not an exception class")
        if call is not None and call.keywords:
            raise self.fail(node, "keyword arguments to an exception are not supported")
        args = tuple(self.value(a) for a in (call.args if call else ()))
        if not all(isinstance(a, _CONSTANT) for a in args):
            raise self.fail(node, "an exception's arguments must be constants")
        stop = ast.copy_location(ast.Assert(test=ast.Constant(False), msg=None), node)
        ast.copy_location(stop.test, node)
        stop.gsrc = stop.test.gsrc = getattr(node, "gsrc", None)
        stop.raises = (cls, args)
        return stop


def rewrite_raises(fn: ast.FunctionDef, ns: dict[str, Any], src: SourceFile | None) -> None:
    """Replace each ``raise`` in ``fn`` by a failing assert carrying ``(class, args)``."""
    local = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
             and isinstance(n.ctx, ast.Store)} | {a.arg for a in fn.args.args}
    fn.body = [_Raises(ns, src, local).visit(s) for s in fn.body]

