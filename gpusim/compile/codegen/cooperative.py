"""Cooperative kernels: the schedule of a kernel with grid syncs, run phase by phase.

``cuda.cg.this_grid().sync()`` (``passes/grid_group.py``) is a barrier of the whole
launch. An ordinary kernel's ``__run`` runs each work-group from start to end before the
next (``generate.py``); a grid sync cannot be kept that way. So a kernel with grid syncs
is cut into **grid phases** (the code between two grid syncs) and each phase is a loop
over every work-group; the grid sync is the gap between two such loops::

    for _b in range(_b0, _b1):         # set up: live masks, arguments kept per thread
        ...
    for _b in range(_b0, _b1):         # phase 1, every work-group in turn
        <views of work-group _b's storage>  <its block-uniform values>
        <the phase's schedule nodes, exactly as in an ordinary kernel>
        <its block-uniform values saved>
    # grid sync: every work-group has finished phase 1
    for row in range(1, rows):          # a loop holding a grid sync runs once for the grid
        for _b in range(_b0, _b1): ...  # phase 2, ...

What a work-group keeps between phases is what it keeps between two regions of an
ordinary kernel, one copy per work-group: per-thread values (``x__s``), masks, LDS and
``local`` arrays have a leading work-group axis in the workspace (``x__s__g[_b]``), and
block-uniform numbers live in ``name__b[_b]``. Control flow holding a grid sync runs at
grid level: its condition must be the same in every work-group (on a GPU anything else
deadlocks); where it reads block-uniform values every work-group evaluates it first, and
one that differs is a divergent grid sync (hipErrorLaunchFailure). A grid sync under
control flow that differs between threads is refused at compile time, except the kernel-
ending ``if`` that ``grid_group`` turns into an early ``return``.

The engine runs a cooperative kernel on one host thread (``_b0, _b1`` = the whole grid),
since the grid sync orders every work-group.

>>> import numba
>>> from gpusim import cuda
>>> from gpusim.compile.pipeline import front_end
>>> def k(a, out):
...     i = cuda.grid(1)
...     a[i] = i
...     cuda.cg.this_grid().sync()
...     out[i] = a[a.size - 1 - i]
>>> t = numba.types.int64[::1]
>>> src = front_end(k, wave_size=64, arg_types=(t, t)).source
>>> src.count("for _b in range(_b0, _b1):"), "every work-group has finished" in src
(2, True)
"""

from __future__ import annotations

import ast
import re

from gpusim.compile.codegen.expr import expr_source
from gpusim.compile.diagnostics import compile_error
from gpusim.compile.ir import (
    Barrier,
    KernelIR,
    Region,
    UniformFor,
    UniformIf,
    UniformWhile,
    direct_exits,
    walk_schedule,
)
from gpusim.compile.passes.liveness import writes

COORDS = "#@coords"  # replaced by the work-group coordinates the kernel uses (generate.py)


def is_cooperative(kir: KernelIR) -> bool:
    """True if the kernel's schedule holds a grid sync."""
    return any(_is_grid_sync(n) for n in walk_schedule(kir.schedule or []))


def _is_grid_sync(node) -> bool:
    return isinstance(node, Barrier) and node.kind == "sync_grid"


def _grid_level(node) -> bool:
    """A node that is, or holds, a grid sync (runs at grid level, not per work-group)."""
    return _is_grid_sync(node) or any(_is_grid_sync(n) for n in walk_schedule(
        (getattr(node, "body", None) or []) + (getattr(node, "orelse", None) or [])))


def per_block_uniforms(kir: KernelIR) -> list[str]:
    """Block-uniform number variables kept per work-group across phases (``name__b``):
    those a region assigns, less the loop counters of grid-level loops (set for the grid)."""
    grid_loops = {n.target for n in walk_schedule(kir.schedule)
                  if isinstance(n, UniformFor) and _grid_level(n)}
    assigned = set()
    for n in walk_schedule(kir.schedule):
        if isinstance(n, Region):
            assigned |= set().union(*(writes(s) for s in n.stmts))
        elif isinstance(n, Barrier) and n.result:
            assigned.add(n.result)
    return sorted(name for name in assigned & kir.uniform - grid_loops
                  if name in kir.types and name not in kir.spilled
                  and (hasattr(kir.types[name], "bitwidth") or str(kir.types[name]) == "bool"))


