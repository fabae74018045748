"""rocFFT's enums with the numeric values of ``rocfft/rocfft.h``.

Source: ROCm/rocFFT ``library/include/rocfft/rocfft.h`` (commit 8540d49, 2024): the C
enums there are declared without explicit values, so each counts up from 0 in the
order listed. Every member is also a module-level name, as in C
(``rocfft_status_success``, ``rocfft_placement_inplace``, ...).

>>> int(rocfft_status_invalid_work_buffer), rocfft_transform_type(2).name
(8, 'rocfft_transform_type_real_forward')
"""

from __future__ import annotations

import enum

import numpy as np


class rocfft_status(enum.IntEnum):  # noqa: N801 - rocFFT's own spelling
    rocfft_status_success = 0
    rocfft_status_failure = 1
    rocfft_status_invalid_arg_value = 2
    rocfft_status_invalid_dimensions = 3
    rocfft_status_invalid_array_type = 4
    rocfft_status_invalid_strides = 5
    rocfft_status_invalid_distance = 6
    rocfft_status_invalid_offset = 7
    rocfft_status_invalid_work_buffer = 8


class rocfft_transform_type(enum.IntEnum):  # noqa: N801
    rocfft_transform_type_complex_forward = 0
    rocfft_transform_type_complex_inverse = 1
    rocfft_transform_type_real_forward = 2
    rocfft_transform_type_real_inverse = 3


class rocfft_precision(enum.IntEnum):  # noqa: N801
    rocfft_precision_single = 0
    rocfft_precision_double = 1
    rocfft_precision_half = 2


class rocfft_result_placement(enum.IntEnum):  # noqa: N801
    rocfft_placement_inplace = 0
    rocfft_placement_notinplace = 1


class rocfft_array_type(enum.IntEnum):  # noqa: N801
    rocfft_array_type_complex_interleaved = 0
    rocfft_array_type_complex_planar = 1
    rocfft_array_type_real = 2
    rocfft_array_type_hermitian_interleaved = 3
    rocfft_array_type_hermitian_planar = 4
    rocfft_array_type_unset = 5


ENUMS = (rocfft_status, rocfft_transform_type, rocfft_precision, rocfft_result_placement,
         rocfft_array_type)
for _enum in ENUMS:
    globals().update(_enum.__members__)

# One real component of each precision (a complex element is two of them).
COMPONENT_DTYPE = {
    rocfft_precision.rocfft_precision_single: np.dtype(np.float32),
    rocfft_precision.rocfft_precision_double: np.dtype(np.float64),
    rocfft_precision.rocfft_precision_half: np.dtype(np.float16),
}
INTERLEAVED = (rocfft_array_type.rocfft_array_type_complex_interleaved,
               rocfft_array_type.rocfft_array_type_hermitian_interleaved)
PLANAR = (rocfft_array_type.rocfft_array_type_complex_planar,
          rocfft_array_type.rocfft_array_type_hermitian_planar)
COMPLEX_TYPES = (rocfft_array_type.rocfft_array_type_complex_interleaved,
                 rocfft_array_type.rocfft_array_type_complex_planar)
HERMITIAN_TYPES = (rocfft_array_type.rocfft_array_type_hermitian_interleaved,
                   rocfft_array_type.rocfft_array_type_hermitian_planar)

__all__ = [e.__name__ for e in ENUMS] + [m for e in ENUMS for m in e.__members__]
