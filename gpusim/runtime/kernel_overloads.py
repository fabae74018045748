"""``kernel.overloads``: numba.cuda's per-signature view of a kernel.

numba.cuda keeps one compiled kernel per argument-type tuple in ``Dispatcher.overloads``
(filled at decoration time for each explicit signature, at launch otherwise), and code
asks it ``overloads[sig].max_cooperative_grid_blocks(blockdim)`` before a cooperative
launch. Here the keys are the same type tuples (the declared signatures, then the types
of every specialization compiled so far); the values answer what numba's do without
compiling anything.

>>> from numba import int32
>>> from gpusim import cuda
>>> @cuda.jit((int32[::1],))
... def k(a):
...     a[0] = 1
>>> ov = k.overloads[(int32[::1],)]
>>> ov.max_cooperative_grid_blocks(256), ov.max_cooperative_grid_blocks((16, 4, 4))
(1, 1)
"""

from __future__ import annotations

import math
from typing import Any

from gpusim.runtime.system import current_device


class KernelOverload:
    """One signature of a kernel, as ``kernel.overloads[sig]`` gives it."""

    def __init__(self, kernel: Any, signature: tuple):
        self.kernel, self.signature = kernel, signature

    def __repr__(self) -> str:
        return f"<gpusim kernel {self.kernel.__name__}{self.signature}>"

    def max_cooperative_grid_blocks(self, blockdim: Any) -> int:
        """Most blocks of ``blockdim`` threads a cooperative launch (``cuda.cg.this_grid()``
        with ``g.sync()``) may have: 1 here, as gpusim keeps a grid barrier only within
        one work-group (``gpusim/compile/passes/grid_group.py``); 0 if such a block does
        not fit on the device at all."""
        dims = tuple(blockdim) if isinstance(blockdim, (tuple, list)) else (blockdim,)
        threads = math.prod(int(d) for d in dims)
        return 1 if 0 < threads <= current_device().spec.max_threads_per_block else 0


def overloads_of(kernel: Any) -> dict[tuple, KernelOverload]:
    """``{argument types: KernelOverload}``: declared signatures, then compiled ones."""
    sigs = list(kernel.signatures or []) + [tuple(ck.arg_types) for ck in kernel.specializations]
    return {sig: KernelOverload(kernel, sig) for sig in sigs}
