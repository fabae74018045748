"""Peer access between GPUs: HIP's hipDeviceCanAccessPeer / Enable / Disable and
hipMemcpyPeer(Async).

A GPU may read or write another GPU's memory directly (over Infinity Fabric, or PCIe
peer-to-peer) only after ``hipDeviceEnablePeerAccess`` from the accessing device; copies
with hipMemcpyPeer work either way (the runtime routes them). Access is one-way: device
0 enabling device 1 does not let device 1 read device 0. Which pairs can be enabled
follows the node topology (gpusim.runtime.topology): every GPU of an Infinity Fabric
hive, and GPUs with a PCIe peer path (every Instinct profile here; consumer Radeon
cards report no peer access, as HIP does without large-BAR P2P).

Kernels: ``check_kernel_access(device, arg)`` is the check a launch must make for each
pointer argument (a kernel on device 2 touching device 0's buffer without peer access
is a memory fault on hardware). The kernel launcher (gpusim/runtime/kernel.py) does not
call it yet; see its docstring.

>>> import numpy as np
>>> from gpusim import hip
>>> hip.hipDeviceCanAccessPeer(0, 1)
1
>>> hip.hipSetDevice(0); hip.hipDeviceEnablePeerAccess(1, 0)
>>> try:
...     hip.hipDeviceEnablePeerAccess(1, 0)
... except hip.HipError as e:
...     print(e.code.name)
hipErrorPeerAccessAlreadyEnabled
>>> hip.hipDeviceDisablePeerAccess(1)
"""

from __future__ import annotations

import weakref
from typing import Any

from gpusim.errors import HipError, hipError_t
from gpusim.runtime import pointers
from gpusim.runtime.api import hip_api
from gpusim.runtime.copies import hipMemcpyKind, submit_copy
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.system import System, get_system

# (accessing device, peer device) pairs with access enabled, per system.
_enabled: weakref.WeakKeyDictionary[System, set[tuple[int, int]]] = weakref.WeakKeyDictionary()


def _pairs() -> set[tuple[int, int]]:
    return _enabled.setdefault(get_system(), set())


def _supported(device: int, peer: int) -> bool:
    spec = get_system().devices[device].spec
    # Instinct GPUs reach peers over xGMI or PCIe P2P; consumer cards have no peer links.
    return spec.peer_links_per_gpu > 0


@hip_api
def hipDeviceCanAccessPeer(deviceId: int, peerDeviceId: int) -> int:
    """1 if ``deviceId`` can be given access to ``peerDeviceId``'s memory, else 0
    (0 for a device and itself, as in HIP)."""
    system = get_system()
    system.device(deviceId, origin="hipDeviceCanAccessPeer")
    system.device(peerDeviceId, origin="hipDeviceCanAccessPeer")
    return int(deviceId != peerDeviceId and _supported(deviceId, peerDeviceId))


@hip_api
def hipDeviceEnablePeerAccess(peerDeviceId: int, flags: int = 0) -> None:
    """Let the current device access ``peerDeviceId``'s memory (``flags`` must be 0)."""
    system = get_system()
    me = system.current_ordinal
    system.device(peerDeviceId, origin="hipDeviceEnablePeerAccess")
    if flags != 0:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"hipDeviceEnablePeerAccess: flags must be 0, got {flags!r}")
    if peerDeviceId == me or not _supported(me, peerDeviceId):
        why = "a device cannot be its own peer" if peerDeviceId == me else (
            f"{system.devices[me].spec.name} has no peer links")
        raise HipError(hipError_t.hipErrorInvalidDevice if peerDeviceId == me
                       else hipError_t.hipErrorPeerAccessUnsupported,
                       f"hipDeviceEnablePeerAccess: device {me} -> {peerDeviceId}: {why}; "
                       "check hipDeviceCanAccessPeer first")
    if (me, peerDeviceId) in _pairs():
        raise HipError(hipError_t.hipErrorPeerAccessAlreadyEnabled,
                       f"hipDeviceEnablePeerAccess: device {me} already has access to "
                       f"device {peerDeviceId}")
    _pairs().add((me, peerDeviceId))


