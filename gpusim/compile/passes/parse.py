"""Pass 1, parse: a Python function -> its ``ast.FunctionDef`` with file line numbers.

Line and column numbers are those of the file the function lives in (the source is
dedented to parse, then shifted back), so every later message and ``# line N`` comment
points where the learner looks. Every node gets a ``gsrc`` attribute naming its
``SourceFile``: device functions inlined into a kernel keep pointing at their own file.

>>> def saxpy(a, x, out):
...     out[0] = a * x[0]
>>> fn, src = parse_function(saxpy)
>>> fn.name, [arg.arg for arg in fn.args.args]
('saxpy', ['a', 'x', 'out'])
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

from gpusim.compile.diagnostics import SourceFile, compile_error
from gpusim.compile.passes.exec_source import find_source, install
from gpusim.compile.passes.loops import desugar_loops
from gpusim.compile.passes.raises import rewrite_raises
from gpusim.errors import KernelCompileError

install()  # from now on, the text of kernels built with exec() is kept


def parse_function(pyfunc: Callable[..., Any]) -> tuple[ast.FunctionDef, SourceFile]:
    """Parse ``pyfunc``'s source; raise ``KernelCompileError`` if it cannot be read."""
    name = getattr(pyfunc, "__name__", repr(pyfunc))
    if name == "<lambda>":
        raise KernelCompileError(
            "a kernel cannot be a lambda; define it with `def` and decorate it with @hip.jit")
    try:
        lines, first = inspect.getsourcelines(pyfunc)
        filename = inspect.getsourcefile(pyfunc) or "<unknown>"
    except (OSError, TypeError) as exc:
        found = find_source(pyfunc)  # built with exec(): the text it was compiled from
        if found is None:
            raise KernelCompileError(
                f"cannot read the source of kernel '{name}' ({exc}); define it in a file or "
                "a notebook cell, or build it with exec()/compile() from source text after "
                "importing gpusim (a function made from bare bytecode has no source)") from None
        lines, first = found
        filename = pyfunc.__code__.co_filename
    first = max(first, 1)
    src = SourceFile(filename, name, lines, first)
    text = textwrap.dedent("".join(lines))
    indent = _indent_width(lines)
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:  # e.g. a decorator line that only parses in context
        raise KernelCompileError(f"cannot parse kernel '{name}': {exc}") from None
    fn = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
              None)
    if fn is None:
        raise KernelCompileError(f"cannot find the `def` of kernel '{name}' in its source")
    if isinstance(fn, ast.AsyncFunctionDef):
        raise compile_error(src, fn, "kernels cannot be `async def`", construct="async def",
                            instead="a plain `def` decorated with @hip.jit")
    for node in ast.walk(fn):
        if hasattr(node, "lineno"):
            node.lineno += first - 1
            node.col_offset += indent
            if getattr(node, "end_lineno", None) is not None:
                node.end_lineno += first - 1
                node.end_col_offset += indent
        node.gsrc = src
    fn.decorator_list = []
    desugar_loops(fn, namespace(pyfunc))  # for v in a / enumerate / zip -> range loops
    rewrite_raises(fn, namespace(pyfunc), src)  # raise E("msg") -> a stop carrying E
    return fn, src


def _indent_width(lines: list[str]) -> int:
    """Columns removed by ``textwrap.dedent`` (the function's own indentation)."""
    widths = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    return min(widths) if widths else 0


def namespace(pyfunc: Callable[..., Any]) -> dict[str, Any]:
    """The names a function body can see: its closure cells over its module globals."""
    ns = dict(getattr(pyfunc, "__globals__", {}))
    code = getattr(pyfunc, "__code__", None)
    cells = getattr(pyfunc, "__closure__", None) or ()
    if code is not None:
        for var, cell in zip(code.co_freevars, cells, strict=False):
            try:
                ns[var] = cell.cell_contents
            except ValueError:  # an empty cell: the closure variable was never assigned
                pass
    return ns
