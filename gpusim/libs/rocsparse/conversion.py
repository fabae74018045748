"""Conversions between sparse formats: ``rocsparse_csr2coo``, ``rocsparse_coo2csr``,
``rocsparse_csr2csc_buffer_size`` / ``rocsparse_Xcsr2csc``, ``rocsparse_csr2ell_width``
/ ``rocsparse_Xcsr2ell``, ``rocsparse_csr2bsr_nnz`` / ``rocsparse_Xcsr2bsr`` (see
storage.py for the layouts).

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.rocsparse import *
>>> h = rocsparse_create_handle()
>>> rp, rows = hip.to_device(np.array([0, 2, 2, 3], np.int32)), hip.device_array(3, np.int32)
>>> rocsparse_csr2coo(h, rp, 3, 3, rows, rocsparse_index_base_zero)
>>> rows.copy_to_host()
array([0, 0, 2], dtype=int32)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from gpusim.libs.common import wait
from gpusim.libs.rocsparse import storage
from gpusim.libs.rocsparse.calls import I32, Call, typed_family
from gpusim.libs.rocsparse.errors import RocsparseError
from gpusim.libs.rocsparse.handle import check_descr
from gpusim.libs.rocsparse.types import (
    rocsparse_action,
    rocsparse_direction,
    rocsparse_index_base,
    rocsparse_status,
)

S = rocsparse_status


def rocsparse_csr2coo(handle: Any, csr_row_ptr: Any, nnz: int, m: int, coo_row_ind: Any,
                      idx_base: int) -> None:
    """Expand a CSR row pointer into one row index per non-zero."""
    call = Call(handle, "rocsparse_csr2coo")
    call.sizes(nnz=nnz, m=m)
    base = int(call.enum(idx_base, rocsparse_index_base, "idx_base"))
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    rows = call.view(coo_row_ind, I32, nnz, "coo_row_ind")

    def run() -> None:
        counts = np.diff(storage.row_pointer(m, nnz, base, rp, call.function))
        rows[:] = np.repeat(np.arange(m, dtype=np.int64), counts) + base

    call.launch(run, kernel="csr2coo_kernel", rows=m, nbytes=rp.nbytes + rows.nbytes)


def rocsparse_coo2csr(handle: Any, coo_row_ind: Any, nnz: int, m: int, csr_row_ptr: Any,
                      idx_base: int) -> None:
    """Compress row indices (sorted by row) into a CSR row pointer."""
    call = Call(handle, "rocsparse_coo2csr")
    call.sizes(nnz=nnz, m=m)
    base = int(call.enum(idx_base, rocsparse_index_base, "idx_base"))
    rows = call.view(coo_row_ind, I32, nnz, "coo_row_ind")
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")

    def run() -> None:
        r = storage.column_index(m, base, rows, call.function, "coo_row_ind")
        if np.any(np.diff(r) < 0):
            raise RocsparseError(S.rocsparse_status_requires_sorted_storage, call.function,
                                 "coo_row_ind must be sorted by row; sort the COO triplets "
                                 "first")
        rp[:] = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=m))]) + base

    call.launch(run, kernel="coo2csr_kernel", rows=m, nbytes=rows.nbytes + rp.nbytes)


def rocsparse_csr2csc_buffer_size(handle: Any, m: int, n: int, nnz: int, csr_row_ptr: Any,
                                  csr_col_ind: Any, copy_values: int) -> int:
    """Bytes of temporary buffer csr2csc needs (model: a sort key and permutation per
    non-zero, at least 4 bytes)."""
    call = Call(handle, "rocsparse_csr2csc_buffer_size")
    call.sizes(m=m, n=n, nnz=nnz)
    call.enum(copy_values, rocsparse_action, "copy_values")
    call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    call.view(csr_col_ind, I32, nnz, "csr_col_ind")
    return max(4, 8 * int(nnz))


def csr2csc(dtype: np.dtype, function: str, handle: Any, m: int, n: int, nnz: int,
            csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any, csc_val: Any,
            csc_row_ind: Any, csc_col_ptr: Any, copy_values: int, idx_base: int,
            temp_buffer: Any) -> None:
    """Transpose the storage: CSR -> CSC (the CSR of A transposed); values too with
    rocsparse_action_numeric, the pattern only with rocsparse_action_symbolic."""
    call = Call(handle, function)
    call.sizes(m=m, n=n, nnz=nnz)
    numeric = call.enum(copy_values, rocsparse_action, "copy_values") == \
        rocsparse_action.rocsparse_action_numeric
    base = int(call.enum(idx_base, rocsparse_index_base, "idx_base"))
    rp, ci = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr"), call.view(
        csr_col_ind, I32, nnz, "csr_col_ind")
    val = call.view(csr_val, dtype, nnz if numeric else 0, "csr_val")
    cp, ri = call.view(csc_col_ptr, I32, n + 1, "csc_col_ptr"), call.view(
        csc_row_ind, I32, nnz, "csc_row_ind")
    out = call.view(csc_val, dtype, nnz if numeric else 0, "csc_val")
    call.view(temp_buffer, np.uint8, max(4, 8 * int(nnz)), "temp_buffer")

    def run() -> None:
        rows = np.repeat(np.arange(m), np.diff(storage.row_pointer(m, nnz, base, rp,
                                                                   function)))
        cols = storage.column_index(n, base, ci, function)
        order = np.argsort(cols, kind="stable")  # rows stay sorted inside each column
        ri[:] = rows[order] + base
        cp[:] = np.concatenate([[0], np.cumsum(np.bincount(cols, minlength=n))]) + base
        if numeric:
            out[:] = val[order]

    call.launch(run, kernel="csr2csc_kernel", rows=max(m, n),
                nbytes=2 * (rp.nbytes + ci.nbytes + val.nbytes), dtype=dtype)


def rocsparse_csr2ell_width(handle: Any, m: int, csr_descr: Any, csr_row_ptr: Any,
                            ell_descr: Any) -> int:
    """The ELL width: the most non-zeros in any row, returned to the host (the call
    blocks until the kernel that counts them ran)."""
    call = Call(handle, "rocsparse_csr2ell_width")
    call.sizes(m=m)
    base = int(check_descr(csr_descr, call.function, "csr_descr").index_base)
    check_descr(ell_descr, call.function, "ell_descr")
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    width = {}

    def run() -> None:
        counts = np.diff(storage.row_pointer(m, int(rp[-1]) - base, base, rp, call.function))
        width["w"] = int(counts.max()) if m else 0

    wait(call.launch(run, kernel="ell_width_kernel", rows=m, nbytes=rp.nbytes))
    return width["w"]


def csr2ell(dtype: np.dtype, function: str, handle: Any, m: int, csr_descr: Any,
            csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any, ell_descr: Any,
            ell_width: int, ell_val: Any, ell_col_ind: Any) -> None:
    """CSR -> ELL of ``ell_width`` entries per row, column-major, padding -1 / 0."""
    call = Call(handle, function)
    call.sizes(m=m, ell_width=ell_width)
    base = int(check_descr(csr_descr, function, "csr_descr").index_base)
    ell_base = int(check_descr(ell_descr, function, "ell_descr").index_base)
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    width = int(ell_width)
    out_val = call.view(ell_val, dtype, m * width, "ell_val")
    out_col = call.view(ell_col_ind, I32, m * width, "ell_col_ind")

    def run() -> None:
        nnz = int(rp[-1]) - base if m else 0
        starts = storage.row_pointer(m, nnz, base, rp, function)
        ci, val = call.view(csr_col_ind, I32, nnz, "csr_col_ind"), call.view(
            csr_val, dtype, nnz, "csr_val")
        counts = np.diff(starts)
        if counts.size and counts.max() > width:
            raise storage.fault(function, f"a row has {counts.max()} non-zeros but "
                                f"ell_width={width}; get the width from csr2ell_width")
        slot = np.arange(nnz) - np.repeat(starts[:-1], counts)  # entry within its row
        rows = np.repeat(np.arange(m), counts)
        out_col[:], out_val[:] = -1, 0
        out_col[slot * m + rows] = ci.astype(np.int64) - base + ell_base
        out_val[slot * m + rows] = val

    call.launch(run, kernel="csr2ell_kernel", rows=m,
                nbytes=rp.nbytes + out_val.nbytes + out_col.nbytes, dtype=dtype)


def _blocks(call: Call, direction: int, m: int, n: int, csr_descr: Any, block_dim: int,
            bsr_descr: Any) -> tuple[rocsparse_direction, int, int, int, int]:
    """Checks shared by csr2bsr_nnz and csr2bsr: (dir, csr base, bsr base, mb, nb)."""
    direction = call.enum(direction, rocsparse_direction, "dir")
    call.sizes(m=m, n=n)
    if int(block_dim) < 1:
        raise call.fail(S.rocsparse_status_invalid_size,
                        f"block_dim={block_dim} must be at least 1")
    base = int(check_descr(csr_descr, call.function, "csr_descr").index_base)
    bsr_base = int(check_descr(bsr_descr, call.function, "bsr_descr").index_base)
    d = int(block_dim)
    return direction, base, bsr_base, -(-int(m) // d), -(-int(n) // d)


def _to_bsr(m: int, n: int, d: int, base: int, rp: np.ndarray, ci: np.ndarray,
            val: np.ndarray, function: str) -> sp.bsr_matrix:
    """The CSR matrix zero-padded to whole blocks, as BSR with sorted block columns: a
    block is stored when any entry of the CSR pattern falls in it."""
    a = storage.csr(m, n, base, rp, ci, val, function)
    rows = -(-m // d) * d
    indptr = np.concatenate([a.indptr, np.full(rows - m, a.indptr[-1])])
    padded = sp.csr_matrix((a.data, a.indices, indptr), shape=(rows, -(-n // d) * d))
    blocks = padded.tobsr(blocksize=(d, d))
    blocks.sort_indices()
    return blocks


def rocsparse_csr2bsr_nnz(handle: Any, dir: int, m: int, n: int, csr_descr: Any,
                          csr_row_ptr: Any, csr_col_ind: Any, block_dim: int, bsr_descr: Any,
                          bsr_row_ptr: Any, bsr_nnz: Any = None) -> int | None:
    """Count the blocks of block_dim x block_dim the CSR matrix touches: the BSR row
    pointer (mb + 1 entries) and the total (returned, or written to ``bsr_nnz`` in
    pointer mode device)."""
    call = Call(handle, "rocsparse_csr2bsr_nnz")
    _, base, bsr_base, mb, nb = _blocks(call, dir, m, n, csr_descr, block_dim, bsr_descr)
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    out_rp = call.view(bsr_row_ptr, I32, mb + 1, "bsr_row_ptr")
    target = call.result_target(bsr_nnz, "bsr_nnz")
    total = {}

    def run() -> None:
        nnz = int(rp[-1]) - base if m else 0
        ci = call.view(csr_col_ind, I32, nnz, "csr_col_ind")
        blocks = _to_bsr(m, n, int(block_dim), base, rp, ci, np.ones(nnz), call.function)
        out_rp[:] = blocks.indptr + bsr_base
        total["nnzb"] = int(blocks.indptr[-1])
        if target is not None:
            target[0] = total["nnzb"]

    op = call.launch(run, kernel="csr2bsr_nnz_kernel", rows=m, nbytes=rp.nbytes + out_rp.nbytes)
    return call.host_result(op, lambda: total["nnzb"])


def csr2bsr(dtype: np.dtype, function: str, handle: Any, dir: int, m: int, n: int,
            csr_descr: Any, csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any, block_dim: int,
            bsr_descr: Any, bsr_val: Any, bsr_row_ptr: Any, bsr_col_ind: Any) -> None:
    """CSR -> BSR with blocks stored by rows or by columns (``dir``); sizes from
    csr2bsr_nnz."""
    call = Call(handle, function)
    direction, base, bsr_base, mb, nb = _blocks(call, dir, m, n, csr_descr, block_dim,
                                                 bsr_descr)
    d = int(block_dim)
    rp = call.view(csr_row_ptr, I32, m + 1, "csr_row_ptr")
    out_rp = call.view(bsr_row_ptr, I32, mb + 1, "bsr_row_ptr")

    def run() -> None:
        nnz = int(rp[-1]) - base if m else 0
        ci, val = call.view(csr_col_ind, I32, nnz, "csr_col_ind"), call.view(
            csr_val, dtype, nnz, "csr_val")
        blocks = _to_bsr(m, n, d, base, rp, ci, val, function)
        nnzb = int(blocks.indptr[-1])
        out_ci = call.view(bsr_col_ind, I32, nnzb, "bsr_col_ind")
        out_val = call.view(bsr_val, dtype, nnzb * d * d, "bsr_val")
        data = blocks.data if direction == rocsparse_direction.rocsparse_direction_row \
            else blocks.data.transpose(0, 2, 1)
        out_rp[:], out_ci[:] = blocks.indptr + bsr_base, blocks.indices + bsr_base
        out_val[:] = data.ravel()

    call.launch(run, kernel="csr2bsr_kernel", rows=m, nbytes=2 * rp.nbytes, dtype=dtype)


ROUTINES = {**typed_family(csr2csc, "csr2csc"), **typed_family(csr2ell, "csr2ell"),
            **typed_family(csr2bsr, "csr2bsr")}
globals().update(ROUTINES)
__all__ = [*ROUTINES, "rocsparse_coo2csr", "rocsparse_csr2bsr_nnz", "rocsparse_csr2coo",
           "rocsparse_csr2csc_buffer_size", "rocsparse_csr2ell_width"]
