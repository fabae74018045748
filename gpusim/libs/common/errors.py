"""``LibraryError``: a ROCm library call returned a non-success status.

Every library subclasses it once, naming its status enum and which of its members the
common helpers raise for a bad pointer and for a wrong value or element type::

    class RocblasError(LibraryError):
        status_enum = rocblas_status
        pointer_status = rocblas_status.rocblas_status_invalid_pointer
        value_status = rocblas_status.rocblas_status_invalid_value

The message names the function, the status (name and C value), then the detail, which
by convention names the argument, what was wrong and the fix.

>>> import enum
>>> class demo_status(enum.IntEnum):
...     demo_status_success = 0
...     demo_status_invalid_size = 4
>>> class DemoError(LibraryError):
...     status_enum = demo_status
>>> err = DemoError(4, "demo_gemm", "lda=3 < m=4; lda is the column stride, at least m")
>>> err.status, err.function
(<demo_status.demo_status_invalid_size: 4>, 'demo_gemm')
>>> str(err)
'demo_gemm: demo_status_invalid_size (4): lda=3 < m=4; lda is the column stride, at least m'
"""

from __future__ import annotations

import enum
from typing import ClassVar

from gpusim.errors import GpusimError


class LibraryError(GpusimError):
    """A library call failed; ``.status`` is the library's own enum member (its C value).

    ``.function`` is the C function that failed and ``.detail`` the explanation.
    """

    status_enum: ClassVar[type[enum.IntEnum]]
    pointer_status: ClassVar[enum.IntEnum | None] = None  # a null / non-device pointer
    value_status: ClassVar[enum.IntEnum | None] = None  # a wrong element type or value

    def __init__(self, status: int, function: str, detail: str):
        self.status = type(self).status_enum(status)
        self.function = function
        self.detail = detail
        super().__init__(f"{function}: {self.status.name} ({int(self.status)}): {detail}")

    def __reduce__(self):  # keep errors picklable (multiprocessing, nbval)
        return type(self), (self.status, self.function, self.detail)
