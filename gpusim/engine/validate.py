"""Launch-configuration checks against the device, with HIP's error code.

A real ``hipLaunchKernelGGL`` with a bad configuration fails with
``hipErrorInvalidConfiguration``; here the message also names the limit and the device.

>>> from gpusim.devices import get_spec
>>> as_dim3(256), as_dim3((16, 16))
((256, 1, 1), (16, 16, 1))
>>> try:
...     validate_launch("k", (1, 1, 1), (2048, 1, 1), 0, 0, get_spec("mi300x"))
... except Exception as e:
...     print(e.code.name)
hipErrorInvalidConfiguration
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gpusim.errors import HipError, hipError_t


def _bad(message: str) -> HipError:
    return HipError(hipError_t.hipErrorInvalidConfiguration, message)


def as_dim3(value: Any, what: str = "block") -> tuple[int, int, int]:
    """An int or a 1-3 tuple of ints -> (x, y, z), missing dimensions 1."""
    if type(value) is int:  # the common case, checked on every launch
        return (value, 1, 1)
    dims = (value,) if isinstance(value, (int, np.integer)) else value
    if not isinstance(dims, (tuple, list)) or not 1 <= len(dims) <= 3 or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
        raise _bad(f"the {what} size must be an int or a tuple of 1 to 3 ints, got {value!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


def validate_launch(name: str, grid: tuple[int, int, int], block: tuple[int, int, int],
                    dynamic_lds_bytes: int, static_lds_bytes: int, spec: Any, *,
                    max_threads: int | None = None) -> None:
    """Raise ``HipError(hipErrorInvalidConfiguration)`` if the device cannot run the launch
    (``max_threads``: the kernel's ``launch_bounds``)."""
    validate_shape(name, grid, block, dynamic_lds_bytes, spec, max_threads=max_threads)
    validate_lds(name, dynamic_lds_bytes, static_lds_bytes, spec)


def validate_shape(name: str, grid: tuple[int, int, int], block: tuple[int, int, int],
                   dynamic_lds_bytes: int, spec: Any, *, max_threads: int | None = None
                   ) -> None:
    """The part of ``validate_launch`` that needs no compiled kernel (checked first, so a
    bad launch fails before it compiles)."""
    where = f"launch of kernel '{name}' on {spec.name}"
    for what, dims in (("block", block), ("grid", grid)):
        for axis, d in zip("xyz", dims, strict=True):
            if d < 1:
                raise _bad(f"{where}: {what} dimension {axis} is {d}; every dimension must be "
                           f"at least 1 ({what}={dims})")
    threads = math.prod(block)
    if threads > spec.max_threads_per_block:
        raise _bad(f"{where}: a block of {block[0]}x{block[1]}x{block[2]} = {threads} threads "
                   f"is more than the {spec.max_threads_per_block} threads per block the "
                   "device allows; use smaller blocks and more of them")
    if max_threads is not None and threads > max_threads:
        raise _bad(f"launch of '{name}': {threads} threads per block, but the kernel "
                   f"declares launch_bounds={max_threads}")
    for what, dims, limits in (("block", block, spec.max_block_dims),
                               ("grid", grid, spec.max_grid_dims)):
        for axis, d, limit in zip("xyz", dims, limits, strict=True):
            if d > limit:
                raise _bad(f"{where}: {what} dimension {axis} is {d}, above the device's "
                           f"limit of {limit} ({what} limits {tuple(limits)})")
    if dynamic_lds_bytes < 0:
        raise _bad(f"{where}: dynamic shared memory size {dynamic_lds_bytes} is negative")


def validate_lds(name: str, dynamic_lds_bytes: int, static_lds_bytes: int, spec: Any) -> None:
    """The kernel's static LDS plus the launch's dynamic LDS fit one work-group."""
    total = static_lds_bytes + dynamic_lds_bytes
    limit = spec.lds_bytes_per_workgroup_max
    if total > limit:
        raise _bad(f"launch of kernel '{name}' on {spec.name}: the kernel needs {total} bytes "
                   f"of LDS (shared memory: {static_lds_bytes} static + {dynamic_lds_bytes} "
                   f"dynamic), more than the {limit} bytes one work-group may use")
