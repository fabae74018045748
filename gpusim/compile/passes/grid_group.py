"""``cuda.cg.this_grid()`` and ``g.sync()``: the grid group of numba.cuda (part of ``resolve``).

numba.cuda's cooperative groups give a kernel one object, the grid, whose ``sync()`` is a
barrier across every thread of the launch (a *cooperative* launch on the GPU, limited to
the blocks that fit on the device at once: ``max_cooperative_grid_blocks``).

This pass rewrites, before names are resolved:

- ``g = cuda.cg.this_grid()`` (or a bare ``this_grid()``) -> nothing; ``g`` is remembered
  as the grid group (the object has no other use in numba.cuda kernels);
- ``g.sync()`` and ``cuda.cg.this_grid().sync()`` -> the ``sync_grid`` barrier. The
  schedule is cut there as at a block barrier (``split``); the code generator then runs
  each *grid phase* (the code between two grid syncs) for every work-group before the
  next phase starts (``codegen/cooperative.py``);
- (``exit_early``, on the kernel after ``resolve``) a kernel that ends with
  ``if cond: ... g.sync() ...`` -> ``if not cond: return`` and the branch's body. A
  thread that skips the branch has nothing left to do but exit, and an exited thread no
  longer takes part in a barrier (on AMD hardware an ended wave leaves ``s_barrier``;
  CUDA's grid sync waits for the threads that have not exited), so numba.cuda's
  ``sessionize`` example, whose grid sync sits in such a branch, is not a divergent
  barrier.

>>> import ast
>>> from gpusim.compile.ir import unparse
>>> src = "def k(a):\\n    g = cg.this_grid()\\n    a[0] = 1\\n    if a[1]:\\n        g.sync()"
>>> fn = ast.parse(src).body[0]
>>> rewrite_grid_groups(fn, {"cg": type("cg", (), {"this_grid": this_grid})})
True
>>> fn.body = exit_early(fn.body)
>>> print(unparse(fn))
def k(a):
    pass
    a[0] = 1
    if not a[1]:
        return
    hip.sync_grid()
"""

from __future__ import annotations

import ast
from typing import Any

from gpusim.compile.ir import Intrinsic
from gpusim.compile.lang import Stub

this_grid = Stub("cg.this_grid", "cuda.cg.this_grid(): the grid group; g.sync() is a barrier "
                 "across the whole (cooperative) launch.")


class _GridGroups(ast.NodeTransformer):
    def __init__(self, ns: dict[str, Any], local: set[str]):
        self.ns, self.local, self.groups, self.used = ns, local, set(), False

    def names_this_grid(self, node: ast.expr) -> bool:
        """``node`` (a name or attribute chain, not a local) is the ``this_grid`` stub."""
        chain = []
        while isinstance(node, ast.Attribute):
            chain.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id in self.local or node.id not in self.ns:
            return False
        value = self.ns[node.id]
        for attr in reversed(chain):
            value = getattr(value, attr, None)
        return value is this_grid

    def is_grid(self, node: ast.expr) -> bool:
        """``node`` is the grid group: a remembered name, or a this_grid() call."""
        if isinstance(node, ast.Name):
            return node.id in self.groups
        return (isinstance(node, ast.Call) and not node.args
                and self.names_this_grid(node.func))

    def visit_Assign(self, node: ast.Assign) -> ast.stmt:
        if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call) and self.is_grid(node.value)):
            self.groups.add(node.targets[0].id)
            self.used = True
            return ast.copy_location(ast.Pass(), node)
        return self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> ast.stmt:
        call = node.value
        if isinstance(call, ast.Call) and self.is_grid(call):
            return ast.copy_location(ast.Pass(), node)  # a bare this_grid()
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "sync" and not call.args and self.is_grid(call.func.value)):
            self.used = True
            barrier = ast.copy_location(Intrinsic(name="sync_grid"), call)
            barrier.gsrc = getattr(call, "gsrc", None)
            return ast.copy_location(ast.Expr(value=barrier), node)
        return self.generic_visit(node)


def _syncs_grid(stmts: list[ast.stmt]) -> bool:
    return any(isinstance(n, Intrinsic) and n.name == "sync_grid"
               for s in stmts for n in ast.walk(s))


def exit_early(body: list[ast.stmt]) -> list[ast.stmt]:
    """``[..., if c: A (grid sync in A) else: B]`` -> ``[..., if not c: B; return, A]``.

    Only for the kernel's own body (after ``resolve``): at the end of a device function the
    threads that skip the branch go on with the caller's code.
    """
    while body and isinstance(body[-1], ast.If) and _syncs_grid(body[-1].body) \
            and not _syncs_grid(body[-1].orelse):
        last = body[-1]
        leave = ast.copy_location(ast.Return(value=None), last)
        test = ast.copy_location(ast.UnaryOp(op=ast.Not(), operand=last.test), last.test)
        skip = ast.copy_location(ast.If(test=test, body=[*last.orelse, leave], orelse=[]), last)
        body = body[:-1] + [skip] + last.body
    return body


def rewrite_grid_groups(fn: ast.FunctionDef, ns: dict[str, Any]) -> bool:
    """Rewrite the grid group's uses in ``fn`` (see the module docstring); True if any."""
    local = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
             and isinstance(n.ctx, ast.Store)} | {a.arg for a in fn.args.args}
    rewriter = _GridGroups(ns, local)
    fn.body = [rewriter.visit(s) for s in fn.body]
    return rewriter.used
