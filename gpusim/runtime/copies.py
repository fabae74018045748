"""Copies and memsets: validated when called, queued on a stream, run in stream order.

A copy's arguments are checked at the call (as HIP does: a bad size or direction fails
at once, nothing is queued). Whether the host then waits follows HIP: ``hipMemcpy``
waits for the copy; ``hipMemcpyAsync`` returns at once when the host side is pinned,
but a copy from or to pageable host memory is staged through a driver buffer and the
call returns only when the host memory has been read or written.

>>> import numpy as np
>>> from gpusim import hip
>>> d = hip.hipMalloc(16)
>>> submit_copy(d, np.arange(4, dtype=np.int32), 16, hip.hipMemcpyHostToDevice,
...             stream=None, blocking=True, origin="example").kind
'HtoD'
>>> hip.hipFree(d)
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from gpusim.errors import HipError, hipError_t
from gpusim.runtime import pointers, streams
from gpusim.runtime.scheduler import Op


class hipMemcpyKind(enum.IntEnum):  # noqa: N801 - HIP's spelling
    """Copy directions with HIP's values (hip_runtime_api.h)."""

    hipMemcpyHostToHost = 0
    hipMemcpyHostToDevice = 1
    hipMemcpyDeviceToHost = 2
    hipMemcpyDeviceToDevice = 3
    hipMemcpyDefault = 4


_EXPECTED_SIDES = {  # kind -> (dst is device, src is device)
    hipMemcpyKind.hipMemcpyHostToHost: (False, False),
    hipMemcpyKind.hipMemcpyHostToDevice: (True, False),
    hipMemcpyKind.hipMemcpyDeviceToHost: (False, True),
    hipMemcpyKind.hipMemcpyDeviceToDevice: (True, True),
}


def _side(is_device: bool) -> str:
    return "device" if is_device else "host"


def _check_nbytes(nbytes: Any, origin: str) -> int:
    if not isinstance(nbytes, (int, np.integer)) or isinstance(nbytes, bool) or nbytes < 0:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: nbytes must be a non-negative integer, got {nbytes!r}")
    return int(nbytes)


def _direction(d: pointers.Region, s: pointers.Region) -> str:
    if d.is_device and s.is_device:
        return "DtoD" if d.device == s.device else "PtoP"
    return {(True, False): "HtoD", (False, True): "DtoH"}.get((d.is_device, s.is_device),
                                                              "HtoH")


def check_copy(dst: Any, src: Any, nbytes: int, kind: hipMemcpyKind | int, *,
               origin: str) -> tuple[pointers.Region, pointers.Region, int]:
    """The checked (dst, src, nbytes) of a copy, or the HipError HIP's call returns."""
    try:
        kind = hipMemcpyKind(kind)
    except ValueError:
        raise HipError(
            hipError_t.hipErrorInvalidMemcpyDirection,
            f"{origin}: kind {kind!r} is not a hipMemcpyKind (0-4)",
        ) from None
    nbytes = _check_nbytes(nbytes, origin)
    d = pointers.resolve(dst, origin=f"{origin} dst")
    s = pointers.resolve(src, origin=f"{origin} src")
    if kind != hipMemcpyKind.hipMemcpyDefault:
        want = _EXPECTED_SIDES[kind]
        if (d.is_device, s.is_device) != want:
            actual = next(k for k, v in _EXPECTED_SIDES.items()
                          if v == (d.is_device, s.is_device))
            raise HipError(
                hipError_t.hipErrorInvalidMemcpyDirection,
                f"{origin}: kind is {kind.name} but dst is {_side(d.is_device)} memory and "
                f"src is {_side(s.is_device)} memory; use {actual.name} (or hipMemcpyDefault)",
            )
    for name, region in (("dst", d), ("src", s)):
        if nbytes > region.data.size:
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"{origin}: nbytes={nbytes} but {name} is a {region.describe} with only "
                f"{region.data.size} bytes from there; copy at most that many",
            )
    return d, s, nbytes


def submit_copy(dst: Any, src: Any, nbytes: int, kind: hipMemcpyKind | int, *,
                stream: Any, blocking: bool, origin: str) -> Op:
    """Validate a copy, queue it on ``stream`` and, if ``blocking``, wait for it."""
    d, s, nbytes = check_copy(dst, src, nbytes, kind, origin=origin)
    direction = _direction(d, s)
    host_sides = [r for r in (d, s) if not r.is_device]
    pinned = bool(host_sides) and all(r.pinned for r in host_sides)
    dst_bytes, src_bytes = d.data[:nbytes], s.data[:nbytes]
    op = streams.enqueue(
        stream,
        # np.copyto handles overlapping ranges of one buffer like memmove.
        lambda: np.copyto(dst_bytes, src_bytes),
        name=origin, kind=direction,
        info={"bytes": nbytes, "pinned": pinned, "src_device": s.device,
              "dst_device": d.device},
    )
    if op.node is None and (blocking or (host_sides and not pinned)):  # (not captured)
        op.stream.scheduler.wait_host(op)
    return op


def submit_memset(dst: Any, value: int, nbytes: int, *, stream: Any, origin: str) -> Op:
    """Validate and queue a byte fill of device memory (runs in stream order)."""
    nbytes = _check_nbytes(nbytes, origin)
    region = pointers.resolve(dst, origin=origin)
    if not region.is_device:
        raise HipError(hipError_t.hipErrorInvalidValue,
                       f"{origin}: dst is host memory; {origin} writes device memory")
    if nbytes > region.data.size:
        raise HipError(
            hipError_t.hipErrorInvalidValue,
            f"{origin}: nbytes={nbytes} but the {region.describe} has only "
            f"{region.data.size} bytes from there",
        )
    target = region.data[:nbytes]
    byte = int(value) & 0xFF
    return streams.enqueue(stream, lambda: target.fill(byte), name=origin, kind="memset",
                           info={"bytes": nbytes})
