"""The rocBLAS handle: device, stream, pointer mode and device-memory (workspace) state.

A handle belongs to the device that was current when it was created; its kernels go on
its stream (the null stream of that device until ``rocblas_set_stream``, which refuses a
stream of another device: libs.common.handle, the rule every library follows). Out-parameters
come back as return values (``handle = rocblas_create_handle()``,
``stream = rocblas_get_stream(handle)``).

Workspace, as rocBLAS manages it: by default the library owns device memory and grows
it on demand. Between ``rocblas_start_device_memory_size_query`` and
``rocblas_stop_device_memory_size_query`` (which returns the bytes needed) calls only
report their needs: each returns ``rocblas_status_size_increased`` or
``rocblas_status_size_unchanged`` instead of computing. After
``rocblas_set_device_memory_size`` / ``rocblas_set_workspace`` the user owns a fixed
amount, and a call that needs more fails with ``rocblas_status_memory_error``.

>>> h = rocblas_create_handle()
>>> rocblas_get_pointer_mode(h)
<rocblas_pointer_mode.rocblas_pointer_mode_host: 0>
>>> rocblas_start_device_memory_size_query(h)
>>> rocblas_stop_device_memory_size_query(h)   # nothing asked for any
0
>>> rocblas_destroy_handle(h)
"""

from __future__ import annotations

from typing import Any

from gpusim.libs.common import LibraryHandle, check_enum
from gpusim.libs.rocblas.enums import (
    RocblasError,
    rocblas_atomics_mode,
    rocblas_pointer_mode,
    rocblas_status,
)
from gpusim.runtime.system import get_system

S = rocblas_status
DEFAULT_DEVICE_MEMORY_BYTES = 32 << 20  # handle.hpp DEFAULT_DEVICE_MEMORY_SIZE (32 MiB)
MIN_CHUNK_BYTES = 64  # handle.hpp: sizes are rounded up to multiples of 64 bytes


