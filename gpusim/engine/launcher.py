"""One launch path: ``prepare(...) -> Launch`` checks and compiles, ``Launch.run()`` runs.

::

    prepare(kernel, grid, block, args, device, check, tracer)
      as_dim3 + validate_launch   the launch shape against the device (once)
      arg_types                   what the kernel can take (arguments.py, once)
      specialize                  the CompiledKernel for these types and mode (cached)
      -> Launch                   checked dims, compiled kernel, call arguments, mode
    Launch.run()                  work-groups on the host's cores (workers.py), the
                                  sanitizer's shadow memory (sanitizer.py) or the tracer
                                  (trace/tracer.py) around them, faults -> HipError
                                  (faults.py); then the launch's time (launch_time.py)

The runtime prepares when a launch is queued (``launch_time.prepare_timed``: bad
launches fail at the call, as ``hipLaunchKernelGGL`` does) and runs it when the stream
reaches it. Which path a launch takes (fast, checked or traced) is
``gpusim.config.launch_mode``'s rule; how its time is made, ``launch_time.py``'s.

>>> import numpy as np
>>> from gpusim.compile import lang as hip
>>> from gpusim.devices import get_spec
>>> def fill(out, v):
...     i = hip.grid(1)
...     if i < out.size:
...         out[i] = v
>>> out = np.zeros(100, np.float32)
>>> ready = prepare(fill, grid=2, block=64, args=(out, 3.0), device=get_spec("mi300x"))
>>> ready.grid, ready.block, ready.mode
((2, 1, 1), (64, 1, 1), 'fast')
>>> ready.run()
>>> float(out.sum())
300.0
"""

from __future__ import annotations

import math
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.compile import CompiledKernel, compile_kernel
from gpusim.compile.device import FAULT_STOPPED, KernelFaultError
from gpusim.config import config
from gpusim.engine.arguments import arg_types
from gpusim.engine.cooperative import GRID_SYNC_SLOT, check_cooperative
from gpusim.engine.faults import fault_error
from gpusim.engine.sanitizer import CheckState
from gpusim.engine.validate import as_dim3, validate_lds, validate_shape
from gpusim.engine.watchdog import timeout_error
from gpusim.engine.workers import LaunchTimeoutError, plan_workers, run_workers
from gpusim.errors import HipError

_cache: dict[tuple, CompiledKernel] = {}
_cache_lock = threading.Lock()


_launched: dict[Any, int] = {}  # kernel function -> work-groups launched so far


def worth_versioning(kernel: Any, grid: tuple[int, int, int]) -> bool:
    """Compile this launch's kernel with unchecked regions (pass ``ranges``)? It costs a
    second compile, about as long again: worth it once the kernel has launched
    ``config.unchecked_from_groups`` work-groups in all, this launch included (one big
    launch, or many small ones); a few small launches keep the one checked copy."""
    pyfunc = getattr(kernel, "py_func", kernel)
    with _cache_lock:
        _launched[pyfunc] = total = _launched.get(pyfunc, 0) + grid[0] * grid[1] * grid[2]
    limit = config.unchecked_from_groups
    return limit >= 0 and total >= limit


def specialize(kernel: Any, args: tuple, wave_size: int, *, reference: bool = False,
               mode: str = "fast", defer: bool = False, debug: bool = False,
               target: str = "", versioned: bool = True) -> CompiledKernel:
    """The compiled kernel for these arguments' types (and generation ``mode``: "fast" or
    "check"; ``debug``: numba.cuda's ``debug=True``), compiling on first use;
    ``defer=True`` may leave numba's machine code pending
    (``CompiledKernel.finish_compile``), otherwise it is there."""
    if isinstance(kernel, CompiledKernel):
        return kernel
    pyfunc = getattr(kernel, "py_func", kernel)
    key = (pyfunc, arg_types(args, pyfunc), wave_size, reference, mode, debug, target,
           versioned)
    ck = _cache.get(key)  # a dict read is atomic; the lock only orders the writers
    if ck is None:
        ck = compile_kernel(pyfunc, key[1], wave_size=wave_size, reference=reference,
                            mode=mode, defer=defer, debug=debug, target=target,
                            versioned=versioned)
        with _cache_lock:
            ck = _cache.setdefault(key, ck)
    if not defer:
        ck.finish_compile()
    return ck


