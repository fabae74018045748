"""Warp-size-32 assumptions in numba.cuda / gpusim.hip Python kernels (see warp.py).

The same checks and messages as for C++, on ``ast`` nodes: literals 32/31 in a statement
that calls a wave intrinsic (or 16 in the loop around it, or just before that loop),
full 32-bit masks, lane/warp indices computed with 32, and arithmetic on warpsize.

>>> import ast
>>> tree = ast.parse("v += cuda.shfl_down_sync(0xffffffff, v, 16)")
>>> [f.message[:40] for f in check_python(tree, {"cuda"})]
['wave64: cuda.shfl_down_sync with mask 0x']
"""

from __future__ import annotations

import ast

from gpusim.hipify.report import Finding
from gpusim.hipify.warp import (
    FULL_32_BIT_MASK,
    HALF_WARP,
    LANE_INDEX,
    REDUCES,
    SHUFFLES,
    VOTES,
    WARPSIZE_ARITHMETIC,
    literal_message,
    mask_message,
)

INTRINSICS = SHUFFLES | VOTES | {f"{n}_sync" for n in SHUFFLES | VOTES | REDUCES} | {
    "syncwarp", "laneid"}
LANE_OPS = {(ast.Mod, 32): "%", (ast.FloorDiv, 32): "//", (ast.BitAnd, 31): "&",
            (ast.RShift, 5): ">>"}


def _module_attr(node: ast.AST, aliases: set[str], names: set[str]) -> str | None:
    """``cuda.shfl_down_sync`` -> "cuda.shfl_down_sync" when it is one of ``names``."""
    if isinstance(node, ast.Attribute) and node.attr in names:
        owner = ast.unparse(node.value)
        if owner in aliases:
            return f"{owner}.{node.attr}"
    return None


def _ints(node: ast.AST) -> list[ast.Constant]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Constant)
            and type(n.value) is int]


def _statements_with_loops(tree: ast.AST):
    """Each simple statement with the loops around it and the statement before each."""
    def walk(body: list[ast.stmt], loops: list[tuple[ast.AST, ast.AST | None]]):
        for i, stmt in enumerate(body):
            previous = body[i - 1] if i else None
            if isinstance(stmt, ast.For | ast.While):
                header = stmt.iter if isinstance(stmt, ast.For) else stmt.test
                yield header, loops
                yield from walk(stmt.body, [*loops, (header, previous)])
                yield from walk(stmt.orelse, loops)
            elif isinstance(stmt, ast.If | ast.With | ast.Try):
                if isinstance(stmt, ast.If):
                    yield stmt.test, loops
                for field in ("body", "orelse", "finalbody"):
                    yield from walk(getattr(stmt, field, []), loops)
                for handler in getattr(stmt, "handlers", []):
                    yield from walk(handler.body, loops)
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                yield from walk(stmt.body, [])
            else:
                yield stmt, loops
    yield from walk(tree.body, [])


def check_python(tree: ast.Module, aliases: set[str]) -> list[Finding]:
    """Wave64 findings for a parsed Python module whose kernel module names are ``aliases``."""
    findings: dict[tuple[int, str], Finding] = {}

    def flag(node: ast.AST, message: str) -> None:
        findings.setdefault((node.lineno, message),
                            Finding(node.lineno, "warp", ast.unparse(node), message))

    for stmt, loops in _statements_with_loops(tree):
        calls = [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]
        used = [name for n in calls if (name := _module_attr(n.func, aliases, INTRINSICS))]
        used += [name for n in ast.walk(stmt) if (name := _module_attr(n, aliases, {"laneid"}))]
        masks = set()
        for call in calls:
            name = _module_attr(call.func, aliases, INTRINSICS)
            if name and name.endswith("_sync") and call.args and isinstance(
                    call.args[0], ast.Constant) and call.args[0].value == FULL_32_BIT_MASK:
                flag(call.args[0], mask_message(name, "hip.activemask(), or HIP's form "
                                                      "without a mask, e.g. hip.shfl_down(v, d)"))
                masks.add(id(call.args[0]))
        if used:
            for const in _ints(stmt):
                message = literal_message(const.value, f"next to {used[0]}")
                if message and id(const) not in masks:
                    flag(const, message)
            for header, previous in loops:
                for part in (header, previous):
                    for const in _ints(part) if part is not None else []:
                        message = HALF_WARP if const.value == 16 else literal_message(
                            const.value, f"in a loop around {used[0]}")
                        if message:
                            flag(const, message)
        for node in ast.walk(stmt):
            if not isinstance(node, ast.BinOp):
                continue
            right = node.right
            op = isinstance(right, ast.Constant) and LANE_OPS.get((type(node.op), right.value))
            if op and any(_module_attr(n, aliases, {"threadIdx", "laneid"}) or (
                    isinstance(n, ast.Call) and _module_attr(n.func, aliases, {"grid"}))
                    for n in ast.walk(node.left)):
                flag(right, LANE_INDEX.format(op=f"{op} {right.value}"))
            elif any(_module_attr(side, aliases, {"warpsize"}) for side in (node.left, right)):
                flag(node, WARPSIZE_ARITHMETIC)
    return sorted(findings.values(), key=lambda f: f.line)
