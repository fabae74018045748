"""Device arrays: typed, shaped views of emulated device memory (numba.cuda style).

A ``DeviceArray`` is not host data. NumPy cannot read it implicitly (``np.asarray(d)``
raises a TypeError that says to call ``copy_to_host``), because on a real GPU the bytes
live across a PCIe link; copies are explicit so learners see (and later time) them.

>>> import numpy as np
>>> from gpusim import hip
>>> d = hip.to_device(np.arange(6, dtype=np.float32))
>>> d.shape, d.dtype, d[2:4].copy_to_host()
((6,), dtype('float32'), array([2., 3.], dtype=float32))
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from gpusim.errors import HipError, hipError_t
from gpusim.runtime import streams
from gpusim.runtime.darray_views import DeviceArrayViews, like_strides
from gpusim.runtime.memory import Allocation, DeviceMemory, DevicePointer
from gpusim.runtime.system import current_device


def _release(memory: DeviceMemory, alloc: Allocation) -> None:
    """Finalizer of an owning array: free its buffer unless hipFree already did."""
    if alloc.alive:
        memory.free(alloc.address, origin="garbage collection of its DeviceArray")


class DeviceArray(DeviceArrayViews):
    """An n-dimensional array in emulated device memory.

    Made by ``to_device``, ``device_array``, ``device_array_like`` (which free their
    buffer when garbage collected, as numba.cuda does) or wrapped around a hipMalloc
    pointer with ``DeviceArray.from_pointer`` (freed only by hipFree, as in C).
    """

    __array_priority__ = 1000  # make `host_array op device_array` come to us, and fail

    def __init__(
        self,
        shape: tuple[int, ...],
        dtype: np.dtype,
        strides: tuple[int, ...],
        alloc: Allocation,
        offset: int,
        owner: object = None,
    ):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.strides = tuple(int(s) for s in strides)
        self._alloc = alloc
        self._offset = offset
        self._owner = owner  # keeps the buffer of an owning array alive while views exist

    # construction ---------------------------------------------------------------------
    @classmethod
    def allocate(cls, shape: Any, dtype: Any, *, origin: str, order: str = "C",
                 strides: tuple[int, ...] | None = None) -> DeviceArray:
        """A new owning array on the current device, zero-filled, laid out in ``order``
        ("C" row-major, "F" column-major) or with the given contiguous ``strides``."""
        dtype = np.dtype(dtype)
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        if not all(isinstance(s, (int, np.integer)) and s >= 0 for s in shape):
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"{origin}: shape {shape} must be non-negative integers",
            )
        if order not in ("C", "F"):
            raise ValueError(f"{origin}: order must be 'C' or 'F', not {order!r}")
        if strides is None:
            strides = _c_strides(shape, dtype.itemsize)
            if order == "F":
                strides = tuple(reversed(_c_strides(shape[::-1], dtype.itemsize)))
        _check_contiguous(shape, strides, dtype.itemsize, origin)
        device = current_device()
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        ptr = device.memory.allocate(nbytes, origin=origin)
        alloc, _ = device.memory.lookup(ptr.value)
        owner = _Owner()
        weakref.finalize(owner, _release, device.memory, alloc)
        return cls(shape, dtype, strides, alloc, 0, owner)

    @classmethod
    def from_pointer(cls, ptr: DevicePointer, shape: Any, dtype: Any,
                     strides: tuple[int, ...] | None = None, owner: object = None
                     ) -> DeviceArray:
        """View ``shape`` elements of ``dtype`` (C order, or ``strides``) starting at a
        hipMalloc'd pointer; ``owner`` is kept alive as long as the view.

        >>> from gpusim import hip
        >>> p = hip.hipMalloc(64)
        >>> DeviceArray.from_pointer(p, (4, 4), "float32").shape
        (4, 4)
        >>> hip.hipFree(p)
        """
        from gpusim.runtime.pointers import resolve_device

        dtype = np.dtype(dtype)
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        strides = _c_strides(shape, dtype.itemsize) if strides is None else tuple(strides)
        alloc, offset = resolve_device(ptr, origin="DeviceArray.from_pointer")
        nbytes = 0 if 0 in shape else dtype.itemsize + sum(
            (n - 1) * s for n, s in zip(shape, strides, strict=True))
        if min(strides, default=0) < 0 or offset + nbytes > alloc.nbytes:
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"DeviceArray.from_pointer: {shape} x {dtype} (strides {strides}) spans "
                f"{nbytes} bytes from offset {offset}, but {alloc.describe()} ends "
                f"{alloc.nbytes - offset} bytes later",
            )
        return cls(shape, dtype, strides, alloc, offset, owner)

    # numpy-like attributes --------------------------------------------------------------
    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def device(self) -> int:
        """Ordinal of the device that holds the data."""
        return self._alloc.device

    @property
    def ptr(self) -> DevicePointer:
        """Device address of element 0 (``hipMemcpy`` and the libraries accept it)."""
        return DevicePointer(self._alloc.address + self._offset, self._alloc.device)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d DeviceArray")
        return self.shape[0]

    def __repr__(self) -> str:
        state = "" if self._alloc.alive else ", freed"
        return (
            f"<DeviceArray shape={self.shape} dtype={self.dtype} "
            f"at {self.ptr.value:#x} on device {self.device}{state}>"
        )

    # the one door to the bytes ----------------------------------------------------------
    def device_view(self) -> np.ndarray:
        """NumPy view aliasing the device bytes (for the engine and copies, not learners)."""
        if not self._alloc.alive:
            raise HipError(
                hipError_t.hipErrorInvalidValue,
                f"use after free: this DeviceArray lives in {self._alloc.describe()}, "
                f"which was freed by {self._alloc.freed_by}",
            )
        return np.ndarray(
            self.shape, self.dtype, buffer=self._alloc.buffer, offset=self._offset,
            strides=self.strides,
        )

    def _wrap(self, view: np.ndarray) -> DeviceArray:
        offset = view.__array_interface__["data"][0] - self._alloc.buffer.ctypes.data
        return DeviceArray(view.shape, view.dtype, view.strides, self._alloc, offset, self._owner)

    def __getitem__(self, key: Any) -> Any:
        """Slices give device views; a single element is copied to the host.

        The element copy is synchronous and ordered on the null stream, as in numba.cuda
        and HIP (hipMemcpy): it waits for work queued before it, so ``d[0]`` after a
        launch reads what the kernel wrote.
        """
        src = self.device_view()
        view = src[key]
        if isinstance(view, np.ndarray):
            return self._wrap(view)
        out = np.empty((), self.dtype)
        self._submit(lambda: out.__setitem__((), src[key]), "getitem", "DtoH", None, 0,
                     nbytes=self.itemsize)
        return out[()]

    def __setitem__(self, key: Any, value: Any) -> None:
        """Copy ``value`` into ``self[key]``: synchronous and ordered on the null stream,
        so a kernel queued before it still sees the old value (numba.cuda, hipMemcpy)."""
        dst = self.device_view()
        nbytes = dst[key].nbytes if isinstance(dst[key], np.ndarray) else self.itemsize
        if isinstance(value, DeviceArray):
            src = value.device_view()
            direction = "DtoD" if value.device == self.device else "PtoP"
            self._submit(lambda: dst.__setitem__(key, src), "setitem", direction, None, 0,
                         nbytes=nbytes)
            return
        host = np.array(value, copy=True)  # taken now: the caller may change it next line
        self._submit(lambda: dst.__setitem__(key, host), "setitem", "HtoD", host, 0,
                     nbytes=nbytes)

    # copies -----------------------------------------------------------------------------
    def copy_to_host(self, ary: np.ndarray | None = None, stream: Any = 0) -> np.ndarray:
        """Copy to a new (or the given) host array and return it.

        With a stream (numba.cuda style) the copy is queued and ``ary`` is filled once
        the stream is synchronised, if ``ary`` is pinned; otherwise the call waits.
        """
        src = self.device_view()
        if ary is None:
            ary = np.empty(self.shape, self.dtype)
        _check_same_layout(ary, self, "copy_to_host")
        self._submit(lambda: np.copyto(ary, src), "copy_to_host", "DtoH", ary, stream)
        return ary

    def copy_to_device(self, ary: Any, stream: Any = 0) -> None:
        """Copy a host array (or another DeviceArray) of the same shape into this one."""
        dst = self.device_view()
        if isinstance(ary, DeviceArray):
            src, host = ary.device_view(), None
            direction = "DtoD" if ary.device == self.device else "PtoP"
        else:
            src = host = np.asarray(ary)
            direction = "HtoD"
        _check_same_layout(src, self, "copy_to_device")
        self._submit(lambda: np.copyto(dst, src), "copy_to_device", direction, host, stream)

    def _submit(self, run: Any, name: str, direction: str, host: np.ndarray | None,
                stream: Any, nbytes: int | None = None) -> None:
        from gpusim.runtime.pointers import is_pinned

        pinned = host is not None and is_pinned(host)
        nbytes = self.nbytes if nbytes is None else nbytes
        op = streams.enqueue(stream, run, name=name, kind=direction,
                             info={"bytes": nbytes, "pinned": pinned,
                                   "src_device": None if direction == "HtoD" else self.device,
                                   "dst_device": None if direction == "DtoH" else self.device})
        if stream in (0, None) or (host is not None and not pinned):
            op.stream.scheduler.wait_host(op)

    # refuse to be host data -------------------------------------------------------------
    def _not_host(self, what: str) -> TypeError:
        return TypeError(
            f"{what}: this DeviceArray {self.shape} {self.dtype} lives in emulated device "
            f"memory (device {self.device}), not on the host. Copy it first with "
            "d.copy_to_host(), or do the work in a kernel."
        )

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise self._not_host("NumPy tried to read a device array")

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        raise self._not_host(f"numpy.{ufunc.__name__} on a device array")

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        raise self._not_host(f"numpy.{func.__name__} on a device array")

    def __iter__(self) -> Any:
        """Element by element (rows of an n-d array as device views), each read a
        synchronous copy as ``d[i]`` is: numba.cuda allows it; one copy per item is slow,
        so copy_to_host() first when reading many."""
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        raise self._not_host("the truth value of a device array")


class _Owner:
    """Lifetime token of an owning DeviceArray; its finalizer frees the buffer."""


def _c_strides(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def _check_contiguous(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int,
                      origin: str) -> None:
    """New buffers are exactly shape x itemsize bytes: the strides must tile them (the
    axes longer than 1, smallest stride first, each step the product of those before)."""
    ok, step = len(strides) == len(shape), itemsize
    for stride, extent in sorted((s, n) for s, n in zip(strides, shape, strict=False) if n > 1):
        ok, step = ok and stride == step, step * extent
    if not ok:
        raise ValueError(f"{origin}: strides {tuple(strides)} do not lay out a contiguous "
                         f"{shape} array of {itemsize}-byte items; pass order='C' or 'F'")


def _check_same_layout(host: np.ndarray, dev: DeviceArray, what: str) -> None:
    if host.shape != dev.shape or host.dtype != dev.dtype:
        raise HipError(
            hipError_t.hipErrorInvalidValue,
            f"{what}: host array is {host.shape} {host.dtype} but the device array is "
            f"{dev.shape} {dev.dtype}; shapes and dtypes must match",
        )


def to_device(ary: Any, stream: Any = 0, copy: bool = True, to: DeviceArray | None = None
              ) -> DeviceArray:
    """Allocate a device array like ``ary`` on the current device and copy it there.

    >>> import numpy as np
    >>> to_device(np.ones((2, 3))).shape
    (2, 3)
    """
    if isinstance(ary, DeviceArray):
        raise TypeError("to_device: the array is already on a device; use it directly")
    host = np.asarray(ary)
    if not (host.flags.c_contiguous or host.flags.f_contiguous):  # F order stays F
        host = host.copy(order="C")
    if to is None:
        to = DeviceArray.allocate(host.shape, host.dtype, origin="to_device",
                                  strides=host.strides)
    if copy:
        to.copy_to_device(host, stream=stream)
    return to


def device_array(shape: Any, dtype: Any = np.float64, strides: Any = None, order: str = "C",
                 stream: Any = 0) -> DeviceArray:
    """An uninitialised device array (zero-filled here; do not rely on it), in row-major
    ("C") or column-major ("F") order.

    >>> device_array((4, 4), "float32").nbytes
    64
    >>> device_array((2, 3), order="F").strides
    (8, 16)
    """
    return DeviceArray.allocate(shape, dtype, origin="device_array", order=order,
                                strides=None if strides is None else tuple(strides))


def device_array_like(ary: Any, stream: Any = 0) -> DeviceArray:
    """A new device array with the shape and dtype of ``ary`` (host or device), laid out
    in the same axis order but contiguous (NumPy's ``empty_like``)."""
    shape = tuple(ary.shape)
    strides = like_strides(shape, tuple(ary.strides), ary.dtype.itemsize)
    return DeviceArray.allocate(shape, ary.dtype, origin="device_array_like",
                                strides=strides)
