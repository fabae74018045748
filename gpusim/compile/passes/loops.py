"""``for`` loops over arrays, tuples, ``enumerate`` and ``zip`` (part of ``parse``).

numba.cuda kernels iterate the way Python does: ``for v in a``, ``for i, v in
enumerate(a)``, ``for i, (x, y) in enumerate(zip(a, b))``. Every later pass knows one
loop, ``for k in range(n)``, so these are rewritten into it right after parsing: an index
counts up to the length (the shortest, for ``zip``), and the loop's names are assigned
from it, one plain assignment per name.

>>> import ast
>>> tree = ast.parse("for i, (x, y) in enumerate(zip(a, b)):\\n    s += x * y")
>>> fn = ast.FunctionDef(name="k", args=ast.arguments([], [], None, [], [], None, []),
...                      body=tree.body, decorator_list=[])
>>> desugar_loops(fn, {})
>>> print(ast.unparse(fn.body[0]))
for i_idx in range(min(len(a), len(b))):
    i = i_idx
    x = a[i_idx]
    y = b[i_idx]
    s += x * y
"""

from __future__ import annotations

import ast
import builtins
from typing import Any


def _builtin(node: ast.expr, name: str, ns: dict[str, Any], local: set[str]) -> bool:
    """``node`` is a call of the builtin ``name`` (not a user's function of that name)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == name and name not in local
            and ns.get(name, getattr(builtins, name)) is getattr(builtins, name))


class _Loops(ast.NodeTransformer):
    def __init__(self, ns: dict[str, Any], local: set[str]):
        self.ns, self.local = ns, local

    def is_(self, node: ast.expr, name: str) -> bool:
        return _builtin(node, name, self.ns, self.local)

    def length_and_item(self, it: ast.expr, k: str) -> tuple[ast.expr, ast.expr]:
        """How many items ``it`` yields, and its item number ``k``."""
        if self.is_(it, "enumerate") and not it.keywords and 1 <= len(it.args) <= 2:
            n, item = self.length_and_item(it.args[0], k)
            count: ast.expr = ast.Name(k, ast.Load())
            if len(it.args) == 2:
                count = ast.BinOp(count, ast.Add(), it.args[1])
            return n, ast.Tuple([count, item], ast.Load())
        if self.is_(it, "zip") and not it.keywords and it.args:
            parts = [self.length_and_item(a, k) for a in it.args]
            n = parts[0][0] if len(parts) == 1 else ast.Call(
                ast.Name("min", ast.Load()), [p[0] for p in parts], [])
            return n, ast.Tuple([p[1] for p in parts], ast.Load())
        length = ast.Call(ast.Name("len", ast.Load()), [it], [])
        return length, ast.Subscript(it, ast.Name(k, ast.Load()), ast.Load())

    def fresh(self, target: ast.expr) -> str:
        first = next((n.id for n in ast.walk(target) if isinstance(n, ast.Name)), "item")
        name, n = f"{first}_idx", 1
        while name in self.local:
            n += 1
            name = f"{first}_idx{n}"
        self.local.add(name)
        return name

    def visit_For(self, node: ast.For) -> ast.AST:
        self.generic_visit(node)
        if self.is_(node.iter, "range") and isinstance(node.target, ast.Name):
            return node
        if isinstance(node.iter, ast.Call) and not (self.is_(node.iter, "enumerate")
                                                     or self.is_(node.iter, "zip")):
            return node  # e.g. range() into a tuple target: `subset` says what to do
        k = self.fresh(node.target)
        n, item = self.length_and_item(node.iter, k)
        head = [ast.copy_location(s, node) for s in _assign(node.target, item)]
        loop = ast.For(target=ast.Name(k, ast.Store()),
                       iter=ast.Call(ast.Name("range", ast.Load()), [n], []),
                       body=head + node.body, orelse=node.orelse)
        ast.copy_location(loop, node)
        for sub in ast.walk(loop):
            if not hasattr(sub, "lineno"):
                ast.copy_location(sub, node)
            if getattr(sub, "gsrc", None) is None and hasattr(node, "gsrc"):
                sub.gsrc = node.gsrc
        return loop


def _assign(target: ast.expr, value: ast.expr) -> list[ast.stmt]:
    """``target = value`` as assignments of single names where both are tuples."""
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(
            target.elts) == len(value.elts):
        return [s for t, v in zip(target.elts, value.elts, strict=True) for s in _assign(t, v)]
    return [ast.Assign(targets=[target], value=value)]


def _split_loop_names(fn: ast.FunctionDef, local: set[str]) -> None:
    """Give each loop its own item name where the loops share one only by spelling.

    ``for v in (a2, b2): ...`` then ``for v in (a3, b3): ...`` is two variables to Python
    and to numba (which types each definition on its own), but one to the compiler, which
    gives a variable one type. Where ``v`` is assigned only as the item of such loops (no
    two nested) and read only inside them, the second loop's ``v`` becomes ``v_2``.
    """
    loops: dict[str, list[ast.For]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and not (
                isinstance(node.iter, ast.Call) and getattr(node.iter.func, "id", "") == "range"):
            loops.setdefault(node.target.id, []).append(node)
    for name, group in loops.items():
        inside = {id(n) for loop in group for n in ast.walk(loop)}
        uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name]
        if len(group) < 2 or any(id(n) not in inside for n in uses) or any(
                isinstance(n.ctx, ast.Store) and not any(n is g.target for g in group)
                for n in uses) or any(id(g) in {id(n) for n in ast.walk(h) if n is not h}
                                      for g in group for h in group):
            continue
        for k, loop in enumerate(group[1:], start=2):
            new = f"{name}_{k}"
            while new in local:
                new += "_"
            local.add(new)
            for n in ast.walk(loop):
                if isinstance(n, ast.Name) and n.id == name:
                    n.id = new


def desugar_loops(fn: ast.FunctionDef, ns: dict[str, Any]) -> None:
    """Rewrite ``fn``'s loops over iterables into ``for k in range(n)`` (in place)."""
    local = {a.arg for a in fn.args.args} | {
        n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    _split_loop_names(fn, local)
    _Loops(ns, local).visit(fn)
