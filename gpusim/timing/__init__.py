"""Modeled time: what each operation would cost on the emulated hardware.

    costs.py         copies (host link pinned/pageable, HBM, peer links), memsets,
                     page migrations, and the first-order kernel estimate (the
                     fallback when a kernel ran without a memory trace)
    kernel_model.py  kernel time from instruction counts, occupancy, LDS cycles and
                     the memory model's bytes per level: the binding resource,
                     with its breakdown (docs/timing_model.md)

Pure functions of a DeviceSpec and the operation's size; the runtime's scheduler places
the results on each device's engines.
"""

from gpusim.memsim.counters import InstructionCounts
from gpusim.timing.costs import (
    copy_seconds,
    kernel_estimate,
    memset_seconds,
    migration_seconds,
)
from gpusim.timing.kernel_model import ACHIEVED, ARCH, ArchRates, achieved, kernel_time, rates_for

__all__ = [
    "ACHIEVED",
    "ARCH",
    "achieved",
    "ArchRates",
    "InstructionCounts",
    "copy_seconds",
    "kernel_estimate",
    "kernel_time",
    "memset_seconds",
    "migration_seconds",
    "rates_for",
]
