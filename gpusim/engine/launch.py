"""``launch``: run a compiled kernel over a grid of work-groups on the host's cores.

>>> import numpy as np
>>> from gpusim.compile import lang as hip
>>> from gpusim.devices import get_spec
>>> def fill(out, v):
...     i = hip.grid(1)
...     if i < out.size:
...         out[i] = v
>>> out = np.zeros(100, np.float32)
>>> launch(fill, grid=(2, 1, 1), block=(64, 1, 1), args=(out, 3.0), dynamic_lds_bytes=0,
...        device=get_spec("mi300x"))
>>> float(out.sum())
300.0
"""

from __future__ import annotations

import itertools
import math
import threading
from typing import Any

import numpy as np
from numba import typeof
from numba.core import types

from gpusim.compile.compiled import CompiledKernel
from gpusim.compile.devicelib import FAULT_STOPPED, KernelFaultError
from gpusim.compile.pipeline import compile_kernel
from gpusim.engine.faults import fault_error
from gpusim.engine.sanitizer import CheckState
from gpusim.engine.validate import as_dim3, validate_launch
from gpusim.engine.watchdog import timeout_error
from gpusim.engine.workers import LaunchTimeoutError, plan_workers, run_workers

_cache: dict[tuple, CompiledKernel] = {}
_cache_lock = threading.Lock()


def arg_types(args: tuple, names: list[str] | None = None) -> tuple:
    """numba types of launch arguments (arrays and scalars only)."""
    out = []
    for k, arg in enumerate(args):
        if isinstance(arg, np.ndarray) or isinstance(arg, (bool, int, float, complex, np.generic)):
            ty = typeof(arg)
        else:
            what = names[k] if names and k < len(names) else f"#{k + 1}"
            raise TypeError(f"kernel argument {what} is a {type(arg).__name__}; kernels take "
                            "NumPy/device arrays and numbers")
        if isinstance(ty, types.Array) and not ty.is_c_contig and not ty.is_f_contig:
            ty = ty.copy(layout="A")
        out.append(ty)
    return tuple(out)


def specialize(kernel: Any, args: tuple, wave_size: int, *, reference: bool = False,
               mode: str = "fast") -> CompiledKernel:
    """The compiled kernel for these arguments' types (and generation ``mode``: "fast" or
    "check"), compiling on first use."""
    if isinstance(kernel, CompiledKernel):
        return kernel
    pyfunc = getattr(kernel, "py_func", kernel)
    key = (pyfunc, arg_types(args), wave_size, reference, mode)
    with _cache_lock:
        ck = _cache.get(key)
    if ck is None:
        ck = compile_kernel(pyfunc, key[1], wave_size=wave_size, reference=reference,
                            mode=mode)
        with _cache_lock:
            _cache[key] = ck
    return ck


def checked_mode(check: bool | None) -> str:
    """The generation mode for a launch: ``check`` if given, else ``gpusim.config.check``."""
    from gpusim.config import config

    return "check" if (config.check if check is None else check) else "fast"


def launch(kernel: Any, *, grid: Any, block: Any, args: tuple, dynamic_lds_bytes: int = 0,
           device: Any, reference: bool = False, check: bool | None = None,
           tracer: Any = None) -> None:
    """Run ``kernel`` on ``grid`` x ``block`` threads of ``device`` (a ``DeviceSpec``).

    ``args`` are NumPy arrays (written in place) and numbers. ``kernel`` is a
    ``CompiledKernel`` or a kernel function (compiled and cached per argument types).
    Raises ``HipError``: hipErrorInvalidConfiguration for a launch the device cannot run,
    hipErrorIllegalAddress for an out-of-bounds access, hipErrorLaunchFailure for a
    divergent barrier, hipErrorAssert, hipErrorLaunchTimeOut from the watchdog.
    ``check=True`` (default: ``gpusim.config.check``) runs the checked path, which also
    raises ``SanitizerError`` (hipErrorLaunchFailure) for races and uninitialised LDS.
    ``tracer`` (``engine.tracing.Tracer``, fast path only) records a memory trace.
    """
    from gpusim.config import config

    grid3, block3 = as_dim3(grid, "grid"), as_dim3(block, "block")
    name = getattr(kernel, "name", None) or getattr(kernel, "__name__", "kernel")
    validate_launch(name, grid3, block3, int(dynamic_lds_bytes), 0, device)
    ck = specialize(kernel, tuple(args), device.wave_size, reference=reference,
                    mode=checked_mode(check))
    validate_launch(ck.name, grid3, block3, int(dynamic_lds_bytes), ck.static_lds_bytes, device)
    nblocks, nthreads = math.prod(grid3), math.prod(block3)
    state = None
    if ck.mode == "check":  # the sanitizer's shadow memory; blocks in order on one worker
        state = CheckState(ck, tuple(args), grid=grid3, block=block3,
                           dynamic_lds_bytes=int(dynamic_lds_bytes), wave_size=device.wave_size)
    workers, chunk = plan_workers(nblocks, config.parallel and not reference and state is None)
    lp = np.array([*grid3, *block3, nthreads, int(dynamic_lds_bytes)], dtype=np.int64)
    ctl = np.zeros(8, dtype=np.int64)  # [0]: stop flag; [1:7]: the first bounds fault
    call_args = tuple(args) + tuple(ck.const_arrays) + (lp, ctl) + (
        (state.chk,) if state is not None else ())
    if tracer is not None and (ck.mode != "fast" or ck.reference):
        tracer = None  # the checked and reference paths are not traced
    claims = itertools.count(0, chunk)  # next() is atomic under the GIL

    def worker() -> None:
        ws = ck.workspace(nthreads, int(dynamic_lds_bytes))
        extra = (ws,) if ws else ()
        while ctl[0] == 0:
            b0 = next(claims)
            if b0 >= nblocks:
                return
            ck.run(b0, min(b0 + chunk, nblocks), *call_args, *extra)

    try:
        errors, first = [], 0
        if tracer is not None:  # trace mode (tracing.py): the first work-groups, instrumented
            errors = tracer.run(ck, call_args, grid3, block3, int(dynamic_lds_bytes), device)
            first = tracer.planned
            claims = itertools.count(first, chunk)  # the fast path does the rest
        if not errors and first < nblocks:
            errors = run_workers(worker, ctl, workers, config.watchdog_seconds)
    except LaunchTimeoutError as exc:
        raise timeout_error(ck, exc.args[0] if exc.args else [], config.watchdog_seconds,
                            grid3) from None
    if state is not None:
        state.close()  # findings read; shadow memory free for the next checked launch
    faults = [e for e in errors if isinstance(e, KernelFaultError) and e.args[0] != FAULT_STOPPED]
    if faults:
        details = faults[0].args
        if len(details) == 1:  # a bounds check left its record in ctl (see devicelib._ix)
            details = (int(ctl[1]), *(int(v) for v in ctl[2:7]))
        err = fault_error(ck, details, grid=grid3, block=block3, args=tuple(args))
        raise (state.with_findings(err) if state is not None else err)
    others = [e for e in errors if not isinstance(e, KernelFaultError)]
    if others:
        raise others[0]
    if state is not None and (err := state.error()) is not None:
        raise err
