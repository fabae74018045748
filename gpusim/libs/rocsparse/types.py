"""rocSPARSE's enums with the numeric values of ``rocsparse-types.h``.

Source: ROCm/rocSPARSE ``library/include/rocsparse-types.h`` (commit 1c69e40,
2024-10-23, the rocSPARSE of ROCm 6.3). Every member is also a module-level name, as in
C (``rocsparse_status_zero_pivot``, ``rocsparse_operation_none``, ...).

>>> int(rocsparse_operation_transpose), int(rocsparse_datatype_f64_r)
(112, 152)
"""

from __future__ import annotations

import enum

import numpy as np


class rocsparse_status(enum.IntEnum):  # noqa: N801 - rocSPARSE's own spelling
    rocsparse_status_success = 0
    rocsparse_status_invalid_handle = 1
    rocsparse_status_not_implemented = 2
    rocsparse_status_invalid_pointer = 3
    rocsparse_status_invalid_size = 4
    rocsparse_status_memory_error = 5
    rocsparse_status_internal_error = 6
    rocsparse_status_invalid_value = 7
    rocsparse_status_arch_mismatch = 8
    rocsparse_status_zero_pivot = 9
    rocsparse_status_not_initialized = 10
    rocsparse_status_type_mismatch = 11
    rocsparse_status_requires_sorted_storage = 12
    rocsparse_status_thrown_exception = 13
    rocsparse_status_continue = 14


class rocsparse_operation(enum.IntEnum):  # noqa: N801
    rocsparse_operation_none = 111
    rocsparse_operation_transpose = 112
    rocsparse_operation_conjugate_transpose = 113


class rocsparse_index_base(enum.IntEnum):  # noqa: N801
    rocsparse_index_base_zero = 0
    rocsparse_index_base_one = 1


class rocsparse_matrix_type(enum.IntEnum):  # noqa: N801
    rocsparse_matrix_type_general = 0
    rocsparse_matrix_type_symmetric = 1
    rocsparse_matrix_type_hermitian = 2
    rocsparse_matrix_type_triangular = 3


class rocsparse_diag_type(enum.IntEnum):  # noqa: N801
    rocsparse_diag_type_non_unit = 0
    rocsparse_diag_type_unit = 1


class rocsparse_fill_mode(enum.IntEnum):  # noqa: N801
    rocsparse_fill_mode_lower = 0
    rocsparse_fill_mode_upper = 1


class rocsparse_storage_mode(enum.IntEnum):  # noqa: N801
    rocsparse_storage_mode_sorted = 0
    rocsparse_storage_mode_unsorted = 1


class rocsparse_action(enum.IntEnum):  # noqa: N801
    rocsparse_action_symbolic = 0
    rocsparse_action_numeric = 1


class rocsparse_direction(enum.IntEnum):  # noqa: N801
    rocsparse_direction_row = 0
    rocsparse_direction_column = 1


class rocsparse_analysis_policy(enum.IntEnum):  # noqa: N801
    rocsparse_analysis_policy_reuse = 0
    rocsparse_analysis_policy_force = 1


class rocsparse_solve_policy(enum.IntEnum):  # noqa: N801
    rocsparse_solve_policy_auto = 0


class rocsparse_pointer_mode(enum.IntEnum):  # noqa: N801
    rocsparse_pointer_mode_host = 0
    rocsparse_pointer_mode_device = 1


class rocsparse_indextype(enum.IntEnum):  # noqa: N801
    rocsparse_indextype_u16 = 1
    rocsparse_indextype_i32 = 2
    rocsparse_indextype_i64 = 3


class rocsparse_datatype(enum.IntEnum):  # noqa: N801
    rocsparse_datatype_f32_r = 151
    rocsparse_datatype_f64_r = 152
    rocsparse_datatype_f32_c = 154
    rocsparse_datatype_f64_c = 155
    rocsparse_datatype_i8_r = 160
    rocsparse_datatype_u8_r = 161
    rocsparse_datatype_i32_r = 162
    rocsparse_datatype_u32_r = 163


