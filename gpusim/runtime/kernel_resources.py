"""What ``Kernel.resources()`` / ``Kernel.isa()`` answer, and resources on profile records.

The numbers are LLVM's: the kernel is lowered to AMDGPU LLVM IR and compiled as hipcc
``-O3`` would (``gpusim.compile.amdgpu``). A kernel is compiled for argument *types*, so
these need example arguments (the ones you would launch with; their values do not
matter) or a launch before: without arguments the last launch's types are used.

Which device: ``device=`` (a profile key such as ``"rx7900xtx"``, a gfx target or a
DeviceSpec), else the current device. ``kernel.resources(spec)`` with a DeviceSpec (or
key) as its only argument is that device and the last launch's types: the form
``gpusim.occupancy(kernel, block_size=...)`` calls.

Profile records get the same counts for each launch (``engine/resources.py``).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

from gpusim.compile.amdgpu import amdgpu_isa, amdgpu_resources
from gpusim.devices import DeviceSpec
from gpusim.engine import arg_types
from gpusim.errors import HipError, hipError_t
from gpusim.occupancy_model.calculator import resolve_device
from gpusim.runtime.kernel_args import device_values
from gpusim.runtime.system import current_device

# The block size of each kernel's last launch: the default for resources()'s occupancy.
_last_block: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _target(args: tuple, device: Any) -> tuple[tuple, DeviceSpec]:
    if device is None and len(args) == 1 and isinstance(args[0], (DeviceSpec, str)):
        args, device = (), args[0]  # kernel.resources(spec), as occupancy() calls it
    return args, current_device().spec if device is None else resolve_device(device)


def _types(kernel: Any, args: tuple, what: str) -> tuple:
    if args:
        return arg_types(device_values(kernel, args), kernel)
    if kernel.specializations:
        return kernel.specializations[-1].arg_types
    raise HipError(hipError_t.hipErrorInvalidDeviceFunction,
                   f"kernel '{kernel.__name__}' has not been launched yet, so its argument "
                   f"types are unknown: pass example arguments, e.g. kernel.{what}(x, out, "
                   "device='mi300x'), or launch it once")


def kernel_resources(kernel: Any, args: tuple, device: Any = None, *,
                     fallback: Mapping[str, int] | None = None,
                     block_size: int | None = None) -> dict[str, Any]:
    """``Kernel.resources``: see ``amdgpu_resources`` for the keys. ``block_size``
    defaults to the last launch's, else the largest the kernel was compiled for."""
    args, spec = _target(args, device)
    types_ = _types(kernel, args, "resources")
    bound = kernel.launch_bounds or 1024
    if block_size is None and _last_block.get(kernel, bound + 1) <= bound:
        block_size = _last_block[kernel]
    return amdgpu_resources(kernel.py_func, types_, spec, launch_bounds=kernel.launch_bounds,
                            block_size=block_size, fallback=fallback)


def kernel_isa(kernel: Any, args: tuple, device: Any = None, *, full: bool = False) -> str:
    """``Kernel.isa``: the assembly LLVM generates for the kernel on the device."""
    args, spec = _target(args, device)
    return amdgpu_isa(kernel.py_func, _types(kernel, args, "isa"), spec,
                      launch_bounds=kernel.launch_bounds, full=full)


def launch_block(kernel: Any, threads: int) -> None:
    """Remember ``threads`` as ``kernel``'s block size: ``resources()``'s default."""
    _last_block[kernel] = threads
