"""Sparse storage formats as rocSPARSE lays them out, read into ``scipy.sparse``.

    CSR  row_ptr[m + 1], col_ind[nnz], val[nnz]; row i is row_ptr[i]..row_ptr[i+1]
    COO  row_ind[nnz], col_ind[nnz], val[nnz], sorted by row
    ELL  col_ind[m * width], val[m * width], column-major (entry p of row i at p * m + i);
         a column index outside the matrix marks padding (csr2ell writes -1)
    BSR  row_ptr[mb + 1], col_ind[nnzb], val[nnzb * dim * dim]: blocks of dim x dim,
         each stored by rows (rocsparse_direction_row) or by columns

(ELL's index is rocSPARSE's ``ELL_IND(i, p, m, width) = p * m + i``, library/src/include/
handle.h; "padded column indices should be -1", rocsparse_ellmv.h.) Indices are offset
by the descriptor's index base (0 or 1). These readers run when the
kernel runs (the arrays may be written by earlier kernels on the stream); indices that
would make a real kernel read or write outside an array raise
``HipError(hipErrorIllegalAddress)`` at the next synchronisation, as a GPU memory
fault would, instead of computing garbage.

>>> import numpy as np
>>> a = csr(2, 3, 1, np.array([1, 2, 4]), np.array([3, 1, 2]), np.array([5., 6., 7.]), "f")
>>> a.toarray()
array([[0., 0., 5.],
       [6., 7., 0.]])
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gpusim.errors import HipError, hipError_t
from gpusim.libs.rocsparse.types import rocsparse_direction, rocsparse_operation


def fault(function: str, detail: str) -> HipError:
    """The error a GPU memory fault would give: HipError(hipErrorIllegalAddress)."""
    return HipError(hipError_t.hipErrorIllegalAddress, f"{function}: {detail}")


def row_pointer(m: int, nnz: int, base: int, row_ptr: np.ndarray, function: str,
                arg: str = "csr_row_ptr") -> np.ndarray:
    """Zero-based int64 copy of a row pointer array, checked."""
    rp = row_ptr.astype(np.int64) - base
    if rp[0] != 0 or rp[-1] != nnz or np.any(np.diff(rp) < 0):
        raise fault(function, f"{arg} must rise from {base} to nnz + base = {nnz + base} "
                    f"(index base {base}); it holds {row_ptr[:8].tolist()}"
                    f"{' ...' if m + 1 > 8 else ''} ending at {int(row_ptr[-1])}")
    return rp


def column_index(n: int, base: int, col_ind: np.ndarray, function: str,
                 arg: str = "csr_col_ind") -> np.ndarray:
    """Zero-based int64 copy of column indices, each inside [0, n)."""
    ci = col_ind.astype(np.int64) - base
    bad = np.flatnonzero((ci < 0) | (ci >= n))
    if bad.size:
        raise fault(function, f"{arg}[{bad[0]}] = {int(col_ind[bad[0]])} is outside the "
                    f"matrix's {n} columns with index base {base}; the kernel would read "
                    "outside x")
    return ci


def csr(m: int, n: int, base: int, row_ptr: np.ndarray, col_ind: np.ndarray,
        val: np.ndarray, function: str) -> sp.csr_matrix:
    """A CSR matrix from rocSPARSE's arrays (copied), its indices checked."""
    rp = row_pointer(m, col_ind.size, base, row_ptr, function)
    ci = column_index(n, base, col_ind, function)
    return sp.csr_matrix((val.copy(), ci, rp), shape=(m, n))


def coo(m: int, n: int, base: int, row_ind: np.ndarray, col_ind: np.ndarray,
        val: np.ndarray, function: str) -> sp.coo_matrix:
    """A COO matrix from rocSPARSE's arrays (copied), its indices checked."""
    ri = column_index(m, base, row_ind, function, "coo_row_ind")
    ci = column_index(n, base, col_ind, function, "coo_col_ind")
    return sp.coo_matrix((val.copy(), (ri, ci)), shape=(m, n))


def ell(m: int, n: int, width: int, base: int, col_ind: np.ndarray, val: np.ndarray
        ) -> sp.csr_matrix:
    """The ELL matrix (column-major entries, out-of-range columns are padding) as CSR."""
    ci = col_ind.astype(np.int64).reshape(width, m).T - base  # [row, entry]
    keep = (ci >= 0) & (ci < n)
    rows = np.broadcast_to(np.arange(m)[:, None], (m, width))
    return sp.csr_matrix((val.reshape(width, m).T[keep], (rows[keep], ci[keep])),
                         shape=(m, n))


def bsr(mb: int, nb: int, dim: int, direction: int, base: int, row_ptr: np.ndarray,
        col_ind: np.ndarray, val: np.ndarray, function: str) -> sp.bsr_matrix:
    """A BSR matrix from rocSPARSE's arrays, blocks stored by rows or by columns."""
    rp = row_pointer(mb, col_ind.size, base, row_ptr, function, "bsr_row_ptr")
    ci = column_index(nb, base, col_ind, function, "bsr_col_ind")
    blocks = val.reshape(-1, dim, dim)
    if direction == rocsparse_direction.rocsparse_direction_column:
        blocks = blocks.transpose(0, 2, 1)
    return sp.bsr_matrix((blocks.copy(), ci, rp), shape=(mb * dim, nb * dim))


def apply(matrix: sp.spmatrix, trans: rocsparse_operation) -> sp.spmatrix:
    """op(A) for rocsparse_operation none / transpose / conjugate transpose."""
    if trans == rocsparse_operation.rocsparse_operation_none:
        return matrix
    if trans == rocsparse_operation.rocsparse_operation_transpose:
        return matrix.T
    return matrix.conj().T


def operated_shape(m: int, n: int, trans: rocsparse_operation) -> tuple[int, int]:
    """(rows, cols) of op(A) for an m x n A."""
    return (m, n) if trans == rocsparse_operation.rocsparse_operation_none else (n, m)
