"""numba.cuda's device and context objects: ``cuda.gpus``, ``cuda.current_context()``,
``cuda.select_device``, ``cuda.get_current_device``.

A device here is an emulated AMD GPU: it has a ``name`` and an ``id``, and AMD's
``gcn_arch_name`` (e.g. gfx942) instead of NVIDIA's compute capability, which it does
not pretend to have. A context is the device's state: its memory and its queues.

>>> from gpusim import cuda
>>> len(cuda.gpus) >= 1, cuda.gpus[0].id
(True, 0)
>>> free, total = cuda.current_context().get_memory_info()
>>> 0 < free <= total
True
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from gpusim.runtime import api
from gpusim.runtime.system import get_system

MemoryInfo = namedtuple("MemoryInfo", ["free", "total"])


class Device:
    """One emulated GPU; ``with cuda.gpus[1]:`` makes it current for the block."""

    def __init__(self, ordinal: int):
        self.id = ordinal
        self._previous: list[int] = []

    @property
    def _spec(self) -> Any:
        return get_system().devices[self.id].spec

    @property
    def name(self) -> str:
        return self._spec.name

    @property
    def gcn_arch_name(self) -> str:
        return self._spec.gcn_arch_name

    def __repr__(self) -> str:
        return f"<emulated AMD GPU {self.id}: {self.name} ({self.gcn_arch_name})>"

    def __enter__(self) -> Device:
        self._previous.append(api.hipGetDevice())
        api.hipSetDevice(self.id)
        return self

    def __exit__(self, *exc: Any) -> None:
        api.hipSetDevice(self._previous.pop())

    def reset(self) -> None:
        """Finish the device's work and free all its buffers (hipDeviceReset)."""
        with self:
            api.hipDeviceReset()


class Context:
    """The current device's state (numba.cuda's context object)."""

    def __init__(self, device: Device):
        self.device = device

    def get_memory_info(self) -> MemoryInfo:
        """(free, total) bytes of the device's memory (hipMemGetInfo)."""
        with self.device:
            return MemoryInfo(*api.hipMemGetInfo())

    def synchronize(self) -> None:
        """Wait for all the device's queued work."""
        with self.device:
            api.hipDeviceSynchronize()

    def reset(self) -> None:
        """Finish queued work and free every buffer of the device (hipDeviceReset)."""
        self.device.reset()


class _Gpus:
    """The emulated GPUs of the current system, as a sequence of ``Device``."""

    def __len__(self) -> int:
        return api.hipGetDeviceCount()

    def __getitem__(self, index: int) -> Device:
        return [Device(i) for i in range(len(self))][index]

    def __iter__(self):
        return iter([Device(i) for i in range(len(self))])

    @property
    def current(self) -> Device:
        return Device(api.hipGetDevice())


gpus = _Gpus()


def current_context() -> Context:
    """The current device's context."""
    return Context(gpus.current)


def select_device(device_id: int) -> Device:
    """Make ``device_id`` the current device (hipSetDevice) and return it."""
    api.hipSetDevice(device_id)
    return Device(device_id)


def list_devices() -> list[Device]:
    """Every emulated GPU."""
    return list(gpus)
