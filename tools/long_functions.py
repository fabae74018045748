"""List the functions of gpusim/ longer than a limit, and which of them are kept on purpose.

    python tools/long_functions.py [--limit 80] [--root gpusim]

A function's length is its lines from ``def`` to its last line (decorators not counted,
its docstring and comments counted). A long function is *kept* when a comment containing
``MARKER`` ("length is its speed") sits right above it (above its decorators) or opens
its body (before its first statement, or right after its docstring): a numba kernel
whose hot loop would slow down if split. Prints one line per long function, longest
first, then the totals; the exit status is 0 either way.
"""

from __future__ import annotations

import argparse
import ast
from dataclasses import dataclass
from pathlib import Path

MARKER = "length is its speed"
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class LongFunction:
    """One function over the limit."""

    path: Path
    name: str
    line: int
    length: int
    kept: bool


def _comments(lines: list[str], start: int, step: int) -> list[str]:
    """The run of comment lines from 0-based ``start`` going ``step`` (+1 down, -1 up)."""
    found = []
    while 0 <= start < len(lines) and lines[start].lstrip().startswith("#"):
        found.append(lines[start])
        start += step
    return found


def is_kept(node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str]) -> bool:
    """Whether a comment with ``MARKER`` is right above ``node`` or opens its body."""
    top = min([node.lineno] + [d.lineno for d in node.decorator_list])
    first = node.body[0]
    near = _comments(lines, top - 2, -1) + _comments(lines, first.lineno - 2, -1)
    is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    if is_doc and first.end_lineno is not None:
        near += _comments(lines, first.end_lineno, 1)
    return any(MARKER in c for c in near)


def long_functions(root: Path, limit: int) -> list[LongFunction]:
    """The functions (methods and nested ones too) under ``root`` over ``limit`` lines."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found.append(LongFunction(path, node.name, node.lineno, length,
                                              is_kept(node, lines)))
    return sorted(found, key=lambda f: (-f.length, str(f.path), f.line))


def main(argv: list[str] | None = None) -> int:
    """Print the long functions and the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=80, help="lines allowed (default 80)")
    parser.add_argument("--root", type=Path, default=ROOT / "gpusim",
                        help="folder searched (default gpusim/)")
    args = parser.parse_args(argv)
    found = long_functions(args.root, args.limit)
    for f in found:
        where = f"{f.path.relative_to(args.root.parent)}:{f.line}"
        print(f"{f.length:5d}  {where}  {f.name}" + ("  (kept: " + MARKER + ")" if f.kept else ""))
    kept = sum(f.kept for f in found)
    print(f"{len(found)} functions over {args.limit} lines: {kept} kept, "
          f"{len(found) - kept} to split")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
