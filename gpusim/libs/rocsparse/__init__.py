"""Emulated rocSPARSE: sparse formats, products, triangular solves and conversions
under rocSPARSE's C names.

    types.py        rocSPARSE's enums (status, operation, index base, formats, ...)
    errors.py       RocsparseError with ``.status`` (and ``.position`` for zero pivots)
    handle.py       handles (a libs.common LibraryHandle: device, stream; pointer mode),
                    matrix descriptors, matrix info
    calls.py        argument checks in rocSPARSE's order, kernels with modeled time,
                    the s/d/c/z routine families
    storage.py      CSR, COO, ELL, BSR as rocSPARSE lays them out -> scipy.sparse
    level2.py       Xcsrmv, Xcoomv, Xellmv, Xbsrmv
    csrsv.py        Xcsrsv_buffer_size / _analysis / _solve, csrsv_zero_pivot
    conversion.py   csr2coo, coo2csr, csr2csc, csr2ell
    dense.py        Xcsr2dense, Xnnz, Xdense2csr (dense = column-major)
    descriptors.py  generic API: sparse matrix, dense vector and dense matrix descriptors
    generic.py      rocsparse_spmv and rocsparse_spmm in stages

    call --(checks: handle, enums, sizes, pointers)--> device views of the arrays
         --> kernel queued on the handle's stream: read the format into scipy.sparse
             when it runs, compute, write back; modeled time from the bytes moved

>>> from gpusim import rocsparse
>>> int(rocsparse.rocsparse_status_zero_pivot), int(rocsparse.rocsparse_operation_none)
(9, 111)
"""

from gpusim.libs.rocsparse.conversion import *  # noqa: F403
from gpusim.libs.rocsparse.conversion import __all__ as _conversion
from gpusim.libs.rocsparse.csrsv import *  # noqa: F403
from gpusim.libs.rocsparse.csrsv import __all__ as _csrsv
from gpusim.libs.rocsparse.dense import *  # noqa: F403
from gpusim.libs.rocsparse.dense import __all__ as _dense
from gpusim.libs.rocsparse.descriptors import (
    rocsparse_create_bsr_descr,
    rocsparse_create_coo_descr,
    rocsparse_create_csr_descr,
    rocsparse_create_dnmat_descr,
    rocsparse_create_dnvec_descr,
    rocsparse_create_ell_descr,
    rocsparse_destroy_dnmat_descr,
    rocsparse_destroy_dnvec_descr,
    rocsparse_destroy_spmat_descr,
    rocsparse_dnmat_descr,
    rocsparse_dnvec_descr,
    rocsparse_dnvec_get_values,
    rocsparse_dnvec_set_values,
    rocsparse_spmat_descr,
    rocsparse_spmat_get_format,
    rocsparse_spmat_get_index_base,
    rocsparse_spmat_get_size,
)
from gpusim.libs.rocsparse.errors import RocsparseError
from gpusim.libs.rocsparse.generic import rocsparse_spmm, rocsparse_spmv
from gpusim.libs.rocsparse.handle import (
    rocsparse_copy_mat_descr,
    rocsparse_create_handle,
    rocsparse_create_mat_descr,
    rocsparse_create_mat_info,
    rocsparse_destroy_handle,
    rocsparse_destroy_mat_descr,
    rocsparse_destroy_mat_info,
    rocsparse_get_mat_diag_type,
    rocsparse_get_mat_fill_mode,
    rocsparse_get_mat_index_base,
    rocsparse_get_mat_storage_mode,
    rocsparse_get_mat_type,
    rocsparse_get_pointer_mode,
    rocsparse_get_stream,
    rocsparse_handle,
    rocsparse_mat_descr,
    rocsparse_mat_info,
    rocsparse_set_mat_diag_type,
    rocsparse_set_mat_fill_mode,
    rocsparse_set_mat_index_base,
    rocsparse_set_mat_storage_mode,
    rocsparse_set_mat_type,
    rocsparse_set_pointer_mode,
    rocsparse_set_stream,
)
from gpusim.libs.rocsparse.level2 import *  # noqa: F403
from gpusim.libs.rocsparse.level2 import __all__ as _level2
from gpusim.libs.rocsparse.types import *  # noqa: F403
from gpusim.libs.rocsparse.types import __all__ as _types

__all__ = [*_types, *_level2, *_csrsv, *_conversion, *_dense, "RocsparseError",
           "rocsparse_copy_mat_descr", "rocsparse_create_bsr_descr",
           "rocsparse_create_coo_descr", "rocsparse_create_csr_descr",
           "rocsparse_create_dnmat_descr", "rocsparse_create_dnvec_descr",
           "rocsparse_create_ell_descr", "rocsparse_create_handle",
           "rocsparse_create_mat_descr", "rocsparse_create_mat_info",
           "rocsparse_destroy_dnmat_descr", "rocsparse_destroy_dnvec_descr",
           "rocsparse_destroy_handle", "rocsparse_destroy_mat_descr",
           "rocsparse_destroy_mat_info", "rocsparse_destroy_spmat_descr",
           "rocsparse_dnmat_descr", "rocsparse_dnvec_descr", "rocsparse_dnvec_get_values",
           "rocsparse_dnvec_set_values", "rocsparse_get_mat_diag_type",
           "rocsparse_get_mat_fill_mode", "rocsparse_get_mat_index_base",
           "rocsparse_get_mat_storage_mode", "rocsparse_get_mat_type",
           "rocsparse_get_pointer_mode", "rocsparse_get_stream", "rocsparse_handle",
           "rocsparse_mat_descr", "rocsparse_mat_info", "rocsparse_set_mat_diag_type",
           "rocsparse_set_mat_fill_mode", "rocsparse_set_mat_index_base",
           "rocsparse_set_mat_storage_mode", "rocsparse_set_mat_type",
           "rocsparse_set_pointer_mode", "rocsparse_set_stream", "rocsparse_spmat_descr",
           "rocsparse_spmat_get_format", "rocsparse_spmat_get_index_base",
           "rocsparse_spmat_get_size", "rocsparse_spmm", "rocsparse_spmv"]
