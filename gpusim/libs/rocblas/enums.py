"""rocBLAS's enums with their C values, its error, and the element types of each prefix.

Values from rocBLAS ``library/include/internal/rocblas-types.h`` (ROCm/rocBLAS on
GitHub, rocBLAS 4.x / ROCm 6.x): operations 111-113, fills 121-123, diagonals 131-132,
sides 141-143, datatypes 150-169 (and 255 invalid), statuses 0-15, pointer modes 0-1.
Every member is also a module-level name, as C code spells them
(``rocblas.rocblas_operation_none``).

``rocblas_half`` is ``np.float16``; ``rocblas_bfloat16`` is a 16-bit struct in C, so
bf16 data is held in ``np.uint16`` arrays of raw bit patterns (see gemm_ex.py).

>>> int(rocblas_operation.rocblas_operation_transpose), int(rocblas_fill.rocblas_fill_lower)
(112, 122)
>>> RocblasError(4, "rocblas_sgemm", "lda=2 < m=3").status.name
'rocblas_status_invalid_size'
"""

from __future__ import annotations

import enum

import numpy as np

from gpusim.libs.common import LibraryError


class rocblas_status(enum.IntEnum):  # noqa: N801 - C spelling
    """What every rocBLAS (and rocSOLVER) function returns."""

    rocblas_status_success = 0
    rocblas_status_invalid_handle = 1
    rocblas_status_not_implemented = 2
    rocblas_status_invalid_pointer = 3
    rocblas_status_invalid_size = 4
    rocblas_status_memory_error = 5
    rocblas_status_internal_error = 6
    rocblas_status_perf_degraded = 7
    rocblas_status_size_query_mismatch = 8
    rocblas_status_size_increased = 9
    rocblas_status_size_unchanged = 10
    rocblas_status_invalid_value = 11
    rocblas_status_continue = 12
    rocblas_status_check_numerics_fail = 13
    rocblas_status_excluded_from_build = 14
    rocblas_status_arch_mismatch = 15


class rocblas_operation(enum.IntEnum):  # noqa: N801
    rocblas_operation_none = 111
    rocblas_operation_transpose = 112
    rocblas_operation_conjugate_transpose = 113


class rocblas_fill(enum.IntEnum):  # noqa: N801
    rocblas_fill_upper = 121
    rocblas_fill_lower = 122
    rocblas_fill_full = 123


class rocblas_diagonal(enum.IntEnum):  # noqa: N801
    rocblas_diagonal_non_unit = 131
    rocblas_diagonal_unit = 132


class rocblas_side(enum.IntEnum):  # noqa: N801
    rocblas_side_left = 141
    rocblas_side_right = 142
    rocblas_side_both = 143


class rocblas_datatype(enum.IntEnum):  # noqa: N801
    rocblas_datatype_f16_r = 150
    rocblas_datatype_f32_r = 151
    rocblas_datatype_f64_r = 152
    rocblas_datatype_f16_c = 153
    rocblas_datatype_f32_c = 154
    rocblas_datatype_f64_c = 155
    rocblas_datatype_i8_r = 160
    rocblas_datatype_u8_r = 161
    rocblas_datatype_i32_r = 162
    rocblas_datatype_u32_r = 163
    rocblas_datatype_i8_c = 164
    rocblas_datatype_u8_c = 165
    rocblas_datatype_i32_c = 166
    rocblas_datatype_u32_c = 167
    rocblas_datatype_bf16_r = 168
    rocblas_datatype_bf16_c = 169
    rocblas_datatype_invalid = 255


class rocblas_pointer_mode(enum.IntEnum):  # noqa: N801
    rocblas_pointer_mode_host = 0
    rocblas_pointer_mode_device = 1


class rocblas_atomics_mode(enum.IntEnum):  # noqa: N801
    rocblas_atomics_not_allowed = 0
    rocblas_atomics_allowed = 1


class rocblas_gemm_algo(enum.IntEnum):  # noqa: N801
    rocblas_gemm_algo_standard = 0
    rocblas_gemm_algo_solution_index = 1


class rocblas_gemm_flags(enum.IntEnum):  # noqa: N801
    rocblas_gemm_flags_none = 0
    rocblas_gemm_flags_pack_int8x4 = 1
    rocblas_gemm_flags_use_cu_efficiency = 2
    rocblas_gemm_flags_fp16_alt_impl = 4
    rocblas_gemm_flags_check_solution_index = 8


ENUMS = (rocblas_status, rocblas_operation, rocblas_fill, rocblas_diagonal, rocblas_side,
         rocblas_datatype, rocblas_pointer_mode, rocblas_atomics_mode, rocblas_gemm_algo,
         rocblas_gemm_flags)


class RocblasError(LibraryError):
    """A rocBLAS or rocSOLVER call returned a status other than success.

    ``.status`` is the ``rocblas_status`` member the C function returns.
    """

    status_enum = rocblas_status
    pointer_status = rocblas_status.rocblas_status_invalid_pointer
    value_status = rocblas_status.rocblas_status_invalid_value


# Element type of each routine prefix (rocblas_Sgemm, rocblas_Dgemm, ...), and the real
# type of its norms (scnrm2 returns a float).
PREFIX_DTYPE = {"s": np.dtype(np.float32), "d": np.dtype(np.float64),
                "c": np.dtype(np.complex64), "z": np.dtype(np.complex128),
                "h": np.dtype(np.float16)}
REAL_OF = {np.dtype(np.complex64): np.dtype(np.float32),
           np.dtype(np.complex128): np.dtype(np.float64)}


def real_dtype(dtype: np.dtype) -> np.dtype:
    """The real type matching ``dtype`` (float32 for complex64, itself if real).

    >>> real_dtype(np.dtype(np.complex128))
    dtype('float64')
    """
    return REAL_OF.get(np.dtype(dtype), np.dtype(dtype))
