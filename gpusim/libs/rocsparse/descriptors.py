"""Descriptors of rocSPARSE's generic API: sparse matrices (``rocsparse_create_csr_descr``,
``_coo_``, ``_ell_``, ``_bsr_``), dense vectors and dense matrices. A descriptor records
sizes, device pointers, index and data types; the arrays are read when a generic
routine (``rocsparse_spmv``, ``rocsparse_spmm``) runs.

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.rocsparse import *
>>> rp = hip.to_device(np.array([0, 1, 2], np.int32))
>>> ci = hip.to_device(np.array([1, 0], np.int32))
>>> val = hip.to_device(np.array([1., 2.]))
>>> mat = rocsparse_create_csr_descr(2, 2, 2, rp, ci, val, rocsparse_indextype_i32,
...                                  rocsparse_indextype_i32, rocsparse_index_base_zero,
...                                  rocsparse_datatype_f64_r)
>>> rocsparse_spmat_get_size(mat), rocsparse_spmat_get_format(mat).name
((2, 2, 2), 'rocsparse_format_csr')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from gpusim.libs.common import check_enum
from gpusim.libs.rocsparse import storage
from gpusim.libs.rocsparse.errors import RocsparseError
from gpusim.libs.rocsparse.types import (
    DATA_DTYPE,
    INDEX_DTYPE,
    rocsparse_datatype,
    rocsparse_direction,
    rocsparse_format,
    rocsparse_index_base,
    rocsparse_indextype,
    rocsparse_order,
    rocsparse_status,
)

S = rocsparse_status
FMT = rocsparse_format


@dataclass
class rocsparse_spmat_descr:  # noqa: N801 - the C type's name
    format: rocsparse_format
    rows: int
    cols: int
    nnz: int  # stored entries (ELL: rows * width; BSR: blocks)
    row_data: Any  # CSR/BSR row pointer or COO row indices (None for ELL)
    col_data: Any
    val_data: Any
    row_type: rocsparse_indextype
    col_type: rocsparse_indextype
    index_base: rocsparse_index_base
    data_type: rocsparse_datatype
    ell_width: int = 0
    block_dim: int = 1
    block_dir: rocsparse_direction = rocsparse_direction.rocsparse_direction_row
    analysed: bool = False  # set by the spmv preprocess stage, as in rocSPARSE
    destroyed: bool = field(default=False, repr=False)


@dataclass
class rocsparse_dnvec_descr:  # noqa: N801
    size: int
    values: Any
    data_type: rocsparse_datatype
    destroyed: bool = field(default=False, repr=False)


@dataclass
class rocsparse_dnmat_descr:  # noqa: N801
    rows: int
    cols: int
    ld: int
    values: Any
    data_type: rocsparse_datatype
    order: rocsparse_order
    destroyed: bool = field(default=False, repr=False)


def _common(function: str, sizes: dict, pointers: dict, types: dict) -> dict:
    """Check sizes (invalid_size), pointers needed for non-empty data (invalid_pointer)
    and enums (invalid_value); return the enums."""
    for name, value in sizes.items():
        if int(value) < 0:
            raise RocsparseError(S.rocsparse_status_invalid_size, function,
                                 f"{name}={value} must be >= 0")
    for name, (ptr, needed) in pointers.items():
        if ptr is None and needed:
            raise RocsparseError(S.rocsparse_status_invalid_pointer, function,
                                 f"argument '{name}' is a null pointer; pass device memory")
    return {name: check_enum(value, kind, function=function, arg=name, error=RocsparseError)
            for name, (kind, value) in types.items()}


def rocsparse_create_csr_descr(rows: int, cols: int, nnz: int, csr_row_ptr: Any,
                               csr_col_ind: Any, csr_val: Any, row_ptr_type: int,
                               col_ind_type: int, idx_base: int, data_type: int
                               ) -> rocsparse_spmat_descr:
    """A CSR matrix descriptor over device arrays (row pointer rows + 1 long)."""
    t = _common("rocsparse_create_csr_descr", {"rows": rows, "cols": cols, "nnz": nnz},
                {"csr_row_ptr": (csr_row_ptr, rows > 0), "csr_col_ind": (csr_col_ind, nnz > 0),
                 "csr_val": (csr_val, nnz > 0)},
                {"row_ptr_type": (rocsparse_indextype, row_ptr_type),
                 "col_ind_type": (rocsparse_indextype, col_ind_type),
                 "idx_base": (rocsparse_index_base, idx_base),
                 "data_type": (rocsparse_datatype, data_type)})
    return rocsparse_spmat_descr(FMT.rocsparse_format_csr, int(rows), int(cols), int(nnz),
                                 csr_row_ptr, csr_col_ind, csr_val, t["row_ptr_type"],
                                 t["col_ind_type"], t["idx_base"], t["data_type"])


def rocsparse_create_coo_descr(rows: int, cols: int, nnz: int, coo_row_ind: Any,
                               coo_col_ind: Any, coo_val: Any, idx_type: int, idx_base: int,
                               data_type: int) -> rocsparse_spmat_descr:
    """A COO matrix descriptor (row indices sorted)."""
    t = _common("rocsparse_create_coo_descr", {"rows": rows, "cols": cols, "nnz": nnz},
                {"coo_row_ind": (coo_row_ind, nnz > 0), "coo_col_ind": (coo_col_ind, nnz > 0),
                 "coo_val": (coo_val, nnz > 0)},
                {"idx_type": (rocsparse_indextype, idx_type),
                 "idx_base": (rocsparse_index_base, idx_base),
                 "data_type": (rocsparse_datatype, data_type)})
    return rocsparse_spmat_descr(FMT.rocsparse_format_coo, int(rows), int(cols), int(nnz),
                                 coo_row_ind, coo_col_ind, coo_val, t["idx_type"],
                                 t["idx_type"], t["idx_base"], t["data_type"])


def rocsparse_create_ell_descr(rows: int, cols: int, ell_col_ind: Any, ell_val: Any,
                               ell_width: int, idx_type: int, idx_base: int, data_type: int
                               ) -> rocsparse_spmat_descr:
    """An ELL matrix descriptor (rows x ell_width entries, column-major)."""
    t = _common("rocsparse_create_ell_descr",
                {"rows": rows, "cols": cols, "ell_width": ell_width},
                {"ell_col_ind": (ell_col_ind, rows * ell_width > 0),
                 "ell_val": (ell_val, rows * ell_width > 0)},
                {"idx_type": (rocsparse_indextype, idx_type),
                 "idx_base": (rocsparse_index_base, idx_base),
                 "data_type": (rocsparse_datatype, data_type)})
    return rocsparse_spmat_descr(FMT.rocsparse_format_ell, int(rows), int(cols),
                                 int(rows) * int(ell_width), None, ell_col_ind, ell_val,
                                 t["idx_type"], t["idx_type"], t["idx_base"], t["data_type"],
                                 ell_width=int(ell_width))


def rocsparse_create_bsr_descr(mb: int, nb: int, nnzb: int, block_dir: int, block_dim: int,
                               bsr_row_ptr: Any, bsr_col_ind: Any, bsr_val: Any,
                               row_ptr_type: int, col_ind_type: int, idx_base: int,
                               data_type: int) -> rocsparse_spmat_descr:
    """A BSR matrix descriptor: mb x nb blocks of block_dim x block_dim."""
    name = "rocsparse_create_bsr_descr"
    t = _common(name, {"mb": mb, "nb": nb, "nnzb": nnzb, "block_dim": block_dim},
                {"bsr_row_ptr": (bsr_row_ptr, mb > 0), "bsr_col_ind": (bsr_col_ind, nnzb > 0),
                 "bsr_val": (bsr_val, nnzb > 0)},
                {"block_dir": (rocsparse_direction, block_dir),
                 "row_ptr_type": (rocsparse_indextype, row_ptr_type),
                 "col_ind_type": (rocsparse_indextype, col_ind_type),
                 "idx_base": (rocsparse_index_base, idx_base),
                 "data_type": (rocsparse_datatype, data_type)})
    if int(block_dim) < 1:
        raise RocsparseError(S.rocsparse_status_invalid_size, name,
                             f"block_dim={block_dim} must be at least 1")
    return rocsparse_spmat_descr(FMT.rocsparse_format_bsr, int(mb) * int(block_dim),
                                 int(nb) * int(block_dim), int(nnzb), bsr_row_ptr,
                                 bsr_col_ind, bsr_val, t["row_ptr_type"], t["col_ind_type"],
                                 t["idx_base"], t["data_type"], block_dim=int(block_dim),
                                 block_dir=t["block_dir"])


def rocsparse_destroy_spmat_descr(descr: rocsparse_spmat_descr) -> None:
    """Free a sparse matrix descriptor (its device arrays stay the caller's)."""
    check_spmat(descr, "rocsparse_destroy_spmat_descr").destroyed = True


def rocsparse_spmat_get_size(descr: rocsparse_spmat_descr) -> tuple[int, int, int]:
    """(rows, cols, nnz) as rocSPARSE reports them (BSR: rows in blocks times block_dim
    here, nnz in blocks)."""
    d = check_spmat(descr, "rocsparse_spmat_get_size")
    return d.rows, d.cols, d.nnz


def rocsparse_spmat_get_format(descr: rocsparse_spmat_descr) -> rocsparse_format:
    """The descriptor's storage format (rocsparse_format)."""
    return check_spmat(descr, "rocsparse_spmat_get_format").format


def rocsparse_spmat_get_index_base(descr: rocsparse_spmat_descr) -> rocsparse_index_base:
    """The descriptor's index base (rocsparse_index_base)."""
    return check_spmat(descr, "rocsparse_spmat_get_index_base").index_base


def rocsparse_create_dnvec_descr(size: int, values: Any, data_type: int
                                 ) -> rocsparse_dnvec_descr:
    """A dense vector of ``size`` elements at a device pointer."""
    t = _common("rocsparse_create_dnvec_descr", {"size": size},
                {"values": (values, size > 0)}, {"data_type": (rocsparse_datatype, data_type)})
    return rocsparse_dnvec_descr(int(size), values, t["data_type"])


def rocsparse_destroy_dnvec_descr(descr: rocsparse_dnvec_descr) -> None:
    """Free a dense vector descriptor."""
    check_dnvec(descr, "rocsparse_destroy_dnvec_descr").destroyed = True


def rocsparse_dnvec_get_values(descr: rocsparse_dnvec_descr) -> Any:
    """The device pointer the dense vector describes."""
    return check_dnvec(descr, "rocsparse_dnvec_get_values").values


def rocsparse_dnvec_set_values(descr: rocsparse_dnvec_descr, values: Any) -> None:
    """Point the dense vector at other device memory of the same size."""
    name = "rocsparse_dnvec_set_values"
    _common(name, {}, {"values": (values, True)}, {})
    check_dnvec(descr, name).values = values


def rocsparse_create_dnmat_descr(rows: int, cols: int, ld: int, values: Any, data_type: int,
                                 order: int) -> rocsparse_dnmat_descr:
    """A dense matrix: column order puts (i, j) at i + j * ld (ld >= rows), row order at
    i * ld + j (ld >= cols)."""
    name = "rocsparse_create_dnmat_descr"
    t = _common(name, {"rows": rows, "cols": cols, "ld": ld},
                {"values": (values, rows * cols > 0)},
                {"data_type": (rocsparse_datatype, data_type), "order": (rocsparse_order, order)})
    inner = rows if t["order"] == rocsparse_order.rocsparse_order_column else cols
    if int(ld) < max(1, int(inner)):
        raise RocsparseError(S.rocsparse_status_invalid_size, name,
                             f"ld={ld} is smaller than the {inner} elements of a "
                             f"{'column' if inner == rows else 'row'}")
    return rocsparse_dnmat_descr(int(rows), int(cols), int(ld), values, t["data_type"],
                                 t["order"])


def rocsparse_destroy_dnmat_descr(descr: rocsparse_dnmat_descr) -> None:
    """Free a dense matrix descriptor."""
    check_dnmat(descr, "rocsparse_destroy_dnmat_descr").destroyed = True


def _checker(kind: type, what: str) -> Callable[[Any, str], Any]:
    def check(descr: Any, function: str, arg: str = "descr") -> Any:
        if descr is None:
            raise RocsparseError(S.rocsparse_status_invalid_pointer, function,
                                 f"argument '{arg}' is a null pointer; pass a {what}")
        if not isinstance(descr, kind) or descr.destroyed:
            raise RocsparseError(S.rocsparse_status_not_initialized, function,
                                 f"argument '{arg}' ({descr!r}) is not a live {what}")
        return descr
    return check


check_spmat = _checker(rocsparse_spmat_descr, "sparse matrix descriptor")
check_dnvec = _checker(rocsparse_dnvec_descr, "dense vector descriptor")
check_dnmat = _checker(rocsparse_dnmat_descr, "dense matrix descriptor")


def sparse_reader(call: Any, mat: rocsparse_spmat_descr
                  ) -> tuple[Callable[[], sp.spmatrix], int]:
    """(build, bytes): views of a descriptor's arrays now, a scipy matrix when run."""
    dtype, base = DATA_DTYPE[mat.data_type], int(mat.index_base)
    rtype, ctype = INDEX_DTYPE[mat.row_type], INDEX_DTYPE[mat.col_type]
    m, n, fn, d = mat.rows, mat.cols, call.function, mat.block_dim
    if mat.format == FMT.rocsparse_format_csr:
        rp = call.view(mat.row_data, rtype, m + 1, "csr_row_ptr")
        ci, val = call.view(mat.col_data, ctype, mat.nnz, "csr_col_ind"), call.view(
            mat.val_data, dtype, mat.nnz, "csr_val")
        arrays = (rp, ci, val)
        build = lambda: storage.csr(m, n, base, rp, ci, val, fn)  # noqa: E731
    elif mat.format == FMT.rocsparse_format_coo:
        ri, ci = call.view(mat.row_data, rtype, mat.nnz, "coo_row_ind"), call.view(
            mat.col_data, ctype, mat.nnz, "coo_col_ind")
        val = call.view(mat.val_data, dtype, mat.nnz, "coo_val")
        arrays = (ri, ci, val)
        build = lambda: storage.coo(m, n, base, ri, ci, val, fn)  # noqa: E731
    elif mat.format == FMT.rocsparse_format_ell:
        ci, val = call.view(mat.col_data, ctype, mat.nnz, "ell_col_ind"), call.view(
            mat.val_data, dtype, mat.nnz, "ell_val")
        arrays = (ci, val)
        build = lambda: storage.ell(m, n, mat.ell_width, base, ci, val)  # noqa: E731
    elif mat.format == FMT.rocsparse_format_bsr:
        rp = call.view(mat.row_data, rtype, m // d + 1, "bsr_row_ptr")
        ci, val = call.view(mat.col_data, ctype, mat.nnz, "bsr_col_ind"), call.view(
            mat.val_data, dtype, mat.nnz * d * d, "bsr_val")
        arrays = (rp, ci, val)
        build = lambda: storage.bsr(m // d, n // d, d, mat.block_dir, base, rp, ci, val,  # noqa: E731
                                    fn)
    else:
        raise call.fail(S.rocsparse_status_not_implemented,
                        f"{mat.format.name}: the emulator implements CSR, COO, ELL and BSR")
    return build, sum(a.nbytes for a in arrays)


def dense_vector(call: Any, vec: rocsparse_dnvec_descr) -> np.ndarray:
    """A flat NumPy view of the dense vector's device memory."""
    return call.view(vec.values, DATA_DTYPE[vec.data_type], vec.size, "values")


def dense_matrix(call: Any, mat: rocsparse_dnmat_descr) -> np.ndarray:
    """A (rows, cols) NumPy view of the descriptor's device memory in its order."""
    return dense_view(call, mat.values, DATA_DTYPE[mat.data_type], mat.rows, mat.cols,
                      mat.ld, mat.order == rocsparse_order.rocsparse_order_column, "values")


def dense_view(call: Any, ptr: Any, dtype: Any, rows: int, cols: int, ld: int,
               column: bool, arg: str) -> np.ndarray:
    """(rows, cols) strided view of a dense matrix with leading dimension ``ld``:
    (i, j) at i + j * ld (column-major) or i * ld + j (row-major)."""
    outer, inner = (cols, rows) if column else (rows, cols)
    flat = call.view(ptr, dtype, (outer - 1) * ld + inner if rows and cols else 0, arg)
    size = flat.itemsize
    strides = (size, size * ld) if column else (size * ld, size)
    return np.lib.stride_tricks.as_strided(flat, (rows, cols), strides)
