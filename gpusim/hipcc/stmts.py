"""C++ statements -> Python statements, shared by device and host code.

``for (int i = a; i < n; i += s)`` whose counter is declared in the loop and not
assigned in the body becomes ``for i in range(a, n, s)``; every other ``for`` becomes a
``while`` loop whose increment also runs before each ``continue``. ``do ... while``
becomes ``while True`` with the test at the end. ``x++`` and ``x += y`` as statements
become augmented assignments.
"""

from __future__ import annotations

from clang.cindex import Cursor, CursorKind

from gpusim.hipcc import ctypes_map as ct
from gpusim.hipcc.clangast import children, operator, strip, value_of
from gpusim.hipcc.exprs import Translator, py_name

K = CursorKind
_AUG = {"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}


class StmtTranslator(Translator):
    """Statements; subclasses add declarations (``decl``) and lvalues (``target``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.continue_prelude: list[list[tuple[str, int]]] = []

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
            self.out.line(f"while {self.expr(cond)}:", line)
            self.continue_prelude.append([])
            self.body(body)
            self.continue_prelude.pop()
        elif kind == K.DO_STMT:
            body, cond = children(c)
            if value_of(cond) == 0 and not _jumps(body):  # do { ... } while (0) in macros
                self.stmt(body)
                return
            test = (f"if not ({self.expr(cond)}):", cond.location.line)
            self.out.line("while True:", line)
            self.continue_prelude.append([test, ("    break", cond.location.line)])
            with self.out.indent():
                self.stmt(body)
                self.out.line(test[0], test[1])
                with self.out.indent():
                    self.out.line("break", test[1])
            self.continue_prelude.pop()
        elif kind == K.BREAK_STMT:
            self.out.line("break", line)
        elif kind == K.CONTINUE_STMT:
            for text, at in (self.continue_prelude[-1] if self.continue_prelude else []):
                self.out.line(text, at)
            self.out.line("continue", line)
        elif kind == K.RETURN_STMT:
            kids = children(c)
            self.out.line(f"return {self.expr(kids[0])}" if kids else "return", line)
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

    def if_stmt(self, c: Cursor, word: str) -> None:
        kids = children(c)
        if kids[0].kind == K.DECL_STMT:
            self.fail(c, "a declaration inside `if (...)`", "declare the variable before the if")
        self.out.line(f"{word} {self.expr(kids[0])}:", c.location.line)
        self.body(kids[1])
        if len(kids) > 2:
            if kids[2].kind == K.IF_STMT:
                self.if_stmt(kids[2], "elif")
            else:
                self.out.line("else:", kids[2].location.line)
                self.body(kids[2])

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
        self.out.line(f"while {self.expr(cond) if cond is not None else 'True'}:", line)
        step: list[tuple[str, int]] = []
        if inc is not None:
            mark = len(self.out.lines)
            self.out.depth += 1
            self.expr_stmt(inc)
            self.out.depth -= 1
            step = [(ln.strip().rsplit("  # line", 1)[0], inc.location.line)
                    for ln in self.out.lines[mark:]]
            del self.out.lines[mark:], self.out.origin[mark:]
        self.continue_prelude.append(step)
        with self.out.indent():
            self.stmt(body)
            for text, at in step:
                self.out.line(text, at)
        self.continue_prelude.pop()

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
        if step is None or _assigns(body, {var} | _names(bound)):
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
        return f"{py_name(var)} in range({args})"

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
        if s.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
            op = operator(s)
            if op == "=" or op in _AUG:
                lhs, rhs = children(s)
                self.assign(s, op, lhs, rhs, line)
                return
            if op == ",":
                for part in children(s):
                    self.expr_stmt(part)
                return
        if s.kind == K.UNARY_OPERATOR and operator(s) in ("++", "--", "post++", "post--"):
            (arg,) = children(s)
            self.step_var(s, arg, 1 if operator(s).endswith("++") else -1, line)
            return
        self.out.line(self.expr(c), line)

    def assign(self, c: Cursor, op: str, lhs: Cursor, rhs: Cursor, line: int) -> None:
        target = self.target(lhs)
        if op in ("/=", "%=") and ct.is_int(lhs.type) and not ct.is_unsigned(lhs.type):
            value = self.int_divide(op[0], lhs, rhs, lhs.type)[0]
            self.out.line(f"{target} = {value}", line)
            return
        value = self.convert(rhs, lhs.type)[0] if op == "=" else self.expr(rhs)
        if op != "=" and ct.dtype_name(lhs.type) == "float32" and ct.is_float(rhs.type) \
                and ct.dtype_name(rhs.type) != "float32":
            value = f"np.float32({value})"
        self.out.line(f"{target} {op} {value}", line)

    def step_var(self, c: Cursor, arg: Cursor, delta: int, line: int) -> None:
        self.out.line(f"{self.target(arg)} {'+' if delta > 0 else '-'}= 1", line)

    def target(self, c: Cursor) -> str:
        return self.expr(c)

    def decl(self, c: Cursor) -> None:
        raise NotImplementedError


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
