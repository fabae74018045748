"""The engine: runs a compiled kernel over a grid of work-groups.

Data flow::

    CompiledKernel (gpusim.compile) --launch()--> validate.py  (limits of the DeviceSpec)
                                             \\--> workers.py  (host threads claim blocks)
                                                  -> watchdog.py (timeout, Ctrl-C: stop them)
                                             \\--> sanitizer.py (check mode: shadow memory in,
                                                  findings.py records and report out)
                                             \\--> faults.py   (KernelFaultError -> HipError)
                                             \\--> tracing.py  (trace mode: first work-groups
                                                  instrumented -> trace_rows.py -> memsim Trace)

>>> from gpusim.engine import launch, validate_launch
"""

from gpusim.engine.launch import arg_types, launch, specialize
from gpusim.engine.validate import as_dim3, validate_launch

__all__ = ["launch", "specialize", "arg_types", "validate_launch", "as_dim3"]
