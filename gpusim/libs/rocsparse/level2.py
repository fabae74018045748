"""Sparse matrix times dense vector, y := alpha * op(A) * x + beta * y, in the four
storage formats of rocSPARSE's level-2 API: ``rocsparse_Xcsrmv`` (with
``rocsparse_Xcsrmv_analysis`` / ``rocsparse_csrmv_clear``), ``rocsparse_Xcoomv``,
``rocsparse_Xellmv``, ``rocsparse_Xbsrmv`` (X = s, d, c, z). The generic
``rocsparse_spmv`` uses the same kernel (``matvec``).

The emulator implements general matrices (rocsparse_matrix_type_general); other
descriptor types raise rocsparse_status_not_implemented.

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.rocsparse import *
>>> h, descr = rocsparse_create_handle(), rocsparse_create_mat_descr()
>>> rp = hip.to_device(np.array([0, 1, 3], np.int32))
>>> ci = hip.to_device(np.array([1, 0, 1], np.int32))
>>> val, x = hip.to_device(np.array([2., 3., 4.])), hip.to_device(np.array([1., 10.]))
>>> y = hip.device_array(2)
>>> rocsparse_dcsrmv(h, rocsparse_operation_none, 2, 2, 3, 1.0, descr, val, rp, ci, None,
...                  x, 0.0, y)
>>> y.copy_to_host()
array([20., 43.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from gpusim.libs.rocsparse import storage
from gpusim.libs.rocsparse.calls import I32, Call, typed_family
from gpusim.libs.rocsparse.handle import check_descr, check_info
from gpusim.libs.rocsparse.types import (
    rocsparse_direction,
    rocsparse_matrix_type,
    rocsparse_operation,
    rocsparse_status,
)

S = rocsparse_status


def matvec(call: Call, trans: rocsparse_operation, shape: tuple[int, int], nnz: int,
           build: Callable[[], sp.spmatrix], alpha: Callable[[], Any],
           beta: Callable[[], Any], x: np.ndarray, y: np.ndarray, *, kernel: str,
           matrix_bytes: int, dtype: Any) -> None:
    """Queue y := alpha * op(A) * x + beta * y; ``build`` reads A when the kernel runs.
    Bytes: A's arrays, x once, y read and written."""
    rows, cols = storage.operated_shape(*shape, trans)

    def run() -> None:
        product = storage.apply(build(), trans) @ x[:cols]
        b = beta()
        y[:rows] = alpha() * product + (b * y[:rows] if b != 0 else 0)

    nbytes = matrix_bytes + cols * x.itemsize + 2 * rows * y.itemsize
    call.launch(run, kernel=kernel, rows=rows, nbytes=nbytes, flops=2 * nnz + 3 * rows,
                dtype=dtype)


def _prologue(call: Call, trans: int, descr: Any, m: int, n: int, **sizes: int
              ) -> rocsparse_operation:
    trans = call.enum(trans, rocsparse_operation, "trans")
    descr = check_descr(descr, call.function)
    call.sizes(m=m, n=n, **sizes)
    if descr.type != rocsparse_matrix_type.rocsparse_matrix_type_general:
        raise call.fail(S.rocsparse_status_not_implemented,
                        f"matrix type {descr.type.name}: the emulator implements "
                        "rocsparse_matrix_type_general")
    return trans


