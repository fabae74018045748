"""numba.cuda's device-array helpers (``numba.cuda.cudadrv.devicearray`` names) and the
CUDA Array Interface: ``auto_device``, ``as_cuda_array``, ``is_cuda_array``.

A ``__cuda_array_interface__`` here carries an *emulated* device address: it lets two
libraries on this emulator share a buffer, not a real GPU's memory.

>>> import numpy as np
>>> d, converted = auto_device(np.arange(3.0))
>>> converted, is_cuda_array(d), is_cuda_array(np.arange(3))
(True, True, False)
>>> as_cuda_array(d).copy_to_host()
array([0., 1., 2.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.runtime.darray import DeviceArray, to_device

DeviceNDArray = DeviceArray  # numba.cuda's class name for the same thing


def is_cuda_ndarray(obj: Any) -> bool:
    """True for a gpusim device array."""
    return isinstance(obj, DeviceArray)


def is_cuda_array(obj: Any) -> bool:
    """True if ``obj`` exposes the CUDA Array Interface (a device array or a foreign
    object wrapping one)."""
    return hasattr(obj, "__cuda_array_interface__")


def as_cuda_array(obj: Any, sync: bool = True) -> DeviceArray:
    """A device array viewing the memory an object's ``__cuda_array_interface__``
    describes (no copy); the object is kept alive as long as the view."""
    if not is_cuda_array(obj):
        raise TypeError(f"as_cuda_array: {type(obj).__name__} has no "
                        "__cuda_array_interface__; copy host data with cuda.to_device")
    desc = obj.__cuda_array_interface__
    shape, dtype = tuple(desc["shape"]), np.dtype(desc["typestr"])
    if desc.get("mask") is not None:
        raise NotImplementedError("as_cuda_array: masked arrays are not supported")
    if 0 in shape or desc["data"][0] == 0:
        return DeviceArray.allocate(shape, dtype, origin="as_cuda_array")
    strides = desc.get("strides")
    return DeviceArray.from_pointer(desc["data"][0], shape, dtype,
                                    strides=None if strides is None else tuple(strides),
                                    owner=obj)


def auto_device(obj: Any, stream: Any = 0, copy: bool = True, user_explicit: bool = False
                ) -> tuple[DeviceArray, bool]:
    """(device array, converted): ``obj`` itself if already on the device, else a copy of
    it (a scalar becomes a 0-d array). Non-contiguous host arrays are refused, as
    numba.cuda does, since one copy cannot move them."""
    if isinstance(obj, DeviceArray):
        return obj, False
    if is_cuda_array(obj):
        return as_cuda_array(obj), False
    ary = np.asarray(obj)
    if not (ary.flags.c_contiguous or ary.flags.f_contiguous):
        raise ValueError("Array contains non-contiguous buffer and cannot be transferred "
                         "as a single memory region. Please ensure contiguous buffer with "
                         "numpy .ascontiguousarray()")
    return to_device(ary, stream=stream, copy=copy), True
