"""Enum members in comparisons (part of the ``infer`` pass).

An ``Enum`` member passed to a kernel keeps numba's type, ``EnumMember(Color, int64)``,
so the generated code compares two of them as numba does: ``a == b`` by value within one
class, ``a is b`` true only for the same class and value. A member written in the kernel
(``Color.red``) is its value, a number (``resolve``); comparing an argument with one
compares the argument's ``.value``, and ``a is Color.red`` is ``a.value == 1`` (numba
would also check the class; the constant has lost it). ``IntEnum`` members otherwise
compare with numbers as numba's ints do. ``is`` on anything else is an error: on numbers its answer
would depend on how Python boxes them.

>>> import ast, enum
>>> from numba.core import types
>>> from gpusim.compile.passes.infer import typing_context
>>> class Color(enum.Enum):
...     red = 1
>>> member = types.EnumMember(Color, types.int64)
>>> node = ast.parse("a is 1", mode="eval").body
>>> [str(t) for t in enum_operands(None, node, [member, types.int64])]
['int64', 'int64']
>>> ast.unparse(node)
'a.value == 1'
"""

from __future__ import annotations

import ast
from typing import Any

from numba.core import types

_AS_EQUALITY = {ast.Is: ast.Eq, ast.IsNot: ast.NotEq}


def _member(ty: Any) -> bool:
    return isinstance(ty, types.EnumMember)


def _plain_member(ty: Any) -> bool:
    return _member(ty) and not isinstance(ty, types.IntEnumMember)


def enum_operands(typer: Any, node: ast.Compare, tys: list) -> list:
    """The operand types of ``node`` after its Enum members are made comparable: a plain
    member compared with a number becomes ``member.value``. Raises for ``is`` on
    operands that are not Enum members."""
    operands = [node.left, *node.comparators]
    for k, op in enumerate(node.ops):
        left, right = tys[k], tys[k + 1]
        identity = isinstance(op, (ast.Is, ast.IsNot))
        member = _plain_member if not identity else _member
        if member(left) != member(right):
            m = k if member(left) else k + 1
            value = ast.copy_location(ast.Attribute(value=operands[m], attr="value",
                                                    ctx=ast.Load()), operands[m])
            value.numba_type = tys[m] = tys[m].dtype
            operands[m] = value
            if type(op) in _AS_EQUALITY:
                node.ops[k] = _AS_EQUALITY[type(op)]()
        elif identity and not _member(left):
            raise typer.fail(node, f"`is` / `is not` compare Enum members in kernels, not "
                             f"{left} and {right}", instead="== or != on numbers")
    node.left, node.comparators = operands[0], operands[1:]
    return tys
