"""A launch's register counts and occupancy for its profile record (LLVM's numbers).

While ``gpusim.profile()`` is open, each launch puts the kernel's VGPRs, AGPRs, SGPRs,
scratch and occupancy (for its block size and LDS, dynamic LDS included) into its
``KernelRecord``; the default timing model reads the registers too. The AMDGPU compile
happens on the first profiled launch of a specialization (tens of ms) and is cached;
outside a profile nothing is compiled. A kernel the lowering does not support yet gets
no counts, never an error. (``Kernel.resources()`` answers the same question on demand:
``runtime/kernel_resources.py``.)

>>> import numpy as np
>>> from gpusim.devices import get_spec
>>> from gpusim.engine import specialize
>>> def one(out):
...     out[0] = 1
>>> launch_resources(specialize(one, (np.zeros(1),), 64), get_spec("mi300x"), 64, 0)
{}
"""

from __future__ import annotations

from typing import Any

from gpusim.compile import CompiledKernel
from gpusim.compile.amdgpu import amdgpu_compile
from gpusim.devices import DeviceSpec
from gpusim.errors import GpusimError
from gpusim.occupancy_model import occupancy
from gpusim.profiler import profiling


def launch_resources(ck: CompiledKernel, spec: DeviceSpec, threads: int,
                     dynamic_lds_bytes: int, *, launch_bounds: int | None = None
                     ) -> dict[str, Any]:
    """The ``resources`` of a launch's profile record (``{}`` when not profiling)."""
    if not profiling() or spec.is_calibration_target:  # no AMDGPU code for an NVIDIA GPU
        return {}
    try:
        r = amdgpu_compile(ck.ir.pyfunc, ck.arg_types, spec, launch_bounds=launch_bounds)
        occ = occupancy(block_size=threads, vgprs=r.vgprs, sgprs=r.sgprs, agprs=r.agprs,
                        lds_bytes=r.lds_bytes + dynamic_lds_bytes, device=spec)
    except GpusimError:  # not lowered yet, or no AMDGPU backend: the record says None
        return {}
    return {"vgprs": r.vgprs, "agprs": r.agprs, "sgprs": r.sgprs,
            "scratch_bytes": r.scratch_bytes, "occupancy": occ.fraction}