class rocsparse_format(enum.IntEnum):  # noqa: N801
    rocsparse_format_coo = 0
    rocsparse_format_coo_aos = 1
    rocsparse_format_csr = 2
    rocsparse_format_csc = 3
    rocsparse_format_ell = 4
    rocsparse_format_bell = 5
    rocsparse_format_bsr = 6


class rocsparse_order(enum.IntEnum):  # noqa: N801
    rocsparse_order_row = 0
    rocsparse_order_column = 1


class rocsparse_spmv_stage(enum.IntEnum):  # noqa: N801
    rocsparse_spmv_stage_buffer_size = 1
    rocsparse_spmv_stage_preprocess = 2
    rocsparse_spmv_stage_compute = 3


class rocsparse_spmv_alg(enum.IntEnum):  # noqa: N801
    rocsparse_spmv_alg_default = 0
    rocsparse_spmv_alg_coo = 1
    rocsparse_spmv_alg_csr_adaptive = 2
    rocsparse_spmv_alg_csr_stream = 3
    rocsparse_spmv_alg_ell = 4
    rocsparse_spmv_alg_coo_atomic = 5
    rocsparse_spmv_alg_bsr = 6
    rocsparse_spmv_alg_csr_lrb = 7


class rocsparse_spmm_stage(enum.IntEnum):  # noqa: N801
    rocsparse_spmm_stage_buffer_size = 1
    rocsparse_spmm_stage_preprocess = 2
    rocsparse_spmm_stage_compute = 3


class rocsparse_spmm_alg(enum.IntEnum):  # noqa: N801
    rocsparse_spmm_alg_default = 0
    rocsparse_spmm_alg_csr = 1
    rocsparse_spmm_alg_coo_segmented = 2
    rocsparse_spmm_alg_coo_atomic = 3
    rocsparse_spmm_alg_csr_row_split = 4
    rocsparse_spmm_alg_csr_merge = 5
    rocsparse_spmm_alg_coo_segmented_atomic = 6
    rocsparse_spmm_alg_bell = 7
    rocsparse_spmm_alg_bsr = 8
    rocsparse_spmm_alg_csr_merge_path = 9
    rocsparse_spmm_alg_csr_nnz_split = 5  # an alias of csr_merge in the header


ENUMS = (rocsparse_status, rocsparse_operation, rocsparse_index_base, rocsparse_matrix_type,
         rocsparse_diag_type, rocsparse_fill_mode, rocsparse_storage_mode, rocsparse_action,
         rocsparse_direction, rocsparse_analysis_policy, rocsparse_solve_policy,
         rocsparse_pointer_mode, rocsparse_indextype, rocsparse_datatype, rocsparse_format,
         rocsparse_order, rocsparse_spmv_stage, rocsparse_spmv_alg, rocsparse_spmm_stage,
         rocsparse_spmm_alg)
for _enum in ENUMS:
    globals().update(_enum.__members__)

INDEX_DTYPE = {rocsparse_indextype.rocsparse_indextype_u16: np.dtype(np.uint16),
               rocsparse_indextype.rocsparse_indextype_i32: np.dtype(np.int32),
               rocsparse_indextype.rocsparse_indextype_i64: np.dtype(np.int64)}
DATA_DTYPE = {rocsparse_datatype.rocsparse_datatype_f32_r: np.dtype(np.float32),
              rocsparse_datatype.rocsparse_datatype_f64_r: np.dtype(np.float64),
              rocsparse_datatype.rocsparse_datatype_f32_c: np.dtype(np.complex64),
              rocsparse_datatype.rocsparse_datatype_f64_c: np.dtype(np.complex128),
              rocsparse_datatype.rocsparse_datatype_i8_r: np.dtype(np.int8),
              rocsparse_datatype.rocsparse_datatype_u8_r: np.dtype(np.uint8),
              rocsparse_datatype.rocsparse_datatype_i32_r: np.dtype(np.int32),
              rocsparse_datatype.rocsparse_datatype_u32_r: np.dtype(np.uint32)}

__all__ = [e.__name__ for e in ENUMS] + [m for e in ENUMS for m in e.__members__]
