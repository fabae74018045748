"""One region of the schedule as generated code: a loop over the block's threads.

Inside, each statement is the user's own (renamed only where it would clash), with
indices bounds-checked. What changes is control flow that leaves the thread's work:

- ``return``: the thread is removed from the live mask ``_m0`` (and every mask on the
  stack) and skips to the next thread; barriers after that do not wait for it, as on
  AMD hardware where an exited wave no longer takes part in ``s_barrier``;
- ``break`` / ``continue`` of a loop that holds a barrier: a uniform loop sets a block-level
  flag tested after the region; a divergent loop clears the thread's loop/iteration mask;
- inside the thread's own loops, ``return`` sets ``_esc`` and breaks out level by level.

>>> Lines().line("x = 1").text()
'x = 1\\n'
"""

from __future__ import annotations

import ast

from gpusim.compile.codegen.expr import ExprGen, expr_source
from gpusim.compile.diagnostics import compile_error
from gpusim.compile.ir import DivergentLoop, KernelIR, Region, direct_exits, has_return
from gpusim.compile.passes.liveness import uniform_value
from gpusim.compile.passes.remat import narrow_range, range_text


class Lines:
    """Indented source lines."""

    def __init__(self):
        self.lines: list[str] = []
        self.indent = 0

    def line(self, text: str = "") -> Lines:
        self.lines.append(("    " * self.indent + text) if text else "")
        return self

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class RegionWriter:
    """Writes a ``Region`` into ``out`` (see the module docstring)."""

    def __init__(self, kir: KernelIR, gen: ExprGen, out: Lines):
        self.kir, self.gen, self.out = kir, gen, out
        self.region: Region | None = None
        self.last_line = None
        self.loop_depth = 0  # block-level loops around the region being written

    def comment_line(self, node: ast.AST) -> None:
        line = getattr(node, "lineno", None)
        src = getattr(node, "gsrc", None) or self.kir.src
        if line and (src, line) != self.last_line:
            self.last_line = (src, line)
            where = f"line {line}" if src is self.kir.src else f"{src.func} line {line}"
            self.out.line(f"# {where}: {src.line_text(line).strip()}")

    def write(self, region: Region) -> None:
        self.region = region
        out, kir = self.out, self.kir
        lo, hi = region.lines
        where = f"line {lo}" if lo == hi else f"lines {lo}-{hi}"
        if self.gen.instrument is not None:  # e.g. the trace mode opens a region instance
            self.gen.instrument.region(region, out)
        if region.scalar and not region.sets_masks:
            out.line(f"# region {region.index}: {where}, the same in every thread: "
                     "computed once for the block")
            self.block(region.stmts, depth=0)
            return
        out.line(f"# region {region.index}: {where}, run by every thread in turn")
        for name in region.snapshots:
            out.line(f"{name}__u = {name}  # every thread starts from the same {name}")
        dif = region.sets_masks
        if dif is not None:
            for mask in (dif.then_mask, dif.else_mask):
                if mask:
                    out.line(f"{mask}[:] = False")
                    out.line(f"_any{mask} = False")
        span = None if dif is not None else narrow_range(
            region.stmts, kir.remat, lambda e: uniform_value(e, kir))
        if region.in_bounds:  # only on the fast path
            self.versioned(region, span)
        else:
            self.threads(region, span)
        if kir.has_return and region.masks and has_return(region.stmts):
            out.line("if _nalive == 0:")
            out.line("    break" if self.loop_depth else
                     "    continue  # every thread of this block returned: next block")
        loop = region.loop
        if loop is not None and not isinstance(loop, DivergentLoop):
            exits = direct_exits(region.stmts)
            if "break" in exits:
                out.line(f"if {loop.flag}_brk:")
                out.line("    break")
            if "continue" in exits:
                out.line(f"if {loop.flag}_cnt:")
                out.line("    continue")

    def threads(self, region: Region, span: tuple | None) -> None:
        """The loop over the work-group's threads running ``region``'s statements."""
        out, kir, dif = self.out, self.kir, region.sets_masks
        out.line("for _tz in range(_bdz):")
        out.line("    for _ty in range(_bdy):")
        if span is None:
            out.line("        for _tx in range(_bdx):")
        else:  # the whole region is `if tid < n:` -- visit only the threads that enter
            kind, bound = span
            text = range_text(kind, expr_source(self.gen, bound))
            out.line(f"        for _tx in {text}:  # only these threads pass the `if`")
        out.indent += 3
        out.line("_t = (_tz * _bdy + _ty) * _bdx + _tx")
        mask = region.masks[-1] if region.masks else None
        if mask and (mask != "_m0" or kir.has_return):
            out.line(f"if not {mask}[_t]:")
            out.line("    continue")
        for name in region.snapshots:
            out.line(f"{name} = {name}__u")
        for name in region.loads:
            out.line(f"{name} = {name}__s[_t]")
        for name in region.remat:
            out.line(f"{name} = {expr_source(self.gen, kir.remat[name])}  # recomputed")
        for name in sorted(self.local_arrays(region)):
            out.line(f"{name} = {name}__l[_t]")
        if any(isinstance(n, (ast.For, ast.While)) and has_return(n.body)
               for s in region.stmts for n in ast.walk(s)):
            out.line("_esc = False")
        self.block(region.stmts, depth=0)
        self.stores()
        if dif is not None:
            out.line(f"{dif.then_mask}[_t] = {dif.cond}")
            out.line(f"_any{dif.then_mask} = _any{dif.then_mask} or {dif.cond}")
            if dif.else_mask:
                out.line(f"{dif.else_mask}[_t] = not {dif.cond}")
                out.line(f"_any{dif.else_mask} = _any{dif.else_mask} or not {dif.cond}")
        out.indent -= 3

    def versioned(self, region: Region, span: tuple | None) -> None:
        """The region twice: without bounds checks when its test (pass ``ranges``) shows
        every index in bounds for every thread of this block, else checked. The checked
        copy is written first, so the unchecked one reuses its fault sites (polls)."""
        out, gen = self.out, self.gen
        checked = Lines()
        checked.indent = out.indent + 1
        self.out = checked
        self.last_line = None
        self.threads(region, span)
        self.out, self.last_line, gen.unchecked = out, None, True
        tests = [expr_source(gen, t) for t in region.in_bounds]
        if len(tests) == 1:
            out.line(f"if {tests[0]}:")
        else:
            out.line(f"if ({tests[0]}")
            for t in tests[1:-1]:
                out.line(f"        and {t}")
            out.line(f"        and {tests[-1]}):")
        out.line("    # every index below is in bounds for every thread of this block: "
                 "no checks")
        out.indent += 1
        with self.kir.reusing_sites():
            self.threads(region, span)
        out.indent -= 1
        gen.unchecked = False
        out.line("else:  # some thread may index out of bounds: check every access")
        out.lines.extend(checked.lines)

    def local_arrays(self, region: Region) -> set[str]:
        names = {n.id for s in region.stmts for n in ast.walk(s) if isinstance(n, ast.Name)}
        return {n for n in names if n in self.kir.arrays and self.kir.arrays[n].space == "local"}

    def stores(self) -> None:
        for name in self.region.stores:
            self.out.line(f"{name}__s[_t] = {name}")

    # -- statements -------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt], depth: int) -> None:
        if self.gen.instrument is not None:  # e.g. the trace mode counts instructions
            self.gen.instrument.statements(stmts, self.out)
        if not stmts:
            self.out.line("pass")
        for s in stmts:
            self.stmt(s, depth)

    def stmt(self, s: ast.stmt, depth: int) -> None:
        out, gen = self.out, self.gen
        self.comment_line(s)
        if gen.instrument is not None:  # e.g. the debugger records the step
            gen.instrument.before_statement(s, out)
        if isinstance(s, (ast.Assign, ast.AugAssign, ast.Expr)):
            self.simple(s)
        elif isinstance(s, ast.If):
            out.line(f"if {expr_source(gen, s.test)}:")
            self.nested(s.body, depth)
            if s.orelse:
                out.line("else:")
                self.nested(s.orelse, depth)
        elif isinstance(s, ast.For):
            args = ", ".join(expr_source(gen, a) for a in s.iter.args)
            self.poll_counter(s, depth)
            out.line(f"for {s.target.id} in range({args}):")
            out.line("    _pc += 1  # the watchdog looks every 2**16 iterations")
            out.line("    if (_pc & 65535) == 0:")
            out.line(f"        _poll(_ctl, _b, {self.kir.add_site(s, 'loop')})")
            gen.used.add("_poll")
            self.nested(s.body, depth + 1)
            self.escape_after_loop(s, depth)
        elif isinstance(s, ast.While):
            self.poll_counter(s, depth)
            out.line(f"while {expr_source(gen, s.test)}:")
            out.line(f"    _poll(_ctl, _b, {self.kir.add_site(s, 'loop')})  # the watchdog can "
                     "stop a runaway loop")
            gen.used.add("_poll")
            self.nested(s.body, depth + 1)
            self.escape_after_loop(s, depth)
        elif isinstance(s, (ast.Break, ast.Continue)):
            self.loop_exit(s, depth)
        elif isinstance(s, ast.Return):
            self.kill()
            out.line("_esc = True" if depth else "continue")
            if depth:
                out.line("break")
        elif isinstance(s, ast.Assert):
            # `assert ok, "message"`: a constant message is kept for the fault report
            msg = s.msg.value if isinstance(s.msg, ast.Constant) and \
                isinstance(s.msg.value, str) else "assert"
            site = self.kir.add_site(s, msg)
            gen.used.update({"KernelFaultError", "FAULT_ASSERT"})
            out.line(f"if not ({expr_source(gen, s.test)}):")
            out.line(f"    raise _KernelFaultError(_FAULT_ASSERT, {site}, _b, _t, 0, 0)")
        elif isinstance(s, ast.Pass):
            out.line("pass")
        else:
            raise compile_error(self.kir.src, s, f"{type(s).__name__} statements are not "
                                "supported in kernels", kernel=self.kir.name)

    def simple(self, s: ast.Assign | ast.AugAssign | ast.Expr) -> None:
        """An assignment, augmented assignment or expression statement, then the mode's
        ``after_statement`` lines."""
        out, gen = self.out, self.gen
        if isinstance(s, ast.Assign):
            targets = " = ".join(expr_source(gen, t) for t in s.targets)
            out.line(f"{targets} = {expr_source(gen, s.value)}")
        elif isinstance(s, ast.AugAssign):
            gen.store_access = "update"
            target = expr_source(gen, s.target)
            gen.store_access = "write"
            op = ast.unparse(ast.AugAssign(ast.Name("x"), s.op, ast.Name("y"))).split()[1]
            out.line(f"{target} {op} {expr_source(gen, s.value)}")
        else:
            out.line(expr_source(gen, s.value))
        if gen.instrument is not None:  # e.g. the debugger records what the step wrote
            gen.instrument.after_statement(s, out)

    def poll_counter(self, loop: ast.stmt, depth: int) -> None:
        """Start the iteration counter of the `for` loops in a thread's outermost loop."""
        if depth == 0 and any(isinstance(n, ast.For) for n in ast.walk(loop)):
            self.out.line("_pc = 0")

    def nested(self, stmts: list[ast.stmt], depth: int) -> None:
        self.out.indent += 1
        self.block(stmts, depth)
        self.out.indent -= 1

    def escape_after_loop(self, loop: ast.stmt, depth: int) -> None:
        if has_return(loop.body):
            self.out.line("if _esc:")
            self.out.line("    break" if depth else "    continue")

    def kill(self) -> None:
        """This thread has returned: it leaves every mask and the live count."""
        for mask in self.region.masks:
            self.out.line(f"{mask}[_t] = False")
        if self.region.masks:
            self.out.line("_nalive -= 1")

    def loop_exit(self, s: ast.stmt, depth: int) -> None:
        out = self.out
        word = "break" if isinstance(s, ast.Break) else "continue"
        if depth:
            out.line(word)
            return
        loop = self.region.loop
        if loop is None:
            raise compile_error(self.kir.src, s, f"`{word}` outside a loop", kernel=self.kir.name)
        if isinstance(loop, DivergentLoop):
            masks = self.region.masks
            first = masks.index(loop.loop_mask if word == "break" else loop.iter_mask)
            for mask in masks[first:]:
                out.line(f"{mask}[_t] = False  # this thread leaves the loop" if word == "break"
                         else f"{mask}[_t] = False")
        else:
            out.line(f"{loop.flag}_{'brk' if word == 'break' else 'cnt'} = True")
        self.stores()
        out.line("continue")
