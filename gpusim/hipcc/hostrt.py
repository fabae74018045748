"""The HIP runtime as translated C host code calls it: C signatures, status codes.

gpusim's ``hip.*`` raise ``HipError`` and return results; C's return a ``hipError_t``
and write results through pointers. Translated code passes a one-element list where C
passes ``&var`` (``hipMalloc(d_x, nbytes)`` fills ``d_x[0]``), and gets the status back.
Host buffers are NumPy arrays (``malloc``, ``new T[n]``, ``std::vector<T>``); host
pointer arithmetic is a view (``h + k`` is ``h[k:]``), device pointer arithmetic is
``DevicePointer + bytes``.

>>> d = [None]
>>> hipMalloc(d, 64) == hipSuccess, hipFree(d[0]) == hipSuccess
(True, True)
>>> n = printf("%d items, %5.2f ms, %s\\n", 3, 1.5, "ok")
3 items,  1.50 ms, ok
"""

from __future__ import annotations

import re
import sys
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim import hip
from gpusim.errors import HipError, hipError_t
from gpusim.hipcc.lines import to_cpp

globals().update(hipError_t.__members__)
# What translated host code sees (`from gpusim.hipcc.hostrt import *`): C's names only.
__all__ = [*hipError_t.__members__, "hipMemcpyHostToHost", "hipMemcpyHostToDevice",
           "hipMemcpyDeviceToHost", "hipMemcpyDeviceToDevice", "hipMemcpyDefault", "stdout",
           "stderr", "dim3", "hipMalloc", "hipHostMalloc", "hipMallocManaged",
           "hipGetDeviceCount", "hipGetDevice", "hipGetDeviceProperties", "hipStreamCreate",
           "hipStreamCreateWithFlags", "hipEventCreate", "hipEventCreateWithFlags",
           "hipEventElapsedTime", "hipFree", "hipHostFree", "hipMemcpy", "hipMemcpyAsync",
           "hipMemset", "hipMemsetAsync", "hipDeviceSynchronize", "hipDeviceReset",
           "hipSetDevice", "hipStreamDestroy", "hipStreamSynchronize", "hipStreamWaitEvent",
           "hipEventDestroy", "hipEventRecord", "hipEventSynchronize", "hipGetErrorString",
           "hipGetErrorName", "hipGetLastError", "hipPeekAtLastError", "launch",
           "hipLaunchKernelGGL", "printf", "fprintf", "puts", "exit", "malloc", "free",
           "ptr_add", "srand", "rand"]
hipMemcpyHostToHost, hipMemcpyHostToDevice = hip.hipMemcpyHostToHost, hip.hipMemcpyHostToDevice
hipMemcpyDeviceToHost, hipMemcpyDefault = hip.hipMemcpyDeviceToHost, hip.hipMemcpyDefault
hipMemcpyDeviceToDevice = hip.hipMemcpyDeviceToDevice
stdout, stderr = "stdout", "stderr"
dim3 = namedtuple("dim3", "x y z", defaults=(1, 1))
_last = [hipError_t.hipSuccess]


class Exit(Exception):  # noqa: N818 - it is C's exit(), not an error
    """``exit(status)`` called by the program."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = int(status)


# Faults a GPU program does not survive: the process aborts (a HIP program is killed
# with "Memory access fault by GPU"), so they are raised, not returned as a status.
_FATAL = {hipError_t.hipErrorIllegalAddress, hipError_t.hipErrorLaunchFailure,
          hipError_t.hipErrorAssert}
ABORTED = 134  # the shell's status of a process killed by SIGABRT (128 + 6)


def run_main(main: Callable[[], Any]) -> int:
    """Run a translated ``main``; return its exit status (``exit(n)`` included). A GPU
    fault aborts the program: its message goes to stderr and the status is 134."""
    try:
        status = main()
    except Exit as e:
        status = e.status
    except HipError as e:
        sys.stdout.flush()
        sys.stderr.write(f"program aborted: {to_cpp(e)}\n")
        return ABORTED
    sys.stdout.flush()
    return 0 if status is None else int(status)


def _status(fn: Callable[..., Any]) -> Callable[..., hipError_t]:
    """C's convention for a gpusim call: the status instead of the exception."""
    def call(*args: Any) -> hipError_t:
        try:
            fn(*args)
        except HipError as e:
            if e.code in _FATAL:
                raise
            _last[0] = e.code
            return e.code
        return hipError_t.hipSuccess
    call.__name__ = fn.__name__
    call.__doc__ = f"{fn.__name__}, returning the hipError_t as C does."
    return call


def _out(fn: Callable[..., Any], ref: list, *args: Any) -> None:
    ref[0] = fn(*args)


hipMalloc = _status(lambda ref, nbytes: _out(hip.hipMalloc, ref, int(nbytes)))
hipHostMalloc = _status(lambda ref, nbytes, dtype, flags=0: _out(
    lambda: hip.hipHostMalloc(int(nbytes), flags).view(dtype), ref))
