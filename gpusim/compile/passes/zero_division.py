"""``@cuda.jit(debug=True)``: division by zero stops the kernel with an exception.

numba.cuda compiles a debug kernel with Python's error model (``numba/cuda/compiler.py``:
``flags.error_model = 'python' if debug``), so ``x / 0``, ``x // 0`` and ``x % 0`` raise
``ZeroDivisionError`` at that thread, with numba's messages ("division by zero", "integer
division by zero", "integer modulo by zero", "modulo by zero", "complex division by
zero": ``numba/cpython/numbers.py``), and the launch reports it as a kernel ``raise``
(``tid=[..] ctaid=[..]: division by zero``). Without ``debug`` the NumPy model holds: inf,
nan or 0, and the kernel goes on. numba's own simulator raises ``FloatingPointError``
instead (it runs the kernel in NumPy with ``np.seterr(divide='raise')``), so the exception
here is both: ``KernelZeroDivisionError`` derives from ``ZeroDivisionError`` and
``FloatingPointError``, and code written for either catches it.

Each divisor in a statement run by the threads becomes ``_nonzero(d, site, _b, _t)``
(``device/devicelib.py``): ``d``, or a fault at ``site`` naming the thread. It runs after
``liveness``, when the regions are known: a region computed once for the block names
thread 0. Divisions in block-level loop bounds and conditions are not checked.

>>> import ast
>>> node = ast.parse("q = a // b").body[0].value
>>> from numba.core import types
>>> node.left.numba_type = node.right.numba_type = types.int64
>>> message(node)
'integer division by zero'
"""

from __future__ import annotations

import ast
from typing import Any

from numba.core import types

from gpusim.compile.ir import KernelIR, MathCall, Region, walk_schedule

_DIVISIONS = (ast.Div, ast.FloorDiv, ast.Mod)


class KernelZeroDivisionError(ZeroDivisionError, FloatingPointError):
    """A division by zero in a ``debug=True`` kernel (numba.cuda raises ZeroDivisionError
    on a GPU, its simulator FloatingPointError: this is both)."""


def message(node: ast.BinOp | ast.AugAssign) -> str:
    """numba's message for a division by zero of ``node``'s operand types."""
    left = getattr(node.target if isinstance(node, ast.AugAssign) else node.left,
                   "numba_type", None)
    tys = [left, getattr(node.value if isinstance(node, ast.AugAssign) else node.right,
                         "numba_type", None)]
    if any(isinstance(t, types.Complex) for t in tys):
        return "complex division by zero"
    integers = all(isinstance(t, (types.Integer, types.Boolean)) for t in tys)
    if isinstance(node.op, ast.Div):
        return "division by zero"
    what = "division" if isinstance(node.op, ast.FloorDiv) else "modulo"
    return f"integer {what} by zero" if integers else f"{what} by zero"


class _Guard(ast.NodeTransformer):
    def __init__(self, kir: KernelIR, thread: ast.expr):
        self.kir, self.thread = kir, thread

    def guarded(self, node: ast.AST, divisor: ast.expr) -> ast.expr:
        ty = getattr(divisor, "numba_type", None)
        if not isinstance(ty, types.Number | types.Boolean):
            return divisor  # (numba types every division; arrays never reach here)
        stop = ast.copy_location(ast.Pass(), node)
        stop.gsrc = getattr(node, "gsrc", None)
        stop.raises = (KernelZeroDivisionError, (message(node),))
        site = self.kir.add_site(stop, "assert")
        call = ast.copy_location(MathCall(
            qualname="nonzero", impl="nonzero", args=[divisor, ast.Constant(site),
                                                      ast.Name(id="_b", ctx=ast.Load()),
                                                      self.thread]), divisor)
        call.numba_type = ty
        return call

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, _DIVISIONS):
            node.right = self.guarded(node, node.right)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        self.generic_visit(node)
        if isinstance(node.op, _DIVISIONS):
            node.value = self.guarded(node, node.value)
        return node


def guard_divisions(kir: KernelIR) -> None:
    """Run the pass (only for ``debug=True`` kernels): every divisor checked."""
    if not kir.debug:
        return
    for region in walk_schedule(kir.schedule):
        if isinstance(region, Region):
            once = region.scalar and not region.sets_masks  # no `_t`: thread 0 reports
            thread: Any = ast.Constant(0) if once else ast.Name(id="_t", ctx=ast.Load())
            region.stmts = [_Guard(kir, thread).visit(s) for s in region.stmts]
