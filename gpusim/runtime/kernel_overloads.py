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
(2432, 2432)
"""

from __future__ import annotations

import math
from typing import Any

from gpusim.compile.pipeline import front_end
from gpusim.engine.cooperative import max_cooperative_blocks
from gpusim.runtime.system import current_device


class KernelOverload:
    """One signature of a kernel, as ``kernel.overloads[sig]`` gives it."""

    def __init__(self, kernel: Any, signature: tuple):
        self.kernel, self.signature = kernel, signature

    def __repr__(self) -> str:
        return f"<gpusim kernel {self.kernel.__name__}{self.signature}>"

    def max_cooperative_grid_blocks(self, blockdim: Any, dynsmemsize: int = 0) -> int:
        """Most blocks of ``blockdim`` threads a cooperative launch (``cuda.cg.this_grid()``
        with ``g.sync()``) may have on the current device: work-groups per CU from gpusim's
        occupancy model, with this kernel's LDS, times the CUs
        (``gpusim.engine.cooperative``); 0 if such a block does not fit at all."""
        dims = tuple(blockdim) if isinstance(blockdim, (tuple, list)) else (blockdim,)
        spec = current_device().spec
        lds = self._static_lds(spec.wave_size) + int(dynsmemsize)
        return max_cooperative_blocks(spec, block_threads=math.prod(int(d) for d in dims),
                                      lds_bytes=lds)

    def _static_lds(self, wave_size: int) -> int:
        """The kernel's static LDS for this signature (the front end only: no numba build)."""
        for ck in self.kernel.specializations:
            if tuple(ck.arg_types) == tuple(self.signature):
                return ck.static_lds_bytes
        kir = front_end(self.kernel.py_func, wave_size=wave_size, arg_types=self.signature)
        return kir.static_lds_bytes


def overloads_of(kernel: Any) -> dict[tuple, KernelOverload]:
    """``{argument types: KernelOverload}``: declared signatures, then compiled ones."""
    sigs = list(kernel.signatures or []) + [tuple(ck.arg_types) for ck in kernel.specializations]
    return {sig: KernelOverload(kernel, sig) for sig in sigs}
