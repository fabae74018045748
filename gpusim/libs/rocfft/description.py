"""rocFFT plan descriptions: the optional details of a plan, recorded by
``rocfft_plan_description_set_scale_factor`` and ``rocfft_plan_description_set_data_layout``
and read (and checked against the transform) by ``rocfft_plan_create``.

Strides are fastest dimension first and, like distances and offsets, count elements of
each side's array type; ``None`` strides/offsets and zero distances mean rocFFT's
defaults (library/src/plan.cpp, ``rocfft_plan_description_t::init_defaults``).

>>> d = rocfft_plan_description_create()
>>> rocfft_plan_description_set_scale_factor(d, 0.25)
>>> d.scale_factor, d.in_strides
(0.25, None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gpusim.libs.common import check_enum
from gpusim.libs.rocfft.errors import RocfftError
from gpusim.libs.rocfft.types import rocfft_array_type, rocfft_status

S = rocfft_status
A = rocfft_array_type


@dataclass
class rocfft_plan_description:  # noqa: N801 - the C handle's name
    """What ``rocfft_plan_description_set_*`` recorded; read at plan creation."""

    in_array_type: rocfft_array_type = A.rocfft_array_type_unset
    out_array_type: rocfft_array_type = A.rocfft_array_type_unset
    in_offsets: tuple[int, ...] = (0, 0)
    out_offsets: tuple[int, ...] = (0, 0)
    in_strides: tuple[int, ...] | None = None
    out_strides: tuple[int, ...] | None = None
    in_distance: int = 0
    out_distance: int = 0
    scale_factor: float = 1.0


def rocfft_plan_description_create() -> rocfft_plan_description:
    """A new plan description with rocFFT's defaults (unset array types, packed data)."""
    return rocfft_plan_description()


def rocfft_plan_description_destroy(description: rocfft_plan_description) -> None:
    """Free a description (plans made from it keep their own copy)."""
    check_description(description, "rocfft_plan_description_destroy")


def rocfft_plan_description_set_scale_factor(description: rocfft_plan_description,
                                             scale_factor: float) -> None:
    """Multiply every output by ``scale_factor`` (must be finite, as in rocFFT).

    >>> d = rocfft_plan_description_create()
    >>> rocfft_plan_description_set_scale_factor(d, float("inf"))
    Traceback (most recent call last):
    ...
    gpusim.libs.rocfft.errors.RocfftError: ...: rocfft_status_invalid_arg_value (2): ...
    """
    name = "rocfft_plan_description_set_scale_factor"
    check_description(description, name)
    if not math.isfinite(scale_factor):
        raise RocfftError(S.rocfft_status_invalid_arg_value, name,
                          f"scale_factor={scale_factor} is not finite; pass e.g. 1/N to "
                          "normalise")
    description.scale_factor = float(scale_factor)


def rocfft_plan_description_set_data_layout(
        description: rocfft_plan_description, in_array_type: int, out_array_type: int,
        in_offsets: Any, out_offsets: Any, in_strides_size: int, in_strides: Any,
        in_distance: int, out_strides_size: int, out_strides: Any, out_distance: int
) -> None:
    """Record array types, offsets, strides (fastest first) and batch distances, in
    elements of each array type; ``None`` strides/offsets and 0 distances mean
    rocFFT's defaults. Checked against the transform at ``rocfft_plan_create``.
    """
    name = "rocfft_plan_description_set_data_layout"
    check_description(description, name)
    description.in_array_type = check_enum(in_array_type, A,
                                           function=name, arg="in_array_type", error=RocfftError)
    description.out_array_type = check_enum(out_array_type, A,
                                            function=name, arg="out_array_type", error=RocfftError)
    if in_offsets is not None:
        description.in_offsets = (tuple(int(o) for o in in_offsets) + (0,))[:2]
    if out_offsets is not None:
        description.out_offsets = (tuple(int(o) for o in out_offsets) + (0,))[:2]
    description.in_strides = _strides(in_strides, in_strides_size, "in", name)
    description.out_strides = _strides(out_strides, out_strides_size, "out", name)
    description.in_distance = int(in_distance)
    description.out_distance = int(out_distance)


def check_description(description: Any, function: str) -> None:
    """The description, or rocfft_status_invalid_arg_value if it is not one."""
    if not isinstance(description, rocfft_plan_description):
        raise RocfftError(S.rocfft_status_invalid_arg_value, function,
                          f"{description!r} is not a plan description; make one with "
                          "rocfft_plan_description_create")


def _strides(strides: Any, size: int, side: str, function: str) -> tuple[int, ...] | None:
    if strides is None:
        return None
    strides = tuple(int(s) for s in strides)
    if len(strides) != int(size):
        raise RocfftError(S.rocfft_status_invalid_strides, function,
                          f"{side}_strides has {len(strides)} entries but {side}_strides_size"
                          f"={size}; pass one stride per dimension, fastest first")
    return strides
