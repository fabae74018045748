"""The checked path at launch: shadow memory in, findings out.

    CompiledKernel (mode "check") --CheckState(ck, args, ...)--> the ``_chk`` tuple the
        generated code updates (gpusim.compile.sanitize.shadow)
    after the launch: CheckState.findings() -> [Finding] -> SanitizerError (a HipError)

A checked launch runs its work-groups one after another on one host thread, in block
order: shadow memory then needs no locks, and every report is the same from run to run
(a notebook can show it). Races between blocks are still found: the global shadow keeps
the block of each element's last writer and readers, whatever order blocks run in.

Shadow costs 84 bytes per LDS element and 48 bytes per element of each global array the
kernel writes (arrays it only reads cannot race and get none).

>>> import numpy as np
>>> from gpusim.compile import lang as hip
>>> from gpusim.devices import get_spec
>>> from gpusim.engine import launch
>>> def shift(out):
...     s = hip.shared.array(64, np.float32)
...     t = hip.threadIdx.x
...     s[t] = t
...     out[t] = s[(t + 1) % 64]     # a neighbour's element: no barrier in between
>>> try:
...     launch(shift, grid=1, block=64, args=(np.zeros(64, np.float32),), device=get_spec("mi300x"),
...            check=True)
... except SanitizerError as err:
...     print(err.code.name, len(err.findings), err.findings[0].kind)
hipErrorLaunchFailure 1 LDS race
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np

from gpusim.compile import CompiledKernel
from gpusim.compile.sanitize import (
    GLOBAL_ROW_BYTES,
    LDS_ROW_BYTES,
    check_layout,
    dropped_findings,
    new_global_shadow,
    new_state,
    read_findings,
)
from gpusim.engine import findings as fd
from gpusim.engine.faults import unflatten
from gpusim.errors import HipError, SanitizerError, hipError_t

SHADOW_LIMIT_BYTES = 4 << 30  # refuse a checked launch whose shadow would need more
POOL_LIMIT_BYTES = 512 << 20  # keep a global shadow this size for the next launch
_pool: list[np.ndarray] = []  # at most one spare global shadow buffer
_pool_lock = threading.Lock()


def _global_shadow(rows: int) -> np.ndarray:
    """``rows`` rows of global shadow, reusing the last launch's buffer when it is big
    enough (filling memory that is already mapped costs a third of fresh pages' faults)."""
    with _pool_lock:
        spare = _pool.pop() if _pool else None
    return new_global_shadow(rows, reuse=spare)


def _give_back(shadow: np.ndarray) -> None:
    whole = shadow.base if shadow.base is not None else shadow
    if whole.nbytes <= POOL_LIMIT_BYTES:
        with _pool_lock:
            _pool[:] = [whole]


class CheckState:
    """The shadow memory and findings table of one checked launch."""

    def __init__(self, ck: CompiledKernel, args: tuple, *, grid: tuple, block: tuple,
                 dynamic_lds_bytes: int, wave_size: int):
        kir = ck.ir
        self.ck, self.args, self.grid, self.block = ck, args, grid, block
        self.wave_size = wave_size
        lds, glb = check_layout(kir)
        self.lds, self.found = lds, None
        self.shapes: dict[str, tuple[int, ...]] = {}
        loff, rows, dyn_base = [], 0, None
        for name in lds:  # dynamic arrays alias one buffer: they share their shadow rows
            decl = kir.arrays[name]
            shape = (dynamic_lds_bytes // decl.dtype.itemsize,) if decl.dynamic else decl.shape
            self.shapes[name] = shape
            if decl.dynamic and dyn_base is not None:
                loff.append(dyn_base)
                continue
            loff.append(rows)
            if decl.dynamic:
                dyn_base = rows
                shape = (dynamic_lds_bytes,)  # enough rows for any element size
            rows += math.prod(shape)
        goff, grows = [], 0
        for name in glb:
            shape = args[kir.params.index(name)].shape
            self.shapes[name] = tuple(shape)
            goff.append(grows)
            grows += math.prod(shape)
        need = (rows + 1) * LDS_ROW_BYTES + (grows + 1) * GLOBAL_ROW_BYTES
        if need > SHADOW_LIMIT_BYTES:
            raise HipError(hipError_t.hipErrorOutOfMemory,
                           f"checked launch of kernel '{ck.name}': the sanitizer's shadow memory "
                           f"would need {need / 2**30:.1f} GiB for arrays {glb}; check a "
                           "smaller problem size (the bugs show on small ones too)")
        self.loff = loff
        self.chk = new_state(wave_size, lds_rows=rows, lds_offsets=loff,
                             global_shadow=_global_shadow(grows + 1), global_offsets=goff)

    # -- reading back ---------------------------------------------------------------
    def access(self, site_no: int, block: int, thread: int) -> fd.Access:
        ck = self.ck
        site = ck.sites[site_no]
        own = site.func == ck.name
        return fd.Access(line=site.line, col=site.col, what=site.what,
                        text=ck.line_text(site.line) if own else "",
                        thread=unflatten(thread, self.block), block=unflatten(block, self.grid),
                        func="" if own else site.func, wave=thread // self.wave_size)

    def findings(self) -> fd.Findings:
        """What the launch found, in the order first seen, one per (kind, sites)."""
        if self.found is not None:
            return self.found
        out = fd.Findings()
        for row in read_findings(self.chk):
            site = self.ck.sites[row.site_a]
            first = self.access(row.site_a, row.block_a, row.thread_a)
            second = (None if row.kind == fd.UNINIT else
                      self.access(row.site_b, row.block_b, row.thread_b))
            flat = row.index
            if row.kind == fd.UNINIT:  # recorded as a shadow row: make it the array's index
                flat -= self.loff[self.lds.index(site.var)]
            shape = self.shapes.get(site.var, (flat + 1,))
            index = tuple(int(i) for i in np.unravel_index(flat, shape))
            out.append(fd.Finding(row.kind, self.ck.name, site.array, site.space, index, first,
                                  second, count=row.count))
        out[:] = fd.merge(out)
        self.found = out
        return out

    def close(self) -> None:
        """The launch is over: read the findings, give the global shadow back for reuse."""
        self.findings()
        if self.chk[4].size:
            _give_back(self.chk[4])
            self.chk = self.chk[:4] + (self.chk[4][:0], self.chk[5])

    def error(self) -> SanitizerError | None:
        """The error to raise for this launch's findings (None if it found nothing)."""
        found = self.findings()
        if not found:
            return None
        kinds = ", ".join(sorted({f.kind for f in found}))
        n = len(found)
        text = fd.report(found, dropped=dropped_findings(self.chk), header=False)
        return SanitizerError(hipError_t.hipErrorLaunchFailure,
                              f"kernel '{self.ck.name}': the checked path found {n} "
                              f"problem{'s' if n > 1 else ''} ({kinds})\n{text}", found)

    def with_findings(self, err: HipError) -> HipError:
        """A fault (out of bounds, divergent barrier...) plus what was found before it."""
        found = self.findings()
        if not found:
            return err
        return SanitizerError(err.code, f"{err.detail}\n\nBefore that fault, the checked path "
                              f"found:\n{fd.report(found, header=False)}", found)


def is_checked(ck: Any) -> bool:
    return getattr(ck, "mode", "fast") == "check"
