"""The ``"debug"`` generation mode: the reference path, reporting every step to a recorder.

Generated code in this mode runs as plain Python (``reference=True``) for one
work-group and calls the recorder ``_dbg`` (``recorder.py``) around each user statement::

    _dbg.region(2)                         a region instance starts (after a barrier)
    _dbg.step(5, _t, x=x)                  statement 5 ran in thread _t; it assigned x
    _dbg.loop(7, _t) / _dbg.iter(7, _t, j=j)  thread _t reaches loop 7 / starts an
                                           iteration (the loop variable's new value)
    a[_dbg.at(3, 0, _t, _ix(...))]         thread _t reads (0) or writes (1) element ...

Each statement gets a *point* (``DebugPoint``): its line and its place in the region's
structure (``path``: statement indices, 0/1 for an ``if``'s body or ``else``, and a
marker where a loop's iteration number goes). Threads of a wave run a region one after
another here; ``steps.py`` replays their points in the order a SIMT machine executes
them (the lanes at the earliest place go first, the others wait with EXEC off).

>>> import ast
>>> tree = ast.parse("if t < 4:\\n    x = 1\\nelse:\\n    x = 2\\nfor i in range(3):\\n    y = i")
>>> [(p.line, p.path) for p in _points(tree.body, (), {}).values()]
[(1, (0,)), (2, (0, 0, 0)), (4, (0, 1, 0)), (5, (1,)), (6, (1, 'loop 4', 0))]
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from gpusim.compile.codegen.instrument import Instrument
from gpusim.compile.ir import Barrier, Collective, KernelIR, Region

KINDS = {"read": 0, "write": 1, "update": 2, "atomic": 3}


@dataclass(frozen=True)
class DebugPoint:
    """One user statement as the debugger shows it."""

    sid: int  # its number in this kernel
    line: int
    path: tuple  # place in the region: ints, and "loop <sid>" where an iteration goes
    names: tuple[str, ...] = ()  # the variables it assigns (recorded after it runs)
    kind: str = "stmt"  # "stmt", "if", "loop", "barrier" or a collective's op


def _points(stmts: list[ast.stmt], prefix: tuple, out: dict[int, DebugPoint],
            counter: list[int] | None = None) -> dict[int, DebugPoint]:
    """A ``DebugPoint`` for every statement of ``stmts`` (by ``id``), paths under
    ``prefix``; numbering continues from ``counter``."""
    counter = [len(out)] if counter is None else counter
    for i, s in enumerate(stmts):
        sid = counter[0] = counter[0] + 1
        path = (*prefix, i)
        kind = ("if" if isinstance(s, ast.If) else
                "loop" if isinstance(s, (ast.For, ast.While)) else "stmt")
        out[id(s)] = DebugPoint(sid, s.lineno, path, _assigned(s), kind)
        if isinstance(s, ast.If):
            _points(s.body, (*path, 0), out, counter)
            _points(s.orelse, (*path, 1), out, counter)
        elif isinstance(s, (ast.For, ast.While)):
            _points(s.body, (*path, f"loop {sid}"), out, counter)
    return out


def _assigned(s: ast.stmt) -> tuple[str, ...]:
    """The plain variables a statement assigns (a For's loop variable too)."""
    if isinstance(s, ast.Assign):
        targets = s.targets
    elif isinstance(s, (ast.AugAssign, ast.For)):
        targets = [s.target]
    else:
        return ()
    names = [n.id for t in targets for n in ast.walk(t)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    return tuple(dict.fromkeys(names))


class DebugInstrument(Instrument):
    """Hooks of the ``"debug"`` generation mode (see the module docstring)."""

    def __init__(self, kir: KernelIR):
        super().__init__(kir)
        kir.extra_args.append(("_dbg", None))  # the reference path: no numba type needed
        kir.debug_points = {}  # type: ignore[attr-defined] - sid -> DebugPoint
        self.by_stmt: dict[int, DebugPoint] = {}
        self.loop_bodies: dict[int, int] = {}  # id(body list) -> the loop's sid
        self.thread = "_t"

    def region(self, region: Region, out: Any) -> None:
        self.thread = "-1" if region.scalar and not region.sets_masks else "_t"
        found = _points(region.stmts, (), {}, [len(self.kir.debug_points)])
        for s in (n for st in region.stmts for n in ast.walk(st)):
            if isinstance(s, (ast.For, ast.While)):
                self.loop_bodies[id(s.body)] = found[id(s)].sid
        self.by_stmt.update(found)
        self.kir.debug_points.update({p.sid: p for p in found.values()})
        out.line(f"_dbg.region({region.index})  # debug: a region instance starts")

    def statements(self, stmts: list[ast.stmt], out: Any) -> None:
        loop = self.loop_bodies.get(id(stmts))
        if loop is not None:
            values = "".join(f", {n}={n}" for n in self.kir.debug_points[loop].names)
            out.line(f"_dbg.iter({loop}, {self.thread}{values})")

    def before_statement(self, s: ast.stmt, out: Any) -> None:
        point = self.by_stmt.get(id(s))
        if point is None:
            return
        if point.kind == "loop":
            out.line(f"_dbg.loop({point.sid}, {self.thread})")
        elif point.kind == "if" or not isinstance(s, (ast.Assign, ast.AugAssign, ast.Expr)):
            out.line(f"_dbg.step({point.sid}, {self.thread})")

    def after_statement(self, s: ast.stmt, out: Any) -> None:
        point = self.by_stmt.get(id(s))
        if point is None:
            return
        values = "".join(f", {n}={n}" for n in point.names)
        out.line(f"_dbg.step({point.sid}, {self.thread}{values})")

    def after(self, node: Any, out: Any) -> None:
        if isinstance(node, (Barrier, Collective)):
            kind = "barrier" if isinstance(node, Barrier) else node.op
            sid = len(self.kir.debug_points) + 1
            self.kir.debug_points[sid] = DebugPoint(sid, node.line, (), (), kind)
            mask = node.masks[-1] if node.masks else ("_m0" if self.kir.masks else "None")
            out.line(f"_dbg.wave_op({sid}, {mask})  # debug: the lanes that run it")

    def index(self, gen: Any, array: str, checked: list[ast.expr], bounds: list[ast.expr],
              site: int, space: str) -> ast.expr | None:
        if self.thread != "_t" or any(isinstance(c, ast.Slice) for c in checked):
            return None
        return ast.Call(ast.Attribute(ast.Name("_dbg", ast.Load()), "at", ast.Load()),
                        [ast.Constant(site), ast.Constant(KINDS.get(gen.access, 0)),
                         ast.Name("_t", ast.Load()), *checked], [])
