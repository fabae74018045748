"""Pass 10, generate: the schedule -> Python source of a module numba can compile.

The module has two functions:

- ``<kernel>__run(_b0, _b1, args..., _lp, _ctl, _ws)``: work-groups ``_b0 .. _b1-1``, one
  after the other (each host worker calls it for the chunks it claims). In the body of
  ``for _b in ...``, every region is a ``for _tz / _ty / _tx`` nest run by all threads of
  the work-group in turn; barriers sit between regions. (One function, not one per
  work-group, because each numba function costs compile time.)
- ``<kernel>__workspace(_nt, _dynlds)`` (plain Python): the work-group's storage (LDS,
  per-thread arrays, masks), made once per worker and reused block after block, so LDS is
  not cleared between blocks, as on hardware.

A kernel with grid syncs is written phase by phase instead (``cooperative.py``), with one
copy of that storage per work-group (``_nb`` of them).

``_lp`` holds the launch: grid (``_gdx``...), block (``_bdx``...), threads per block
``_nt``, dynamic LDS bytes, the number of blocks and the chunk each claim takes.
"""

from __future__ import annotations

import ast
import re

import numpy as np

from gpusim.compile.codegen import mfma
from gpusim.compile.codegen.cooperative import (
    COORDS,
    CooperativeWriter,
    is_cooperative,
    workspace_items,
)
from gpusim.compile.codegen.expr import ExprGen, alias, expr_source
from gpusim.compile.codegen.instrument import instrument_for
from gpusim.compile.codegen.region import Lines, RegionWriter
from gpusim.compile.diagnostics import source_label
from gpusim.compile.ir import (
    MFMA_OPS,
    Barrier,
    Collective,
    DivergentIf,
    DivergentLoop,
    KernelIR,
    Region,
    UniformFor,
    UniformIf,
    UniformWhile,
    direct_exits,
    has_return,
    walk_schedule,
)
from gpusim.compile.passes.intrinsic_types import base_name
from gpusim.compile.passes.recursion import function_source

LAUNCH_FIELDS = ("_gdx", "_gdy", "_gdz", "_bdx", "_bdy", "_bdz", "_nt", "_dynlds", "_nb", "_chunk")
SYNC_KIND = {"syncthreads_count": "SYNC_COUNT", "syncthreads_and": "SYNC_AND",
             "syncthreads_or": "SYNC_OR"}
SHFL_KIND = {"shfl": "SHFL_IDX", "shfl_up": "SHFL_UP", "shfl_down": "SHFL_DOWN",
             "shfl_xor": "SHFL_XOR"}
VOTE_KIND = {"ballot": "VOTE_BALLOT", "any": "VOTE_ANY", "all": "VOTE_ALL",
             "activemask": "VOTE_ACTIVE"}


def np_type(ty) -> str:
    """``np.float32`` for numba's float32 or NumPy's (``np.bool_`` for bool); a record or
    string dtype is written out whole (``np.dtype([('i', '<i4'), ...])``)."""
    if isinstance(ty, np.dtype) and (ty.fields is not None or ty.kind in "SUV"):
        return f"np.{ty!r}"
    name = ty.name if isinstance(ty, np.dtype) else str(ty)
    return "np.bool_" if name == "bool" else f"np.{np.dtype(name).name}"


