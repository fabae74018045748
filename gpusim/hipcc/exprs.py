"""C++ expressions -> Python expressions, the part device and host code share.

A ``Translator`` walks clang's typed AST of one function. Subclasses (``device``,
``host``) decide what names, pointers, calls and declarations become; this file owns
operators, literals, conversions and casts, written so the Python keeps C's meaning:
``float`` arithmetic stays float32 (``np.float32(...)``), signed integer ``/`` and ``%``
truncate toward zero as in C, ``&&`` is ``and``.
"""

from __future__ import annotations

import keyword
import re
from pathlib import PurePath

import numpy as np
from clang.cindex import Cursor, CursorKind

from gpusim.hipcc import ctypes_map as ct
from gpusim.hipcc.clangast import children, operator, strip, value_of
from gpusim.hipcc.emit import Emitter, unsupported

K = CursorKind
# Python precedence, low to high: what needs parentheses around a sub-expression.
_PREC = {"if": 1, "or": 2, "and": 3, "not": 4, "cmp": 5, "|": 6, "^": 7, "&": 8, "<<": 9,
         ">>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "//": 11, "%": 11, "unary": 12,
         "atom": 14}
_CMP = {"<", ">", "<=", ">=", "==", "!="}
_RENAMED = {"range", "len", "min", "max", "abs", "print", "int", "float", "bool", "hip", "np",
            "math", "str", "list", "sum", "round", "pow", "type", "id", "input", "exit"}
_IDENT = re.compile(r"[A-Za-z_]\w*")


def py_name(name: str) -> str:
    """A C identifier as a Python name (Python keywords and builtins get a ``_``)."""
    return name + "_" if keyword.iskeyword(name) or name in _RENAMED else name


def float_literal(value: float, dtype: str) -> str:
    """A C float literal as Python: ``0.1f`` -> ``np.float32(0.1)`` (float32's shortest
    spelling), ``0.1`` -> ``0.1``."""
    if dtype == "float32":
        return f"np.float32({np.float32(value)!s})"
    return repr(float(value))


