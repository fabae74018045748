"""Modeled time: what each operation would cost on the emulated hardware.

    costs.py    copies (host link pinned/pageable, HBM, peer links), memsets,
                page migrations, and the first-order kernel estimate

Pure functions of a DeviceSpec and the operation's size; the runtime's scheduler places
the results on each device's engines.
"""

from gpusim.timing.costs import (
    copy_seconds,
    kernel_estimate,
    memset_seconds,
    migration_seconds,
)

__all__ = ["copy_seconds", "kernel_estimate", "memset_seconds", "migration_seconds"]
