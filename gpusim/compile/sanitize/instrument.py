"""The checked path's code generation: every shared access and every access to a written
global array goes through the sanitizer's shadow memory (``shadow.py``).

What the instrumented code adds to the fast path's (see ``codegen/instrument.py`` for the hooks):

- an extra ``run()`` argument ``_chk`` (the launch's shadow state), unpacked once;
- at each work-group start: the previous one's pending uninitialised reads are reported
  (``_lds_flush``), then a new generation (uninitialised-LDS marks) and epoch;
- after each barrier: a new epoch; after each wavefront collective: a new wave-sync count;
  after a grid sync (cooperative kernels) the global shadow is cleared: what came before is
  ordered with what comes after (LDS is not shadowed in such kernels);
- around each bounds-checked index of an LDS array or of a global array the kernel writes:
  ``_lds1/2/3`` or ``_glb1/2/3``, which update the element's shadow and return the index.

Bounds checks are the fast path's own ``_ix`` (same faults, same messages). Private
(``local``) and constant arrays, and global arrays the kernel never writes, are left as
they are: no other thread can write them, so they cannot race.

>>> import numba
>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.pipeline import front_end
>>> def k(out):
...     s = hip.shared.array(64, numba.float32)
...     s[hip.threadIdx.x] = 1.0
...     hip.syncthreads()
...     out[hip.threadIdx.x] = s[63 - hip.threadIdx.x]
>>> src = front_end(k, wave_size=64, arg_types=(numba.types.float32[::1],), mode="check").source
>>> "_lds1(" in src and "_glb1(" in src and "_cst[1] += 1" in src
True
"""

from __future__ import annotations

import ast
from typing import Any

from numba.core import types as nbtypes

from gpusim.compile.codegen.instrument import Instrument
from gpusim.compile.ir import Barrier, Collective, KernelIR, walk_schedule
from gpusim.compile.sanitize.shadow import ACCESS_KIND, EPOCH, GEN, LASTBLOCK, WSYNC

_I64_1D = nbtypes.Array(nbtypes.int64, 1, "C")
_I64_2D = nbtypes.Array(nbtypes.int64, 2, "C")
_I32_2D = nbtypes.Array(nbtypes.int32, 2, "C")  # shadow rows (gpusim.engine.sanitizer)
CHK_TYPE = nbtypes.Tuple((_I64_1D, _I64_2D, _I32_2D, _I64_1D, _I32_2D, _I64_1D))


def written_arrays(kir: KernelIR) -> set[str]:
    """Names (as generated) of the arrays some statement of the kernel writes or updates."""
    out: set[str] = set()
    stmts = [s for n in walk_schedule(kir.schedule) for s in getattr(n, "stmts", [])]
    for node in (sub for s in stmts for sub in ast.walk(s)):
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, ast.AugAssign) else [])
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name):
                    out.add(sub.value.id)
        if getattr(node, "name", "").startswith("atomic.") and getattr(node, "args", None):
            if isinstance(node.args[0], ast.Name):
                out.add(node.args[0].id)
    return out


def check_layout(kir: KernelIR) -> tuple[list[str], list[str]]:
    """(LDS arrays, global array parameters) that get shadow memory, in shadow order.

    The engine (``gpusim.engine.sanitizer``) sizes the shadow from the same lists.
    """
    lds = [n for n, d in kir.arrays.items() if d.space == "shared" and len(d.shape) <= 3]
    if any(isinstance(n, Barrier) and n.kind == "sync_grid" for n in walk_schedule(kir.schedule)):
        # Cooperative kernels run each work-group in several pieces, interleaved
        # (codegen/cooperative.py), while the LDS shadow follows one work-group at a time:
        # LDS is not shadowed there (global accesses still are).
        lds = []
    written = written_arrays(kir)
    arrays = kir.array_params()
    glb = [p for p in kir.params if p in arrays and p in written and
           getattr(kir.arg_types[kir.params.index(p)], "ndim", 0) <= 3]
    return lds, glb


class CheckInstrument(Instrument):
    """Hooks of the ``"check"`` generation mode (see the module docstring)."""

    def __init__(self, kir: KernelIR):
        super().__init__(kir)
        self.lds, self.glb = check_layout(kir)
        self.used: set[str] = set()  # entry points the generated code calls (ops.py)
        kir.extra_args.append(("_chk", CHK_TYPE))

    def imports(self) -> list[str]:
        lines = []
        if self.lds:
            lines.append("from gpusim.compile.sanitize.shadow import _lds_flush  # the sanitizer")
        if self.used:
            names = sorted(self.used)
            lines += [f"from gpusim.compile.sanitize.ops import {', '.join(names)}  # noqa: F401",
                      'if globals().get("_GPUSIM_REFERENCE", False):  # plain Python versions',
                      "    from gpusim.compile.sanitize.ops import PYTHON as _CHECK_PY"]
            lines += [f'    {name} = _CHECK_PY["{name}"]' for name in names]
        return lines

    def prologue(self, out: Any) -> None:
        out.line("_cst, _fnd, _lsh, _loff, _gsh, _goff = _chk  # the sanitizer's shadow state")
        for k, name in enumerate(self.lds):
            out.line(f"_lo_{name} = _loff[{k}]  # shadow rows of LDS array {name}")
        for k, name in enumerate(self.glb):
            out.line(f"_go_{name} = _goff[{k}]  # shadow rows of global array {name}")

    def block_start(self, out: Any) -> None:
        if self.lds:
            out.line("_lds_flush(_lsh, _cst, _fnd)  # sanitizer: the last block's unwritten reads")
        out.line(f"_cst[{LASTBLOCK}] = _b")
        out.line(f"_cst[{GEN}] += 1  # sanitizer: a new work-group, nothing of its LDS written")
        out.line(f"_cst[{EPOCH}] += 1")

    def after(self, node: Any, out: Any) -> None:
        if isinstance(node, Barrier) and node.kind == "sync_grid" and self.glb:
            out.line("_gsh[:] = -1  # sanitizer: a grid sync orders every earlier global access")
        if isinstance(node, Barrier):
            out.line(f"_cst[{EPOCH}] += 1  # sanitizer: accesses before the barrier are ordered")
        elif isinstance(node, Collective):
            out.line(f"_cst[{WSYNC}] += 1  # sanitizer: lanes of a wave are ordered here")

    def index(self, gen: Any, array: str, checked: list[ast.expr], bounds: list[ast.expr],
              site: int, space: str) -> ast.expr | None:
        if any(isinstance(c, ast.Slice) for c in checked):
            return None  # a view (no access), or a store through one: not shadowed per element
        if space == "shared" and array in self.lds:
            prefix, shadow, base = "_lds", "_lsh", f"_lo_{array}"
        elif space == "global" and array in self.glb:
            prefix, shadow, base = "_glb", "_gsh", f"_go_{array}"
        else:
            return None
        kind = ACCESS_KIND[self.kir.sites[site].what]
        names = ["_b", "_t", shadow, base, "_cst", "_fnd"]
        args = (list(checked) + list(bounds[1:]) + [ast.Constant(kind), ast.Constant(site)]
                + [ast.Name(id=n, ctx=ast.Load()) for n in names])
        self.used.add(f"{prefix}{len(checked)}")
        return ast.Call(ast.Name(id=f"{prefix}{len(checked)}", ctx=ast.Load()), args, [])
