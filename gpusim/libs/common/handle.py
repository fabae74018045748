"""What every library handle shares: the device it belongs to and the stream its
kernels go on.

A library object that queues kernels belongs to the device that was current when it
was made: a rocBLAS / rocSOLVER / rocSPARSE handle, a rocRAND generator, a rocFFT plan,
an RCCL communicator (its rank's device). ``stream_on`` is the one rule for a stream
argument, rocBLAS's: 0 / None is that device's null stream; a stream of another device
is refused, as a kernel cannot be queued on it (HIP would fail the launch with
hipErrorInvalidHandle; rocBLAS refuses it in rocblas_set_stream), and so is anything
that is not a live stream of this system. Both raise the library's ``stream_status``
(default: its ``value_status``) naming the function.

``LibraryHandle`` is the base of the handles that carry a stream (rocBLAS's, rocSPARSE's,
rocRAND's generator): ``set_stream`` checks and stores it (None: the null stream),
``queue()`` is the stream kernels go on, ``launch`` queues one library kernel there.

>>> from gpusim import hip
>>> from gpusim.errors import hipError_t
>>> class ToyError(LibraryError):
...     status_enum = hipError_t
...     value_status = hipError_t.hipErrorInvalidValue
>>> h = LibraryHandle()                      # on device 0, its null stream
>>> h.queue() is h.system.scheduler.null_stream(0)
True
>>> hip.hipSetDevice(1); other = hip.hipStreamCreate(); hip.hipSetDevice(0)
>>> h.set_stream(other, function="toy_set_stream", error=ToyError)
Traceback (most recent call last):
...
gpusim...ToyError: toy_set_stream: hipErrorInvalidValue (1): the stream is on device 1 but ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from gpusim.devices import DeviceSpec
from gpusim.errors import HipError
from gpusim.libs.common.errors import LibraryError, fail
from gpusim.libs.common.launch import launch
from gpusim.runtime.scheduler import Op, Stream
from gpusim.runtime.streams import resolve_stream
from gpusim.runtime.system import get_system


def is_null(stream: Any) -> bool:
    """True for the null-stream spellings 0 and None."""
    return stream is None or (isinstance(stream, int) and not isinstance(stream, bool)
                              and stream == 0)


def stream_on(stream: Any, device: int | None, *, function: str,
              error: type[LibraryError], owner: str = "the handle") -> Stream:
    """The Stream a ``stream`` argument names for work on ``device`` (0 / None: its null
    stream). ``device`` None takes a stream of any device (checked later, at the call
    that knows the device). ``owner`` is how the message names what holds the device."""
    status = error.value_status if error.stream_status is None else error.stream_status
    if is_null(stream):
        system = get_system()
        return system.scheduler.null_stream(system.current_ordinal if device is None
                                            else device)
    try:
        target = resolve_stream(stream, origin=function)
    except HipError as exc:  # destroyed / of a replaced system / not a stream
        raise fail(error, status, function,
                   f"{exc}; pass a stream from hipStreamCreate or 0") from None
    if device is not None and target.device != device:
        raise fail(error, status, function,
                   f"the stream is on device {target.device} but {owner} on device "
                   f"{device}; create both under the same hipSetDevice")
    return target


class LibraryHandle:
    """A library handle's device and stream (``None``: the device's null stream)."""

    owner: ClassVar[str] = "the handle"  # how stream errors name it

    def __init__(self) -> None:
        system = get_system()
        self.system = system
        self.device: int = system.current_ordinal
        self.stream: Stream | None = None

    @property
    def spec(self) -> DeviceSpec:
        """The DeviceSpec of the handle's device."""
        return self.system.devices[self.device].spec

    def set_stream(self, stream: Any, *, function: str, error: type[LibraryError]) -> None:
        """Queue later kernels on ``stream`` (0 / None: the null stream); a stream of
        another device, or no live stream, raises ``error``'s stream status."""
        target = stream_on(stream, self.device, function=function, error=error,
                           owner=self.owner)
        self.stream = None if target.null else target

    def queue(self) -> Stream:
        """The stream kernels go on (the handle device's null stream by default)."""
        if self.stream is None:
            return self.system.scheduler.null_stream(self.device)
        return self.stream

    def launch(self, fn: Callable[[], Any], **kernel: Any) -> Op:
        """Queue one library kernel on the handle's stream (see launch.py)."""
        return launch(self.queue(), fn, **kernel)
