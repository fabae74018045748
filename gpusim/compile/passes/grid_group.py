"""The grid group of a cooperative launch: ``g = cuda.cg.this_grid()`` (numba.cuda) or
``hip.cg.this_grid()``, and ``g.sync()`` (part of ``resolve``).

A grid group's ``sync()`` is a barrier across every thread of the launch (a *cooperative*
launch on the GPU, limited to the blocks that fit on the device at once:
``max_cooperative_grid_blocks``).

``passes/groups.py`` rewrites, before names are resolved, every cooperative group
(``rewrite_grid_groups`` is its ``rewrite_groups``); for the grid:

- ``g = cuda.cg.this_grid()`` (or a bare ``this_grid()``) -> nothing; ``g`` is remembered
  as the grid group;
- ``g.sync()`` and ``cuda.cg.this_grid().sync()`` -> the ``sync_grid`` barrier. The
  schedule is cut there as at a block barrier (``split``); the code generator then runs
  each *grid phase* (the code between two grid syncs) for every work-group before the
  next phase starts (``codegen/cooperative.py``).

This module adds (``exit_early``, on the kernel after ``resolve``): a kernel that ends
with ``if cond: ... g.sync() ...`` -> ``if not cond: return`` and the branch's body. A
thread that skips the branch has nothing left to do but exit, and an exited thread no
longer takes part in a barrier (on AMD hardware an ended wave leaves ``s_barrier``;
CUDA's grid sync waits for the threads that have not exited), so numba.cuda's
``sessionize`` example, whose grid sync sits in such a branch, is not a divergent
barrier.

>>> import ast
>>> from gpusim.compile.ir import unparse
>>> from gpusim.compile.passes.parse import parse_function
>>> cg = type("cg", (), {"this_grid": this_grid})
>>> def k(a):
...     g = cg.this_grid()
...     a[0] = 1
...     if a[1]:
...         g.sync()
>>> fn, _ = parse_function(k)
>>> rewrite_grid_groups(fn, {"cg": cg})
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

from gpusim.compile.ir import Intrinsic
from gpusim.compile.lang_cg import this_grid
from gpusim.compile.passes.groups import rewrite_groups as rewrite_grid_groups

__all__ = ["this_grid", "rewrite_grid_groups", "exit_early"]


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