@dataclass
class Launch:
    """A checked, compiled launch, ready to ``run()`` (possibly later, from a stream)."""

    kernel: CompiledKernel
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    dynamic_lds_bytes: int
    args: tuple  # what the kernel gets: NumPy arrays (written in place) and numbers
    device: Any  # DeviceSpec
    mode: str  # "fast", "check" (the sanitizer) or "trace" (config.launch_mode)
    tracer: Any = None  # gpusim.trace.tracer.Tracer in trace mode
    grid_syncs: int = 0  # grid syncs the last run() executed (cooperative kernels)
    # work for the launching thread once the traced work-groups ran, while the fast path
    # runs the others (launch_time.py: the default timing model's estimate)
    meanwhile: Callable[[], None] | None = None
    timing: Any = None  # launch_time.LaunchTiming: how run() makes the launch's time

    def settle(self) -> None:
        """Compile now, on the launching thread, the machine code this launch will run, so
        that its errors raise at the launch call (``prepare(defer=True)`` left it): the
        fast variant, unless a sampled tracer covers every work-group (a small grid under
        the default estimate), when only the trace variant is built. If that one fails
        (the launch then runs plainly) the fast variant is compiled here too."""
        tracer = self.tracer
        if (self.kernel.deferred and tracer is not None
                and tracer.covers(math.prod(self.grid)) and tracer.variant(self.kernel)):
            return
        self.kernel.finish_compile()

    @property
    def lds_bytes(self) -> int:
        """LDS one work-group uses: the kernel's static arrays plus the dynamic size."""
        return self.kernel.static_lds_bytes + self.dynamic_lds_bytes

    def run(self) -> Any:
        """Run every work-group; with a ``timing`` (``launch_time.prepare_timed``) return
        the launch's ``LaunchResult``, else None. Raises ``HipError``:
        hipErrorIllegalAddress for an out-of-bounds access, hipErrorLaunchFailure for a
        divergent barrier (and, checked, ``SanitizerError`` for races and uninitialised
        LDS), hipErrorAssert, and hipErrorLaunchTimeOut from the watchdog."""
        self._run_workgroups()
        if self.timing is None:
            return None
        result = self.timing.result(self)
        # the trace is spent: let it go now rather than when the garbage collector breaks
        # the launch -> meanwhile -> launch cycle (a long trace is tens of MB)
        self.meanwhile = self.tracer = None
        return result

    def _run_workgroups(self) -> None:
        """Every work-group on the host's cores, traced ones first; raise what they did."""
        ck, grid3, block3, dyn = self.kernel, self.grid, self.block, self.dynamic_lds_bytes
        nblocks, nthreads = math.prod(grid3), math.prod(block3)
        state = None
        if self.mode == "check":  # shadow memory; blocks in order on one worker
            state = CheckState(ck, self.args, grid=grid3, block=block3,
                               dynamic_lds_bytes=dyn, wave_size=self.device.wave_size)
        # Device printf: numba writes a print() item by item, so blocks printing on two
        # host threads would interleave within a line; on a GPU each call's line is whole.
        workers, chunk = plan_workers(nblocks, config.parallel and not ck.reference
                                      and state is None and not ck.prints)
        if ck.cooperative:  # grid syncs order all work-groups: one call runs the grid
            workers, chunk = 1, nblocks  # phase by phase (compile/codegen/cooperative.py)
        lp = np.array([*grid3, *block3, nthreads, dyn], dtype=np.int64)
        ctl = np.zeros(8, dtype=np.int64)  # [0]: stop flag; [1:7]: the first bounds fault
        call_args = ck.device_args(self.args) + tuple(ck.const_arrays) + (lp, ctl) + (
            (state.chk,) if state is not None else ())
        claims = iter(_claims([], nblocks, chunk))  # next() is atomic under the GIL

        def worker() -> None:
            ws = ck.workspace(nthreads, dyn, nblocks) if ck.cooperative else ck.workspace(
                nthreads, dyn)
            extra = (ws,) if ws else ()
            while ctl[0] == 0:
                b0, b1 = next(claims, (0, 0))
                if b1 == 0:
                    return
                ck.run(b0, b1, *call_args, *extra)

        try:
            errors, left = [], nblocks
            if self.tracer is not None:  # some work-groups instrumented (trace/tracer.py)
                errors = self.tracer.run(ck, call_args, grid3, block3, dyn, self.device)
                left -= self.tracer.planned
                if self.meanwhile is not None:  # the launching thread runs the estimate
                    # meanwhile, holding the GIL between its numba calls; each claim needs
                    # the GIL, so fewer, larger claims wait less for it (vector add 2^20,
                    # 16 -> 4 claims: first launch CPU 2.05-2.07x -> 1.92-1.98x a plain one)
                    chunk = max(chunk, nblocks // (workers * 2))
                claims = iter(_claims(self.tracer.spans, nblocks, chunk))  # the fast path
            if not errors and left > 0:  # does the rest (built here if settle() left it)
                ck.finish_compile()
                errors = run_workers(worker, ctl, workers, config.watchdog_seconds,
                                     meanwhile=self._meanwhile if self.tracer else None)
        except LaunchTimeoutError as exc:
            raise timeout_error(ck, exc.args[0] if exc.args else [], config.watchdog_seconds,
                                grid3) from None
        finally:
            if self.tracer is not None:  # the sample's Trace, if the fast path did not
                self.tracer.finish()     # build it meanwhile
            if state is not None:
                state.close()  # findings read; shadow memory free for the next launch
        self.grid_syncs = int(ctl[GRID_SYNC_SLOT])  # cooperative kernels count them
        self._raise(errors, ctl, state)

    def _meanwhile(self) -> None:
        """On the launching thread while the fast path runs: the traced sample's Trace,
        then the caller's ``meanwhile`` (the default timing model's estimate)."""
        self.tracer.finish()
        if self.meanwhile is not None:
            self.meanwhile()

    def _raise(self, errors: list, ctl: np.ndarray, state: CheckState | None) -> None:
        """The launch's error, if any: a fault first, then anything else, then findings."""
        faults = [e for e in errors
                  if isinstance(e, KernelFaultError) and e.args[0] != FAULT_STOPPED]
        if faults:
            details = faults[0].args
            if len(details) == 1:  # a bounds check left its record in ctl (devicelib._ix)
                details = (int(ctl[1]), *(int(v) for v in ctl[2:7]))
            err = fault_error(self.kernel, details, grid=self.grid, block=self.block,
                              args=self.args)
            checked = state is not None and isinstance(err, HipError)  # not a kernel's raise
            raise (state.with_findings(err) if checked else err)
        others = [e for e in errors if not isinstance(e, KernelFaultError)]
        if others:
            raise others[0]
        if state is not None and (err := state.error()) is not None:
            raise err


def _claims(done: list[tuple[int, int]], nblocks: int, chunk: int) -> list[tuple[int, int]]:
    """Ranges of at most ``chunk`` work-groups covering [0, nblocks) except ``done``.

    >>> _claims([(0, 3), (8, 9)], 12, 4)
    [(3, 7), (7, 8), (9, 12)]
    """
    out, at = [], 0
    for s, e in [*sorted(done), (nblocks, nblocks)]:
        out += [(b, min(b + chunk, s)) for b in range(at, s, chunk)]
        at = max(at, e)
    return out


def prepare(kernel: Any, *, grid: Any, block: Any, args: tuple, device: Any,
            dynamic_lds_bytes: int = 0, reference: bool = False, check: bool | None = None,
            tracer: Any = None, max_threads: int | None = None, defer: bool = False,
            debug: bool = False) -> Launch:
    """Check and compile a launch of ``kernel`` on ``grid`` x ``block`` threads of
    ``device`` (a ``DeviceSpec``); nothing runs until ``Launch.run()``.

    ``kernel`` is a ``CompiledKernel`` or a kernel function (compiled and cached per
    argument types). ``check`` is the kernel's own switch (None: ``gpusim.config.check``);
    ``tracer`` (``gpusim.trace.tracer.Tracer``) asks for a memory trace, which the checked and
    reference paths do not take. ``max_threads`` is the kernel's ``launch_bounds``;
    ``debug``: numba.cuda's ``debug=True`` (a division by zero raises).
    ``defer=True``: the caller calls ``Launch.settle()`` once it has chosen the tracer.
    Raises ``HipError``: hipErrorInvalidConfiguration for a launch the device cannot run,
    hipErrorInvalidValue for an argument a kernel cannot take.
    """
    grid3, block3 = as_dim3(grid, "grid"), as_dim3(block, "block")
    dyn = int(dynamic_lds_bytes)
    name = getattr(kernel, "name", None) or getattr(kernel, "__name__", "kernel")
    validate_shape(name, grid3, block3, dyn, device, max_threads=max_threads)
    mode = config.launch_mode(check, traced=tracer is not None and not reference)
    ck = specialize(kernel, tuple(args), device.wave_size, reference=reference,
                    mode="check" if mode == "check" else "fast", defer=defer,
                    debug=debug, target=device.gfx_target,
                    versioned=worth_versioning(kernel, grid3))
    validate_lds(ck.name, dyn, ck.static_lds_bytes, device)
    if ck.cooperative:  # a grid sync: every work-group must be resident at once (HIP's rule)
        check_cooperative(ck.name, grid3, block3, ck.static_lds_bytes + dyn, device)
        if mode == "trace":  # the tracer runs a few work-groups on their own (trace/tracer.py)
            warnings.warn(f"kernel '{ck.name}' runs untraced: a traced work-group cannot "
                          "pass a grid sync on its own (no memory trace for this launch)",
                          stacklevel=2)
            mode = "fast"
    return Launch(ck, grid3, block3, dyn, tuple(args), device, mode,
                  tracer if mode == "trace" else None)


def launch(kernel: Any, **options: Any) -> None:
    """``prepare(kernel, **options).run()``: check, compile and run at once.

    >>> import numpy as np
    >>> from gpusim.devices import get_spec
    >>> def one(out):
    ...     out[0] = 1
    >>> out = np.zeros(1)
    >>> launch(one, grid=1, block=1, args=(out,), device=get_spec("mi300x")); float(out[0])
    1.0
    """
    prepare(kernel, **options).run()
