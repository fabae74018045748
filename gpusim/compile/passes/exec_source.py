"""Source text of kernels built with ``exec()`` (part of the ``parse`` pass).

A function made by ``exec("def k(a): ...")`` has no file: ``inspect.getsource`` fails,
yet generated kernels are common (numba's own tests make 81 of them, libraries generate
one per operator). numba reads such functions from their bytecode. gpusim's front end
works on the source's AST -- line numbers, the user's names and ``# line N`` comments in
the generated code come from it -- so instead of a second front end from bytecode, it
keeps the source: Python raises the audit event ``compile`` with the text of every
string it compiles (``exec(str)``, ``compile(str, ...)``), and a hook installed when
``gpusim`` is imported remembers the recent ones whose file name is a pseudo-name such
as ``<string>``. Asked for a function's source, ``find_source`` compiles the remembered
texts of that file name again and picks the one holding a code object identical to the
function's (same name, first line, bytecode and constants), so two generated kernels
with one name are never confused.

What stays out of reach: functions built from code objects with no source text at all
(``marshal``, pickled bytecode) or exec'd before gpusim was imported; those get a
``KernelCompileError`` that says so.

>>> install()  # (done when gpusim.compile is imported)
>>> ns = {}
>>> exec("def twice(a):\\n    a[0] *= 2\\n", ns)
>>> lines, first = find_source(ns["twice"])
>>> first, lines[1].strip()
(1, 'a[0] *= 2')
"""

from __future__ import annotations

import ast
import collections
import sys
import types
from typing import Any

# (file name, text) of recently compiled strings, newest last; a few thousand at most
_RECENT: collections.OrderedDict[tuple[str, str], None] = collections.OrderedDict()
_KEEP = 4096


def _remember(event: str, args: tuple) -> None:
    """The audit hook: keep strings compiled under a pseudo file name that define code."""
    if event != "compile" or len(args) < 2:
        return
    text, filename = args[0], args[1]
    if not isinstance(filename, str) or not filename.startswith("<"):
        return
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return
    if isinstance(text, str) and "def " in text:
        _RECENT[filename, text] = None
        _RECENT.move_to_end((filename, text))
        while len(_RECENT) > _KEEP:
            _RECENT.popitem(last=False)


def install() -> None:
    """Start remembering (once per process; audit hooks cannot be removed)."""
    if not getattr(sys, "_gpusim_exec_source", False):
        sys.addaudithook(_remember)
        sys._gpusim_exec_source = True


def _same_code(a: types.CodeType, b: types.CodeType) -> bool:
    return (a.co_name == b.co_name and a.co_firstlineno == b.co_firstlineno
            and a.co_code == b.co_code and a.co_names == b.co_names
            and a.co_varnames == b.co_varnames)


def _holds(code: types.CodeType, target: types.CodeType) -> bool:
    if _same_code(code, target):
        return True
    return any(isinstance(c, types.CodeType) and _holds(c, target) for c in code.co_consts)


def find_source(pyfunc: Any) -> tuple[list[str], int] | None:
    """``(lines, first line)`` of an exec'd function, as ``inspect.getsourcelines`` gives
    for a function in a file; None if no remembered text defines it."""
    code = getattr(pyfunc, "__code__", None)
    if code is None:
        return None
    for filename, text in reversed(list(_RECENT)):  # (compiling below adds to _RECENT)
        if filename != code.co_filename:
            continue
        try:
            if not _holds(compile(text, filename, "exec", dont_inherit=True), code):
                continue
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == code.co_name:
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if first <= code.co_firstlineno <= node.lineno:
                    lines = text.splitlines(keepends=True)[first - 1:node.end_lineno]
                    return [ln if ln.endswith("\n") else ln + "\n" for ln in lines], first
    return None
