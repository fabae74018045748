"""C++ statements -> Python statements, shared by device and host code.

``for (int i = a; i < n; i += s)`` whose counter is declared in the loop and not
assigned in the body becomes ``for i in range(a, n, s)``; every other ``for`` becomes a
``while`` loop whose increment also runs before each ``continue``. ``do ... while``
becomes ``while True`` with the test at the end. ``x++`` and ``x += y`` as statements
become augmented assignments.

Side effects inside an expression (``a[n++] = v``, ``x = y = 0``, ``s[i] = v[j--]``) are
written as statements before it: ``x++`` as ``__t1 = x; x += 1`` and then ``__t1`` in
the expression, ``++x`` as ``x += 1`` and then ``x``, an assignment as itself and then
its target. That keeps C's order wherever C fixes one: the operands of ``&&``, ``||``,
``?:`` and ``,`` in order, the right side of ``=`` before the left (C++17). Where C does
not fix the order (``f(i, i++)``), or where the effect would happen only sometimes
(``a && b++``), the translation stops with an error that names the place. A loop test
with side effects (``while (n-- > 0)``) is evaluated at the top of a ``while True`` loop.
"""

from __future__ import annotations

import re

from clang.cindex import Cursor, CursorKind

from gpusim.hipcc import ctypes_map as ct
from gpusim.hipcc.clangast import children, operator, strip, value_of
from gpusim.hipcc.exprs import _PREC, Translator, py_name

