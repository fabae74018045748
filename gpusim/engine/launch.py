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
from gpusim.engine.validate import as_dim3, validate_launch
from gpusim.engine.workers import LaunchTimeoutError, plan_workers, run_workers
from gpusim.errors import HipError, hipError_t

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


def specialize(kernel: Any, args: tuple, wave_size: int, *, reference: bool = False
               ) -> CompiledKernel:
    """The compiled kernel for these arguments' types, compiling on first use."""
    if isinstance(kernel, CompiledKernel):
        return kernel
    pyfunc = getattr(kernel, "py_func", kernel)
    key = (pyfunc, arg_types(args), wave_size, reference)
    with _cache_lock:
        ck = _cache.get(key)
    if ck is None:
        ck = compile_kernel(pyfunc, key[1], wave_size=wave_size, reference=reference)
        with _cache_lock:
            _cache[key] = ck
    return ck


def launch(kernel: Any, *, grid: Any, block: Any, args: tuple, dynamic_lds_bytes: int = 0,
           device: Any, reference: bool = False) -> None:
    """Run ``kernel`` on ``grid`` x ``block`` threads of ``device`` (a ``DeviceSpec``).

    ``args`` are NumPy arrays (written in place) and numbers. ``kernel`` is a
    ``CompiledKernel`` or a kernel function (compiled and cached per argument types).
    Raises ``HipError``: hipErrorInvalidConfiguration for a launch the device cannot run,
    hipErrorIllegalAddress for an out-of-bounds access, hipErrorLaunchFailure for a
    divergent barrier, hipErrorAssert, hipErrorLaunchTimeOut from the watchdog.
    """
    from gpusim.config import config

    grid3, block3 = as_dim3(grid, "grid"), as_dim3(block, "block")
    name = getattr(kernel, "name", None) or getattr(kernel, "__name__", "kernel")
    validate_launch(name, grid3, block3, int(dynamic_lds_bytes), 0, device)
    ck = specialize(kernel, tuple(args), device.wave_size, reference=reference)
    validate_launch(ck.name, grid3, block3, int(dynamic_lds_bytes), ck.static_lds_bytes, device)
    nblocks, nthreads = math.prod(grid3), math.prod(block3)
    workers, chunk = plan_workers(nblocks, config.parallel and not reference)
    lp = np.array([*grid3, *block3, nthreads, int(dynamic_lds_bytes)], dtype=np.int64)
    ctl = np.zeros(8, dtype=np.int64)  # [0]: stop flag; [1:7]: the first bounds fault
    call_args = tuple(args) + tuple(ck.const_arrays) + (lp, ctl)
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
        errors = run_workers(worker, ctl, workers, config.watchdog_seconds)
    except LaunchTimeoutError:
        raise HipError(hipError_t.hipErrorLaunchTimeOut,
                       f"kernel '{ck.name}' ran longer than gpusim.config.watchdog_seconds = "
                       f"{config.watchdog_seconds:g} s and was stopped (an endless loop?). "
                       "Raise the limit for long kernels.") from None
    faults = [e for e in errors if isinstance(e, KernelFaultError) and e.args[0] != FAULT_STOPPED]
    if faults:
        details = faults[0].args
        if len(details) == 1:  # a bounds check left its record in ctl (see devicelib._ix)
            details = (int(ctl[1]), *(int(v) for v in ctl[2:7]))
        raise fault_error(ck, details, grid=grid3, block=block3, args=tuple(args))
    others = [e for e in errors if not isinstance(e, KernelFaultError)]
    if others:
        raise others[0]
