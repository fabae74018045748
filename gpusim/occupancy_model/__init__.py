"""Occupancy: how many waves of a kernel a SIMD holds, and which resource limits it.

Data flow::

    DeviceSpec (gpusim.devices)    kernel resources: explicit numbers, a kernel's
          |                        resources(device), or an AmdgpuResult from llvm.py
          v                                   |
    rules.py        one pure function per resource -> waves per SIMD it allows
          |         (VGPR+AGPR granules, SGPR table, LDS granule, barriers, wave slots)
          v
    calculator.py   occupancy(): the minimum, the limiter, whole workgroups per CU
          |
          +--> table.py    occupancy_table(): one resource swept, for plots
          +--> hipapi.py   hipOccupancyMaxActiveBlocksPerMultiprocessor,
                           hipOccupancyMaxPotentialBlockSize (re-exported by gpusim.hip)

    llvm.py  compile_amdgpu(ir, "gfx942"): LLVM's own counts and occupancy (llvmlite,
             in a worker process), the oracle the tests hold the rules to.
             _llvm_process.py starts that worker once and talks to it;
             _llvm_worker.py is the worker (the child process that runs llvmlite).

The rules follow LLVM's AMDGPU backend (AMDGPUBaseInfo.cpp, AMDGPUSubtarget.cpp), which
ROCm's compiler remarks and rocprofiler-compute report, for gfx908, gfx90a, gfx942 and
gfx1100 (wave32, WGP mode); the tests hold ``waves_per_simd`` to LLVM's own number over
sweeps of every resource. Where LLVM's number is not the hardware's we follow the
hardware and say so: LDS is rounded up to its allocation granule (LLVM divides the
unrounded size), and a workgroup whose waves cannot all get registers gives 0 (LLVM
still prints its per-SIMD bound). ``workgroups_per_cu`` / ``waves_per_cu`` count whole
resident workgroups, which can be fewer waves than ``waves_per_simd`` x SIMDs.

>>> from gpusim.occupancy_model import occupancy
>>> o = occupancy(block_size=256, vgprs=128, device="mi300x")
>>> o.waves_per_simd, o.fraction, o.limiter
(4, 0.5, 'vgpr')
>>> occupancy(block_size=1024, lds_bytes=64 * 1024).waves_per_simd
4
"""

from gpusim.occupancy_model.calculator import (
    MINIMAL_KERNEL_SGPRS,
    MINIMAL_KERNEL_VGPRS,
    Occupancy,
    occupancy,
)
from gpusim.occupancy_model.hipapi import (
    hipOccupancyMaxActiveBlocksPerMultiprocessor,
    hipOccupancyMaxPotentialBlockSize,
)
from gpusim.occupancy_model.llvm import (
    AmdgpuCompileError,
    AmdgpuResult,
    amdgpu_available,
    compile_amdgpu,
    probe_kernel_ir,
)
from gpusim.occupancy_model.rules import OccupancyError
from gpusim.occupancy_model.table import occupancy_table

__all__ = [
    "MINIMAL_KERNEL_SGPRS",
    "MINIMAL_KERNEL_VGPRS",
    "AmdgpuCompileError",
    "AmdgpuResult",
    "Occupancy",
    "OccupancyError",
    "amdgpu_available",
    "compile_amdgpu",
    "hipOccupancyMaxActiveBlocksPerMultiprocessor",
    "hipOccupancyMaxPotentialBlockSize",
    "occupancy",
    "occupancy_table",
    "probe_kernel_ir",
]
