"""What every rocSPARSE routine does with its arguments, in rocSPARSE's order: check the
handle, the sizes, the enums and the pointers, then queue its kernel on the handle's
stream with a modeled time.

``Call`` binds a handle and a function name so each check raises ``RocsparseError``
naming both. ``typed_family`` makes the ``s``/``d``/``c``/``z`` routines of one
algorithm (``rocsparse_scsrmv`` ... ``rocsparse_zcsrmv``) from a single implementation
that takes the element type first.

Modeled time: sparse kernels are bound by memory traffic, so a routine states the
bytes it moves (each array read or written once; a dense vector gathered through
column indices counted once, as if it stayed in cache) and the FLOPs; the time is the
roofline at the device's HBM bandwidth and vector peak (``gpusim.libs.common.modeled_time``).

>>> import numpy as np
>>> from gpusim.libs.rocsparse.handle import rocsparse_create_handle
>>> call = Call(rocsparse_create_handle(), "rocsparse_dcsrmv")
>>> call.sizes(m=-1)
Traceback (most recent call last):
...
gpusim.libs.rocsparse.errors.RocsparseError: ...: rocsparse_status_invalid_size (4): m=-1 must...
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim.libs.common import check_enum, device_view, launch_roofline, scalar_reader, wait
from gpusim.libs.rocsparse.errors import RocsparseError
from gpusim.libs.rocsparse.handle import check_handle
from gpusim.libs.rocsparse.types import rocsparse_pointer_mode, rocsparse_status
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.scheduler import Op

S = rocsparse_status
I32 = np.dtype(np.int32)  # rocsparse_int
PRECISIONS = {"s": np.dtype(np.float32), "d": np.dtype(np.float64),
              "c": np.dtype(np.complex64), "z": np.dtype(np.complex128)}
THREADS_PER_BLOCK = 256


class Call:
    """One rocSPARSE call: its handle, its name, and the checks it makes."""

    def __init__(self, handle: Any, function: str):
        self.function = function
        self.handle = check_handle(handle, function)

    def fail(self, status: rocsparse_status, detail: str) -> RocsparseError:
        return RocsparseError(status, self.function, detail)

    def sizes(self, **sizes: int) -> None:
        """rocsparse_status_invalid_size for any negative size."""
        for name, value in sizes.items():
            if int(value) < 0:
                raise self.fail(S.rocsparse_status_invalid_size, f"{name}={value} must be >= 0")

    def enum(self, value: Any, allowed: Any, arg: str) -> Any:
        """libs.common's check_enum for this call (rocsparse_status_invalid_value)."""
        return check_enum(value, allowed, function=self.function, arg=arg,
                          error=RocsparseError)

    def view(self, ptr: Any, dtype: Any, count: int, arg: str) -> np.ndarray:
        """Flat view of ``count`` elements at a device pointer; a null pointer is fine
        where nothing is read (count 0), as in rocSPARSE's quick returns."""
        if ptr is None and int(count) == 0:
            return np.empty(0, dtype)
        dtype = np.dtype(dtype)
        if isinstance(ptr, DeviceArray) and dtype.kind in "iu" and ptr.dtype != dtype:
            raise self.fail(S.rocsparse_status_type_mismatch,
                            f"argument '{arg}' holds {ptr.dtype} indices but "
                            f"{self.function} reads {dtype} ("
                            f"{'rocsparse_int' if dtype == I32 else 'its index type'}); "
                            f"upload them with .astype(np.{dtype})")
        return device_view(ptr, dtype, int(count), function=self.function, arg=arg,
                           error=RocsparseError, device=self.handle.device)

    @property
    def device_mode(self) -> bool:
        return self.handle.pointer_mode == rocsparse_pointer_mode.rocsparse_pointer_mode_device

    def scalar(self, value: Any, dtype: Any, arg: str) -> Callable[[], Any]:
        """How to read alpha/beta under the handle's pointer mode."""
        if value is None:
            raise self.fail(S.rocsparse_status_invalid_pointer,
                            f"argument '{arg}' is a null pointer; pass a number")
        return scalar_reader(value, dtype, device_mode=self.device_mode,
                             function=self.function, arg=arg, error=RocsparseError,
                             device=self.handle.device)

    def launch(self, fn: Callable[[], Any], *, kernel: str, rows: int, nbytes: float,
               flops: float = 0.0, dtype: Any = np.float32) -> Op:
        """Queue ``fn`` as ``kernel`` on the handle's stream with its modeled time: one
        work-item per row, the roofline at the precision's vector peak."""
        grid = (max(1, -(-int(rows) // THREADS_PER_BLOCK)), 1, 1)
        return launch_roofline(self.handle.queue(), fn, name=kernel, grid=grid,
                               block=(THREADS_PER_BLOCK, 1, 1), flops=flops,
                               bytes_moved=nbytes,
                               double=np.dtype(dtype) in (np.float64, np.complex128))

    def result_target(self, ptr: Any, arg: str) -> np.ndarray | None:
        """Where a scalar result (an nnz count) goes: device memory in pointer mode
        device (``ptr``), else nowhere (None): the call returns it to the host."""
        return self.view(ptr, I32, 1, arg) if self.device_mode else None

    def host_result(self, op: Op, value: Callable[[], int]) -> int | None:
        """In pointer mode host the call blocks until ``op`` ran and returns its result."""
        if self.device_mode:
            return None
        wait(op)
        return int(value())


def typed_family(generic: Callable[..., Any], stem: str) -> dict[str, Callable[..., Any]]:
    """``rocsparse_{s,d,c,z}{stem}``: ``generic(dtype, function_name, *c_args)`` bound to
    each precision, with the C argument list as its signature."""
    signature = inspect.signature(generic)
    params = list(signature.parameters.values())[2:]
    summary = (generic.__doc__ or "").strip().splitlines()[0]
    family = {}
    for prefix, dtype in PRECISIONS.items():
        name = f"rocsparse_{prefix}{stem}"

        def routine(*args: Any, _dtype: np.dtype = dtype, _name: str = name,
                    **kwargs: Any) -> Any:
            return generic(_dtype, _name, *args, **kwargs)

        routine.__name__ = routine.__qualname__ = name
        routine.__module__ = generic.__module__
        routine.__doc__ = f"{summary} ({dtype} data; see ``{generic.__name__}``)."
        routine.__signature__ = signature.replace(parameters=params)
        family[name] = routine
    return family
