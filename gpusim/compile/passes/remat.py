"""Cheap per-thread values recomputed instead of kept (part of the ``liveness`` pass).

``tid = hip.threadIdx.x`` or ``i = hip.blockIdx.x * hip.blockDim.x + tid`` are divergent,
so by the general rule they would be stored to a per-thread array before every barrier
and loaded after it. Recomputing them from the thread's ids is cheaper and keeps the
generated code closer to what the learner wrote (``tid = _tx`` at the top of a region).

A value qualifies when it is assigned exactly once, at the top level of the kernel body
(alone, or as one name of ``a, b = x, y``)
(so that assignment happens before every use in every thread), from thread/block ids,
constants, unchanged arguments and other such values; no memory reads. A view of an
array (``sm1 = sm[0:n]``) qualifies too: it is the array's base, offset and shape.

The same knowledge lets a region whose whole body is ``if tid < n:`` loop over the first
``n`` threads only (``narrow_range``), as a hand-written emulator would.

>>> import ast
>>> from gpusim.compile.ir import Intrinsic
>>> is_thread_x(Intrinsic(name="threadIdx.x"), {})
True
"""

from __future__ import annotations

import ast
from collections import Counter

from numba.core import types

from gpusim.compile.ir import Cast, Intrinsic, KernelIR

_IDS = ("threadIdx.", "blockIdx.", "blockDim.", "gridDim.")


def rematerializable(kir: KernelIR) -> dict[str, ast.expr]:
    """``name -> defining expression`` for values cheap to recompute, in definition order."""
    counts = Counter(n.id for n in ast.walk(kir.func) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Store))
    fixed = set(kir.params) - set(kir.types)  # arguments never reassigned
    out: dict[str, ast.expr] = {}
    for s in kir.func.body:
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1):
            continue
        target, value = s.targets[0], s.value
        pairs = [(target, value)]
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(
                target.elts) == len(value.elts):  # tx, ty = hip.threadIdx.x, hip.threadIdx.y
            pairs = list(zip(target.elts, value.elts, strict=True))
        for t, v in pairs:
            if isinstance(t, ast.Name) and counts[t.id] == 1 and t.id not in kir.uniform \
                    and _pure(v, out, fixed, kir):
                out[t.id] = v
    return out


def _pure(node: ast.AST, known: dict, fixed: set[str], kir: KernelIR) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, bool))
    if isinstance(node, ast.Name):
        return node.id in known or node.id in fixed or node.id in kir.constants
    if isinstance(node, Intrinsic):
        return node.name.startswith(_IDS) or node.name in ("laneid", "warpsize", "grid",
                                                           "gridsize")
    if isinstance(node, ast.Attribute):
        return node.attr in ("shape", "size") and isinstance(node.value, ast.Name)
    # (not of a local array: generated code binds those per thread after the recomputed
    # values, so a view of one is refused after a barrier, as before)
    shared = {n for n, d in kir.arrays.items() if d.space != "local"}
    if isinstance(node, ast.Subscript) and _view_of_array(node, {*fixed, *known, *shared}):
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        bounds = [b for p in parts for b in ((p.lower, p.upper, p.step)
                                             if isinstance(p, ast.Slice) else (p,))]
        return all(b is None or _pure(b, known, fixed, kir) for b in bounds)
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Attribute) and _pure(node.value, known, fixed, kir) \
            and isinstance(node.slice, ast.Constant)
    if isinstance(node, (ast.BinOp, ast.UnaryOp, Cast)):
        return all(_pure(c, known, fixed, kir) for c in ast.iter_child_nodes(node)
                   if isinstance(c, ast.expr))
    return False


def _view_of_array(node: ast.Subscript, arrays: set[str]) -> bool:
    """``a[lo:hi]``, ``a[i, :]`` of an argument, a shared array or such a view: a view is
    its array's base, offset and shape, no memory read, so it is recomputed, not kept."""
    return (isinstance(getattr(node, "numba_type", None), types.Array)
            and isinstance(node.value, ast.Name) and node.value.id in arrays)


def needed(names: set[str], remat: dict[str, ast.expr]) -> list[str]:
    """The recomputed values ``names`` need, dependencies first."""
    want: set[str] = set()
    stack = [n for n in names if n in remat]
    while stack:
        name = stack.pop()
        if name not in want:
            want.add(name)
            stack.extend(n.id for n in ast.walk(remat[name])
                         if isinstance(n, ast.Name) and n.id in remat)
    return [n for n in remat if n in want]


def is_thread_x(node: ast.AST, remat: dict[str, ast.expr]) -> bool:
    """True if ``node`` is ``threadIdx.x`` (directly or through a recomputed variable)."""
    if isinstance(node, ast.Name) and node.id in remat:
        node = remat[node.id]
    return isinstance(node, Intrinsic) and node.name == "threadIdx.x"


def narrow_range(stmts: list[ast.stmt], remat: dict[str, ast.expr], uniform) -> tuple | None:
    """``(kind, bound)`` if the region is just ``if tid < bound:`` (or ``<=``, ``==``).

    ``uniform`` decides whether the bound is the same for the whole block. Threads outside
    the range would skip the whole body, so the loop over ``_tx`` need not visit them.
    """
    if len(stmts) != 1 or not isinstance(stmts[0], ast.If) or stmts[0].orelse:
        return None
    test = stmts[0].test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    flip = {ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Eq: ast.Eq}
    if is_thread_x(right, remat) and type(op) in flip:
        left, right, op = right, left, flip[type(op)]()
    if not is_thread_x(left, remat) or not uniform(right):
        return None
    if "int" not in str(getattr(right, "numba_type", "")):
        return None
    kind = {ast.Lt: "<", ast.LtE: "<=", ast.Eq: "=="}.get(type(op))
    return (kind, right) if kind else None


def range_text(kind: str, bound: str) -> str:
    """The ``range(...)`` of ``_tx`` for ``_tx <kind> bound``.

    >>> range_text("<", "stride"), range_text("==", "0")
    ('range(min(_bdx, stride))', 'range(0, min(_bdx, 1))')
    """
    if kind == "<":
        return f"range(min(_bdx, {bound}))"
    if kind == "<=":
        return f"range(min(_bdx, {bound} + 1))"
    if bound.isdigit():
        return f"range({bound}, min(_bdx, {int(bound) + 1}))"
    return f"range(max({bound}, 0), min(_bdx, {bound} + 1))"
