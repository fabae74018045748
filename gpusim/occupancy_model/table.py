"""``occupancy_table``: occupancy over a range of one resource, for plots and tables."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpusim.occupancy_model.calculator import Occupancy, occupancy
from gpusim.occupancy_model.rules import OccupancyError

RESOURCES = ("vgprs", "sgprs", "agprs", "lds_bytes", "block_size")
COLUMNS = ("waves_per_simd", "fraction", "limiter", "workgroups_per_cu", "waves_per_cu")


def occupancy_table(
    resource: str, values: Iterable[int], *, columns: bool = False, **fixed: Any
) -> list[Occupancy] | dict[str, list[Any]]:
    """``occupancy(**fixed, resource=value)`` for each value.

    Returns the records, or with ``columns=True`` a dict of lists (the swept resource,
    then ``COLUMNS``) ready for a plot or a DataFrame.

    >>> t = occupancy_table("vgprs", [64, 128, 256], block_size=256, columns=True)
    >>> t["vgprs"], t["waves_per_simd"], t["limiter"]
    ([64, 128, 256], [8, 4, 2], ['waves', 'vgpr', 'vgpr'])
    """
    if resource not in RESOURCES:
        raise OccupancyError(f"cannot tabulate {resource!r}: choose one of {RESOURCES}")
    if resource in fixed:
        raise OccupancyError(f"{resource} is both swept and fixed; give it only as values")
    if resource != "block_size" and "block_size" not in fixed:
        raise OccupancyError("occupancy_table needs block_size=... unless it sweeps block_size")
    records = [occupancy(**{**fixed, resource: int(v)}) for v in values]
    if not columns:
        return records
    table: dict[str, list[Any]] = {resource: [getattr(r, resource) for r in records]}
    for name in COLUMNS:
        table[name] = [getattr(r, name) for r in records]
    return table
