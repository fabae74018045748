"""One work-group of a real launch, run by the debug variant under a recorder.

A ``WorkgroupRecorder`` takes the launch's tracer slot (``engine.Launch``): the engine
gives it the launch's arguments, it runs its work-group with the kernel's ``"debug"``
variant (the reference path reporting to a ``Recorder``), and the fast path runs every
other work-group as in any launch. ``recording()`` then replays the events as the
wavefronts step (``steps.py``).

>>> import numpy as np
>>> from gpusim.compile import lang as hip
>>> from gpusim.devices import get_spec
>>> from gpusim.engine import prepare
>>> def half(x):
...     i = hip.grid(1)
...     if i % 2 == 0:
...         x[i] = i / 2
>>> x = np.zeros(128)
>>> launch = prepare(half, grid=2, block=64, args=(x,), device=get_spec("mi300x"))
>>> launch.tracer = runner = WorkgroupRecorder(1)
>>> launch.run(); x[126]
np.float64(63.0)
>>> rec = runner.recording()
>>> [(s.line, int(s.exec.sum())) for s in rec.steps]
[(2, 64), (3, 64), (4, 32)]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gpusim.compile import CompiledKernel, compile_kernel
from gpusim.debugger.recorder import Recorder
from gpusim.debugger.steps import Recording, simt_steps

_variants: dict[tuple, CompiledKernel] = {}


def debug_variant(ck: CompiledKernel) -> CompiledKernel:
    """The ``"debug"`` compilation of ``ck``'s kernel (reference path), cached per
    argument types, wave size and target as the trace variant is: the passes take
    ~0.1 s, a second recording of the same kernel should not wait for them again."""
    key = (ck.ir.pyfunc, ck.arg_types, ck.wave_size, ck.ir.target)
    dk = _variants.get(key)
    if dk is None:
        dk = _variants[key] = compile_kernel(ck.ir.pyfunc, ck.arg_types,
                                             wave_size=ck.wave_size, reference=True,
                                             mode="debug", target=ck.ir.target)
    return dk


class WorkgroupRecorder:
    """Records work-group ``workgroup`` (its number in the grid, x fastest)."""

    def __init__(self, workgroup: int, budget: int = 200_000,
                 lines: tuple[int, int] | None = None):
        self.workgroup, self.budget, self.lines = workgroup, budget, lines
        self.spans = [(workgroup, workgroup + 1)]  # the engine's fast path skips it
        self.planned = 1
        self.recorder: Recorder | None = None
        self._dynamic_lds = 0
        self._launch: tuple | None = None  # (debug variant, block, wave size)

    def covers(self, nblocks: int) -> bool:
        """Whether this runs every work-group of the launch (never: one)."""
        return False

    def run(self, ck: CompiledKernel, call_args: tuple, grid: tuple, block: tuple,
            dynamic_lds_bytes: int, device: Any) -> list[BaseException]:
        """Run the recorded work-group; returns its error, if any (the engine reports
        it as a fault of this launch)."""
        dk = debug_variant(ck)
        threads = math.prod(block)
        self.recorder = Recorder(dk.ir.debug_points, threads, self.budget, self.lines)
        gx, gy = grid[0], grid[1]
        w = self.workgroup
        self._launch = (dk, (w % gx, w // gx % gy, w // (gx * gy)), ck.wave_size, tuple(block))
        self._dynamic_lds = dynamic_lds_bytes
        ws = dk.workspace(threads, dynamic_lds_bytes)
        plain = call_args[:len(ck.params) + len(ck.const_arrays) + 2]  # (..., lp, ctl)
        try:
            dk.run(self.workgroup, self.workgroup + 1, *plain, self.recorder,
                   *((ws,) if ws else ()))
        except BaseException as exc:  # noqa: BLE001 - the engine raises it as usual
            return [exc]
        return []

    def finish(self) -> None:
        """Nothing to build when the launch ends (``recording`` does it on demand)."""

    def recording(self) -> Recording:
        """The recorded work-group, stepped as its wavefronts run."""
        if self.recorder is None or self._launch is None:
            raise RuntimeError("nothing was recorded: the launch did not run this "
                               f"work-group ({self.workgroup})")
        dk, coords, wave_size, blockdim = self._launch
        src = dk.ir.src
        sites = {k: (s.array, s.space) for k, s in enumerate(dk.sites)}
        lds = {name: max(1, int(np.prod(d.shape))) if not d.dynamic else
               self._dynamic_lds // d.dtype.itemsize
               for name, d in dk.ir.arrays.items() if d.space == "shared"}
        return Recording(dk.name, coords, wave_size,
                         self.recorder.threads, simt_steps(self.recorder, wave_size),
                         list(src.lines) if src else [], src.firstlineno if src else 1,
                         sites, lds, self.budget, blockdim)

