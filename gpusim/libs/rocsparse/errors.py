"""``RocsparseError``: a rocSPARSE call returned a non-success ``rocsparse_status``.

>>> err = RocsparseError(rocsparse_status.rocsparse_status_invalid_size, "rocsparse_dcsrmv",
...                      "m=-1 must be >= 0")
>>> err.status
<rocsparse_status.rocsparse_status_invalid_size: 4>
"""

from __future__ import annotations

from gpusim.libs.common import LibraryError
from gpusim.libs.rocsparse.types import rocsparse_status


class RocsparseError(LibraryError):
    """rocSPARSE failed; ``.status`` is the ``rocsparse_status`` member (C value).

    ``position`` is set for ``rocsparse_status_zero_pivot``: the row of the pivot.
    """

    status_enum = rocsparse_status
    pointer_status = rocsparse_status.rocsparse_status_invalid_pointer
    # A wrong element type: rocSPARSE's status for types that do not match.
    value_status = rocsparse_status.rocsparse_status_type_mismatch
    enum_status = stream_status = rocsparse_status.rocsparse_status_invalid_value
    position: int | None = None
