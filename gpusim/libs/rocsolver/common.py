"""What the rocSOLVER routines share: argument order, int arrays, and modeled kernels.

Each routine checks the handle, then rocSOLVER's ``*_argCheck`` (enum values ->
invalid_value, sizes and leading dimensions -> invalid_size, with ``lda >= rows`` only),
then answers a device-memory size query, then checks pointers (invalid_pointer) and
finally quick-returns for empty problems, setting ``info`` to 0.

``ipiv`` and ``info`` are ``rocblas_int`` (int32) device arrays, as in C; pivots are
1-based. Modeled time: a blocked factorization (getrf, potrf, geqrf) is a sequence of
panel kernels (latency- and memory-bound) and trailing-matrix GEMM updates, which is why
small factorizations run far below peak; other routines are one kernel of their LAPACK
FLOP count at GEMM-like efficiency.

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.libs.rocblas.handle import rocblas_create_handle
>>> info = hip.to_device(np.array([7], np.int32))
>>> int_view(info, 1, "f", "info", None)
array([7], dtype=int32)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim.libs.common import device_view
from gpusim.libs.rocblas.blas_time import compute_kind, ctype, tensile_name
from gpusim.libs.rocblas.checks import matrix, pointer_array, strided_matrices
from gpusim.libs.rocblas.enums import RocblasError
from gpusim.libs.rocblas.gemm import type_code
from gpusim.libs.rocblas.handle import Handle
from gpusim.libs.rocblas.launching import launch_gemm, launch_stream

NB = 64  # panel width of the blocked factorizations (rocSOLVER's GETRF/POTRF block size)


def int_view(ptr: Any, count: int, function: str, arg: str, device: int | None) -> np.ndarray:
    """``count`` rocblas_int (int32) values at a device pointer (ipiv, info)."""
    return device_view(ptr, np.int32, count, function=function, arg=arg, error=RocblasError,
                       device=device)


def launch_blocked(h: Handle, run: Callable[[], Any], routine: str, dtype: Any, m: int,
                   n: int, batch: int, panel_flops: Callable[[int, int], float]) -> None:
    """Queue a blocked factorization: per panel of NB columns, a panel kernel then a
    GEMM update of the trailing matrix. ``run`` (the whole computation) goes with the
    first kernel; the rest only take their modeled time."""
    dtype = np.dtype(dtype)
    nb = max(NB, math.ceil(min(m, n) / 16))  # at most 16 panels in the profile
    steps = max(1, math.ceil(min(m, n) / nb))
    size = dtype.itemsize
    for j in range(steps):
        rows, cols = m - j * nb, n - j * nb
        width = min(nb, cols)
        launch_stream(h, run if j == 0 else (lambda: None),
                      f"rocsolver_{routine}_panel_kernel<{ctype(dtype)}>", rows * batch,
                      dtype, bytes_moved=2 * rows * width * size * batch,
                      flops=panel_flops(rows, width) * batch)
        if cols - width > 0:
            launch_gemm(h, lambda: None, tensile_name("N", "T", type_code(dtype), mt="{MT}"),
                        max(rows - width, 1), cols - width, width, batch,
                        compute_kind(dtype), in_bytes=size, out_bytes=size)


def launch_single(h: Handle, run: Callable[[], Any], kernel: str, dtype: Any, m: int,
                  n: int, k: int, flops: float, batch: int = 1) -> None:
    """Queue one kernel doing ``flops`` with a GEMM-like efficiency over (m, n, k)."""
    size = np.dtype(dtype).itemsize
    launch_gemm(h, run, kernel, max(m, 1), max(n, 1), max(k, 1), batch,
                compute_kind(dtype), flops=flops * batch, in_bytes=size, out_bytes=size)


def matrices(ptr: Any, layout: str, rows: int, cols: int, ld: int, stride: int,
              batch: int, dtype: Any, name: str, arg: str, device: int) -> list[np.ndarray]:
    """The batch's matrices: one (plain), a strided block, or an array of pointers."""
    if layout == "batched":
        return [matrix(p, rows, cols, ld, dtype, name, f"{arg}[i]", device)
                for p in pointer_array(ptr, batch, name, arg, device)]
    if layout == "strided":
        return list(strided_matrices(ptr, rows, cols, ld, stride, batch, dtype, name, arg,
                                     device))
    return [matrix(ptr, rows, cols, ld, dtype, name, arg, device)]