class CooperativeWriter:
    """Writes ``<kernel>__run``'s body for a kernel with grid syncs (module docstring)."""

    def __init__(self, gen):
        self.g, self.kir, self.out = gen, gen.kir, gen.out
        self.uniforms = per_block_uniforms(self.kir)
        private = {n for n, d in self.kir.arrays.items() if d.space in ("shared", "local")}
        self.lds_views = {t.id for n in ast.walk(self.kir.func) if isinstance(n, ast.Assign)
                          for t in n.targets if isinstance(t, ast.Name)
                          and any(isinstance(v, ast.Name) and v.id in private
                                  for v in ast.walk(n.value))
                          and hasattr(self.kir.types.get(t.id), "ndim")}

    def body(self, workspace: list[tuple[str, str]]) -> None:
        kir = self.kir
        self.views = [n[:-len("__g")] for n, _ in workspace if n.endswith("__g")]
        alive = kir.has_return and kir.masks
        kept = [p for p in kir.params if p in kir.spilled or p in self.uniforms]
        if kir.masks or alive or kept:
            self.setup(kept, alive)
        self.nodes(kir.schedule)

    def setup(self, kept: list[str], alive: bool) -> None:
        """Before the first phase: each work-group's live threads and kept arguments."""
        kir, out = self.kir, self.out
        self.block_loop("set up each work-group")
        if kir.masks:
            out.line("_m0[:] = True  # the block's live threads")
        for name in kept:
            out.line(f"{name}__s[:] = {name}" if name in kir.spilled else
                     f"{name}__b[_b] = {name}")
        if alive:
            out.line("_nalive__b[_b] = _nt")
        out.indent -= 1

    def block_loop(self, what: str) -> None:
        out = self.out
        out.line(f"for _b in range(_b0, _b1):  # {what}")
        out.indent += 1
        out.line(COORDS)
        self.g.instrument.block_start(out)
        for name in self.views:
            out.line(f"{name} = {name}__g[_b]  # work-group _b's own copy")

    def nodes(self, nodes: list) -> None:
        phase: list = []
        for node in nodes:
            if not _grid_level(node):
                phase.append(node)
                continue
            self.phase(phase)
            phase = []
            getattr(self, "grid_" + type(node).__name__, self.refuse)(node)
        self.phase(phase)

    def phase(self, nodes: list) -> None:
        """One grid phase: ``nodes`` for every work-group in turn."""
        if not nodes:
            return
        kir, out = self.kir, self.out
        self.check_views(nodes)
        self.block_loop("a grid phase, run by every work-group in turn")
        for name in self.uniforms:
            out.line(f"{name} = {name}__b[_b]")
        alive = kir.has_return and kir.masks
        if alive:
            out.line("_nalive = _nalive__b[_b]")
        self.g.nodes(nodes)
        for name in self.uniforms:
            out.line(f"{name}__b[_b] = {name}")
        if alive:
            out.line("_nalive__b[_b] = _nalive")
        out.indent -= 1

    def check_views(self, nodes: list) -> None:
        """A view of LDS or of a ``local`` array made in one phase is not kept for the
        next: that phase runs every work-group again, each with its own copy."""
        stmts = [s for n in walk_schedule(nodes) if isinstance(n, Region) for s in n.stmts]
        written = set().union(*(writes(s) for s in stmts))
        for s in stmts:
            for name in (n for n in ast.walk(s) if isinstance(n, ast.Name)):
                if name.id in self.lds_views and name.id not in written:
                    raise compile_error(
                        self.kir.src, name, f"'{self.kir.user_name(name.id)}' is a view of "
                        "a shared or local array made before a grid sync and used after it",
                        instead="make the view again after the grid sync", kernel=self.kir.name)

    # -- grid-level nodes -------------------------------------------------------------
    def refuse(self, node) -> None:
        where = ast.Pass(lineno=node.line, col_offset=0)
        raise compile_error(self.kir.src, where, "a grid sync (cuda.cg.this_grid().sync()) "
                            "under control flow that differs between threads: every thread "
                            "of the grid must reach it", instead="move the grid sync out of "
                            "the branch or loop whose condition depends on the thread",
                            kernel=self.kir.name)

    def grid_Barrier(self, node: Barrier) -> None:  # noqa: N802 - named after the node
        if node.masks not in ((), ("_m0",)):
            self.refuse(node)
        self.g.comment(node.line, "grid sync: every work-group has finished the phase above")
        self.out.line("_ctl[7] += 1  # grid syncs executed (the timing model's count)")
        self.g.instrument.after(node, self.out)

    def test(self, node, expr: ast.expr) -> str:
        """A grid-level condition or bound: it may not depend on the work-group."""
        text = expr_source(self.g.gen, expr)
        used = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
        ids = re.search(r"(?<![\w.])_(b[xyz]|t[xyz]?)(?!\w)", text)  # work-group/thread ids
        if ids or used & (set(self.kir.types) - self.kir.uniform):
            self.refuse(node)
        if used & set(self.uniforms):  # block-uniform values: do all work-groups agree?
            self.agree(node, text, sorted(used & set(self.uniforms)))
        return text

    def agree(self, node, text: str, names: list[str]) -> None:
        """Evaluate ``text`` in every work-group; a fault (a divergent grid sync) where one
        differs from the first. Leaves the last work-group's values in ``names``."""
        out, kir = self.out, self.kir
        site = kir.add_site(ast.Pass(lineno=node.line, col_offset=0),
                            "the condition or loop bound around the grid sync")
        self.g.used.update({"KernelFaultError", "FAULT_BARRIER"})
        out.line("for _b in range(_b0, _b1):  # every work-group must see the same value")
        out.indent += 1
        for name in names:
            out.line(f"{name} = {name}__b[_b]")
        out.line(f"_gv{site} = ({text})")
        out.line("if _b == _b0:")
        out.line(f"    _g0{site} = _gv{site}")
        out.line(f"elif _gv{site} != _g0{site}:")
        out.line(f"    raise _KernelFaultError(_FAULT_BARRIER, {site}, _b, -1, _b0, 0)")
        out.indent -= 1

    def loop(self, node, head: str) -> None:
        if any(isinstance(n, Region) and n.loop is node and direct_exits(n.stmts)
               for n in walk_schedule(node.body)):
            raise compile_error(self.kir.src, ast.Pass(lineno=node.line, col_offset=0),
                                "break/continue in a loop that holds a grid sync",
                                instead="a loop condition the whole grid evaluates alike",
                                kernel=self.kir.name)
        self.g.comment(node.line, "the whole grid iterates together (the loop holds a grid "
                       "sync)")
        self.out.line(head)
        self.out.indent += 1
        site = self.kir.add_site(ast.Pass(lineno=node.line, col_offset=0), "loop")
        self.out.line(f"_poll(_ctl, _b0, {site})  # the watchdog can stop a runaway loop")
        self.g.used.add("_poll")
        self.nodes(node.body)
        self.out.indent -= 1

    def grid_UniformFor(self, node: UniformFor) -> None:  # noqa: N802
        args = ", ".join(self.test(node, a) for a in node.args)
        self.loop(node, f"for {node.target} in range({args}):")

    def grid_UniformWhile(self, node: UniformWhile) -> None:  # noqa: N802
        self.loop(node, f"while {self.test(node, node.test)}:")

    def grid_UniformIf(self, node: UniformIf) -> None:  # noqa: N802
        self.g.comment(node.line, "the same for the whole grid: one branch for all")
        self.out.line(f"if {self.test(node, node.test)}:")
        self.out.indent += 1
        self.nodes(node.body)
        self.out.line("pass")
        self.out.indent -= 1
        if node.orelse:
            self.out.line("else:")
            self.out.indent += 1
            self.nodes(node.orelse)
            self.out.line("pass")
            self.out.indent -= 1

    grid_DivergentIf = grid_DivergentLoop = refuse  # noqa: N815


