"""Queue a rocBLAS kernel on the handle's stream (``Handle.launch``, from libs.common) with
its modeled time (blas_time.py), grid and name.

``launch_stream`` is for the memory-bound level-1/2 kernels, ``launch_gemm`` for the
GEMM-shaped level-3 ones; ``deliver`` hands a scalar result (dot, nrm2, iamax, ...) to
where the pointer mode says: returned (and written to a host array if one is given) in
pointer mode host, written to device memory in pointer mode device.

>>> import numpy as np
>>> import gpusim
>>> from gpusim.libs.rocblas.handle import rocblas_create_handle
>>> h = rocblas_create_handle()
>>> box = []
>>> with gpusim.profile() as prof:
...     op = launch_stream(h, lambda: box.append(1), "rocblas_scal_kernel<float>", 1 << 20,
...                        np.float32, bytes_moved=8 << 20, flops=1 << 20)
...     h.queue().synchronize()
>>> box, prof.kernels[0].name, prof.kernels[0].breakdown["bound"]
([1], 'rocblas_scal_kernel<float>', 'HBM')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gpusim.libs.common import device_view, host_view, wait
from gpusim.libs.rocblas import blas_time
from gpusim.libs.rocblas.enums import RocblasError
from gpusim.libs.rocblas.handle import Handle
from gpusim.runtime.scheduler import Op
from gpusim.runtime.streams import enqueue


def launch_stream(h: Handle, run: Callable[[], Any], kernel: str, n: int, dtype: Any, *,
                  bytes_moved: float, flops: float) -> Op:
    """Queue a memory-bound kernel over ``n`` elements."""
    seconds, parts = blas_time.stream_seconds(h.spec, bytes_moved=bytes_moved, flops=flops,
                                          dtype=np.dtype(dtype))
    grid, block = blas_time.vector_grid(n)
    return h.launch(run, name=kernel, grid=grid, block=block, seconds=seconds,
                    breakdown=parts, bytes_moved=int(bytes_moved))


def launch_gemm(h: Handle, run: Callable[[], Any], kernel: str, m: int, n: int, k: int,
                batch: int, kind: str, **shape: Any) -> Op:
    """Queue a GEMM-shaped kernel (see blas_time.gemm_seconds for
    ``shape``); ``{MT}`` in the
    kernel name becomes the macro tile the model picked."""
    seconds, parts = blas_time.gemm_seconds(h.spec, m, n, k, batch, kind, **shape)
    grid, block = blas_time.gemm_grid(h.spec, m, n, batch)
    kernel = kernel.replace("{MT}", str(blas_time.macro_tile(h.spec, m, n, batch)))
    return h.launch(run, name=kernel, grid=grid, block=block, seconds=seconds,
                    breakdown=parts, lds_bytes=32768)


def deliver(h: Handle, name: str, result: Any, dtype: Any, compute: Callable[[], Any],
            kernels: list[str], n: int, *, bytes_moved: float, flops: float) -> Any:
    """Run a reduction whose scalar goes to ``result`` (see module docstring).

    rocBLAS reduces in two kernels (partial sums per workgroup, then the final one);
    both appear in the profiler. In pointer mode host the call blocks until the value
    is ready, as rocBLAS does.
    """
    dtype = np.dtype(dtype)
    if h.device_mode:
        if result is None:
            raise RocblasError(RocblasError.pointer_status, name,
                               "argument 'result' is a null pointer (None); in pointer mode "
                               "device pass device memory for the result")
        target = device_view(result, dtype, 1, function=name, arg="result",
                             error=RocblasError, device=h.device)
        box = target
    else:
        target = None if result is None else host_view(result, dtype, 1, function=name,
                                                       arg="result", error=RocblasError)
        box = np.zeros(1, dtype)

    def partial() -> None:
        box[0] = compute()

    launch_stream(h, partial, kernels[0], n, dtype, bytes_moved=bytes_moved, flops=flops)
    partials = (n + 511) // 512  # one partial result per 512-element workgroup
    op = launch_stream(h, lambda: None, kernels[1], partials, dtype,
                       bytes_moved=(partials + 1) * dtype.itemsize, flops=partials)
    if h.device_mode:
        return None
    wait(op)
    if target is not None:
        target[0] = box[0]
    return box[0]


def zero_result(h: Handle, name: str, result: Any, dtype: Any) -> Any:
    """The quick return of a reduction on an empty vector: the result is set to 0."""
    if h.device_mode:
        if result is None:
            raise RocblasError(RocblasError.pointer_status, name,
                               "argument 'result' is a null pointer (None)")
        view = device_view(result, dtype, 1, function=name, arg="result",
                           error=RocblasError, device=h.device)
        enqueue(h.queue(), lambda: view.fill(0), name="hipMemsetAsync", kind="memset",
                info={"bytes": view.nbytes})
        return None
    if result is not None:
        host_view(result, dtype, 1, function=name, arg="result", error=RocblasError)[0] = 0
    return np.dtype(dtype).type(0)
