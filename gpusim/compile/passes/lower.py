"""Pass 6, lower: rewrite divergent control flow that holds barriers or collectives.

Only ``if`` / ``for`` / ``while`` statements that contain a barrier or wave collective and
whose condition may differ between threads are touched (``uniform.py`` marked them):

- ``if c:`` becomes ``_c1 = c`` then ``if _c1:`` -- the ``split`` pass turns the per-thread
  ``_c1`` into then/else execution masks, as the hardware's EXEC mask does;
- ``for i in range(a, b, s):`` becomes a ``while True:`` loop that keeps its own counter
  (``_r1``), tests it, assigns ``i`` and steps, so each thread leaves when its range ends;
- ``while c:`` becomes ``while True: if not c: break``.

The loops are marked ``force_divergent``: threads leave them through per-thread masks.

>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.ir import unparse
>>> from gpusim.compile.pipeline import front_end
>>> def k(out):
...     for i in range(hip.threadIdx.x):
...         hip.syncwarp()
>>> kir = front_end(k, wave_size=64, passes=("parse", "subset", "resolve", "normalize",
...                                           "uniformity", "lower"))
>>> print(unparse(kir.func.body))
_r1 = 0
_r1_stop = hip.threadIdx.x
while True:
    if not _r1 < _r1_stop:
        break
    i = _r1
    _r1 += 1
    hip.syncwarp()
"""

from __future__ import annotations

import ast

from gpusim.compile.ir import KernelIR


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _at(node: ast.AST, old: ast.AST) -> ast.AST:
    for sub in ast.walk(node):
        if not hasattr(sub, "lineno") or getattr(sub, "lineno", None) is None:
            ast.copy_location(sub, old)
        if getattr(sub, "gsrc", None) is None:
            sub.gsrc = getattr(old, "gsrc", None)
    return node


def _assign(name: str, value: ast.expr, old: ast.AST) -> ast.Assign:
    return _at(ast.Assign(targets=[_name(name, True)], value=value), old)


class Lowerer:
    """Applies the rewrites above to a statement list."""

    def __init__(self, kir: KernelIR):
        self.kir = kir

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s: ast.stmt) -> list[ast.stmt]:
        if isinstance(s, ast.If):
            s.body, s.orelse = self.block(s.body), self.block(s.orelse)
            if getattr(s, "divergent", False):
                cond = self.kir.fresh("c")
                pre = _assign(cond, s.test, s)
                s.test, s.cond = _at(_name(cond), s.test), cond
                return [pre, s]
            return [s]
        if isinstance(s, ast.For):
            s.body = self.block(s.body)
            return self.lower_for(s) if getattr(s, "divergent", False) else [s]
        if isinstance(s, ast.While):
            s.body = self.block(s.body)
            if getattr(s, "divergent", False):
                if not (isinstance(s.test, ast.Constant) and s.test.value is True):
                    stop = ast.If(test=ast.UnaryOp(ast.Not(), s.test), body=[ast.Break()],
                                  orelse=[])
                    s.body = [_at(stop, s)] + s.body
                    s.test = _at(ast.Constant(True), s)
                s.force_divergent = True
            return [s]
        return [s]

    def lower_for(self, s: ast.For) -> list[ast.stmt]:
        args = list(s.iter.args)
        start, stop, step = ([ast.Constant(0)] + args if len(args) == 1 else args)[:3] + (
            [ast.Constant(1)] if len(args) < 3 else [])
        counter = self.kir.fresh("r")
        pre = [_assign(counter, start, s), _assign(counter + "_stop", stop, s)]
        if isinstance(step, ast.Constant):
            cmp = ast.Lt() if step.value > 0 else ast.Gt()
            test: ast.expr = ast.Compare(_name(counter), [cmp], [_name(counter + "_stop")])
            step_expr: ast.expr = step
        else:
            pre.append(_assign(counter + "_step", step, s))
            step_expr = _name(counter + "_step")
            test = ast.IfExp(
                test=ast.Compare(step_expr, [ast.Gt()], [ast.Constant(0)]),
                body=ast.Compare(_name(counter), [ast.Lt()], [_name(counter + "_stop")]),
                orelse=ast.Compare(_name(counter), [ast.Gt()], [_name(counter + "_stop")]))
        head = [
            ast.If(test=ast.UnaryOp(ast.Not(), test), body=[ast.Break()], orelse=[]),
            ast.Assign(targets=[_name(s.target.id, True)], value=_name(counter)),
            ast.AugAssign(target=_name(counter, True), op=ast.Add(), value=step_expr),
        ]
        loop = ast.While(test=ast.Constant(True), body=[_at(h, s) for h in head] + s.body,
                         orelse=[])
        loop.force_divergent = loop.divergent = True
        return pre + [_at(loop, s)]


def lower(kir: KernelIR) -> None:
    """Run the pass on ``kir.func`` (in place)."""
    kir.func.body = Lowerer(kir).block(kir.func.body)
