"""Compile errors that point at the user's code: file, line, column, construct, and a fix.

>>> import ast
>>> src = SourceFile("k.py", "k", ["def k(a):", "    try: pass", "    except: pass"], 1)
>>> node = ast.parse("try: pass\\nexcept: pass").body[0]
>>> node.lineno, node.col_offset = 2, 4
>>> err = compile_error(src, node, "`try` statements are not supported in kernels",
...                     instead="check the condition with an `if` first")
>>> print(err)
kernel 'k', line 2, column 5 (k.py): `try` statements are not supported in kernels
        try: pass
        ^
    Instead: check the condition with an `if` first
>>> err.lineno, err.col
(2, 5)
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass

from gpusim.errors import KernelCompileError


@dataclass(frozen=True)
class SourceFile:
    """Where a kernel or device function came from (for messages and ``# line`` comments)."""

    filename: str
    func: str
    lines: list[str]  # the whole function's source lines, as in the file
    firstlineno: int  # file line number of lines[0]

    def line_text(self, lineno: int) -> str:
        i = lineno - self.firstlineno
        return self.lines[i].rstrip("\n") if 0 <= i < len(self.lines) else ""

    def __hash__(self) -> int:
        return hash((self.filename, self.func, self.firstlineno))

    def __deepcopy__(self, memo: dict) -> SourceFile:
        return self  # immutable in practice; AST copies share it


# Jupyter compiles each cell into a temporary file named after the kernel process.
_NOTEBOOK_CELL = re.compile(r"[/\\]ipykernel_\d+[/\\]\d+\.py$")


def shown_filename(filename: str) -> str:
    """How a kernel's file is named in messages: "notebook cell" for Jupyter's temporary
    cell files (whose names change every session), the path otherwise.

    >>> shown_filename("/tmp/ipykernel_4242/3002312983.py"), shown_filename("k.py")
    ('notebook cell', 'k.py')
    """
    return "notebook cell" if _NOTEBOOK_CELL.search(filename) else filename


def source_label(filename: str) -> str:
    """The kernel's file as the generated module names it: "notebook cell" or the file's
    base name. Never a path that changes between sessions (Jupyter's cell files live in
    ``/tmp/ipykernel_<PID>/``), since the module's text is its disk-cache key.

    >>> source_label("/tmp/ipykernel_4242/3002312983.py"), source_label("/home/me/k.py")
    ('notebook cell', 'k.py')
    """
    shown = shown_filename(filename)
    return shown if shown != filename else os.path.basename(filename) or filename


def compile_error(src: SourceFile, node: ast.AST | None, message: str, *,
                  construct: str = "", instead: str = "",
                  kernel: str | None = None) -> KernelCompileError:
    """A ``KernelCompileError`` naming the place of ``node`` in ``src``.

    The error carries ``lineno``, ``col`` (1-based), ``filename``, ``construct`` and
    ``kernel`` attributes so tools and tests need not parse the message.
    """
    src = getattr(node, "gsrc", None) or src
    lineno = getattr(node, "lineno", src.firstlineno) if node is not None else src.firstlineno
    col = getattr(node, "col_offset", 0) + 1 if node is not None else 1
    name = kernel or src.func
    where = f"kernel '{name}', line {lineno}, column {col} ({shown_filename(src.filename)})"
    if kernel and src.func != kernel:
        where += f", in device function '{src.func}'"
    text = src.line_text(lineno)
    parts = [f"{where}: {message}"]
    if text:
        parts.append("    " + text)
        parts.append("    " + " " * (col - 1) + "^")
    if instead:
        parts.append(f"    Instead: {instead}")
    err = KernelCompileError("\n".join(parts))
    err.lineno, err.col, err.filename = lineno, col, src.filename
    err.construct, err.kernel = construct, name
    return err
