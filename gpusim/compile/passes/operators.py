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

_BINARY = {operator.add: ast.Add, operator.sub: ast.Sub, operator.mul: ast.Mult,
           operator.truediv: ast.Div, operator.floordiv: ast.FloorDiv, operator.mod: ast.Mod,
           operator.pow: ast.Pow, operator.lshift: ast.LShift, operator.rshift: ast.RShift,
           operator.and_: ast.BitAnd, operator.or_: ast.BitOr, operator.xor: ast.BitXor}
_COMPARE = {operator.eq: ast.Eq, operator.ne: ast.NotEq, operator.lt: ast.Lt,
            operator.le: ast.LtE, operator.gt: ast.Gt, operator.ge: ast.GtE}
_UNARY = {operator.neg: ast.USub, operator.pos: ast.UAdd, operator.invert: ast.Invert,
          operator.not_: ast.Not}


def operator_expression(fn: Any, args: list[ast.expr]) -> ast.expr | None:
    """The expression ``fn(*args)`` spells, if ``fn`` is one of ``operator``'s, else None."""
    if fn in _BINARY and len(args) == 2:
        return ast.BinOp(args[0], _BINARY[fn](), args[1])
    if fn in _COMPARE and len(args) == 2:
        return ast.Compare(args[0], [_COMPARE[fn]()], [args[1]])
    if fn in _UNARY and len(args) == 1:
        return ast.UnaryOp(_UNARY[fn](), args[0])
    return None
