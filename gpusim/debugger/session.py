"""``gpusim.debug``: launch a kernel for real, with one of its work-groups recorded, and
step through it in a view (``gpusim.viz.stepper``).

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.debugger.session import debug
>>> @hip.jit
... def parity(out):
...     i = hip.grid(1)
...     if i % 2 == 0:
...         out[i] = 1
...     else:
...         out[i] = -1
>>> out = np.zeros(256, np.int32)
>>> view = debug(parity[2, 128], out, block=(1, 0, 0))
>>> rec = view.recording
>>> out[128:132].tolist()                       # the launch ran, every work-group
[1, -1, 1, -1]
>>> [(s.wave, s.line, int(s.exec.sum())) for s in rec.steps[:4]]   # lines of this text
[(0, 3, 64), (0, 4, 64), (0, 5, 32), (0, 7, 32)]
>>> rec.lanes(3)["i"][:3]                       # wave 0 of work-group 1: lanes 0..63
[128, 129, 130]
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from gpusim.debugger.runner import WorkgroupRecorder
from gpusim.engine.validate import as_dim3
from gpusim.errors import GpusimError, SanitizerError
from gpusim.runtime.darray import DeviceArray, to_device
from gpusim.runtime.streams import synchronize_stream
from gpusim.viz.base import View
from gpusim.viz.stepper import stepper


def debug(configured: Any, *args: Any, block: Any = (0, 0, 0), budget: int = 200_000,
          lines: tuple[int, int] | None = None, sanitize: bool = True) -> View:
    """Run ``configured`` (``kernel[grid, block]``) on ``args`` like a normal launch, with
    work-group ``block`` (its (x, y, z) in the grid) recorded; wait for it and return the
    stepper view (its ``.recording``: the ``Recording``). Every other work-group runs on
    the fast path, so the results are the launch's. ``budget``: the most statement steps
    recorded (a longer work-group stops with an error that says how to narrow it);
    ``lines=(first, last)``: record only the statements of those source lines.
    ``sanitize``: first run the launch on the sanitizer's checked path on copies of the
    array arguments, so the view can jump to each race or uninitialised read it finds
    (arguments that cannot be copied, C pointers, skip this)."""
    kernel = getattr(configured, "kernel", None)
    if kernel is None:
        raise TypeError("gpusim.debug takes a configured kernel, as you would launch it: "
                        "gpusim.debug(kernel[grid, block], *args, block=(0, 0, 0))")
    grid, threads, stream, shared = configured.config
    gx, gy, gz = as_dim3(grid, "grid")
    bx, by, bz = (tuple(block) + (0, 0))[:3] if isinstance(block, tuple) else (block, 0, 0)
    if not (0 <= bx < gx and 0 <= by < gy and 0 <= bz < gz):
        raise ValueError(f"gpusim.debug: block={(bx, by, bz)} is not in the grid "
                         f"{(gx, gy, gz)} of this launch; pick a work-group inside it")
    findings = _findings(kernel, grid, threads, shared, args) if sanitize else []
    runner = WorkgroupRecorder(bx + gx * (by + gy * bz), budget, lines)
    kernel.launch(grid, threads, args, stream=stream, shared_bytes=shared, recorder=runner)
    synchronize_stream(stream)
    rec = replace(runner.recording(), findings=findings)
    module = getattr(kernel, "module", None)  # a HIP C++ kernel: steps on its C++ lines
    if module is not None and hasattr(module, "cpp_line"):
        rec = rec.on_lines(module.cpp_line, module.source.splitlines())
    return stepper(rec)


def _findings(kernel: Any, grid: Any, threads: Any, shared: int, args: tuple) -> list:
    """What the sanitizer finds in this launch, run checked on copies of the arguments
    (the real launch must run once, on the real ones); [] when an argument cannot be
    copied or the checked run fails another way (the real launch then reports it)."""
    copies = []
    for a in args:
        if isinstance(a, DeviceArray):
            copies.append(to_device(a.copy_to_host()))
        elif isinstance(a, np.ndarray):
            copies.append(a.copy())
        elif isinstance(a, (int, float, complex, np.generic)):
            copies.append(a)
        else:  # a C pointer, a record: no copy to run on
            return []
    own = kernel.check
    kernel.check = True  # this launch only: the sanitizer's checked path
    try:
        kernel.launch(grid, threads, tuple(copies), shared_bytes=shared)
        synchronize_stream(0)
    except SanitizerError as err:
        return list(err.findings)
    except GpusimError:
        return []
    finally:
        kernel.check = own
    return []