def workspace_items(items: list[tuple[str, str]], kir: KernelIR) -> list[tuple[str, str]]:
    """The ordinary workspace (``generate.Generator.workspace``) with a leading work-group
    axis on every array (``name__g``), plus the per-work-group uniform values."""
    out = []
    for name, alloc in items:
        if alloc.startswith("_dyn.view("):  # one dynamic-LDS row per work-group
            alloc = alloc.replace("[:_dynlds", "[:, :_dynlds")
        elif alloc.startswith("np.zeros((_nt,)"):
            alloc = alloc.replace("np.zeros((_nt,)", "np.zeros((_nb, _nt)")
        elif alloc.startswith(("np.zeros(_nt,", "np.ones(_nt,")):
            alloc = alloc.replace("(_nt,", "((_nb, _nt),")
        else:  # a static shared array: np.zeros(shape, dtype)
            alloc = alloc.replace("np.zeros(", "np.zeros((_nb,) + ", 1)
        out.append((name + "__g", alloc))
    from gpusim.compile.codegen.generate import np_type

    for name in per_block_uniforms(kir):
        out.append((name + "__b", f"np.zeros(_nb, {np_type(kir.types[name])})"))
    if kir.has_return and kir.masks:
        out.append(("_nalive__b", "np.zeros(_nb, np.int64)"))
    return out