K = CursorKind
_AUG = {"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}
_STEPS = ("++", "--", "post++", "post--")


class StmtTranslator(Translator):
    """Statements; subclasses add declarations (``decl``) and lvalues (``target``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.continue_prelude: list[list[tuple[str, int]]] = []
        self.temps = 0

    def temp(self, hint: str = "t") -> str:
        """A fresh name for a value kept between generated statements."""
        self.temps += 1
        return f"__{hint}{self.temps}"

    def test(self, c: Cursor) -> tuple[str, list[tuple[str, int]]]:
        """A condition's text and the statements (taken, not written) that must run
        before it each time it is evaluated (its side effects: ``while (n-- > 0)``)."""
        self.check_sequencing(c)
        mark = self.out.mark()
        text = self.expr(c)
        return text, self.out.take(mark)

    def body(self, c: Cursor) -> None:
        with self.out.indent():
            self.stmt(c)

    def stmt(self, c: Cursor) -> None:
        line = c.location.line
        kind = c.kind
        if kind == K.COMPOUND_STMT:
            for child in children(c):
                self.stmt(child)
        elif kind == K.DECL_STMT:
            for decl in children(c):
                if decl.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL):
                    continue  # `using floatx4 = ...;`: a name for a type, nothing to run
                if decl.kind != K.VAR_DECL:
                    self.fail(decl, "this declaration inside a function",
                              "declare types and functions at file level")
                self.decl(decl)
        elif kind == K.IF_STMT:
            self.if_stmt(c, "if")
        elif kind == K.FOR_STMT:
            self.for_stmt(c)
        elif kind == K.WHILE_STMT:
            cond, body = children(c)
            self.loop(cond, body, [], line)
        elif kind == K.DO_STMT:
            body, cond = children(c)
            if value_of(cond) == 0 and not _jumps(body):  # do { ... } while (0) in macros
                self.stmt(body)
                return
            text, pre = self.test(cond)
            at = cond.location.line
            end = [*pre, self.out.tagged(f"if not ({text}):", at),
                   self.out.tagged("    break", at)]
            self.out.line("while True:", line)
            self.continue_prelude.append(end)
            with self.out.indent():
                self.stmt(body)
                self.out.put(end)
            self.continue_prelude.pop()
        elif kind == K.BREAK_STMT:
            self.out.line("break", line)
        elif kind == K.CONTINUE_STMT:
            self.out.put(self.continue_prelude[-1] if self.continue_prelude else [])
            self.out.line("continue", line)
        elif kind == K.RETURN_STMT:
            kids = children(c)
            if kids:
                self.check_sequencing(kids[0])
            self.out.line(f"return {self.return_value(kids[0])}" if kids else "return", line)
        elif kind == K.NULL_STMT:
            self.out.line("pass", line)
        elif kind == K.SWITCH_STMT:
            self.fail(c, "`switch`", "an if / else if chain")
        elif kind in (K.GOTO_STMT, K.LABEL_STMT):
            self.fail(c, "`goto`", "loops with break/continue")
        elif kind in (K.ASM_STMT, K.MS_ASM_STMT):
            self.fail(c, "inline assembly (`asm`)", "C++ (gpusim emulates HIP C++, not the "
                      "GPU's instruction set)")
        elif kind == K.UNEXPOSED_STMT and len(children(c)) == 1 and \
                children(c)[0].kind in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT):
            self.stmt(children(c)[0])  # `#pragma unroll` before a loop: a hint, kept by LLVM
        else:
            self.expr_stmt(c)

    def return_value(self, c: Cursor) -> str:
        return self.expr(c)

    def if_stmt(self, c: Cursor, word: str) -> None:
        kids = children(c)
        if kids[0].kind == K.DECL_STMT:
            self.fail(c, "a declaration inside `if (...)`", "declare the variable before the if")
        text, pre = self.test(kids[0])
        if pre and word == "elif":  # the test's statements run only when it is reached
            self.out.line("else:", c.location.line)
            with self.out.indent():
                self.if_stmt(c, "if")
            return
        self.out.put(pre)
        self.out.line(f"{word} {text}:", c.location.line)
        self.body(kids[1])
        if len(kids) > 2:
            if kids[2].kind == K.IF_STMT:
                self.if_stmt(kids[2], "elif")
            else:
                self.out.line("else:", kids[2].location.line)
                self.body(kids[2])

    def loop(self, cond: Cursor | None, body: Cursor, step: list[tuple[str, int]],
             line: int) -> None:
        """``while (cond) { body; step }``; ``step`` also runs before each ``continue``.
        A test with side effects becomes ``while True:`` + its statements + ``break``."""
        text, pre = self.test(cond) if cond is not None else ("True", [])
        self.out.line(f"while {text}:" if not pre else "while True:", line)
        self.continue_prelude.append(step)
        with self.out.indent():
            if pre:
                self.out.put(pre)
                self.out.line(f"if not ({text}):", line)
                with self.out.indent():
                    self.out.line("break", line)
            self.stmt(body)
            self.out.put(step)
        self.continue_prelude.pop()

    # ---- for loops
    def _for_parts(self, c: Cursor):
        """(init, cond, inc, body): libclang lists only the parts present, so place them
        by where they start relative to the two `;` of the header."""
        tokens = list(c.get_tokens())
        semis, depth = [], 0
        for t in tokens:
            if t.spelling in ("(", "[", "{"):
                depth += 1
            elif t.spelling in (")", "]", "}"):
                depth -= 1
            elif t.spelling == ";" and depth == 1 and len(semis) < 2:  # the header's two
                semis.append(t.extent.start.offset)
        kids = children(c)
        body = kids[-1]
        parts = [None, None, None]
        for k in kids[:-1]:
            start = k.extent.start.offset
            parts[0 if start < semis[0] else 1 if start < semis[1] else 2] = k
        return (*parts, body)

    def for_stmt(self, c: Cursor) -> None:
        init, cond, inc, body = self._for_parts(c)
        line = c.location.line
        rng = self._as_range(init, cond, inc, body)
        if rng is not None:
            self.out.line(f"for {rng}:", line)
            self.continue_prelude.append([])
            self.body(body)
            self.continue_prelude.pop()
            return
        if init is not None:
            self.stmt(init)
        step: list[tuple[str, int]] = []
        if inc is not None:
            mark = self.out.mark()
            self.expr_stmt(inc)
            step = self.out.take(mark)
        self.loop(cond, body, step, line)

    def _as_range(self, init, cond, inc, body) -> str | None:
        if init is None or cond is None or inc is None or init.kind != K.DECL_STMT:
            return None
        decls = children(init)
        if len(decls) != 1 or not ct.is_int(decls[0].type) or not children(decls[0]):
            return None
        var = decls[0].spelling
        if strip(cond).kind != K.BINARY_OPERATOR or operator(strip(cond)) not in \
                ("<", "<=", ">", ">=", "!="):
            return None
        lhs, bound = children(strip(cond))
        if strip(lhs).kind != K.DECL_REF_EXPR or strip(lhs).spelling != var:
            return None
        step = self._step(inc, var)
        if step is None or _assigns(body, {var} | _names(bound)) or has_side_effects(cond) \
                or has_side_effects(init):
            return None
        op = operator(strip(cond))
        if (step > 0) != (op in ("<", "<=", "!=")) or (op == "!=" and step != 1):
            return None
        start = self.expr(children(decls[0])[-1])
        end = self.expr(bound)
        if op == "<=":
            end = f"{self.wrap(bound, 10)} + 1"
        elif op == ">=":
            end = f"{self.wrap(bound, 10)} - 1"
        args = f"{start}, {end}" + (f", {step}" if step != 1 else "")
        return f"{self.local_name(decls[0])} in range({args})"

    def _step(self, inc: Cursor, var: str) -> int | None:
        if not children(inc) or strip(children(inc)[0]).spelling != var:
            return None
        op = operator(inc)
        if op in ("++", "post++"):
            return 1
        if op in ("--", "post--"):
            return -1
        if op in ("+=", "-=") and inc.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            v = value_of(children(inc)[1])
            if isinstance(v, int) and v > 0:
                return v if op == "+=" else -v
        return None

    # ---- expression statements
    def expr_stmt(self, c: Cursor) -> None:
        line = c.location.line
        s = strip(c)
        if s.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and operator(s) == ",":
            for part in children(s):
                self.expr_stmt(part)
            return
        self.check_sequencing(s, statement=True)
        if s.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
            op = operator(s)
            if op == "=" or op in _AUG:
                lhs, rhs = children(s)
                self.assign(s, op, lhs, rhs, line)
                return
        if s.kind == K.UNARY_OPERATOR and operator(s) in _STEPS:
            (arg,) = children(s)
            self.step_var(s, arg, 1 if operator(s).endswith("++") else -1, line)
            return
        self.value_stmt(c, line)

    def value_stmt(self, c: Cursor, line: int) -> None:
        """An expression evaluated for its effects: ``f(x);``, ``(void)x;``."""
        mark = self.out.mark()
        text = self.expr(c)
        if self.out.mark() == mark or not _NAME.fullmatch(text):  # not `x` after `x = 1`
            self.out.line(text, line)

    # ---- side effects inside expressions
    def side_effect(self, c: Cursor) -> tuple[str, int]:
        line = c.location.line
        if c.kind == K.UNARY_OPERATOR:
            (arg,) = children(c)
            return self.step_value(c, arg, operator(c), line), _PREC["atom"]
        op = operator(c)
        lhs, rhs = children(c)
        if op == ",":
            self.expr_stmt(lhs)
            return self._expr(rhs)
        if has_side_effects(lhs):
            self.fail(c, "an assignment whose left side has side effects, used as a value",
                      "separate statements")
        self.assign(c, op, lhs, rhs, line)
        return self.target(lhs), _PREC["atom"]

    def step_value(self, c: Cursor, arg: Cursor, op: str, line: int) -> str:
        """``x++`` / ``++x`` as a value: the increment as a statement, then the old value
        (kept in a temporary) or the variable."""
        if ct.is_pointer(arg.type):
            self.fail(c, f"`{op.removeprefix('post')}` of a pointer used as a value",
                      "*p++ as a statement, or p[i] with a counter")
        text = self.target(arg)
        sign = "+" if op.endswith("++") else "-"
        if op.startswith("post"):
            old = self.temp()
            self.out.line(f"{old} = {text}", line)
            self.out.line(f"{text} {sign}= {self.one(arg.type)}", line)
            return old
        self.out.line(f"{text} {sign}= {self.one(arg.type)}", line)
        return text

    @staticmethod
    def one(t) -> str:
        """The 1 that ``++`` adds, in the variable's type (float32 stays float32)."""
        return {"float32": "np.float32(1.0)", "float64": "1.0"}.get(ct.dtype_name(t), "1")

    def check_sequencing(self, top: Cursor, statement: bool = False) -> None:
        """Refuse an expression that reads a variable it also changes with ``++``/``--``
        or an assignment, unless C orders the read after the change, as the generated
        statements (side effects first) do: ``&&``, ``||``, ``,``, ``?:``, or the left
        side of an assignment whose right side changes it (C++17)."""
        if not has_side_effects(top):
            return
        entries: list[tuple[tuple[int, ...], Cursor]] = []

        def walk(n: Cursor, path: tuple[int, ...]) -> None:
            entries.append((path, n))
            for i, k in enumerate(n.get_children()):
                walk(k, (*path, i))

        walk(top, ())
        mods = [(path, _lvalue_key(children(n)[0])) for path, n in entries
                if _is_side_effect(n) and (path or not statement)]
        nodes = dict(entries)
        for mpath, key in mods:
            if key is None:
                continue
            for rpath, n in entries:
                if rpath[:len(mpath) + 1] == (*mpath, 0) or _lvalue_key(n) != key \
                        or n.kind not in (K.DECL_REF_EXPR, K.MEMBER_REF_EXPR):
                    continue  # the changed variable itself
                depth = 0
                while depth < min(len(mpath), len(rpath)) and mpath[depth] == rpath[depth]:
                    depth += 1
                if depth == len(mpath):
                    continue  # read by the assignment's own right side: before it
                if _ordered(nodes[mpath[:depth]], mpath[depth], rpath[depth],
                            statement and depth == 0):
                    continue
                self.fail(n, f"reading `{key}` in the expression that changes it with "
                          "`++`, `--` or `=`", "change it in a separate statement: "
                          "a[i] = b[i]; i++;")

    def assign(self, c: Cursor, op: str, lhs: Cursor, rhs: Cursor, line: int) -> None:
        target = self.target(lhs)
        if op in ("/=", "%=") and ct.is_int(lhs.type):  # C's integer division
            b = self.wrap(rhs, _PREC["//"], right=True)
            if ct.is_unsigned(lhs.type):  # floor division is C's for unsigned values
                self.out.line(f"{target} {'//=' if op == '/=' else '%='} {b}", line)
                return
            q = f"int({target} / {b})"  # truncation toward zero
            self.out.line(f"{target} = {q if op == '/=' else f'{target} - {q} * {b}'}", line)
            return
        value = self.convert(rhs, lhs.type)[0] if op == "=" else self.expr(rhs)
        if op != "=" and ct.dtype_name(lhs.type) == "float32" and ct.is_float(rhs.type) \
                and ct.dtype_name(rhs.type) != "float32":
            value = f"np.float32({value})"
        self.out.line(f"{target} {op} {value}", line)

    def step_var(self, c: Cursor, arg: Cursor, delta: int, line: int) -> None:
        self.out.line(f"{self.target(arg)} {'+' if delta > 0 else '-'}= {self.one(arg.type)}",
                      line)

    def target(self, c: Cursor) -> str:
        return self.expr(c)

    def local_name(self, decl: Cursor) -> str:
        """The Python name of the variable ``decl`` declares."""
        return py_name(decl.spelling)

    def decl(self, c: Cursor) -> None:
        raise NotImplementedError


_NAME = re.compile(r"[A-Za-z_]\w*")


def _is_side_effect(c: Cursor) -> bool:
    if c.kind == K.UNARY_OPERATOR:
        return operator(c) in _STEPS
    if c.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
        op = operator(c)
        return op == "=" or op in _AUG
    return c.kind == K.CALL_EXPR and c.spelling == "operator="


def has_side_effects(c: Cursor | None) -> bool:
    """Whether ``c`` has ``++``, ``--`` or an assignment anywhere inside."""
    return c is not None and any(_is_side_effect(n) for n in c.walk_preorder())


def _lvalue_key(c: Cursor) -> str | None:
    """``i`` for a variable, ``v.x`` for a member of a variable; None otherwise."""
    s = strip(c)
    if s.kind == K.DECL_REF_EXPR:
        return s.spelling
    if s.kind == K.MEMBER_REF_EXPR:
        kids = children(s)
        if kids and strip(kids[0]).kind == K.DECL_REF_EXPR:
            return f"{strip(kids[0]).spelling}.{s.spelling}"
    return None


def _ordered(lca: Cursor, changed: int, read: int, top_assignment: bool) -> bool:
    """Whether C evaluates child ``read`` of ``lca`` after child ``changed``, as the
    generated statements (side effects first) do."""
    if lca.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
        op = operator(lca)
        if op in ("&&", "||", ","):
            return changed == 0 and read == 1
        if top_assignment and (op == "=" or op in _AUG):
            return changed == 1 and read == 0  # C++17: the right side first
    if lca.kind == K.CONDITIONAL_OPERATOR:
        return changed == 0
    if top_assignment and lca.kind == K.CALL_EXPR and lca.spelling == "operator=":
        return changed == 2 and read == 0
    return False


def _names(c: Cursor) -> set[str]:
    found = {c.spelling} if c.kind == K.DECL_REF_EXPR else set()
    for k in c.get_children():
        found |= _names(k)
    return found


def _assigns(c: Cursor, names: set[str]) -> bool:
    """Whether ``c`` assigns (or increments, or takes the address of) any of ``names``."""
    for node in c.walk_preorder():
        if node.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.UNARY_OPERATOR):
            op = operator(node)
            if op in ("=", "++", "--", "post++", "post--", "&") or op in _AUG:
                kids = children(node)
                if kids and strip(kids[0]).kind == K.DECL_REF_EXPR \
                        and strip(kids[0]).spelling in names:
                    return True
    return False


def _jumps(c: Cursor) -> bool:
    """Whether ``c`` has a break/continue that belongs to the loop around it."""
    for k in c.get_children():
        if k.kind in (K.BREAK_STMT, K.CONTINUE_STMT):
            return True
        if k.kind not in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.SWITCH_STMT) and _jumps(k):
            return True
    return False
