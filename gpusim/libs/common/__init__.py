"""What every emulated ROCm library needs, in one place.

    errors.py        LibraryError: base of RocblasError, RocsparseError, ..., NcclError
                     with ``.status``; ``fail`` (a status -> the library's exception);
                     ``check_enum``, the one check of an enum argument
    handle.py        LibraryHandle: the device a handle belongs to and its stream
                     (set_stream, queue, launch); ``stream_on``, the one rule for a stream
                     argument (0 / None: the null stream; another device's: refused)
    memory.py        device arrays / device pointers / host arrays -> NumPy views of the
                     bytes; pointer-mode scalars (alpha, beta) read from host or device
    launch.py        queue a library kernel on a stream: a profiler record with a
                     real-looking kernel name and a modeled duration (``launch_roofline``:
                     with the roofline time); wait for it when C would block
    modeled_time.py  modeled seconds from FLOPs and bytes at peak rates, with an
                     efficiency curve over problem sizes

A library defines its error class with its status enum, then builds every call from
these pieces (the functions take ``error=`` so a bad pointer raises *that* library's
status):

>>> import enum
>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.devices import get_spec
>>> class toy_status(enum.IntEnum):
...     toy_status_success = 0
...     toy_status_invalid_pointer = 3
...     toy_status_invalid_value = 11
>>> class ToyError(LibraryError):
...     status_enum = toy_status
...     pointer_status = toy_status.toy_status_invalid_pointer
...     value_status = toy_status.toy_status_invalid_value
>>> d = hip.to_device(np.arange(4, dtype=np.float32))
>>> x = device_view(d, np.float32, 4, function="toy_scal", arg="x", error=ToyError)
>>> alpha = scalar_reader(2.0, np.float32, device_mode=False, function="toy_scal",
...                       arg="alpha", error=ToyError)
>>> seconds, parts = roofline_seconds(get_spec("mi300x"), flops=4, bytes_moved=32,
...                                   peak_tflops=163.4)
>>> op = launch(0, lambda: np.multiply(x, alpha(), out=x), name="toy_scal_kernel",
...             grid=(1, 1, 1), block=(256, 1, 1), seconds=seconds, breakdown=parts)
>>> d.copy_to_host()                 # a blocking copy runs the queued kernel first
array([0., 2., 4., 6.], dtype=float32)
>>> try:
...     device_view(None, np.float32, 4, function="toy_scal", arg="x", error=ToyError)
... except ToyError as err:
...     print(err.status.name, err.function)
toy_status_invalid_pointer toy_scal
"""

from gpusim.libs.common.errors import LibraryError, check_enum, fail
from gpusim.libs.common.handle import LibraryHandle, is_null, stream_on
from gpusim.libs.common.launch import launch, launch_roofline, wait
from gpusim.libs.common.memory import device_view, host_view, scalar_reader
from gpusim.libs.common.modeled_time import (
    roofline_seconds,
    saturating_efficiency,
    vector_peak_tflops,
)

__all__ = ["LibraryError", "LibraryHandle", "check_enum", "device_view", "fail", "host_view",
           "is_null", "launch", "launch_roofline", "roofline_seconds", "saturating_efficiency",
           "scalar_reader", "stream_on", "vector_peak_tflops", "wait"]
