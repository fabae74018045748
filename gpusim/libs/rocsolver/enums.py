"""rocSOLVER's own enums (rocsolver-extra-types.h in ROCm/rocSOLVER), C values.

rocSOLVER shares rocBLAS's handle, status codes and the operation / fill enums; these
are the ones it adds.

>>> int(rocblas_svect.rocblas_svect_singular), int(rocblas_evect.rocblas_evect_original)
(192, 211)
"""

from __future__ import annotations

import enum


class rocblas_direct(enum.IntEnum):  # noqa: N801 - C spelling
    rocblas_forward_direction = 171
    rocblas_backward_direction = 172


class rocblas_storev(enum.IntEnum):  # noqa: N801
    rocblas_column_wise = 181
    rocblas_row_wise = 182


class rocblas_svect(enum.IntEnum):  # noqa: N801
    rocblas_svect_all = 191
    rocblas_svect_singular = 192
    rocblas_svect_overwrite = 193
    rocblas_svect_none = 194


class rocblas_workmode(enum.IntEnum):  # noqa: N801
    rocblas_outofplace = 201
    rocblas_inplace = 202


class rocblas_evect(enum.IntEnum):  # noqa: N801
    rocblas_evect_original = 211
    rocblas_evect_tridiagonal = 212
    rocblas_evect_none = 213


ENUMS = (rocblas_direct, rocblas_storev, rocblas_svect, rocblas_workmode, rocblas_evect)
