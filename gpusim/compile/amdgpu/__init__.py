"""Lowering kernels to LLVM IR for AMD GPUs, and what LLVM's AMDGPU backend says of them.

Data flow::

    @hip.jit function + argument types + DeviceSpec
        |  pipeline.front_end(passes=parse .. infer)      the typed kernel IR
        v
    module.py       lower_kernel(): arguments, LDS/constant globals, attributes
      statements.py   if / while / for / break / return -> basic blocks
      expressions.py  values, array addressing, loads and stores
      ops.py          numba's arithmetic: conversions, operators, math intrinsics
      intrinsics.py   hip.* -> llvm.amdgcn.* (ids, barriers, atomics, shuffles, ballot)
      emit.py         LLVM text: values, constants, basic blocks
        |  LLVM IR text (amdgcn-amd-amdhsa)
        v
    resources.py    occupancy_model.compile_amdgpu(ir, "gfx942", optimize=3): the
                    counts hipcc -O3 would report (VGPRs, AGPRs, SGPRs, LDS, scratch,
                    spills, occupancy) and the ISA; or user-given fallback counts when
                    unsupported.py says a construct is not lowered yet

What lowers, and what does not, is listed in ``unsupported.py``.
"""

from gpusim.compile.amdgpu.module import LoweredKernel, lower_kernel
from gpusim.compile.amdgpu.resources import amdgpu_compile, amdgpu_isa, amdgpu_resources
from gpusim.compile.amdgpu.unsupported import SUPPORTED_SUMMARY, AmdgpuLoweringError

__all__ = ["SUPPORTED_SUMMARY", "AmdgpuLoweringError", "LoweredKernel", "amdgpu_compile",
           "amdgpu_isa", "amdgpu_resources", "lower_kernel"]
