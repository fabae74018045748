"""``operator.add(a, b)`` and friends in kernels: the expression they stand for.

numba.cuda compiles the ``operator`` module's functions as their operators (a kernel
may receive ``operator.mul`` as a compile-time argument, see ``static_args.py``); here
they become the ``ast`` operator node, so every later pass sees ``a * b``.

>>> import ast, operator
>>> ast.unparse(operator_expression(operator.floordiv, [ast.Name("a"), ast.Name("b")]))
'a // b'
>>> operator_expression(print, []) is None
True
"""

from __future__ import annotations

import ast
import operator
from typing import Any

from gpusim.compile.passes.infer import BINOPS, CMPOPS, UNARY

# the inverse of the tables the `infer` pass types operators with
_BINARY = {fn: op for op, fn in BINOPS.items()}
_COMPARE = {fn: op for op, fn in CMPOPS.items()}
_UNARY = {**{fn: op for op, fn in UNARY.items()}, operator.not_: ast.Not}


def operator_expression(fn: Any, args: list[ast.expr]) -> ast.expr | None:
    """The expression ``fn(*args)`` spells, if ``fn`` is one of ``operator``'s, else None."""
    if fn in _BINARY and len(args) == 2:
        return ast.BinOp(args[0], _BINARY[fn](), args[1])
    if fn in _COMPARE and len(args) == 2:
        return ast.Compare(args[0], [_COMPARE[fn]()], [args[1]])
    if fn in _UNARY and len(args) == 1:
        return ast.UnaryOp(_UNARY[fn](), args[0])
    return None
