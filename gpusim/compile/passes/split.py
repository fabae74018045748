"""Pass 8, split: cut the kernel at barriers and wave collectives ("loop fission").

The body becomes a schedule (``ir.Node`` s) that runs once per work-group:

- ``Region``: statements between cuts; becomes one loop over the block's threads;
- ``Barrier`` / ``Collective``: the cut itself (a barrier needs no code between two
  thread loops; under divergent control it checks that every live thread arrived);
- ``UniformIf/For/While``: control flow with a block-uniform condition, run once;
- ``DivergentIf`` / ``DivergentLoop``: control flow whose condition differs between
  threads; it runs under per-thread execution masks (``_m1``, ``_m2``...), the way the
  hardware's EXEC mask runs both sides of a branch.

Masks form a stack (outermost first); a region runs the threads set in the last one.
``_m0`` is the block's live threads (cleared by ``return``).

>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.pipeline import front_end
>>> import numba
>>> def k(out):
...     s = hip.threadIdx.x
...     hip.syncthreads()
...     out[s] = s
>>> kir = front_end(k, wave_size=64, arg_types=(numba.types.int64[::1],))
>>> [type(n).__name__ for n in kir.schedule]
['Region', 'Barrier', 'Region']
"""

from __future__ import annotations

import ast

from gpusim.compile.diagnostics import compile_error
from gpusim.compile.ir import (
    BLOCK_SYNC,
    Barrier,
    Collective,
    DivergentIf,
    DivergentLoop,
    KernelIR,
    Node,
    Region,
    UniformFor,
    UniformIf,
    UniformWhile,
    contains_sync,
    is_sync,
)


def sync_call(stmt: ast.stmt):
    """The barrier/collective a statement is (``x = hip.ballot(p)``, ``hip.syncthreads()``)."""
    if isinstance(stmt, ast.Expr) and is_sync(stmt.value):
        return stmt.value, None
    if isinstance(stmt, ast.Assign) and is_sync(stmt.value):
        return stmt.value, stmt.targets[0].id
    return None, None


class Splitter:
    """Builds the schedule; see the module docstring."""

    def __init__(self, kir: KernelIR):
        self.kir = kir
        self.regions = 0

    def new_mask(self) -> str:
        name = f"_m{len(self.kir.masks)}"
        self.kir.masks.append(name)
        return name

    def build(self, stmts: list[ast.stmt], masks: tuple[str, ...], loop) -> list[Node]:
        nodes: list[Node] = []
        current: list[ast.stmt] = []

        def flush() -> Region | None:
            nonlocal current
            if not current:
                return None
            self.regions += 1
            region = Region(current, masks, index=self.regions)
            region.loop = loop
            nodes.append(region)
            current = []
            return region

        for s in stmts:
            call, result = sync_call(s)
            if call is not None:
                flush()
                nodes.append(self.cut(s, call, result, masks))
            elif not contains_sync(s):
                current.append(s)
            elif isinstance(s, ast.If) and getattr(s, "divergent", False):
                region = flush()
                assert region is not None and region.stmts[-1].targets[0].id == s.cond
                then_mask = self.new_mask()
                else_mask = self.new_mask() if s.orelse else None
                node = DivergentIf(s.cond, then_mask, else_mask, [], [], masks, s.lineno)
                node.body = self.build(s.body, masks + (then_mask,), loop)
                node.orelse = self.build(s.orelse, masks + (else_mask,), loop) if (
                    else_mask) else []
                region.sets_masks = node
                nodes.append(node)
            elif isinstance(s, ast.If):
                flush()
                nodes.append(UniformIf(s.test, self.build(s.body, masks, loop),
                                       self.build(s.orelse, masks, loop), s.lineno))
            elif isinstance(s, ast.While) and getattr(s, "divergent", False):
                flush()
                node = DivergentLoop(self.new_mask(), self.new_mask(), [], masks, s.lineno)
                node.body = self.build(s.body, masks + (node.loop_mask, node.iter_mask), node)
                nodes.append(node)
            elif isinstance(s, ast.While):
                flush()
                node = UniformWhile(s.test, [], s.lineno, self.kir.fresh("u"))
                node.body = self.build(s.body, masks, node)
                nodes.append(node)
            elif isinstance(s, ast.For):
                flush()
                node = UniformFor(s.target.id, s.iter.args, [], s.lineno, self.kir.fresh("u"))
                node.body = self.build(s.body, masks, node)
                nodes.append(node)
            else:
                raise compile_error(self.kir.src, s, "a barrier or wave collective cannot be "
                                    f"used inside this {type(s).__name__} statement")
        flush()
        return nodes

    def cut(self, stmt: ast.stmt, call, result: str | None, masks: tuple[str, ...]) -> Node:
        op = call.name
        text = f"hip.{op}()"
        if op in BLOCK_SYNC:
            site = self.kir.add_site(stmt, text)
            pred = call.args[0] if call.args else None
            return Barrier(op, masks, stmt.lineno, site, pred=pred, result=result)
        site = self.kir.add_site(stmt, text)
        return Collective(op, result, list(call.args), masks, stmt.lineno, site)


def split(kir: KernelIR) -> None:
    """Run the pass: fills ``kir.schedule`` and ``kir.masks``."""
    kir.has_return = any(isinstance(n, ast.Return) for n in ast.walk(kir.func))
    # The live-thread mask _m0 is needed by returns, collectives, counting barriers and
    # divergent control flow; plain barriers in straight or uniform code need no mask.
    needs_mask = kir.has_return and contains_sync(kir.func.body) or any(
        is_sync(n) and n.name not in ("syncthreads", "syncwarp", "sync_grid")
        or getattr(n, "divergent", False) for n in ast.walk(kir.func))
    root: tuple[str, ...] = ()
    if needs_mask:
        kir.masks.append("_m0")  # the live threads of the block
        root = ("_m0",)
    kir.schedule = Splitter(kir).build(kir.func.body, root, None)