class Translator:
    """Shared expression rules; ``out`` collects the lines, ``constants`` are the
    ``#define`` names the module defines."""

    def __init__(self, out: Emitter, constants: dict[str, str]):
        self.out = out
        self.constants = constants
        self.conditional = 0  # inside a part C evaluates only sometimes (`b` of `a && b`)

    def fail(self, cursor: Cursor, what: str, instead: str = ""):
        """Stop at ``cursor``: ``what`` is not supported, ``instead`` says what to write.
        The message starts ``line N, column C (file.hip):``, as the kernel compiler's do."""
        err = unsupported(cursor, what, instead, self.out.cpp_lines)
        where = cursor.location.file
        if where is not None:
            head, colon, rest = err.args[0].partition(":")
            err.args = (f"{head} ({PurePath(where.name).name}){colon}{rest}",)
        raise err

    # ---- entry points
    def expr(self, c: Cursor) -> str:
        return self._expr(c)[0]

    def _expr(self, c: Cursor) -> tuple[str, int]:
        handler = getattr(self, "x_" + c.kind.name.lower(), None)
        if handler is None:
            self.fail(c, f"this expression ({c.kind.name.lower().replace('_', ' ')})",
                      "plain arithmetic, comparisons, array indexing and function calls")
        result = handler(c)
        return result if isinstance(result, tuple) else (result, _PREC["atom"])

    def wrap(self, c: Cursor, prec: int, right: bool = False) -> str:
        text, p = self._expr(c)
        return f"({text})" if p < prec or (right and p == prec) else text

    # ---- literals and names
    def _macro_name(self, c: Cursor, negative: bool = False) -> str | None:
        """A ``#define`` constant written at this literal's place, to keep its name.

        ``#define X -99`` expands to ``-`` applied to ``99``, both at ``X``'s place: the
        name then stands for the minus (``negative``), never for the bare literal, which
        would be negated twice."""
        loc = c.location
        if loc.file is None or not 0 < loc.line <= len(self.out.cpp_lines):
            return None
        m = _IDENT.match(self.out.cpp_lines[loc.line - 1], loc.column - 1)
        if not m or m.group() not in self.constants:
            return None
        return py_name(m.group()) if self.constants[m.group()].startswith("-") == negative \
            else None

    def x_integer_literal(self, c: Cursor) -> str:
        return self._macro_name(c) or str(value_of(c))

    def x_floating_literal(self, c: Cursor) -> str:
        return self._macro_name(c) or float_literal(value_of(c), ct.dtype_name(c.type))

    def x_cxx_bool_literal_expr(self, c: Cursor) -> str:
        return "True" if value_of(c) else "False"

    def x_character_literal(self, c: Cursor) -> str:
        return str(value_of(c))

    def x_unary_expr(self, c: Cursor) -> str:  # sizeof / alignof
        v = value_of(c)
        if v is None:
            self.fail(c, "this sizeof/alignof", "sizeof(type) of a scalar type")
        return str(v)

    x_cxx_unary_expr = x_unary_expr

    def x_paren_expr(self, c: Cursor) -> tuple[str, int]:
        return self._expr(children(c)[0])

    # ---- conversions
    def x_unexposed_expr(self, c: Cursor) -> tuple[str, int]:
        kids = children(c)
        if len(kids) != 1:
            self.fail(c, "this expression", "simpler C: scalars, pointers and arrays")
        return self.convert(kids[0], c.type)

    def convert(self, c: Cursor, to) -> tuple[str, int]:
        """``c`` converted to type ``to`` with C's rules, written only where Python's
        arithmetic would otherwise differ (int -> float32, float -> int, double -> float)."""
        src, dst = ct.dtype_name(c.type), ct.dtype_name(to)
        if src is None or dst is None or src == dst:
            return self._expr(c)
        inner = strip(c)
        if dst == "bool_":  # C's && || ! ?: test against zero and give 0/1, not the operand
            return f"{self.wrap(c, _PREC['cmp'] + 1)} != 0", _PREC["cmp"]
        if "float16" in (src, dst):  # __half (_Float16)
            return self.half_convert(c, inner, dst), _PREC["atom"]
        if dst.startswith("float") and not src.startswith("float"):
            v = value_of(inner) if inner.kind in (K.INTEGER_LITERAL,) else None
            if v is not None and not self._macro_name(inner):
                return float_literal(v, dst), _PREC["atom"]
            return (f"np.float32({self.expr(c)})", _PREC["atom"]) if dst == "float32" else \
                self._expr(c)
        if dst == "float32" and src == "float64":
            if inner.kind == K.FLOATING_LITERAL and not self._macro_name(inner):
                return float_literal(value_of(inner), dst), _PREC["atom"]
            return f"np.float32({self.expr(c)})", _PREC["atom"]
        if src.startswith("float") and not dst.startswith("float"):
            return f"np.{dst}({self.expr(c)})", _PREC["atom"]
        return self._expr(c)

    def half_convert(self, c: Cursor, inner: Cursor, dst: str) -> str:
        """``c`` converted to or from float16, always written out: the kernel language
        keeps float16 arithmetic only where both operands are float16 (``h * 2`` would
        be float64), and ``np.float16(x)`` rounds once, to nearest even, as C does. A
        literal that float16 holds exactly is written as that value (``np.float16(1.0)``)."""
        if dst == "float16" and inner.kind in (K.INTEGER_LITERAL, K.FLOATING_LITERAL) and \
                not self._macro_name(inner):
            v = value_of(inner)
            if float(np.float16(v)) == v:
                return f"np.float16({float(v)!r})"
        return f"np.{dst}({self.expr(c)})"

    def cast(self, c: Cursor) -> tuple[str, int]:
        kids = [k for k in children(c) if k.kind != K.TYPE_REF]
        if ct.dtype_name(c.type) is None:
            return self.pointer_cast(c, kids[-1])
        dst = ct.dtype_name(c.type)
        if ct.dtype_name(kids[-1].type) is None and not ct.is_pointer(kids[-1].type):
            self.fail(c, f"converting a `{kids[-1].type.spelling}` to `{c.type.spelling}`",
                      "casts between numbers; a __bf16 is a bit pattern here (copy it, or "
                      "pass it to an MFMA builtin), a vector is converted element by element")
        if ct.dtype_name(kids[-1].type) == dst:
            return self._expr(kids[-1])
        if dst == "bool_":
            return f"({self.expr(kids[-1])}) != 0", _PREC["cmp"]
        return f"np.{dst}({self.expr(kids[-1])})", _PREC["atom"]

    x_cstyle_cast_expr = x_cxx_functional_cast_expr = x_cxx_static_cast_expr = cast

    def pointer_cast(self, c: Cursor, inner: Cursor) -> tuple[str, int]:
        return self._expr(inner)

    # ---- operators
    def x_binary_operator(self, c: Cursor) -> tuple[str, int]:
        op = operator(c)
        lhs, rhs = children(c)
        if op in ("=", ",") or op.endswith("=") and op not in _CMP:
            return self.side_effect(c)
        if ct.is_pointer(lhs.type) or ct.is_pointer(rhs.type):
            return self.pointer_binary(c, op, lhs, rhs)
        if op in ("&&", "||"):
            word = "and" if op == "&&" else "or"
            p = _PREC[word]
            left = self.wrap(lhs, p)
            right = self.guarded(rhs, f"the right side of `{op}`", p + 1)
            return f"{left} {word} {right}", p
        if op in _CMP:
            p = _PREC["cmp"]
            return f"{self.wrap(lhs, p + 1)} {op} {self.wrap(rhs, p + 1)}", p
        if op in ("/", "%") and ct.is_int(c.type):
            return self.int_divide(op, lhs, rhs, c.type)
        p = _PREC[op]
        return f"{self.wrap(lhs, p)} {op} {self.wrap(rhs, p, right=True)}", p

    def int_divide(self, op: str, lhs: Cursor, rhs: Cursor, t) -> tuple[str, int]:
        """C's integer division truncates toward zero; Python's ``//`` floors. They agree
        when both sides are unsigned, so only signed division pays for the exact form
        (exact for |values| < 2**53, all a kernel indexes with)."""
        a, b = self.wrap(lhs, _PREC["-"]), self.wrap(rhs, _PREC["//"], right=True)
        if ct.is_unsigned(t):
            left = self.wrap(lhs, _PREC["//"])
            return f"{left} {'//' if op == '/' else '%'} {b}", _PREC["//"]
        if op == "/":
            q = f"{self.wrap(lhs, _PREC['/'])} / {self.wrap(rhs, _PREC['/'], right=True)}"
            return f"int({q})", _PREC["atom"]
        q = f"int({self.wrap(lhs, _PREC['/'])} / {b})"
        return f"{a} - {q} * {b}", _PREC["-"]

    def x_unary_operator(self, c: Cursor) -> tuple[str, int]:
        op = operator(c)
        (arg,) = children(c)
        if op in ("++", "--", "post++", "post--"):
            return self.side_effect(c)
        if op == "*":
            return self.deref(c, arg), _PREC["atom"]
        if op == "&":
            self.fail(c, "taking an address here", "pass the array and an index")
        if op == "!":
            return f"not {self.wrap(arg, _PREC['not'])}", _PREC["not"]
        if op == "-" and strip(arg).kind in (K.INTEGER_LITERAL, K.FLOATING_LITERAL):
            name = self._macro_name(c, negative=True)
            if name:
                return name, _PREC["atom"]
        return f"{op}{self.wrap(arg, _PREC['unary'])}", _PREC["unary"]

    def x_conditional_operator(self, c: Cursor) -> tuple[str, int]:
        cond, a, b = children(c)
        p = _PREC["if"]
        test = self.wrap(cond, p + 1)
        yes = self.guarded(a, "a branch of `?:`", p + 1)
        no = self.guarded(b, "a branch of `?:`", p)
        return f"{yes} if {test} else {no}", p

    def x_compound_assignment_operator(self, c: Cursor) -> tuple[str, int]:
        return self.side_effect(c)

    def guarded(self, c: Cursor, where: str, prec: int) -> str:
        """``c`` (wrapped for ``prec``) where C evaluates it only sometimes: it may not
        need statements of its own (``x++``, an assignment) before the expression."""
        mark = self.out.mark()
        self.conditional += 1
        try:
            text = self.wrap(c, prec)
        finally:
            self.conditional -= 1
        if self.out.mark() != mark:
            self.out.take(mark)
            self.fail(c, f"`++`, `--` or an assignment in {where}",
                      "an if statement: if (a) { b++; }")
        return text

    def side_effect(self, c: Cursor) -> tuple[str, int]:
        """``x++``, ``x = y``, ``a, b`` used as a value (``StmtTranslator`` writes them
        as statements before the expression)."""
        self.fail(c, "an assignment or `++`/`--` inside an expression",
                  "a separate statement: i += 1")

    # ---- hooks the device and host translators fill in
    def pointer_binary(self, c: Cursor, op: str, lhs: Cursor, rhs: Cursor):
        self.fail(c, "pointer arithmetic here", "index the array: a[i + k]")

    def deref(self, c: Cursor, arg: Cursor) -> str:
        self.fail(c, "dereferencing here", "index the array: a[i]")
