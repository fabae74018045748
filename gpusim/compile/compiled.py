"""``CompiledKernel``: what the compiler hands the engine, and what a profiler reads.

>>> import numba
>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.pipeline import compile_kernel
>>> def fill(out):
...     i = hip.grid(1)
...     if i < out.size:
...         out[i] = i
>>> ck = compile_kernel(fill, (numba.types.float32[::1],), wave_size=64)
>>> ck.name, ck.static_lds_bytes, ck.n_regions, ck.n_barriers
('fill', 0, 1, 0)
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpusim.compile.ir import Barrier, Collective, KernelIR, Region, Site, walk_schedule
from gpusim.compile.passes.half import half_positions, storage_value


@dataclass
class CompiledKernel:
    """One kernel specialized for argument types and a wave size, ready to launch."""

    name: str
    source: str  # the generated Python module
    run: Any  # <kernel>__run(b0, b1, args..., lp, ctl[, ws]): numba dispatcher (or Python)
    workspace: Any  # <kernel>__workspace(nt, dynamic_lds_bytes[, nblocks]) -> tuple of arrays
    wave_size: int
    arg_types: tuple
    params: list[str]  # the user's parameter names
    const_arrays: list[np.ndarray]  # passed after the user's arguments
    sites: list[Site]
    static_lds_bytes: int
    dynamic_lds: bool  # uses shape-0 shared arrays
    n_regions: int
    n_barriers: int
    n_collectives: int
    uses_global_atomics: bool
    prints: bool = False  # calls print(): its blocks run on one host thread (see launcher)
    reference: bool = False
    module_path: str = ""
    filename: str = ""
    firstlineno: int = 0
    source_lines: list[str] = field(default_factory=list)
    ir: KernelIR | None = None
    mode: str = "fast"  # "fast" or "check" (the sanitizer), see codegen/instrument.py
    half_args: tuple[int, ...] = ()  # float16 arguments, passed as their storage (device_args)
    cooperative: bool = False  # has grid syncs: all blocks on one host thread, phase by phase
    pending: Any = None  # numba's compilation of ``run``, deferred (compile_kernel(defer=))

    @property
    def deferred(self) -> bool:
        """Whether ``run`` still needs ``finish_compile()`` before it is called."""
        return self.pending is not None

    @property
    def loop_free(self) -> bool:
        """Whether the kernel and its device functions have no ``while`` or ``for``: each
        work-group is straight-line code that ends soon (no watchdog needed for it)."""
        return not any(s.what == "loop" for s in self.sites)

    def finish_compile(self) -> None:
        """Compile ``run``'s machine code now if ``compile_kernel(defer=True)`` left it
        (a no-op otherwise); raises its ``KernelCompileError``. Call it on the launching
        thread, before work-groups run: not inside the watchdog's time.

        >>> import numba
        >>> from gpusim.compile.pipeline import compile_kernel
        >>> def one(out):
        ...     out[0] = 1
        >>> ck = compile_kernel(one, (numba.types.float64[::1],), wave_size=64, defer=True)
        >>> ck.deferred
        True
        >>> ck.finish_compile(); ck.deferred
        False
        """
        pending = self.pending
        if pending is not None:
            pending()  # raises, leaving it pending, when numba cannot compile it
            self.pending = None

    @classmethod
    def from_ir(cls, kir: KernelIR, run: Any, workspace: Any, *, reference: bool
                ) -> CompiledKernel:
        nodes = list(walk_schedule(kir.schedule))
        atomics = any(s.what == "atomic" and s.space == "global" for s in kir.sites)
        return cls(
            name=kir.name, source=kir.source, run=run, workspace=workspace,
            wave_size=kir.wave_size,
            arg_types=tuple(kir.arg_types), params=[kir.user_name(p) for p in kir.params],
            const_arrays=[kir.arrays[n].value for n in sorted(kir.const_params)],
            sites=kir.sites, static_lds_bytes=kir.static_lds_bytes,
            dynamic_lds=any(d.dynamic for d in kir.arrays.values()),
            n_regions=sum(isinstance(n, Region) for n in nodes),
            n_barriers=sum(isinstance(n, Barrier) for n in nodes),
            n_collectives=sum(isinstance(n, Collective) for n in nodes),
            uses_global_atomics=atomics, prints=_prints(nodes), reference=reference,
            module_path=getattr(kir, "module_path", ""), filename=kir.src.filename,
            firstlineno=kir.src.firstlineno, source_lines=list(kir.src.lines), ir=kir,
            mode=kir.mode, half_args=half_positions(kir.arg_types),
            cooperative=any(isinstance(n, Barrier) and n.kind == "sync_grid" for n in nodes))

    def device_args(self, args: tuple) -> tuple:
        """The launch arguments as the generated code takes them: float16 arrays as their
        uint16 bits, float16 numbers as float32 (``passes/half.py``); others unchanged."""
        if not self.half_args:
            return args
        return tuple(storage_value(a) if k in self.half_args else a for k, a in enumerate(args))

    def line_text(self, line: int, filename: str | None = None) -> str:
        """The user's source line ``line`` (of the kernel's own file)."""
        if filename not in (None, self.filename) and self.ir is not None:
            return ""
        i = line - self.firstlineno
        return self.source_lines[i].strip() if 0 <= i < len(self.source_lines) else ""

    def resources(self) -> dict[str, int]:
        """What a profiler or occupancy model needs from the kernel itself."""
        return {"static_lds_bytes": self.static_lds_bytes, "regions": self.n_regions,
                "barriers": self.n_barriers, "collectives": self.n_collectives}


def _prints(nodes: list) -> bool:
    """Whether any region calls print() or printf() (device printf)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id in ("print", "printf")
               for region in nodes if isinstance(region, Region)
               for stmt in region.stmts for n in ast.walk(stmt))