def _vectors(call: Call, dtype: np.dtype, trans: rocsparse_operation, m: int, n: int,
             x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = storage.operated_shape(m, n, trans)
    return call.view(x, dtype, cols, "x"), call.view(y, dtype, rows, "y")


def csrmv(dtype: np.dtype, function: str, handle: Any, trans: int, m: int, n: int,
          nnz: int, alpha: Any, descr: Any, csr_val: Any, csr_row_ptr: Any,
          csr_col_ind: Any, info: Any, x: Any, beta: Any, y: Any) -> None:
    """y := alpha * op(A) * x + beta * y with A in CSR (``info``: None, or analysed by
    csrmv_analysis for the adaptive kernel; the result is the same)."""
    call = Call(handle, function)
    trans = _prologue(call, trans, descr, m, n, nnz=nnz)
    a, b = call.scalar(alpha, dtype, "alpha"), call.scalar(beta, dtype, "beta")
    val = call.view(csr_val, dtype, nnz, "csr_val")
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    ci = call.view(csr_col_ind, I32, nnz, "csr_col_ind")
    xv, yv = _vectors(call, dtype, trans, m, n, x, y)
    base = int(descr.index_base)
    analysed = info is not None and ("csrmv", trans) in check_info(info, function).analyses
    matvec(call, trans, (m, n), nnz, lambda: storage.csr(m, n, base, rp, ci, val, function),
           a, b, xv, yv, dtype=dtype, matrix_bytes=val.nbytes + ci.nbytes + rp.nbytes,
           kernel="csrmvn_adaptive_kernel" if analysed else "csrmvn_general_kernel")


def csrmv_analysis(dtype: np.dtype, function: str, handle: Any, trans: int, m: int, n: int,
                   nnz: int, descr: Any, csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any,
                   info: Any) -> None:
    """Analyse the rows once so later csrmv calls with this ``info`` use rocSPARSE's
    adaptive kernel (here: a kernel reading the row pointer, and the kernel's name)."""
    call = Call(handle, function)
    trans = _prologue(call, trans, descr, m, n, nnz=nnz)
    check_info(info, function)
    call.view(csr_val, dtype, nnz, "csr_val")
    call.view(csr_col_ind, I32, nnz, "csr_col_ind")
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    base = int(descr.index_base)
    call.launch(lambda: storage.row_pointer(m, nnz, base, rp, function),
                kernel="csrmvn_preprocess_kernel", rows=m, nbytes=rp.nbytes)
    info.analyses[("csrmv", trans)] = True


def rocsparse_csrmv_clear(handle: Any, info: Any) -> None:
    """Forget the csrmv analyses held in ``info``."""
    call = Call(handle, "rocsparse_csrmv_clear")
    held = check_info(info, call.function).analyses
    for key in [k for k in held if k[0] == "csrmv"]:
        del held[key]


def coomv(dtype: np.dtype, function: str, handle: Any, trans: int, m: int, n: int,
          nnz: int, alpha: Any, descr: Any, coo_val: Any, coo_row_ind: Any,
          coo_col_ind: Any, x: Any, beta: Any, y: Any) -> None:
    """y := alpha * op(A) * x + beta * y with A in COO."""
    call = Call(handle, function)
    trans = _prologue(call, trans, descr, m, n, nnz=nnz)
    a, b = call.scalar(alpha, dtype, "alpha"), call.scalar(beta, dtype, "beta")
    val = call.view(coo_val, dtype, nnz, "coo_val")
    ri, ci = call.view(coo_row_ind, I32, nnz, "coo_row_ind"), call.view(coo_col_ind, I32,
                                                                       nnz, "coo_col_ind")
    xv, yv = _vectors(call, dtype, trans, m, n, x, y)
    base = int(descr.index_base)
    matvec(call, trans, (m, n), nnz, lambda: storage.coo(m, n, base, ri, ci, val, function),
           a, b, xv, yv, kernel="coomvn_segmented_kernel", dtype=dtype,
           matrix_bytes=val.nbytes + ri.nbytes + ci.nbytes)


def ellmv(dtype: np.dtype, function: str, handle: Any, trans: int, m: int, n: int,
          alpha: Any, descr: Any, ell_val: Any, ell_col_ind: Any, ell_width: int, x: Any,
          beta: Any, y: Any) -> None:
    """y := alpha * op(A) * x + beta * y with A in ELL (column-major, width entries)."""
    call = Call(handle, function)
    trans = _prologue(call, trans, descr, m, n, ell_width=ell_width)
    a, b = call.scalar(alpha, dtype, "alpha"), call.scalar(beta, dtype, "beta")
    val = call.view(ell_val, dtype, m * ell_width, "ell_val")
    ci = call.view(ell_col_ind, I32, m * ell_width, "ell_col_ind")
    xv, yv = _vectors(call, dtype, trans, m, n, x, y)
    base = int(descr.index_base)
    matvec(call, trans, (m, n), m * ell_width,
           lambda: storage.ell(m, n, ell_width, base, ci, val), a, b, xv, yv,
           kernel="ellmvn_kernel", dtype=dtype, matrix_bytes=val.nbytes + ci.nbytes)


def bsrmv(dtype: np.dtype, function: str, handle: Any, dir: int, trans: int, mb: int,
          nb: int, nnzb: int, alpha: Any, descr: Any, bsr_val: Any, bsr_row_ptr: Any,
          bsr_col_ind: Any, block_dim: int, info: Any, x: Any, beta: Any, y: Any) -> None:
    """y := alpha * op(A) * x + beta * y with A in BSR (blocks of block_dim squared)."""
    call = Call(handle, function)
    direction = call.enum(dir, rocsparse_direction, "dir")
    trans = _prologue(call, trans, descr, mb, nb, nnzb=nnzb)
    if int(block_dim) < 1:
        raise call.fail(S.rocsparse_status_invalid_size,
                        f"block_dim={block_dim} must be at least 1")
    if trans != rocsparse_operation.rocsparse_operation_none:
        raise call.fail(S.rocsparse_status_not_implemented,
                        "bsrmv supports rocsparse_operation_none only (as rocSPARSE)")
    d = int(block_dim)
    a, b = call.scalar(alpha, dtype, "alpha"), call.scalar(beta, dtype, "beta")
    val = call.view(bsr_val, dtype, nnzb * d * d, "bsr_val")
    rp = call.view(bsr_row_ptr, I32, mb + 1, "bsr_row_ptr")
    ci = call.view(bsr_col_ind, I32, nnzb, "bsr_col_ind")
    xv, yv = _vectors(call, dtype, trans, mb * d, nb * d, x, y)
    base = int(descr.index_base)
    matvec(call, trans, (mb * d, nb * d), nnzb * d * d,
           lambda: storage.bsr(mb, nb, d, direction, base, rp, ci, val, function), a, b, xv,
           yv, kernel="bsrmvn_general_kernel", dtype=dtype,
           matrix_bytes=val.nbytes + rp.nbytes + ci.nbytes)


ROUTINES = {**typed_family(csrmv, "csrmv"), **typed_family(csrmv_analysis, "csrmv_analysis"),
            **typed_family(coomv, "coomv"),
            **typed_family(ellmv, "ellmv"), **typed_family(bsrmv, "bsrmv")}
globals().update(ROUTINES)
__all__ = [*ROUTINES, "rocsparse_csrmv_clear"]
