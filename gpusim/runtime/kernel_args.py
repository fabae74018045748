"""What a launched kernel gets for each argument, checked in one place.

    DeviceArray (alive)      its device memory (``device_view()``)
    DeviceArray (freed)      HipError(hipErrorIllegalAddress): use after free, naming the
                             parameter (on a GPU the kernel would fault on that memory)
    another GPU's array      allowed once hipDeviceEnablePeerAccess was called, else
                             HipError(hipErrorInvalidDevicePointer) (``peer.py``)
    host NumPy array         a temporary device array, copied in before the kernel and
                             back after it (numba.cuda's convenience; two copies)
    In(a) / Out(a) / InOut(a) numba.cuda's hints for a host array: copy in only, back
                             only, or both (the default)
    number                   passed by value
    anything else            ``engine.arg_types``: HipError(hipErrorInvalidValue) naming
                             the parameter and the fix

>>> import numpy as np
>>> from gpusim.runtime.darray import to_device
>>> def k(a, n):
...     pass
>>> staged = stage(k, (to_device(np.ones(3)), 2), stream=0, device=0)
>>> type(staged.values[0]).__name__, staged.values[1], staged.copies
('ndarray', 2, [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpusim.engine import bad_argument
from gpusim.errors import hipError_t
from gpusim.runtime.darray import DeviceArray, to_device
from gpusim.runtime.peer import check_kernel_access


class ArgHint:
    """numba.cuda's copy hint around a host array argument (``cuda.In(a)`` ...)."""

    copy_in, copy_back = True, True

    def __init__(self, value: Any):
        self.value = value

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value!r})"


class In(ArgHint):
    """Copy the host array to the device before the kernel, not back after it."""

    copy_back = False


class Out(ArgHint):
    """Copy the array back to the host after the kernel, not to the device before it."""

    copy_in = False


class InOut(ArgHint):
    """Copy in and back (what a bare host array gets)."""


@dataclass
class Staged:
    """A launch's arguments as the engine takes them, and the host arrays to copy:
    (host array, its device copy, copy in?, copy back?)."""

    values: tuple
    copies: list[tuple[np.ndarray, DeviceArray, bool, bool]] = field(default_factory=list)
    addresses: tuple = ()  # each argument's device address (0: a number, a tuple): traces


    def copy_in(self, stream: Any) -> None:
        """Queue the host-to-device copies (after the launch was found valid)."""
        for host, tmp, copy_in, _ in self.copies:
            if copy_in:
                tmp.copy_to_device(np.ascontiguousarray(host), stream=stream)

    def copy_back(self, stream: Any) -> None:
        """Queue the device-to-host copies of writable host arrays (after the kernel)."""
        for host, tmp, _, copy_back in self.copies:
            if copy_back and host.flags.writeable:
                tmp.copy_to_host(host, stream=stream)


def check_alive(kernel: Any, args: tuple, when: str) -> None:
    """A freed DeviceArray argument is a use after free (a memory fault on a GPU)."""
    for k, arg in enumerate(args):
        if isinstance(arg, DeviceArray) and not arg._alloc.alive:
            raise bad_argument(
                kernel, k, f"is a DeviceArray in {arg._alloc.describe()}, which was freed "
                f"by {arg._alloc.freed_by} before the kernel {when}",
                "On a GPU the kernel would read or write memory it no longer owns (a "
                "\"Memory access fault\", or silently corrupt data). Free buffers only after "
                "the kernels that use them have finished (hipDeviceSynchronize).",
                kind="use after free", code=hipError_t.hipErrorIllegalAddress)


def stage(kernel: Any, args: tuple, stream: Any, device: int) -> Staged:
    """The engine's view of each argument for a launch on ``device``; host arrays get a
    device array (allocated, not yet copied: ``Staged.copy_in``)."""
    check_alive(kernel, args, "was launched")
    copies: list = []
    values = tuple(_staged(arg, kernel, stream, device, copies) for arg in args)
    return Staged(values, copies, tuple(_address(arg, copies) for arg in args))


def _address(arg: Any, copies: list) -> int:
    """Where ``arg`` lies in device memory (a host array: its device copy), else 0."""
    arg = arg.value if isinstance(arg, ArgHint) else arg
    copy = next((tmp for host, tmp, _, _ in copies if host is arg), arg)
    ptr = getattr(copy, "ptr", None)
    return int(getattr(ptr, "value", ptr) or 0) if ptr is not None else 0


def _staged(arg: Any, kernel: Any, stream: Any, device: int, copies: list) -> Any:
    """The engine's view of one argument (``stage``); a host array's copy joins ``copies``."""
    hint = arg if isinstance(arg, ArgHint) else InOut(arg)
    arg = hint.value
    if isinstance(arg, DeviceArray):
        check_kernel_access(device, arg, origin=f"kernel '{getattr(kernel, '__name__', kernel)}'")
        return arg.device_view()
    if isinstance(arg, np.ndarray):
        tmp = to_device(arg, stream=stream, copy=False)
        copies.append((arg, tmp, hint.copy_in, hint.copy_back))
        return tmp.device_view()
    if type(arg) is tuple:  # a tuple holding arrays: each is staged (numba.cuda)
        return tuple(_staged(v, kernel, stream, device, copies) for v in arg)
    return arg


def device_values(kernel: Any, args: tuple) -> tuple:
    """The engine's view of example arguments (no copies): for compiling, not running."""
    check_alive(kernel, args, "was compiled")
    args = tuple(a.value if isinstance(a, ArgHint) else a for a in args)
    return tuple(a.device_view() if isinstance(a, DeviceArray) else a for a in args)
