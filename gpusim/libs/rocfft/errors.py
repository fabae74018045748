"""``RocfftError``: a rocFFT call returned a non-success ``rocfft_status``.

>>> err = RocfftError(rocfft_status.rocfft_status_invalid_dimensions, "rocfft_plan_create",
...                   "dimensions=4; rocFFT transforms 1, 2 or 3 dimensions")
>>> err.status
<rocfft_status.rocfft_status_invalid_dimensions: 3>
"""

from __future__ import annotations

from gpusim.libs.common import LibraryError
from gpusim.libs.rocfft.types import rocfft_status


class RocfftError(LibraryError):
    """rocFFT failed; ``.status`` is the ``rocfft_status`` member (C value)."""

    status_enum = rocfft_status
    # rocFFT has no pointer or type status: a bad buffer is an invalid argument value.
    pointer_status = rocfft_status.rocfft_status_invalid_arg_value
    value_status = rocfft_status.rocfft_status_invalid_arg_value  # also enums, streams
