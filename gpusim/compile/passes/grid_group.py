"""``cuda.cg.this_grid()`` and ``g.sync()``: the grid group of numba.cuda (part of ``resolve``).

numba.cuda's cooperative groups give a kernel one object, the grid, whose ``sync()`` is a
barrier across every thread of the launch (a *cooperative* launch on the GPU, limited to
the blocks that fit on the device at once: ``max_cooperative_grid_blocks``).

How gpusim runs it: the emulator runs one work-group's threads region by region, between
barriers, but runs work-groups one after another on each host thread, so a barrier
across work-groups cannot be kept. A cooperative launch is therefore limited to one
work-group (``max_cooperative_grid_blocks`` says 1, as a GPU with one compute unit
would), where the grid barrier *is* the block barrier. This pass rewrites, before names
are resolved:

- ``g = cuda.cg.this_grid()`` -> ``assert gridDim.x * gridDim.y * gridDim.z == 1`` (a
  larger launch stops with hipErrorAssert at this line, instead of computing a wrong
  answer), and ``g`` is remembered as the grid group;
- ``g.sync()`` and ``cuda.cg.this_grid().sync()`` -> the block barrier ``syncthreads()``.

>>> import ast
>>> from gpusim.compile.ir import unparse
>>> fn = ast.parse("def k(a):\\n    g = cg.this_grid()\\n    a[0] = 1\\n    g.sync()").body[0]
>>> rewrite_grid_groups(fn, {"cg": type("cg", (), {"this_grid": this_grid})})
True
>>> print(unparse(fn))
def k(a):
    assert hip.gridDim.x * hip.gridDim.y * hip.gridDim.z == 1
    a[0] = 1
    hip.syncthreads()
"""

from __future__ import annotations

import ast
from typing import Any

from gpusim.compile.ir import Intrinsic
from gpusim.compile.lang import Stub

this_grid = Stub("cg.this_grid", "cuda.cg.this_grid(): the grid group; g.sync() is a barrier "
                 "across the whole launch (cooperative launches of one work-group here).")


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
            return self.one_block_check(node)
        return self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> ast.stmt:
        call = node.value
        if isinstance(call, ast.Call) and self.is_grid(call):
            return self.one_block_check(node)  # a bare this_grid()
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "sync" and not call.args and self.is_grid(call.func.value)):
            self.used = True
            barrier = ast.copy_location(Intrinsic(name="syncthreads"), call)
            barrier.gsrc = getattr(call, "gsrc", None)
            return ast.copy_location(ast.Expr(value=barrier), node)
        return self.generic_visit(node)

    def one_block_check(self, node: ast.stmt) -> ast.stmt:
        """``assert gridDim.x * gridDim.y * gridDim.z == 1`` at ``node``'s line."""
        self.used = True
        dims = [Intrinsic(name=f"gridDim.{d}") for d in "xyz"]
        total = ast.BinOp(ast.BinOp(dims[0], ast.Mult(), dims[1]), ast.Mult(), dims[2])
        check = ast.Assert(test=ast.Compare(total, [ast.Eq()], [ast.Constant(1)]), msg=None)
        for sub in ast.walk(check):
            ast.copy_location(sub, node)
            sub.gsrc = getattr(node, "gsrc", None)
        return check


def rewrite_grid_groups(fn: ast.FunctionDef, ns: dict[str, Any]) -> bool:
    """Rewrite the grid group's uses in ``fn`` (see the module docstring); True if any."""
    local = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
             and isinstance(n.ctx, ast.Store)} | {a.arg for a in fn.args.args}
    rewriter = _GridGroups(ns, local)
    fn.body = [rewriter.visit(s) for s in fn.body]
    return rewriter.used

