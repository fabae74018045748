"""Sparse <-> dense: ``rocsparse_Xcsr2dense``, ``rocsparse_Xnnz`` (non-zeros per row or
column and in total) and ``rocsparse_Xdense2csr``.

Dense matrices are column-major with leading dimension ``ld >= m``, as in rocSPARSE:
element (i, j) of A is ``A[i + j * ld]``. A NumPy (m, n) array in Fortran order, or the
transpose of a C-order (n, m) array, is that layout.

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.rocsparse import *
>>> h, descr = rocsparse_create_handle(), rocsparse_create_mat_descr()
>>> a = np.array([[1., 0.], [0., 0.], [2., 3.]])
>>> d_a = hip.to_device(a.ravel(order="F"))           # column-major, ld = 3
>>> per_row = hip.device_array(3, np.int32)
>>> rocsparse_dnnz(h, rocsparse_direction_row, 3, 2, descr, d_a, 3, per_row)
3
>>> per_row.copy_to_host()
array([1, 0, 2], dtype=int32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.libs.rocsparse import storage
from gpusim.libs.rocsparse.calls import I32, Call, typed_family
from gpusim.libs.rocsparse.descriptors import dense_view
from gpusim.libs.rocsparse.handle import check_descr
from gpusim.libs.rocsparse.types import rocsparse_direction, rocsparse_status

S = rocsparse_status


def _dense(call: Call, dtype: np.dtype, ptr: Any, m: int, n: int, ld: int) -> np.ndarray:
    """The m x n column-major view of device memory (a NumPy (m, n) strided view)."""
    if int(ld) < max(1, int(m)):
        raise call.fail(S.rocsparse_status_invalid_size,
                        f"ld={ld} < m={m}; ld is the column stride of the column-major A, "
                        "at least m")
    return dense_view(call, ptr, dtype, int(m), int(n), int(ld), True, "A")


def csr2dense(dtype: np.dtype, function: str, handle: Any, m: int, n: int, descr: Any,
              csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any, A: Any, ld: int) -> None:  # noqa: N803
    """Write the CSR matrix into the column-major dense A (zeros elsewhere)."""
    call = Call(handle, function)
    call.sizes(m=m, n=n)
    base = int(check_descr(descr, function).index_base)
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    dense = _dense(call, dtype, A, m, n, ld)

    def run() -> None:
        nnz = int(rp[-1]) - base if m else 0
        ci = call.view(csr_col_ind, I32, nnz, "csr_col_ind")
        val = call.view(csr_val, dtype, nnz, "csr_val")
        dense[:, :] = storage.csr(m, n, base, rp, ci, val, function).toarray()

    call.launch(run, kernel="csr2dense_kernel", rows=m, nbytes=m * n * dense.itemsize,
                dtype=dtype)


def nnz(dtype: np.dtype, function: str, handle: Any, dir: int, m: int, n: int, descr: Any,
        A: Any, ld: int, nnz_per_row_columns: Any, nnz_total_dev_host_ptr: Any = None  # noqa: N803
        ) -> int | None:
    """Count the non-zeros of the column-major A per row (or per column) into
    ``nnz_per_row_columns``; the total is returned (pointer mode host) or written to
    ``nnz_total_dev_host_ptr`` (pointer mode device)."""
    call = Call(handle, function)
    direction = call.enum(dir, rocsparse_direction, "dir")
    call.sizes(m=m, n=n)
    check_descr(descr, function)
    dense = _dense(call, dtype, A, m, n, ld)
    by_row = direction == rocsparse_direction.rocsparse_direction_row
    counts = call.view(nnz_per_row_columns, I32, m if by_row else n, "nnz_per_row_columns")
    target = call.result_target(nnz_total_dev_host_ptr, "nnz_total_dev_host_ptr")
    total = {}

    def run() -> None:
        counts[:] = np.count_nonzero(dense, axis=1 if by_row else 0)
        total["nnz"] = int(counts.sum())
        if target is not None:
            target[0] = total["nnz"]

    op = call.launch(run, kernel="nnz_kernel", rows=m, nbytes=m * n * dense.itemsize,
                     dtype=dtype)
    return call.host_result(op, lambda: total["nnz"])


def dense2csr(dtype: np.dtype, function: str, handle: Any, m: int, n: int, descr: Any,
              A: Any, ld: int, nnz_per_rows: Any, csr_val: Any, csr_row_ptr: Any,  # noqa: N803
              csr_col_ind: Any) -> None:
    """Compress the column-major A into CSR, with the row counts from ``Xnnz``."""
    call = Call(handle, function)
    call.sizes(m=m, n=n)
    base = int(check_descr(descr, function).index_base)
    dense = _dense(call, dtype, A, m, n, ld)
    per_row = call.view(nnz_per_rows, I32, m, "nnz_per_rows")
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")

    def run() -> None:
        rows, cols = np.nonzero(dense)  # row-major order: rows sorted, columns within
        if not np.array_equal(np.bincount(rows, minlength=m), per_row):
            raise storage.fault(function, "nnz_per_rows does not match A's non-zeros; "
                                "compute it with rocsparse_Xnnz on the same A")
        ci = call.view(csr_col_ind, I32, rows.size, "csr_col_ind")
        val = call.view(csr_val, dtype, rows.size, "csr_val")
        rp[:] = np.concatenate([[0], np.cumsum(per_row, dtype=np.int64)]) + base
        ci[:], val[:] = cols + base, dense[rows, cols]

    call.launch(run, kernel="dense2csr_kernel", rows=m, nbytes=m * n * dense.itemsize,
                dtype=dtype)


ROUTINES = {**typed_family(csr2dense, "csr2dense"), **typed_family(nnz, "nnz"),
            **typed_family(dense2csr, "dense2csr")}
globals().update(ROUTINES)
__all__ = list(ROUTINES)
