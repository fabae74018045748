"""The sanitizer's compile side: instrumented code generation and the shadow memory it
updates (``gpusim.config.check``). The engine uses only the names below.

See README.md in this folder for the data flow.

>>> from gpusim.compile.sanitize import FINDING_KINDS
>>> FINDING_KINDS[0]
'LDS race'
"""

from gpusim.compile.sanitize.instrument import CheckInstrument, check_layout
from gpusim.compile.sanitize.state import (
    FINDING_KINDS,
    GLOBAL_ROW_BYTES,
    LDS_ROW_BYTES,
    RawFinding,
    dropped_findings,
    new_global_shadow,
    new_state,
    read_findings,
)

__all__ = ["CheckInstrument", "check_layout", "FINDING_KINDS", "GLOBAL_ROW_BYTES",
           "LDS_ROW_BYTES", "RawFinding", "dropped_findings", "new_global_shadow", "new_state",
           "read_findings"]
