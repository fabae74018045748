"""The trace mode's code generation: the fast path's code, recording what memory sees.

``compile_kernel(pyfunc, arg_types, wave_size=..., mode="trace")`` generates with a
``TraceInstrument`` (the hooks of ``codegen/instrument.py``). It keeps every semantic of the fast
path, fault sites included, and adds:

- an extra ``run()`` argument ``_tr``: the launch's trace buffers (``tracelib``), and at
  each work-group's start ``_trace_workgroup(_tr, _b, wave_size)``;
- around each global or LDS index, ``a[_trace_ix1(_tr, site*4+kind, _t, base,
  a.strides[0], _ix(i, ...))]``: the index, after recording the lane's byte address.
  ``base`` is the array argument's device address (``_tr[4][k]``) or, for LDS, the
  array's offset in the workgroup's LDS (``lds_layout``). Private (``local``) arrays live
  in registers or scratch and constant arrays are read by scalar loads: neither is
  traced (constant reads count as SMEM);
- before each region's thread loop, ``_tr[2][1] += 1``: a new *region instance*, so the
  engine can group the k-th access of a site by each lane of a wave into one wavefront
  instruction (``trace/rows.py``);
- at the top of every straight-line block a thread runs, its static cost
  (``trace/costs.py``) added to the thread's counters ``_tr[3][:, _t]``.

>>> import numba
>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.pipeline import front_end
>>> def copy(a, b):
...     i = hip.grid(1)
...     if i < b.size:
...         b[i] = a[i]
>>> f32 = numba.types.float32[::1]
>>> kir = front_end(copy, wave_size=64, arg_types=(f32, f32), mode="trace")
>>> print([ln.strip() for ln in kir.source.splitlines() if "b[" in ln][-1])
b[_trace_ix1(_tr, 1, _t, _tr[4][1], b.strides[0], _ix(i, b.shape[0], 0, _b, _t, _ctl))] = \
a[_trace_ix1(_tr, 4, _t, _tr[4][0], a.strides[0], _ix(i, a.shape[0], 1, _b, _t, _ctl))]
>>> {s: (t.space, t.kind, t.array) for s, t in kir.trace_sites.items()}
{0: ('global', 'store', 'b'), 1: ('global', 'load', 'a')}
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba.core import types as nbtypes
from numba.np.numpy_support import as_dtype

from gpusim.compile.codegen.instrument import Instrument
from gpusim.compile.codegen.mfma import instruction as mfma_instruction
from gpusim.compile.ir import MFMA_OPS, Collective, KernelIR, Region
from gpusim.errors import KernelCompileError
from gpusim.trace import events as tracelib
from gpusim.trace.costs import Cost, block_cost, loop_iteration_cost, unrolled

KINDS = {"read": 0, "write": 1, "atomic": 2, "update": tracelib.KIND_UPDATE}
KIND_NAMES = {0: "load", 1: "store", 2: "atomic", 3: "update"}
_I64_1D = nbtypes.Array(nbtypes.int64, 1, "C")
_I64_2D = nbtypes.Array(nbtypes.int64, 2, "C")
TR_TYPE = nbtypes.Tuple((_I64_1D, _I64_1D, _I64_1D, _I64_2D, _I64_1D, _I64_1D, _I64_2D))
# Generated modules embed this, so a changed trace library never meets a stale numba cache.
_TRACELIB_HASH = hashlib.sha1(Path(tracelib.__file__).read_bytes()).hexdigest()[:12]


@dataclass(frozen=True)
class TraceSite:
    """A traced static memory instruction: where it is and what it moves."""

    space: str  # "global" or "shared"
    kind: str  # "load", "store", "atomic", "update" (a load and a store)
    array: str  # the user's name of the array
    bytes: int  # bytes per lane (the element size)
    line: int
    text: str  # the user's source line


def lds_layout(kir: KernelIR) -> dict[str, int]:
    """Byte offset of each LDS array in the workgroup's allocation: static arrays in
    declaration order at their natural alignment (at least 4 B), dynamic LDS after them
    on a 16 B boundary, as HIP places ``extern __shared__``.

    >>> from gpusim.compile.ir import ArrayDecl
    >>> kir = KernelIR(name="k", pyfunc=None)
    >>> kir.arrays = {"a": ArrayDecl("a", "shared", (3,), np.dtype("int8"), 1),
    ...               "b": ArrayDecl("b", "shared", (2,), np.dtype("float64"), 2),
    ...               "d": ArrayDecl("d", "shared", (0,), np.dtype("float32"), 3)}
    >>> lds_layout(kir)
    {'a': 0, 'b': 8, 'd': 32}
    """
    out, end = {}, 0
    for name, d in kir.arrays.items():
        if d.space == "shared" and not d.dynamic:
            align = max(4, d.dtype.itemsize)
            out[name] = -(-end // align) * align
            end = out[name] + d.nbytes
    for name, d in kir.arrays.items():
        if d.dynamic:
            out[name] = -(-end // 16) * 16
    return out


class TraceInstrument(Instrument):
    """Hooks of the ``"trace"`` generation mode (see the module docstring)."""

    def __init__(self, kir: KernelIR):
        super().__init__(kir)
        kir.extra_args.append(("_tr", TR_TYPE))
        kir.trace_sites = {}  # type: ignore[attr-defined] - site -> TraceSite
        self.lds = lds_layout(kir)
        self.threads = False  # inside a region's thread loop (where `_t` exists)
        self.helpers: set[str] = set()
        self.loop_bodies: dict[int, Cost] = {}  # id(body list) -> cost of one iteration
        self.unrolled: set[int] = set()  # id(body list) of loops a compiler unrolls

    def imports(self) -> list[str]:
        names = sorted(self.helpers | {"trace_workgroup"})
        return [f"from gpusim.trace.events import (  # noqa: F401 - trace mode "
                f"(tracelib {_TRACELIB_HASH})", *[f"    {n} as _{n}," for n in names], ")"]

    def block_start(self, out: Any) -> None:
        out.line(f"_trace_workgroup(_tr, _b, {self.kir.wave_size})  # trace: a new work-group")

    def region(self, region: Region, out: Any) -> None:
        self.threads = not (region.scalar and not region.sets_masks)
        if not self.threads:  # the same in every thread: scalar work, once per wave
            c = block_cost(region.stmts, self.kir)
            if c.valu + c.salu:
                out.line(f"_tr[3][3, _nt] += {c.valu + c.salu}  # trace: scalar instructions")
            return
        out.line(f"_tr[2][1] += 1  # trace: a new instance of region {region.index}")
        for node in (n for s in region.stmts for n in ast.walk(s)):
            if isinstance(node, (ast.For, ast.While)):
                self.loop_bodies[id(node.body)] = loop_iteration_cost(node, self.kir)
                if unrolled(node, self.kir):
                    self.unrolled.add(id(node.body))

    def statements(self, stmts: list[ast.stmt], out: Any) -> None:
        if not self.threads:
            return
        cost = (block_cost(stmts, self.kir, folded=id(stmts) in self.unrolled)
                + self.loop_bodies.get(id(stmts), Cost()))
        counts = [f"_tr[3][{k}, _t] += {v}" for k, v in enumerate(cost) if v]
        if counts:
            out.line("; ".join(counts) + "  # trace: instructions")

    def after(self, node: Any, out: Any) -> None:
        if isinstance(node, Region):
            self.threads = False
        elif isinstance(node, Collective) and node.op in MFMA_OPS:
            inst = mfma_instruction(self.kir, node)
            mask = node.masks[-1] if node.masks else "_m0"  # an MFMA always has _m0 (split)
            self.helpers.add("count_mfma")
            out.line(f"_count_mfma(_tr, {mask}, _nt, {inst.cycles}, {inst.flops // 64})"
                     "  # trace: matrix-core work")

    def index(self, gen: Any, array: str, checked: list[ast.expr], bounds: list[ast.expr],
              site: int, space: str) -> ast.expr | None:
        if not self.threads or space not in ("global", "shared") or len(checked) > 4:
            return None
        kir, kind = self.kir, KINDS[gen.access]
        if space == "global":
            if array not in kir.params:  # a view variable: its device address is not known
                return None
            k = kir.params.index(array)
            base, ndim = f"_tr[4][{k}]", kir.arg_types[k].ndim
            strides = [f"{array}.strides[{d}]" for d in range(ndim)]
            itemsize = as_dtype(kir.arg_types[k].dtype).itemsize  # records, 'S' chars too
        else:
            decl = kir.arrays[array]
            base, itemsize = str(self.lds[array]), decl.dtype.itemsize
            shape = (1,) if decl.dynamic else decl.shape
            ndim = len(shape)
            strides = [str(itemsize * int(np.prod(shape[d + 1:], dtype=np.int64)))
                       for d in range(ndim)]
        if site >= tracelib.MAX_SITES:
            raise KernelCompileError(f"kernel '{kir.name}' has too many memory instructions "
                                     f"to trace (more than {tracelib.MAX_SITES})")
        s = kir.sites[site]
        own = kir.src is not None and s.filename == kir.src.filename and s.func == kir.src.func
        text = kir.src.line_text(s.line).strip() if own else f"{s.func}, line {s.line}"
        kir.trace_sites[site] = TraceSite(space, KIND_NAMES[kind], s.array, itemsize, s.line,
                                          text)
        head = [ast.Name("_tr", ast.Load()), ast.Constant(site * 4 + kind),
                ast.Name("_t", ast.Load()), _parse(base)]
        if len(checked) < ndim or any(isinstance(c, ast.Slice) for c in checked):
            # a view (`a[i, :]`, `a[i]` of 2-D) or an assignment to one (`a[0:2] = v`)
            if kind == KINDS["read"]:  # making a view touches no memory
                return None
            self.helpers.add("trace_slice")
            parts = [_slice_call(c) if isinstance(c, ast.Slice) else c for c in checked]
            whole = [_parse(f"{array}.shape[{d}]") for d in range(len(checked), ndim)]
            call = ast.Call(ast.Name("_trace_slice", ast.Load()), [
                *head, _parse(f"({', '.join(strides)},)"), ast.Tuple(bounds + whole, ast.Load()),
                ast.Tuple(parts + [_slice_call(ast.Slice())] * len(whole), ast.Load())], [])
            return ast.Subscript(call, ast.Constant(0), ast.Load()) if ndim == 1 else call
        helper = f"trace_ix{len(checked)}"
        self.helpers.add(helper)
        args = [*head, *(_parse(x) for x in strides[:len(checked)]), *checked]
        return ast.Call(ast.Name("_" + helper, ast.Load()), args, [])


def _slice_call(s: ast.Slice) -> ast.expr:
    """``lo:hi:st`` as ``slice(lo, hi, st)``: a value a helper can take."""
    none = ast.Constant(None)
    return ast.Call(ast.Name("slice", ast.Load()),
                    [s.lower or none, s.upper or none, s.step or none], [])


def _parse(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body
