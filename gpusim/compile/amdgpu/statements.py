"""Statements and control flow of the typed kernel IR -> LLVM basic blocks.

The kernel runs as one thread, as HIP source does: ``if``/``while``/``for`` become
branches and the AMDGPU backend turns divergent ones into EXEC-mask code itself
(``s_and_saveexec``, ``s_cbranch_execz``). That is why lowering starts from the IR after
``infer`` and before ``split``: the emulator's loop fission at barriers is how a CPU runs
a work-group, not something a GPU needs.

``for i in range(a, b, s)`` evaluates its bounds once and assigns ``i`` at the top of
each iteration (so ``i`` keeps its last value after the loop, as in Python); ``assert``
becomes ``llvm.trap`` (``s_trap 2``: the kernel aborts, HIP's device assert without the
message); ``return`` ends the thread.
"""

from __future__ import annotations

import ast
from typing import Any

from numba.core import types

from gpusim.compile.amdgpu.emit import BOOL, FunctionBuilder, TupleValue, Value, const, ll_type
from gpusim.compile.amdgpu.expressions import Expressions
from gpusim.compile.amdgpu.unsupported import unsupported
from gpusim.compile.ir import Intrinsic, KernelIR
from gpusim.compile.passes.infer import BINOPS


class KernelLowering(Expressions):
    """Lowers one kernel body; ``module.py`` sets up arguments and arrays first."""

    def __init__(self, kir: KernelIR, wave_size: int):
        self.kir = kir
        self.wave_size = wave_size
        self.fb = FunctionBuilder()
        self.arrays = {}
        self.vars = {}
        self.tuples = {}
        self.loops: list[tuple[str, str]] = []  # (continue target, break target)
        self.uses_wgred = False
        self.node: ast.AST | None = None
        self.pending_args: list[tuple[str, Value]] = []  # scalar arguments -> variables

    # -- variables ---------------------------------------------------------------------
    def declare_variables(self) -> None:
        """One private slot per scalar variable (per element for tuple variables)."""
        for name, ty in self.kir.types.items():
            if name in self.vars or name in self.arrays:
                continue
            if isinstance(ty, types.BaseTuple):
                self.tuples[name] = [(self.slot(f"{name}.{k}", t), t)
                                     for k, t in enumerate(ty.types)]
            elif isinstance(ty, (types.Integer, types.Float, types.Boolean)):
                self.vars[name] = (self.slot(name, ty), ty)
            elif ty != types.none:
                raise unsupported(self.kir, None, f"the variable '{self.kir.user_name(name)}' "
                                  f"of type {ty}")

    def slot(self, name: str, ty: Any) -> str:
        if not isinstance(ty, (types.Integer, types.Float, types.Boolean)):
            raise unsupported(self.kir, None, f"values of type {ty}")
        return self.fb.alloca(ll_type(ty), name)

    def store_var(self, name: str, value: Value | TupleValue, node: ast.AST) -> None:
        if name in self.tuples:
            if not isinstance(value, TupleValue) or len(value.items) != len(self.tuples[name]):
                raise unsupported(self.kir, node, "assigning this value to a tuple variable")
            for (ptr, ty), item in zip(self.tuples[name], value.items, strict=True):
                self.fb.emit(f"store {self.convert(item, ty).typed()}, ptr addrspace(5) {ptr}")
            return
        if name not in self.vars:
            raise unsupported(self.kir, node, f"assigning to '{self.kir.user_name(name)}'")
        if isinstance(value, TupleValue):
            raise unsupported(self.kir, node, "a tuple assigned to a number variable")
        ptr, ty = self.vars[name]
        self.fb.emit(f"store {self.convert(value, ty).typed()}, ptr addrspace(5) {ptr}")

    # -- statements --------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            self.node = s
            self.stmt(s)

    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, ast.Assign):
            value = self.expr(s.value)
            for target in s.targets:
                self.assign(target, value, s)
        elif isinstance(s, ast.AugAssign):
            self.aug_assign(s)
        elif isinstance(s, ast.Expr):
            if isinstance(s.value, Intrinsic):
                self.intrinsic_value(s.value)
            elif not isinstance(s.value, ast.Constant):
                self.expr(s.value)
        elif isinstance(s, ast.If):
            self.if_stmt(s)
        elif isinstance(s, ast.While):
            self.while_stmt(s)
        elif isinstance(s, ast.For):
            self.for_stmt(s)
        elif isinstance(s, (ast.Break, ast.Continue)):
            if not self.loops:
                raise unsupported(self.kir, s, "break/continue outside a loop")
            cont, brk = self.loops[-1]
            self.fb.br(brk if isinstance(s, ast.Break) else cont)
        elif isinstance(s, ast.Return):
            self.fb.terminate("ret void")
        elif isinstance(s, ast.Assert):
            ok, fail = self.fb.fresh("assert.ok"), self.fb.fresh("assert.fail")
            self.fb.cbr(self.truth(self.scalar(s.test)), ok, fail)
            self.fb.start(fail)
            self.fb.call("void", "llvm.trap", [])
            self.fb.terminate("unreachable")
            self.fb.start(ok)
        elif not isinstance(s, ast.Pass):
            raise unsupported(self.kir, s, f"the statement {type(s).__name__}")

    def assign(self, target: ast.expr, value: Value | TupleValue, node: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self.store_var(target.id, value, node)
        elif isinstance(target, ast.Subscript):
            if isinstance(value, TupleValue):
                raise unsupported(self.kir, node, "storing a tuple into an array element")
            self.store(*self.element_ptr(target.value, target.slice), value)
        elif isinstance(target, ast.Tuple):
            if not isinstance(value, TupleValue) or len(value.items) != len(target.elts):
                raise unsupported(self.kir, node, "this tuple unpacking")
            for elt, item in zip(target.elts, value.items, strict=True):
                self.assign(elt, item, node)
        else:
            raise unsupported(self.kir, node, "this assignment target")

    def aug_assign(self, s: ast.AugAssign) -> None:
        op = BINOPS[type(s.op)]
        value = self.scalar(s.value)
        if isinstance(s.target, ast.Subscript):  # the address is computed once
            ptr, info = self.element_ptr(s.target.value, s.target.slice)
            self.store(ptr, info, self.binop(op, self.load(ptr, info), value, s, s.value))
        elif isinstance(s.target, ast.Name):
            current = self.scalar(ast.copy_location(ast.Name(s.target.id, ast.Load()), s))
            self.store_var(s.target.id, self.binop(op, current, value, s, s.value), s)
        else:
            raise unsupported(self.kir, s, "this augmented assignment")

    # -- control flow ------------------------------------------------------------------
    def if_stmt(self, s: ast.If) -> None:
        fb = self.fb
        then, orelse, done = fb.fresh("if.then"), fb.fresh("if.else"), fb.fresh("if.end")
        fb.cbr(self.truth(self.scalar(s.test)), then, orelse if s.orelse else done)
        fb.start(then)
        self.block(s.body)
        fb.br(done)
        if s.orelse:
            fb.start(orelse)
            self.block(s.orelse)
            fb.br(done)
        fb.start(done)

    def while_stmt(self, s: ast.While) -> None:
        fb = self.fb
        head, body, done = fb.fresh("while.cond"), fb.fresh("while.body"), fb.fresh("while.end")
        fb.start(head)
        fb.cbr(self.truth(self.scalar(s.test)), body, done)
        fb.start(body)
        self.loop_body(s.body, head, done)
        fb.start(done)

    def for_stmt(self, s: ast.For) -> None:
        fb = self.fb
        ty = self.kir.types.get(s.target.id, types.int64)
        if not isinstance(ty, types.Integer):  # `i` is also assigned a float elsewhere
            ty = types.int64
        args = [self.convert(self.scalar(a), ty) for a in s.iter.args]
        start, stop, step = ([const(0, ty)] + args if len(args) == 1 else args)[:3] + (
            [const(1, ty)] if len(args) < 3 else [])
        counter = fb.alloca(ll_type(ty), f"{s.target.id}.next")
        fb.emit(f"store {start.typed()}, ptr addrspace(5) {counter}")
        head, body, done = fb.fresh("for.cond"), fb.fresh("for.body"), fb.fresh("for.end")
        fb.start(head)
        cur = fb.op(f"load {ll_type(ty)}, ptr addrspace(5) {counter}", ty)
        sign = _static_sign(s.iter.args[2], self.kir) if len(args) == 3 else 1
        if sign > 0:
            go = self.compare_op("lt", cur, stop, ty)
        elif sign < 0:
            go = self.compare_op("gt", cur, stop, ty)
        else:  # the direction is known only at run time
            positive = self.compare_op("gt", step, const(0, ty), ty)
            go = self.select(positive, self.compare_op("lt", cur, stop, ty),
                             self.compare_op("gt", cur, stop, ty))
        fb.cbr(go, body, done)
        fb.start(body)
        self.store_var(s.target.id, cur, s)
        nxt = fb.op(f"add {cur.typed()}, {step.ref}", ty)
        fb.emit(f"store {nxt.typed()}, ptr addrspace(5) {counter}")
        self.loop_body(s.body, head, done)
        fb.start(done)

    def compare_op(self, pred: str, a: Value, b: Value, ty: Any) -> Value:
        sign = "s" if getattr(ty, "signed", True) else "u"
        return self.fb.op(f"icmp {sign}{pred} {a.typed()}, {b.ref}", BOOL)

    def loop_body(self, stmts: list[ast.stmt], cont: str, brk: str) -> None:
        self.loops.append((cont, brk))
        try:
            self.block(stmts)
        finally:
            self.loops.pop()
        self.fb.br(cont)


def _static_sign(node: ast.expr, kir: KernelIR) -> int:
    """+1 / -1 for a step known when compiling (``2``, ``-1``, a module constant), else 0."""
    value: Any = None
    if isinstance(node, ast.Constant):
        value = node.value
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(
            node.operand, ast.Constant):
        value = -node.operand.value
    elif isinstance(node, ast.Name) and node.id in kir.constants:
        value = kir.constants[node.id]
    if isinstance(value, (int, float)) and value:
        return 1 if value > 0 else -1
    return 0
