"""Advice for an out-of-bounds fault that fits the code around the access.

"Guard the access with an `if`" fixes a thread that computes one index past the data.
It does not fix an index that a loop walks past the end, nor a negative index; those
get advice about the loop's condition or range, or about the lower end, naming the
loop's line. The kernel's own source lines (``CompiledKernel.source_lines``) are parsed
again here: the compiler's IR has been rewritten by then.

>>> src = ["def k(a, n):", "    i = 0", "    while i <= n:", "        a[i] = 0", "        i += 1"]
>>> print(bounds_advice(src, 1, line=4, array="a", value=8, limit=8)[:80])
The index is advanced by the `while` loop at line 3 (`while i <= n:`), which ran
"""

from __future__ import annotations

import ast
import textwrap

GUARD = ("Guard the access with an `if` on the index (e.g. `if i < a.shape[0]:`).")


def _loops_around(tree: ast.AST, line: int) -> list[ast.stmt]:
    """The ``for``/``while`` statements whose body holds ``line``, innermost last."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While)) and node.body:
            if node.body[0].lineno <= line <= (node.end_lineno or line):
                found.append(node)
    return sorted(found, key=lambda n: n.lineno)


def bounds_advice(source_lines: list[str], firstlineno: int, *, line: int, array: str,
                  value: int, limit: int) -> str:
    """What to do about index ``value`` of ``array`` (size ``limit``) at file ``line``."""
    if value < 0:
        return (f"The index is negative: a kernel does not wrap around like Python lists "
                f"do. Check the lower end too (e.g. `if 0 <= j < {array}.shape[0]:`, or "
                f"`if i > 0:` before using `i - 1`).")
    try:
        tree = ast.parse(textwrap.dedent("".join(ln if ln.endswith("\n") else ln + "\n"
                                                 for ln in source_lines)))
    except SyntaxError:
        return GUARD
    loops = _loops_around(tree, line - firstlineno + 1)
    if not loops:
        return GUARD
    loop = loops[-1]
    at = loop.lineno + firstlineno - 1
    head = source_lines[loop.lineno - 1].strip() if loop.lineno <= len(source_lines) else ""
    if isinstance(loop, ast.While):
        return (f"The index is advanced by the `while` loop at line {at} (`{head}`), which "
                f"ran past the end of '{array}': make its condition stop at the array's size "
                f"(e.g. `i < {array}.shape[0]`); an `if` around the access alone would hide a "
                "loop that does extra iterations.")
    return (f"The access is in the `for` loop at line {at} (`{head}`): make the loop's range "
            f"end at the array's size (e.g. `range(start, {array}.shape[0], step)`), or guard "
            "the access with an `if` on the index.")
