"""The emulated machine: a set of identical GPUs and each host thread's current device.

>>> import gpusim
>>> gpusim.set_system(device="mi250x", ngpus=2)
System(2 x AMD Instinct MI250X)
>>> [d.spec.key for d in get_system().devices]
['mi250x', 'mi250x']
>>> gpusim.set_system()            # back to the default: 8 x MI300X
System(8 x AMD Instinct MI300X)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from gpusim.devices import DeviceSpec, get_spec
from gpusim.errors import HipError, hipError_t
from gpusim.runtime.memory import VA_BYTES_PER_DEVICE, DeviceMemory
from gpusim.runtime.scheduler import Scheduler

DEFAULT_DEVICE = "mi300x"
DEFAULT_NGPUS = 8
MAX_NGPUS = 16
# Device VAs: one 1 TiB window per device at the top of the 47-bit user address space
# (where ROCm maps GPU memory too), so an address alone tells which device owns it.
VA_BASE = 0x8000_0000_0000 - MAX_NGPUS * VA_BYTES_PER_DEVICE


@dataclass(eq=False)
class Device:
    """One emulated GPU: its immutable spec and its memory."""

    ordinal: int
    spec: DeviceSpec
    memory: DeviceMemory


class System:
    """The GPUs of the emulated machine (``gpusim.set_system`` builds a new one)."""

    def __init__(self, device: str = DEFAULT_DEVICE, ngpus: int = DEFAULT_NGPUS):
        if not isinstance(ngpus, int) or isinstance(ngpus, bool) or not 1 <= ngpus <= MAX_NGPUS:
            raise ValueError(f"ngpus must be an integer from 1 to {MAX_NGPUS}, got {ngpus!r}")
        spec = get_spec(device)
        self.devices = [
            Device(i, spec, DeviceMemory(i, spec.memory_bytes, VA_BASE + i * VA_BYTES_PER_DEVICE))
            for i in range(ngpus)
        ]
        self._local = threading.local()  # HIP's current device is per host thread
        self.scheduler = Scheduler(sdma_engines=spec.sdma_engines)

    def __repr__(self) -> str:
        return f"System({len(self.devices)} x {self.devices[0].spec.name})"

    @property
    def current_ordinal(self) -> int:
        return getattr(self._local, "ordinal", 0)

    def set_current(self, ordinal: int) -> None:
        self.device(ordinal, origin="hipSetDevice")
        self._local.ordinal = ordinal

    def device(self, ordinal: int, *, origin: str) -> Device:
        """The device with this ordinal, or hipErrorInvalidDevice naming the valid range."""
        if isinstance(ordinal, bool) or not isinstance(ordinal, int) or not (
            0 <= ordinal < len(self.devices)
        ):
            raise HipError(
                hipError_t.hipErrorInvalidDevice,
                f"{origin}: device {ordinal!r} does not exist; this system has "
                f"{len(self.devices)} devices, ordinals 0..{len(self.devices) - 1}",
            )
        return self.devices[ordinal]

    def owner_of(self, address: int) -> Device | None:
        """The device whose address window holds ``address``."""
        index = (address - VA_BASE) // VA_BYTES_PER_DEVICE
        return self.devices[index] if 0 <= index < len(self.devices) else None

    def shutdown(self) -> None:
        for dev in self.devices:
            dev.memory.release_all(origin="gpusim.set_system (the system was replaced)")


_system: System | None = None
_lock = threading.Lock()


def get_system() -> System:
    """The current emulated system, built with the defaults on first use."""
    global _system
    with _lock:
        if _system is None:
            _system = System()
        return _system


def set_system(device: str = DEFAULT_DEVICE, ngpus: int = DEFAULT_NGPUS) -> System:
    """Replace the emulated machine with ``ngpus`` GPUs of profile ``device``.

    Buffers of the previous system are freed; arrays that still refer to them report
    "use after free" instead of reading stale data.

    >>> set_system("mi100", ngpus=1)
    System(1 x AMD Instinct MI100)
    >>> _ = set_system()
    """
    global _system
    new = System(device, ngpus)
    with _lock:
        old, _system = _system, new
    if old is not None:
        old.shutdown()
    return new


def current_device() -> Device:
    """The calling host thread's current device (hipSetDevice chooses it)."""
    system = get_system()
    return system.devices[system.current_ordinal]
