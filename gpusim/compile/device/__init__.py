"""The device-side runtime generated kernels call: bounds checks, barriers, shuffles,
votes, atomics and machine operations; each works compiled (numba) and as plain Python
(the reference path).

See README.md in this folder.

>>> from gpusim.compile.device import FAULT_BOUNDS, KernelFaultError
>>> FAULT_BOUNDS
1
"""

from gpusim.compile.device.devicelib import (
    FAULT_ASSERT,
    FAULT_BARRIER,
    FAULT_BOUNDS,
    FAULT_STOPPED,
    KernelFaultError,
    kernel_jit,
)
from gpusim.compile.device.mfma import FAULT_WAVE

__all__ = ["FAULT_ASSERT", "FAULT_BARRIER", "FAULT_BOUNDS", "FAULT_STOPPED", "FAULT_WAVE",
           "KernelFaultError", "kernel_jit"]
