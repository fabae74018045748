"""The engine: runs a compiled kernel over a grid of work-groups.

Data flow::

    CompiledKernel (gpusim.compile) --launch()--> validate.py  (limits of the DeviceSpec)
                                             \\--> workers.py  (host threads claim blocks,
                                                                watchdog, Ctrl-C)
                                             \\--> faults.py   (KernelFaultError -> HipError)

>>> from gpusim.engine import launch, validate_launch
"""

from gpusim.engine.launch import arg_types, launch, specialize
from gpusim.engine.validate import as_dim3, validate_launch

__all__ = ["launch", "specialize", "arg_types", "validate_launch", "as_dim3"]
