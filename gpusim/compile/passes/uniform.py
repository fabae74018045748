"""Pass 5, uniformity: which values are the same in every thread of a work-group.

A value is *uniform* when it depends only on constants, kernel arguments, array shapes,
``blockIdx``/``blockDim``/``gridDim``/``warpsize``, barrier results (``syncthreads_count``)
and other uniform values, and is assigned only under uniform control flow. Anything
that reads memory, a thread or lane index, or a wave collective is *divergent*.

Why it matters: a loop or ``if`` that contains a barrier and has a uniform condition can
run once per work-group ("the whole block iterates together"), with its variables as
plain scalars; a divergent one needs per-thread execution masks (``lower.py``,
``split.py``). The analysis is an optimistic fixpoint: every assigned name starts
uniform and is demoted until nothing changes. It is conservative, so a wrong answer can
only cost speed, never correctness.

>>> import ast
>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.pipeline import front_end
>>> def k(a, n):
...     m = n // 2
...     i = hip.threadIdx.x + m
>>> kir = front_end(k, wave_size=64, passes=("parse", "subset", "resolve", "normalize",
...                                           "uniformity"))
>>> sorted(kir.uniform & {"m", "i"})
['m']
"""

from __future__ import annotations

import ast

from gpusim.compile.ir import Cast, Intrinsic, KernelIR, MathCall, contains_sync, is_sync

UNIFORM_INTRINSICS = ("blockIdx.", "blockDim.", "gridDim.", "warpsize", "gridsize")
UNIFORM_RESULTS = ("syncthreads_count", "syncthreads_and", "syncthreads_or")


class Uniformity:
    """Computes ``KernelIR.uniform`` and marks loops/ifs holding barriers as divergent."""

    def __init__(self, kir: KernelIR, uniform: set[str] | None = None):
        """``uniform``: the names already known uniform (a later pass asking about one
        expression); by default every assigned name, the fixpoint's optimistic start."""
        self.kir = kir
        self.arrays = set(kir.arrays) | kir.array_params()
        self.local = {n for n, decl in kir.arrays.items() if decl.space == "local"}
        if uniform is None:
            uniform = {n.id for n in ast.walk(kir.func) if isinstance(n, ast.Name)
                       and isinstance(n.ctx, ast.Store)} | set(kir.params)
        self.uniform = uniform
        self.changed = False

    def run(self) -> set[str]:
        self.changed = True
        while self.changed:
            self.changed = False
            self.block(self.kir.func.body, cd=False, rel=False, loop=None)
        return self.uniform

    def demote(self, name: str) -> None:
        if name in self.uniform:
            self.uniform.discard(name)
            self.changed = True

    # -- expressions ------------------------------------------------------------------
    def is_uniform(self, node: ast.AST | None) -> bool:
        if node is None or isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.Name):
            return (node.id in self.uniform or node.id in self.kir.constants
                    or node.id in self.arrays)
        if isinstance(node, Intrinsic):
            if not node.name.startswith(UNIFORM_INTRINSICS):
                if node.name in ("popc", "ffs", "clz", "brev", "fma"):
                    return all(self.is_uniform(a) for a in node.args)
                return False
            return True
        if isinstance(node, ast.Subscript):
            base = node.value
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if isinstance(base, ast.Name) and base.id in self.arrays and (
                    base.id in self.local or not any(isinstance(p, ast.Slice) for p in parts)):
                return False  # a memory read (another thread may have written it), or a
                # view of a local array, which is each thread's own
            # (a slice such as dynsmem[0:n] reads no memory: a view, uniform if its bounds are)
            return self.is_uniform(base) and self.is_uniform(node.slice)
        if isinstance(node, ast.Attribute):
            return self.is_uniform(node.value)
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", "")
            return name in ("len", "min", "max", "abs", "round", "pow") and all(
                self.is_uniform(a) for a in node.args)
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp,
                             ast.Slice, ast.Tuple, Cast, MathCall)):
            return all(self.is_uniform(c) for c in ast.iter_child_nodes(node)
                       if isinstance(c, ast.expr))
        return False

    # -- statements -------------------------------------------------------------------
    def demote_operands(self, call: Intrinsic) -> None:
        """Collective operands (temporaries made by ``normalize``) are read lane by lane."""
        for a in call.args:
            if isinstance(a, ast.Name):
                self.demote(a.id)

    def bind(self, target: ast.AST, uniform: bool, value: ast.AST | None = None) -> None:
        if isinstance(target, ast.Name):
            if not uniform:
                self.demote(target.id)
        elif isinstance(target, ast.Tuple):
            elts = value.elts if isinstance(value, ast.Tuple) and len(value.elts) == len(
                target.elts) else [None] * len(target.elts)
            for t, v in zip(target.elts, elts, strict=True):
                self.bind(t, uniform and (v is None or self.is_uniform(v)), v)

    def block(self, stmts: list[ast.stmt], cd: bool, rel: bool, loop: ast.AST | None) -> None:
        """``cd``: under divergent control; ``rel``: divergent relative to ``loop``."""
        for s in stmts:
            if isinstance(s, ast.Assign):
                if is_sync(s.value):
                    self.demote_operands(s.value)
                    uniform = s.value.name in UNIFORM_RESULTS and not cd
                else:
                    uniform = not cd and self.is_uniform(s.value)
                for t in s.targets:
                    self.bind(t, uniform, s.value)
            elif isinstance(s, ast.AugAssign):
                self.bind(s.target, not cd and self.is_uniform(s.value)
                          and self.is_uniform(s.target))
            elif isinstance(s, ast.Expr) and is_sync(s.value):
                self.demote_operands(s.value)
            elif isinstance(s, ast.If):
                uniform = self.is_uniform(s.test)
                if contains_sync(s):
                    s.divergent = not uniform
                self.block(s.body, cd or not uniform, rel or not uniform, loop)
                self.block(s.orelse, cd or not uniform, rel or not uniform, loop)
            elif isinstance(s, (ast.For, ast.While)):
                head = s.iter.args if isinstance(s, ast.For) else [s.test]
                divergent = (cd or getattr(s, "force_divergent", False)
                             or getattr(s, "divergent_exit", False)
                             or not all(self.is_uniform(a) for a in head))
                if isinstance(s, ast.For):
                    self.bind(s.target, not divergent)
                if contains_sync(s):
                    s.divergent = divergent
                self.block(s.body, cd or divergent, False, s)
            elif isinstance(s, (ast.Break, ast.Continue)) and rel and loop is not None:
                if not getattr(loop, "divergent_exit", False):
                    loop.divergent_exit = True  # threads leave at different times
                    self.changed = True


def analyze(kir: KernelIR) -> None:
    """Run the pass: fills ``kir.uniform``; sets ``.divergent`` on statements with barriers."""
    kir.uniform = Uniformity(kir).run()