@hip_api
def hipDeviceDisablePeerAccess(peerDeviceId: int) -> None:
    """Withdraw the current device's access to ``peerDeviceId``'s memory."""
    system = get_system()
    me = system.current_ordinal
    system.device(peerDeviceId, origin="hipDeviceDisablePeerAccess")
    if (me, peerDeviceId) not in _pairs():
        raise HipError(hipError_t.hipErrorPeerAccessNotEnabled,
                       f"hipDeviceDisablePeerAccess: device {me} never enabled access to "
                       f"device {peerDeviceId} (hipDeviceEnablePeerAccess)")
    _pairs().discard((me, peerDeviceId))


def peer_access_enabled(device: int, peer: int) -> bool:
    """True if ``device`` may touch ``peer``'s memory (always for itself)."""
    return device == peer or (device, peer) in _pairs()


def check_kernel_access(device: int, arg: Any, *, origin: str = "kernel launch") -> None:
    """Raise hipErrorInvalidDevicePointer if a kernel on ``device`` would touch another
    GPU's buffer ``arg`` (DeviceArray or device pointer) without peer access.

    >>> from gpusim import hip
    >>> hip.hipSetDevice(1); d = hip.device_array(4); hip.hipSetDevice(0)
    >>> try:
    ...     check_kernel_access(0, d)
    ... except hip.HipError as e:
    ...     print(e.code.name)
    hipErrorInvalidDevicePointer
    """
    if isinstance(arg, DeviceArray):
        owner = arg.device
    else:
        owner = pointers.resolve_device(arg, origin=origin)[0].device
    if not peer_access_enabled(device, owner):
        raise HipError(hipError_t.hipErrorInvalidDevicePointer,
                       f"{origin}: a kernel on device {device} uses a buffer of device "
                       f"{owner} without peer access; call hipSetDevice({device}) then "
                       f"hipDeviceEnablePeerAccess({owner}, 0), or copy it with "
                       "hipMemcpyPeer")


def _check_owner(ptr: Any, device: int, name: str, origin: str) -> None:
    system = get_system()
    system.device(device, origin=origin)
    owner = pointers.resolve_device(ptr, origin=f"{origin} {name}")[0].device
    if owner != device:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: {name} lives on device {owner}, not device {device} as "
                       f"the {name}Device argument says")


@hip_api
def hipMemcpyPeer(dst: Any, dstDevice: int, src: Any, srcDevice: int, nbytes: int) -> None:
    """Copy ``nbytes`` from ``src`` on ``srcDevice`` to ``dst`` on ``dstDevice`` and wait.

    >>> import numpy as np
    >>> from gpusim import hip
    >>> hip.hipSetDevice(1); b = hip.device_array(3); hip.hipSetDevice(0)
    >>> a = hip.to_device(np.arange(3.0))
    >>> hip.hipMemcpyPeer(b, 1, a, 0, 24); b.copy_to_host()
    array([0., 1., 2.])
    """
    _check_owner(dst, dstDevice, "dst", "hipMemcpyPeer")
    _check_owner(src, srcDevice, "src", "hipMemcpyPeer")
    submit_copy(dst, src, nbytes, hipMemcpyKind.hipMemcpyDeviceToDevice, stream=None,
                blocking=True, origin="hipMemcpyPeer")


@hip_api
def hipMemcpyPeerAsync(dst: Any, dstDevice: int, src: Any, srcDevice: int, nbytes: int,
                       stream: Any = None) -> None:
    """Queue a peer copy on ``stream`` (of the current device) and return."""
    _check_owner(dst, dstDevice, "dst", "hipMemcpyPeerAsync")
    _check_owner(src, srcDevice, "src", "hipMemcpyPeerAsync")
    submit_copy(dst, src, nbytes, hipMemcpyKind.hipMemcpyDeviceToDevice, stream=stream,
                blocking=False, origin="hipMemcpyPeerAsync")