hipMallocManaged = _status(lambda ref, nbytes, dtype, flags=1: _out(
    lambda: hip.managed_array(int(nbytes) // np.dtype(dtype).itemsize, dtype), ref))
hipGetDeviceCount = _status(lambda ref: _out(hip.hipGetDeviceCount, ref))
hipGetDevice = _status(lambda ref: _out(hip.hipGetDevice, ref))
hipGetDeviceProperties = _status(lambda ref, dev: _out(hip.hipGetDeviceProperties, ref, dev))
hipStreamCreate = _status(lambda ref: _out(hip.hipStreamCreate, ref))
hipStreamCreateWithFlags = _status(lambda ref, f: _out(hip.hipStreamCreateWithFlags, ref, f))
hipEventCreate = _status(lambda ref: _out(hip.hipEventCreate, ref))
hipEventCreateWithFlags = _status(lambda ref, f: _out(hip.hipEventCreateWithFlags, ref, f))
hipEventElapsedTime = _status(lambda ref, a, b: _out(
    lambda: np.float32(hip.hipEventElapsedTime(a, b)), ref))
hipFree, hipHostFree = _status(hip.hipFree), _status(hip.hipHostFree)
hipMemcpy, hipMemcpyAsync = _status(hip.hipMemcpy), _status(hip.hipMemcpyAsync)
hipMemset, hipMemsetAsync = _status(hip.hipMemset), _status(hip.hipMemsetAsync)
hipDeviceSynchronize = _status(hip.hipDeviceSynchronize)
hipDeviceReset, hipSetDevice = _status(hip.hipDeviceReset), _status(hip.hipSetDevice)
hipStreamDestroy = _status(hip.hipStreamDestroy)
hipStreamSynchronize = _status(hip.hipStreamSynchronize)
hipStreamWaitEvent = _status(hip.hipStreamWaitEvent)
hipEventDestroy, hipEventRecord = _status(hip.hipEventDestroy), _status(hip.hipEventRecord)
hipEventSynchronize = _status(hip.hipEventSynchronize)
hipGetErrorString, hipGetErrorName = hip.hipGetErrorString, hip.hipGetErrorName


def hipGetLastError() -> hipError_t:
    """The last failed call's status, then reset (HIP's hipGetLastError)."""
    code, _last[0] = _last[0], hipError_t.hipSuccess
    return code


def hipPeekAtLastError() -> hipError_t:
    return _last[0]


@_status
def launch(kernel: Any, grid: Any, block: Any, shared: int, stream: Any, *args: Any) -> None:
    """``kernel<<<grid, block, shared, stream>>>(args...)``: a failed launch is reported
    by hipGetLastError, as in HIP."""
    kernel.launch(_dims(grid), _dims(block), args, stream=stream or 0, shared_bytes=shared)


def hipLaunchKernelGGL(kernel: Any, grid: Any, block: Any, shared: int, stream: Any,
                       *args: Any) -> None:
    launch(kernel, grid, block, shared, stream, *args)


def _dims(d: Any) -> Any:
    return tuple(int(v) for v in d) if isinstance(d, tuple) else int(d)


# ---- C library
_FORMAT = re.compile(r"%([-+ #0]*\d*(?:\.\d+)?)(?:hh|h|ll|l|z|j|t|L)?([diouxXeEfgGcsp%])")


def _c_format(fmt: str, args: tuple) -> str:
    def conv(m: re.Match) -> str:
        flags, kind = m.groups()
        return "%" + flags + {"u": "d", "i": "d", "p": "x"}.get(kind, kind)
    values = tuple(a.decode() if isinstance(a, bytes) else a for a in args)
    return _FORMAT.sub(conv, fmt) % values


def printf(fmt: str, *args: Any) -> int:
    text = _c_format(fmt, args)
    sys.stdout.write(text)
    return len(text)


def fprintf(stream: str, fmt: str, *args: Any) -> int:
    text = _c_format(fmt, args)
    (sys.stderr if stream == "stderr" else sys.stdout).write(text)
    return len(text)


def puts(text: str) -> int:
    sys.stdout.write(text + "\n")
    return 0


def exit(status: int) -> None:  # noqa: A001 - C's exit
    raise Exit(status)


def malloc(nbytes: int, dtype: Any) -> np.ndarray:
    """``(T*)malloc(nbytes)``: a NumPy array of T (zeroed; C leaves it undefined)."""
    return np.zeros(int(nbytes) // np.dtype(dtype).itemsize, dtype)


def free(ary: Any) -> None:
    """``free`` / ``delete[]``: NumPy frees the array when it is no longer used."""


class Slot:
    """``&handles[i]`` for an array of HIP handles: slot 0 is ``handles[i]``."""

    def __init__(self, items: list, start: int):
        self.items, self.start = items, start

    def __getitem__(self, k: int) -> Any:
        return self.items[self.start + k]

    def __setitem__(self, k: int, value: Any) -> None:
        self.items[self.start + k] = value


def ptr_add(p: Any, k: int, itemsize: int) -> Any:
    """``p + k`` for a host array (a view from element k) or a device pointer."""
    if isinstance(p, np.ndarray):
        return p[int(k):]
    if isinstance(p, (list, Slot)):
        return Slot(p, int(k))
    return p + int(k) * itemsize


_rng = [np.random.RandomState(1)]


def srand(seed: int) -> None:
    _rng[0] = np.random.RandomState(int(seed) % 2**32)


def rand() -> int:
    """A pseudo-random int in [0, RAND_MAX] (not glibc's sequence: do not compare them)."""
    return int(_rng[0].randint(0, 2**31 - 1))
