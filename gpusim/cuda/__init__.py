"""``from gpusim import cuda``: the emulator under numba.cuda's names.

numba.cuda teaching material runs unchanged on an emulated AMD GPU: ``cuda.jit``,
``cuda.grid``, ``cuda.shared.array``, ``cuda.syncthreads``, ``cuda.atomic.add``, the
``*_sync`` warp functions, ``cuda.to_device``, ``cuda.stream``, ``cuda.event`` ...
Host NumPy arrays passed to a kernel are copied in and back, as numba.cuda does. One
difference is the point of the course: a "warp" here is an AMD wavefront, 64 lanes on
CDNA (``cuda.warpsize`` says so), so code that hard-codes 32 shows its assumption.

This file holds the names a kernel and its host code use (``jit``, ``grid``, ``shared``,
``atomic``, ``to_device``, ``stream``, ...) over ``gpusim.hip``; numba.cuda's submodules
keep their own file, so ``from numba.cuda.random import ...`` maps one to one::

    args.py         cuda.In / Out / InOut: copy hints for host-array kernel arguments
    cg.py           cuda.cg: cooperative groups, the grid group
    compiler.py     ahead-of-time entry points (compile_ptx, ...): say there is no PTX here
    devicearray.py  auto_device, as_cuda_array, is_cuda_array, the CUDA Array Interface
    devices.py      cuda.gpus, current_context(), select_device, get_current_device
    fp16.py         cuda.fp16: half-precision functions (defined in compile.lang_fp16)
    random.py       numba.cuda.random: xoroshiro128+ per thread, bit-exact with numba's
    reduction.py    cuda.Reduce: numba.cuda's reduction object

>>> import numpy as np
>>> from gpusim import cuda
>>> @cuda.jit
... def inc(a):
...     i = cuda.grid(1)
...     if i < a.size:
...         a[i] += 1
>>> a = np.zeros(100, np.int32)
>>> inc[1, 128](a)
>>> int(a.sum())
100
"""

from __future__ import annotations

from typing import Any

from numba import (  # numba.cuda material writes numba.float32 or cuda.float32
    boolean,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    void,
)

from gpusim import hip as _hip
from gpusim.compile.lang import *  # noqa: F403 - the kernel language
from gpusim.compile.lang import __all__ as _language
from gpusim.compile.lang_vectors import aliases as _vector_aliases
from gpusim.compile.lang_vectors import vector_types as _vector_types
from gpusim.cuda import args, cg, devicearray, fp16, random
from gpusim.cuda.compiler import (
    compile,  # noqa: A004 - numba.cuda's name
    compile_for_current_device,
    compile_ptx,
    compile_ptx_for_current_device,
)
from gpusim.cuda.devicearray import as_cuda_array, is_cuda_array
from gpusim.cuda.devices import current_context, gpus, list_devices, select_device
from gpusim.cuda.reduction import Reduce, reduce
from gpusim.runtime.api import hipDeviceSynchronize, pinned_array, pinned_array_like
from gpusim.runtime.api_async import Event
from gpusim.runtime.darray import DeviceArray, device_array, device_array_like, to_device
from gpusim.runtime.kernel import jit
from gpusim.runtime.kernel_args import In, InOut, Out
from gpusim.runtime.managed import managed_array
from gpusim.runtime.scheduler import Stream
from gpusim.runtime.system import get_system

# CUDA's vector types (cuda.float32x4, and CUDA C's names: cuda.float4, cuda.int3 ...)
globals().update(_vector_types)
globals().update(_vector_aliases)


def synchronize() -> None:
    """Wait for all work on the current device."""
    hipDeviceSynchronize()


def stream() -> Stream:
    """A new stream."""
    return _hip.stream()


def default_stream() -> int:
    """The null stream (pass it, or 0, wherever a stream is accepted)."""
    return 0


def event(timing: bool = True) -> Event:
    """A new event; ``timing=False`` makes one that cannot be timed."""
    return _hip.event(timing)


def event_elapsed_time(start: Event, stop: Event) -> float:
    """Milliseconds between two recorded, completed events."""
    return start.elapsed_time(stop)


def is_available() -> bool:
    """An emulated GPU is always available."""
    return True


def get_current_device() -> _hip.hipDeviceProp_t:
    """Properties of the current device (numba returns a device object; the fields a
    lesson prints -- name, and the hipDeviceProp_t fields -- are here)."""
    return _hip.hipGetDeviceProperties()


def detect() -> bool:
    """Print the emulated devices, like numba.cuda.detect()."""
    devices = get_system().devices
    print(f"Found {len(devices)} emulated AMD GPUs")
    for dev in devices:
        print(f"[{dev.ordinal}] {dev.spec.name} ({dev.spec.gcn_arch_name})")
    return True


def mapped_array(shape: Any, dtype: Any = "float64", strides: Any = None, order: str = "C",
                 stream: Any = 0, portable: bool = False, wc: bool = False) -> Any:
    """Host- and device-visible memory (numba's mapped memory is a managed array here:
    pages migrate on first touch, which the profile shows)."""
    if strides is not None or order != "C":
        raise NotImplementedError("mapped_array: only C order is supported here")
    return managed_array(shape, dtype)


def mapped_array_like(ary: Any) -> Any:
    """A mapped (host- and device-visible) array with the shape and dtype of ``ary``."""
    return managed_array(ary.shape, ary.dtype)

__all__ = [*_language, "jit", "to_device", "device_array", "device_array_like",
           "pinned_array", "pinned_array_like", "mapped_array", "mapped_array_like",
           "managed_array", "DeviceArray", "synchronize", "In", "Out", "InOut", "Reduce",
           "reduce", "gpus", "current_context", "list_devices", "as_cuda_array",
           "is_cuda_array", "compile_ptx", "compile_ptx_for_current_device", "compile",
           "compile_for_current_device", "args", "cg", "devicearray", "fp16", "random",
           "stream", "default_stream", "event", "event_elapsed_time", "is_available",
           "select_device", "get_current_device", "detect", "boolean", "float32", "float64",
           "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "void",
           *_vector_types, *_vector_aliases]