class Generator:
    """Writes the module for one kernel specialization."""

    def __init__(self, kir: KernelIR):
        self.kir = kir
        self.used: set[str] = {"_ix"}
        self.mfma_consts: list[str] = []  # layout tables of the kernel's MFMA statements
        self.mfma_tags: dict[str, str] = {}  # instruction -> the tables' name prefix
        self.gen = ExprGen(kir, kir.wave_size, self.used)
        self.out = Lines()
        self.regions = RegionWriter(kir, self.gen, self.out)
        # hooks of the generation mode (none on the fast path), see codegen/instrument.py
        self.instrument = self.gen.instrument = instrument_for(kir)
        self.cooperative = is_cooperative(kir)  # grid syncs: run phase by phase

    # -- pieces -----------------------------------------------------------------------
    def operand(self, node: ast.expr) -> str:
        if isinstance(node, ast.Name) and node.id in self.kir.spilled:
            return f"{node.id}__s"
        return expr_source(self.gen, node)

    def params(self, *extra: str) -> str:
        """The kernel's arguments (user's, then constant arrays) around ``extra`` names."""
        lead = [e for e in extra if e in ("_b", "_b0", "_b1")]
        rest = [e for e in extra if e not in lead]
        return ", ".join(lead + self.kir.params + sorted(self.kir.const_params) + rest)

    def workspace(self) -> list[tuple[str, str]]:
        """(name, allocation) of everything a work-group needs, in a fixed order."""
        kir = self.kir
        items = []
        for name, decl in kir.arrays.items():
            if decl.space == "shared" and decl.dynamic:
                size = decl.dtype.itemsize
                items.append((name, f"_dyn.view({np_type(decl.dtype)})[:_dynlds // {size}]"))
            elif decl.space == "shared":
                items.append((name, f"np.zeros({decl.shape!r}, {np_type(decl.dtype)})"))
            elif decl.space == "local":
                items.append((name + "__l",
                              f"np.zeros((_nt,) + {decl.shape!r}, {np_type(decl.dtype)})"))
        for name, ty in sorted(kir.spilled.items()):
            items.append((name + "__s", f"np.zeros(_nt, {np_type(ty)})"))
        for mask in kir.masks:
            items.append((mask, "np.ones(_nt, np.bool_)"))
        return items

    # -- the module -------------------------------------------------------------------
    def module(self) -> str:
        kir = self.kir
        functions = "".join("\n\n" + function_source(kir, self.gen, n) for n in kir.functions)
        body = self.kernel_function()
        run = self.workspace_function()
        head = Lines()
        types_text = ", ".join(f"{p}: {t}" for p, t in zip(kir.params, kir.arg_types, strict=False))
        nodes = list(walk_schedule(kir.schedule))
        count = {k: sum(isinstance(n, k) for n in nodes) for k in (Region, Barrier, Collective)}
        head.line(f"# gpusim: generated from kernel '{kir.name}' "
                  f"({source_label(kir.src.filename)}, line {kir.src.firstlineno})")
        head.line(f"# specialized for: {types_text or 'no arguments'}; wave size {kir.wave_size}")
        head.line(f"# schedule: {count[Region]} region(s), {count[Barrier]} barrier(s), "
                  f"{count[Collective]} wave collective(s); static LDS {kir.static_lds_bytes} "
                  "bytes")
        head.line("# In __run, `for _b` runs the work-groups; in its body every")
        head.line("# `for _tz/_ty/_tx` nest is one region, run by each thread of the work-group.")
        head.line("import math  # noqa: F401")
        head.line()
        head.line("import numpy as np  # noqa: F401")
        head.line()
        head.line("from gpusim.compile.device.devicelib import (  # noqa: F401")
        for name in sorted(self.used | {"kernel_jit"}):
            head.line(f"    {name}," if alias(name) == name else f"    {name} as {alias(name)},")
        head.line(")")
        for text in self.instrument.imports():
            head.line(text)
        if self.mfma_consts:
            head.line(mfma.IMPORT)
        head.line()
        if kir.functions:  # numba's cache loses calls of recursive functions (passes/recursion.py)
            head.line('_jit = _kernel_jit(globals().get("_GPUSIM_REFERENCE", False), cache=False)')
        else:
            head.line('_jit = _kernel_jit(globals().get("_GPUSIM_REFERENCE", False))')
        head.line('if globals().get("_GPUSIM_REFERENCE", False):  # plain Python, no numba')
        head.line("    from gpusim.compile.device.devicelib import _ix_python as _ix  # noqa: F811")
        for name, value in sorted(kir.constants.items()):
            head.line(f"{name} = {_constant(value)}")
        for text in self.mfma_consts:
            head.line(text)
        return head.text() + functions + "\n\n" + body + "\n\n" + run

    def kernel_function(self) -> str:
        kir, out = self.kir, self.out
        ws = self.workspace()
        if self.cooperative:
            ws = workspace_items(ws, kir)
        extra = ", _ws" if ws else ""
        out.line("@_jit")
        extra_args = [name for name, _ in kir.extra_args]
        out.line(f"def {kir.name}__run({self.params('_b0', '_b1', '_lp', '_ctl', *extra_args)}"
                 f"{extra}):")
        out.indent += 1
        out.line(f'"""Work-groups _b0 .. _b1-1 of {kir.name}, one after the other."""')
        unpack = len(out.lines)  # the launch fields it uses go here, once the body is known
        if ws:
            out.line(", ".join(n for n, _ in ws) + (", = _ws" if len(ws) == 1 else " = _ws"))
        self.instrument.prologue(out)
        if self.cooperative:  # phase by phase, see cooperative.py
            CooperativeWriter(self).body(ws)
        else:
            out.line("for _b in range(_b0, _b1):")
            out.indent += 1
            out.line("# ---- one work-group: block number _b (x fastest)")
            out.line(COORDS)
            self.instrument.block_start(out)
            if kir.masks:
                out.line("_m0[:] = True  # the block's live threads")
            if kir.has_return and kir.masks:
                out.line("_nalive = _nt")
            for name in kir.params:
                if name in kir.spilled:
                    out.line(f"{name}__s[:] = {name}")
            self.nodes(kir.schedule)
        out.indent = 0
        body = "\n".join(out.lines[unpack:])
        coords = [(name, expr) for name, expr in (
            ("_bx", "_b % _gdx"), ("_by", "_b // _gdx % _gdy"), ("_bz", "_b // (_gdx * _gdy)"))
            if _uses(body, name)]
        lines = []
        for text in out.lines:  # each work-group loop computes the coordinates used
            pad = text[:len(text) - len(text.lstrip())]
            lines += ([pad + f"{n} = {e}" for n, e in coords] if text.strip() == COORDS
                      else [text])
        out.lines = lines
        text = "\n".join(out.lines[unpack:])
        fields = [(i, f) for i, f in enumerate(LAUNCH_FIELDS[:8]) if _uses(text, f)]
        if fields:  # only what the kernel reads: a 1-D kernel never sees _by or _gdz
            out.lines.insert(unpack, "    " + ", ".join(f for _, f in fields)
                             + ("," if len(fields) == 1 else "") + " = "
                             + ", ".join(f"_lp[{i}]" for i, _ in fields))
        return out.text()

    def workspace_function(self) -> str:
        kir = self.kir
        out = Lines()
        ws = self.workspace()
        if self.cooperative:  # one copy per work-group (_nb of them), see cooperative.py
            ws = workspace_items(ws, kir)
        out.line(f"def {kir.name}__workspace(_nt, _dynlds{', _nb=1' if self.cooperative else ''}):")
        out.indent += 1
        out.line('"""Storage of one work-group, made once per host worker and reused block after '
                 'block')
        out.line('(so LDS is not cleared between blocks, as on hardware)."""')
        if any(d.dynamic for d in kir.arrays.values()):
            rows = "(_nb, (_dynlds + 15) // 16 * 16)" if self.cooperative else (
                "(_dynlds + 15) // 16 * 16")
            out.line(f"_dyn = np.zeros({rows}, np.uint8)  # dynamic LDS")
        for name, alloc in ws:
            out.line(f"{name} = {alloc}")
        out.line("return (" + ", ".join(n for n, _ in ws) + ("," if len(ws) == 1 else "") + ")")
        return out.text()

    # -- schedule nodes ---------------------------------------------------------------
    def nodes(self, nodes: list) -> None:
        if not nodes:
            self.out.line("pass")
        for node in nodes:
            getattr(self, "node_" + type(node).__name__)(node)
            self.instrument.after(node, self.out)

    def node_Region(self, node: Region) -> None:
        self.regions.write(node)

    def comment(self, line: int, text: str) -> None:
        self.out.line(f"# line {line}: {self.kir.src.line_text(line).strip()}  -- {text}")
        self.regions.last_line = None

    def node_Barrier(self, node: Barrier) -> None:
        mask = node.masks[-1] if node.masks else "_m0"
        checked = mask != "_m0"
        if node.kind == "syncthreads":
            if not checked:
                self.comment(node.line, "barrier: the region above finished in every thread")
                return
            self.comment(node.line, "barrier under divergent control: all live threads here?")
            self.used.add("_barrier")
            self.out.line(f"_barrier({mask}, _m0, _nt, {node.site}, _b)")
            return
        self.comment(node.line, f"barrier that also reduces ({node.kind})")
        self.used.update({"_sync_count", SYNC_KIND[node.kind]})
        call = (f"_sync_count({self.operand(node.pred)}, {mask}, _m0, _nt, "
                f"{alias(SYNC_KIND[node.kind])}, {node.site}, _b)")
        target = f"{node.result}__s[:]" if node.result in self.kir.spilled else node.result
        self.out.line(f"{target} = {call}")

    def node_Collective(self, node: Collective) -> None:
        op = base_name(node.op)
        ops = node.operands[1:] if node.op.endswith("_sync") else node.operands
        mask, wave = (node.masks[-1] if node.masks else "_m0"), self.kir.wave_size
        if op == "syncwarp":
            self.comment(node.line, "wavefront barrier: the region above finished in every lane")
            return
        if op in MFMA_OPS:
            self.comment(node.line, "matrix instruction over each whole wavefront")
            operands = [mfma.operand_source(self.kir, o, self.operand(o)) for o in ops]
            lines, consts = mfma.mfma_lines(self.kir, node, self.mfma_tags, operands, mask)
            for text in lines:
                self.out.line(text)
            self.mfma_consts += consts
            return
        self.comment(node.line, f"wavefront collective {op} over the active lanes")
        res = f"{node.result}__s"
        if op in SHFL_KIND:
            width = self.operand(ops[2]) if len(ops) > 2 else str(wave)
            self.used.update({"_shfl", SHFL_KIND[op]})
            self.out.line(f"_shfl({res}, {self.operand(ops[0])}, {self.operand(ops[1])}, "
                          f"{width}, {mask}, _nt, {wave}, {alias(SHFL_KIND[op])})")
        else:
            pred = self.operand(ops[0]) if ops else "0"
            self.used.update({"_vote", VOTE_KIND[op]})
            self.out.line(f"_vote({res}, {pred}, {mask}, _nt, {wave}, {alias(VOTE_KIND[op])})")

    def node_UniformIf(self, node: UniformIf) -> None:
        self.comment(node.line, "the same for the whole block: one branch for all threads")
        self.out.line(f"if {expr_source(self.gen, node.test)}:")
        self.branch(node.body)
        if node.orelse:
            self.out.line("else:")
            self.branch(node.orelse)

    def branch(self, nodes: list) -> None:
        """One branch of a uniform ``if``; ``pass`` where it wrote no code (a barrier
        alone, ``if n > 32: syncthreads() else: syncwarp()``, is only a comment)."""
        self.out.indent += 1
        start = len(self.out.lines)
        self.nodes(nodes)
        if all(not ln.strip() or ln.lstrip().startswith("#") for ln in self.out.lines[start:]):
            self.out.line("pass")
        self.out.indent -= 1

    def loop_flags(self, node) -> None:
        exits: set[str] = set()
        for n in walk_schedule(node.body):
            if isinstance(n, Region) and n.loop is node:
                exits |= direct_exits(n.stmts)
        if "break" in exits:
            self.out.line(f"{node.flag}_brk = False")
        if "continue" in exits:
            self.out.line(f"{node.flag}_cnt = False")

    def node_UniformFor(self, node: UniformFor) -> None:
        self.comment(node.line, "the whole block iterates together")
        args = ", ".join(expr_source(self.gen, a) for a in node.args)
        self.out.line(f"for {node.target} in range({args}):")
        self.loop_body(node)

    def node_UniformWhile(self, node: UniformWhile) -> None:
        self.comment(node.line, "the whole block iterates together")
        self.out.line(f"while {expr_source(self.gen, node.test)}:")
        self.loop_body(node)

    def loop_body(self, node) -> None:
        self.out.indent += 1
        self.loop_flags(node)
        self.loop_nodes(node)
        self.out.indent -= 1
        self.exit_check(node)

    def loop_nodes(self, node) -> None:
        """The watchdog poll (first, so `continue` cannot skip it), then the loop body."""
        site = self.kir.add_site(ast.Pass(lineno=node.line, col_offset=0), "loop")
        self.out.line(f"_poll(_ctl, _b, {site})  # the watchdog can stop a runaway loop")
        self.used.add("_poll")
        self.regions.loop_depth += 1
        self.nodes(node.body)
        self.regions.loop_depth -= 1

    def exit_check(self, node) -> None:
        """After a loop whose body can end the block (every thread returned)."""
        if self.kir.has_return and self.kir.masks and any(
                isinstance(n, Region) and has_return(n.stmts) for n in walk_schedule(node.body)):
            self.out.line("if _nalive == 0:")
            self.out.line("    break" if self.regions.loop_depth else
                          "    continue  # every thread of this block returned: next block")

    def node_DivergentIf(self, node: DivergentIf) -> None:
        self.comment(node.line, f"threads differ: then-branch under mask {node.then_mask}"
                     + (f", else under {node.else_mask}" if node.else_mask else ""))
        self.out.line(f"if _any{node.then_mask}:")
        self.out.indent += 1
        self.nodes(node.body)
        self.out.indent -= 1
        if node.else_mask:
            self.out.line(f"if _any{node.else_mask}:")
            self.out.indent += 1
            self.nodes(node.orelse)
            self.out.indent -= 1

    def node_DivergentLoop(self, node: DivergentLoop) -> None:
        self.comment(node.line, f"threads may leave at different times: loop mask "
                     f"{node.loop_mask}, this iteration {node.iter_mask}")
        self.used.update({"_any_set", "_copy_mask"})
        self.out.line(f"_copy_mask({node.loop_mask}, {node.masks[-1]})")
        self.out.line(f"while _any_set({node.loop_mask}, _nt):")
        self.out.indent += 1
        self.out.line(f"_copy_mask({node.iter_mask}, {node.loop_mask})")
        self.loop_nodes(node)
        self.out.indent -= 1
        self.exit_check(node)


def _uses(text: str, name: str) -> bool:
    """Whether generated ``text`` reads the variable ``name``."""
    return re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text) is not None


def _constant(value) -> str:
    if isinstance(value, (bool, int, float, complex)):
        return repr(value)
    return f"np.{np.asarray(value).dtype.name}({value.item()!r})"


def generate(kir: KernelIR) -> None:
    """Run the pass: fills ``kir.source``."""
    kir.static_lds_bytes = sum(d.nbytes for d in kir.arrays.values() if d.space == "shared")
    kir.const_params = [n for n, d in kir.arrays.items() if d.space == "const"]
    kir.source = Generator(kir).module()