class Handle(LibraryHandle):
    """``rocblas_handle``: opaque in C; here its fields are readable for teaching.

    Device, stream (None: the device's null stream), ``queue()`` and ``launch`` come
    from libs.common's LibraryHandle."""

    def __init__(self) -> None:
        super().__init__()
        self.pointer_mode = rocblas_pointer_mode.rocblas_pointer_mode_host
        self.atomics_mode = rocblas_atomics_mode.rocblas_atomics_allowed
        self.destroyed = False
        self.user_memory_bytes: int | None = None  # None: rocBLAS manages its memory
        self.querying = False
        self.query_bytes = 0

    def __repr__(self) -> str:
        state = ", destroyed" if self.destroyed else ""
        return f"<rocblas_handle on device {self.device}{state}>"

    @property
    def device_mode(self) -> bool:
        return self.pointer_mode == rocblas_pointer_mode.rocblas_pointer_mode_device

    def workspace(self, function: str, nbytes: int) -> rocblas_status | None:
        """Ask for ``nbytes`` of device workspace: a status to return in a size query,
        None to go on; memory_error if a user-owned workspace is too small."""
        nbytes = -(-int(nbytes) // MIN_CHUNK_BYTES) * MIN_CHUNK_BYTES
        if self.querying:
            if nbytes > self.query_bytes:
                self.query_bytes = nbytes
                return S.rocblas_status_size_increased
            return S.rocblas_status_size_unchanged
        if self.user_memory_bytes is not None and nbytes > self.user_memory_bytes:
            raise RocblasError(S.rocblas_status_memory_error, function,
                               f"needs {nbytes} bytes of device workspace but the handle "
                               f"has {self.user_memory_bytes} (set by rocblas_set_device_"
                               "memory_size / rocblas_set_workspace); query the size with "
                               "rocblas_start/stop_device_memory_size_query and set more")
        return None


def get_handle(handle: Any, function: str) -> Handle:
    """The Handle, or rocblas_status_invalid_handle naming what was passed."""
    if not isinstance(handle, Handle):
        raise RocblasError(S.rocblas_status_invalid_handle, function,
                           f"handle is {handle!r}, not a rocblas_handle; create one with "
                           "rocblas_create_handle()")
    if handle.destroyed:
        raise RocblasError(S.rocblas_status_invalid_handle, function,
                           "the handle was destroyed by rocblas_destroy_handle")
    if handle.system is not get_system():
        raise RocblasError(S.rocblas_status_invalid_handle, function,
                           "the handle belongs to a system replaced by gpusim.set_system; "
                           "create a new one")
    return handle


def rocblas_create_handle() -> Handle:
    """A new handle on the current device (C: ``rocblas_create_handle(&handle)``)."""
    return Handle()


def rocblas_destroy_handle(handle: Handle) -> None:
    """Release the handle; using it afterwards is rocblas_status_invalid_handle."""
    get_handle(handle, "rocblas_destroy_handle").destroyed = True


def rocblas_set_stream(handle: Handle, stream: Any) -> None:
    """Make the handle's kernels go on ``stream`` (0 / None: the null stream)."""
    name = "rocblas_set_stream"
    get_handle(handle, name).set_stream(stream, function=name, error=RocblasError)


def rocblas_get_stream(handle: Handle) -> Any:
    """The handle's stream (0 for the null stream)."""
    h = get_handle(handle, "rocblas_get_stream")
    return 0 if h.stream is None else h.stream


def rocblas_set_pointer_mode(handle: Handle, mode: int) -> None:
    """Where alpha, beta and scalar results live: host (default) or device memory."""
    name = "rocblas_set_pointer_mode"
    get_handle(handle, name).pointer_mode = check_enum(
        mode, rocblas_pointer_mode, function=name, arg="mode", error=RocblasError)


def rocblas_get_pointer_mode(handle: Handle) -> rocblas_pointer_mode:
    """The handle's pointer mode."""
    return get_handle(handle, "rocblas_get_pointer_mode").pointer_mode


def rocblas_set_atomics_mode(handle: Handle, mode: int) -> None:
    """Allow or forbid atomics (kept for API fidelity: results here are deterministic)."""
    name = "rocblas_set_atomics_mode"
    get_handle(handle, name).atomics_mode = check_enum(
        mode, rocblas_atomics_mode, function=name, arg="mode", error=RocblasError)


def rocblas_get_atomics_mode(handle: Handle) -> rocblas_atomics_mode:
    """The handle's atomics mode."""
    return get_handle(handle, "rocblas_get_atomics_mode").atomics_mode


def rocblas_start_device_memory_size_query(handle: Handle) -> None:
    """Begin collecting the workspace the following calls need (they do not compute)."""
    h = get_handle(handle, "rocblas_start_device_memory_size_query")
    if h.querying:
        raise RocblasError(S.rocblas_status_size_query_mismatch,
                           "rocblas_start_device_memory_size_query",
                           "a size query is already running; stop it first")
    h.querying, h.query_bytes = True, 0


def rocblas_stop_device_memory_size_query(handle: Handle) -> int:
    """End the query; returns the most bytes any call in it needed."""
    h = get_handle(handle, "rocblas_stop_device_memory_size_query")
    if not h.querying:
        raise RocblasError(S.rocblas_status_size_query_mismatch,
                           "rocblas_stop_device_memory_size_query",
                           "no size query is running; call "
                           "rocblas_start_device_memory_size_query first")
    h.querying = False
    return h.query_bytes


def rocblas_is_device_memory_size_query(handle: Handle) -> bool:
    """True between start and stop of a size query."""
    return get_handle(handle, "rocblas_is_device_memory_size_query").querying


def rocblas_set_device_memory_size(handle: Handle, size: int) -> None:
    """Give the handle ``size`` bytes of its own workspace (0: let rocBLAS manage it)."""
    h = get_handle(handle, "rocblas_set_device_memory_size")
    size = int(size)
    h.user_memory_bytes = -(-size // MIN_CHUNK_BYTES) * MIN_CHUNK_BYTES if size else None


def rocblas_set_workspace(handle: Handle, addr: Any, size: int) -> None:
    """Use ``size`` bytes at device address ``addr`` as the workspace (None/0: managed)."""
    h = get_handle(handle, "rocblas_set_workspace")
    h.user_memory_bytes = int(size) if size and addr is not None else None


def rocblas_get_device_memory_size(handle: Handle) -> int:
    """Bytes of workspace the handle holds now."""
    h = get_handle(handle, "rocblas_get_device_memory_size")
    return DEFAULT_DEVICE_MEMORY_BYTES if h.user_memory_bytes is None else h.user_memory_bytes


def rocblas_is_managing_device_memory(handle: Handle) -> bool:
    """True while rocBLAS (not the user) owns the workspace."""
    return get_handle(handle, "rocblas_is_managing_device_memory").user_memory_bytes is None
