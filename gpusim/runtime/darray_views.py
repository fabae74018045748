"""Views of a device array without copying: numba.cuda's DeviceNDArray layout methods.

Every method here returns another ``DeviceArray`` over the same device bytes (or
describes the layout), never moving data: ``reshape``/``ravel`` of a layout that would
need a copy raise NotImplementedError, as numba.cuda does. ``.T`` is a strided view, as
in NumPy and numba's simulator (numba on a GPU copies through a transpose kernel).

>>> import numpy as np
>>> from gpusim.runtime.darray import to_device
>>> d = to_device(np.arange(6, dtype=np.int32))
>>> [part.copy_to_host().tolist() for part in d.split(4)]
[[0, 1, 2, 3], [4, 5]]
>>> d.reshape(2, 3).T.shape, d.reshape(2, 3).T.is_f_contiguous()
((3, 2), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np


class LayoutFlags(dict):
    """numba.cuda's ``flags`` dict (``d.flags["C_CONTIGUOUS"]``), also readable as NumPy's
    flags object is (``d.flags.c_contiguous``)."""

    def __getattr__(self, name: str) -> bool:
        try:
            return self[name.upper()]
        except KeyError:
            raise AttributeError(name) from None


class DeviceArrayViews:
    """Layout views shared by every DeviceArray (mixed into it)."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: np.dtype

    def _layout(self) -> np.ndarray:
        """A zero-byte NumPy array with this shape and strides: NumPy's layout rules
        (contiguity, reshape without copy) applied without touching the data."""
        return np.lib.stride_tricks.as_strided(np.empty(1, self.dtype), self.shape,
                                               self.strides, writeable=False)

    @property
    def flags(self) -> LayoutFlags:
        """NumPy-style layout flags (``C_CONTIGUOUS``, ``F_CONTIGUOUS``, ...)."""
        f = self._layout().flags
        return LayoutFlags(C_CONTIGUOUS=f.c_contiguous, F_CONTIGUOUS=f.f_contiguous,
                           OWNDATA=False, WRITEABLE=True, ALIGNED=f.aligned)

    def is_c_contiguous(self) -> bool:
        return bool(self._layout().flags.c_contiguous)

    def is_f_contiguous(self) -> bool:
        return bool(self._layout().flags.f_contiguous)

    @property
    def T(self) -> Any:  # noqa: N802 - NumPy's name
        return self.transpose()

    def transpose(self, axes: Any = None) -> Any:
        """The axes reversed (or permuted by ``axes``), as a strided view."""
        return self._wrap(self.device_view().transpose(axes))

    def reshape(self, *shape: Any, order: str = "C") -> Any:
        """A view with a new shape; NotImplementedError when that would need a copy."""
        if len(shape) == 1 and not np.isscalar(shape[0]):
            shape = tuple(shape[0])
        return self._no_copy(lambda a: a.reshape(shape, order=order, copy=False))

    def ravel(self, order: str = "C", stream: Any = 0) -> Any:
        """The array as 1-d; NotImplementedError unless the layout allows a view."""
        return self.reshape(-1, order=order)

    def squeeze(self, axis: Any = None, stream: Any = 0) -> Any:
        """The array without its length-1 axes (or only ``axis``)."""
        return self._wrap(self.device_view().squeeze(axis))

    def view(self, dtype: Any) -> Any:
        """The same bytes as another dtype (NumPy's rules for a size change)."""
        return self._wrap(self.device_view().view(np.dtype(dtype)))

    def split(self, section: int, stream: Any = 0) -> Any:
        """Views of ``section`` elements each (the last may be shorter) of a 1-d,
        unit-stride array, as numba.cuda's ``split``."""
        if self.ndim != 1:
            raise ValueError("split: only 1-d device arrays can be split")
        if self.strides[0] != self.dtype.itemsize:
            raise ValueError("split: the array must have unit stride")
        view = self.device_view()
        for begin in range(0, self.size, section):
            yield self._wrap(view[begin:begin + section])

    def _no_copy(self, reshape: Any) -> Any:
        view = self.device_view()
        try:
            return self._wrap(reshape(view))
        except ValueError as err:
            if "copy" in str(err):
                raise NotImplementedError(
                    f"operation requires copying: a {self.shape} array with strides "
                    f"{self.strides} cannot be viewed that way; copy_to_host, reshape "
                    "there, and to_device") from None
            raise

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """The CUDA Array Interface (version 3) of this array: its emulated device
        address, shape, strides (None when C-contiguous) and type string."""
        return {"shape": tuple(self.shape),
                "strides": None if self.is_c_contiguous() else tuple(self.strides),
                "data": (self.ptr.value if self.size else 0, False),
                "typestr": self.dtype.str, "stream": None, "version": 3}


def like_strides(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int
                 ) -> tuple[int, ...]:
    """Contiguous strides for a new array like one with ``strides``: NumPy's
    ``empty_like`` (order "K": the axes keep their order in memory, the gaps close).

    >>> like_strides((5, 6), (8, 80), 8)     # a transposed view -> Fortran order
    (8, 40)
    """
    order = sorted(range(len(shape)), key=lambda axis: -abs(strides[axis]))  # stable
    new, step = [0] * len(shape), itemsize
    for axis in reversed(order):
        new[axis] = step
        step *= max(shape[axis], 1)
    return tuple(new)
