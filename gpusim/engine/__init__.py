"""The engine: runs a compiled kernel over a grid of work-groups.

Data flow::

    prepare(kernel, grid, block, args, device)            launcher.py
      validate.py   launch shape and LDS against the DeviceSpec (hipErrorInvalidConfiguration)
      arguments.py  what a kernel can take (hipErrorInvalidValue), numba types
      specialize    gpusim.compile -> CompiledKernel (cached per types, wave size, mode)
    -> Launch.run()
      workers.py    host threads claim work-groups -> watchdog.py (timeout, Ctrl-C)
      sanitizer.py  check mode: shadow memory in, findings.py records and report out
      tracing.py    trace mode: a prefix or a spread sample of work-groups instrumented,
                    on the host's cores -> trace_rows.py -> Trace
    estimate.py     the default modeled time: a sampled trace through the memory and
                    timing models on a scaled machine, memoised per launch shape
      faults.py     KernelFaultError -> HipError naming kernel, line, block, thread

>>> from gpusim.engine import Launch, prepare, launch
"""

from gpusim.engine.arguments import arg_types, bad_argument
from gpusim.engine.launcher import Launch, launch, prepare, specialize
from gpusim.engine.validate import as_dim3, validate_launch

__all__ = ["Launch", "prepare", "launch", "specialize", "arg_types", "bad_argument",
           "validate_launch", "as_dim3"]
