"""Value checks for device profiles: types, signs, powers of two, relations between fields.

Shared by the loader (which names the profile file in each error) and by
``DeviceSpec.__post_init__`` (so ``dataclasses.replace`` is held to the same rules).
Every failure is a ``DeviceProfileError`` whose message names where the values came
from and the offending field, e.g.::

    profiles/mi300x.toml: [compute] field 'cu_count': expected an integer, e.g. 304,
    got float 304.0

>>> from gpusim.devices.validate import type_problem
>>> type_problem(304.0, int)
'expected an integer, e.g. 304, got float 304.0'
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any

from gpusim.devices.spec import (
    field_group,
    field_type,
    parse_gfx_target,
    parse_sm_target,
    profile_field_names,
)
from gpusim.errors import DeviceProfileError

_Need = Callable[[bool, str, str], None]  # need(ok, field, problem): raise unless ok

FAMILIES: frozenset[str] = frozenset(
    {"GCN5", "CDNA", "CDNA2", "CDNA3", "CDNA4", "RDNA2", "RDNA3", "RDNA4", "Hopper"}
)
# NVIDIA families: calibration targets only (the h200 profile). Their gfx_target is the
# CUDA target name (sm_90) and compute_capability its two digits.
NVIDIA_FAMILIES: frozenset[str] = frozenset({"Hopper"})

# Numeric fields that may be 0 ("absent", or a 0 minor version); every other number
# (and every entry of a list) must be > 0.
ZERO_ALLOWED: frozenset[str] = frozenset(
    {
        "agprs_per_simd_lane",
        "infinity_cache_bytes",
        "infinity_cache_line_bytes",
        "infinity_cache_gbs",
        "peer_link_gbs",
        "matrix_fp64_tflops",
        "matrix_fp32_tflops",
        "compute_capability",
        "peer_links_per_gpu",
        "in_package_links",
    }
)

# Fields whose value must be a power of two (line sizes, banks, wave size ...).
POWER_OF_TWO: frozenset[str] = frozenset(
    {
        "wave_size",
        "l1_line_bytes",
        "l2_line_bytes",
        "infinity_cache_line_bytes",
        "lds_banks",
        "lds_bank_width_bytes",
        "lds_alloc_granule_bytes",
    }
)


def describe_type(tp: Any) -> str:
    """How a type is written in a profile file, for error messages.

    >>> describe_type(tuple[int, int, int])
    'a list of 3 integers, e.g. [1024, 1024, 1024]'
    """
    if tp is bool:
        return "a boolean (true or false)"
    if tp is int:
        return "an integer, e.g. 304"
    if tp is float:
        return "a float with a decimal point, e.g. 5300.0"
    if tp is str:
        return 'a string, e.g. "gfx942"'
    args = typing.get_args(tp)
    example = ", ".join(["1024"] * len(args))
    return f"a list of {len(args)} integers, e.g. [{example}]"


def type_problem(value: Any, tp: Any) -> str | None:
    """None when ``value`` has type ``tp`` exactly as a profile must write it, else why not.

    Strict on purpose: an integer where a float is expected (or the reverse) is
    rejected, because the unit suffix in the name says what kind of number it is.
    """
    if tp is bool:
        ok = isinstance(value, bool)
    elif tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif tp is float:
        ok = isinstance(value, float)
    elif tp is str:
        ok = isinstance(value, str)
    else:  # tuple[int, ...] of fixed length
        n = len(typing.get_args(tp))
        ok = (
            isinstance(value, (list, tuple))
            and len(value) == n
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        )
    if ok:
        return None
    return f"expected {describe_type(tp)}, got {_kind(value)} {value!r}"


def _kind(value: Any) -> str:
    """The TOML word for a value's type."""
    names = {bool: "boolean", int: "integer", float: "float", str: "string", list: "list"}
    return names.get(type(value), type(value).__name__)


# ---- checks ---------------------------------------------------------------------


def _fail(origin: str, name: str, problem: str) -> DeviceProfileError:
    try:
        where = f"[{field_group(name)}] field '{name}'"
    except KeyError:
        where = f"field '{name}'"
    return DeviceProfileError(f"{origin}: {where}: {problem}")


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def check_values(values: Mapping[str, Any], origin: str) -> None:
    """Raise DeviceProfileError (naming ``origin`` and the field) unless ``values`` is sane.

    ``values`` maps every profile field to its value. Checks types, signs, powers of
    two, and the relations between fields that the hardware guarantees.

    >>> from gpusim.devices import get_spec, profile_field_names
    >>> values = {n: getattr(get_spec("mi100"), n) for n in profile_field_names()}
    >>> check_values(values, origin="my.toml")  # fine: returns None
    >>> values["l2_line_bytes"] = 96
    >>> try:
    ...     check_values(values, origin="my.toml")
    ... except DeviceProfileError as err:
    ...     print(err)
    my.toml: [caches] field 'l2_line_bytes': must be a power of two, got 96
    """
    for name in profile_field_names():
        problem = type_problem(values[name], field_type(name))
        if problem:
            raise _fail(origin, name, problem)
    _check_signs(values, origin)
    _check_relations(values, origin)


def _check_signs(v: Mapping[str, Any], origin: str) -> None:
    for name in profile_field_names():
        value, tp = v[name], field_type(name)
        if tp is str and not value.strip():
            raise _fail(origin, name, "must not be empty")
        if tp in (int, float):
            if value < 0 or (value == 0 and name not in ZERO_ALLOWED):
                need = ">= 0" if name in ZERO_ALLOWED else "> 0"
                raise _fail(origin, name, f"must be {need}, got {value!r}")
        elif tp not in (str, bool):
            floor = 0 if name in ZERO_ALLOWED else 1
            if any(x < floor for x in value):
                need = ">= 0" if floor == 0 else "> 0"
                raise _fail(origin, name, f"every entry must be {need}, got {list(value)!r}")
        if name in POWER_OF_TWO and value != 0 and not _is_pow2(value):
            raise _fail(origin, name, f"must be a power of two, got {value!r}")


def _check_relations(v: Mapping[str, Any], origin: str) -> None:
    """Raise for the first relation between fields that the hardware guarantees and ``v``
    breaks (target names, CUs, registers, LDS and launch limits, caches, the node)."""
    def need(ok: bool, name: str, problem: str) -> None:
        if not ok:
            raise _fail(origin, name, problem)

    _check_target(v, origin, need)
    need(
        v["cu_count"] % v["xcd_count"] == 0,
        "cu_count",
        f"{v['cu_count']} CUs do not split evenly over 'xcd_count' = {v['xcd_count']}",
    )
    need(
        (v["infinity_cache_bytes"] == 0) == (v["infinity_cache_line_bytes"] == 0),
        "infinity_cache_line_bytes",
        "must be 0 exactly when 'infinity_cache_bytes' is 0",
    )
    _check_registers(v, need)
    _check_lds_and_launch(v, need)
    _check_caches(v, need)
    _check_topology(v, need)
    need(
        v["host_link_pageable_gbs"] <= v["host_link_pinned_gbs"],
        "host_link_pageable_gbs",
        f"cannot exceed 'host_link_pinned_gbs' = {v['host_link_pinned_gbs']}",
    )


def _check_target(v: Mapping[str, Any], origin: str, need: _Need) -> None:
    """Wave size and family must be known, and the target names must agree."""
    need(v["wave_size"] in (32, 64), "wave_size", f"must be 32 or 64, got {v['wave_size']}")
    need(v["family"] in FAMILIES, "family", f"must be one of {sorted(FAMILIES)}")
    try:
        if v["family"] in NVIDIA_FAMILIES:
            major, minor, _ = parse_sm_target(v["gfx_target"])
        else:
            major, minor, _ = parse_gfx_target(v["gfx_target"])
    except ValueError as exc:
        raise _fail(origin, "gfx_target", str(exc)) from None
    arch = v["gcn_arch_name"]
    need(
        arch == v["gfx_target"] or arch.startswith(v["gfx_target"] + ":"),
        "gcn_arch_name",
        f"{arch!r} must start with 'gfx_target' = {v['gfx_target']!r}",
    )
    need(
        tuple(v["compute_capability"]) == (major, minor),
        "compute_capability",
        f"HIP reports 'gfx_target' = {v['gfx_target']} as ({major}, {minor}), "
        f"got {tuple(v['compute_capability'])}",
    )


def _check_registers(v: Mapping[str, Any], need: _Need) -> None:
    """A wave's register limits must fit the SIMD's register files and their granules."""
    need(
        not (v["unified_agprs"] and v["agprs_per_simd_lane"]),
        "agprs_per_simd_lane",
        "must be 0 when 'unified_agprs' is true (AGPRs come out of the VGPR file)",
    )
    need(
        v["vgprs_per_simd_lane"] % v["vgpr_alloc_granule"] == 0,
        "vgpr_alloc_granule",
        f"must divide 'vgprs_per_simd_lane' = {v['vgprs_per_simd_lane']}",
    )
    need(
        v["max_vgprs_per_wave_lane"] <= v["vgprs_per_simd_lane"] + v["agprs_per_simd_lane"],
        "max_vgprs_per_wave_lane",
        "cannot exceed the register file ('vgprs_per_simd_lane' + 'agprs_per_simd_lane')",
    )
    need(
        v["sgpr_limit_per_wave"] <= v["sgprs_per_simd"],
        "sgpr_limit_per_wave",
        f"cannot exceed 'sgprs_per_simd' = {v['sgprs_per_simd']}",
    )


def _check_lds_and_launch(v: Mapping[str, Any], need: _Need) -> None:
    """A work-group's LDS and a launch's block and work-group limits must fit a CU."""
    need(
        v["lds_bytes_per_workgroup_max"] <= v["lds_bytes_per_cu"],
        "lds_bytes_per_workgroup_max",
        f"cannot exceed 'lds_bytes_per_cu' = {v['lds_bytes_per_cu']}",
    )
    need(
        v["lds_bytes_per_cu"] % v["lds_alloc_granule_bytes"] == 0,
        "lds_alloc_granule_bytes",
        f"must divide 'lds_bytes_per_cu' = {v['lds_bytes_per_cu']}",
    )
    need(
        v["max_threads_per_block"] % v["wave_size"] == 0,
        "max_threads_per_block",
        f"must be a multiple of 'wave_size' = {v['wave_size']}",
    )
    need(
        all(d <= v["max_threads_per_block"] for d in v["max_block_dims"]),
        "max_block_dims",
        f"no dimension may exceed 'max_threads_per_block' = {v['max_threads_per_block']}",
    )
    max_waves_per_cu = v["max_waves_per_simd"] * v["simds_per_cu"]
    need(
        v["max_workgroups_per_cu"] <= max_waves_per_cu,
        "max_workgroups_per_cu",
        f"cannot exceed the CU's wave slots ('max_waves_per_simd' x 'simds_per_cu' = "
        f"{max_waves_per_cu})",
    )


def _check_caches(v: Mapping[str, Any], need: _Need) -> None:
    """The vL1D and L2 must be whole numbers of sets, the L2 split evenly over channels."""
    for level in ("l1", "l2"):
        size, line, ways = (v[f"{level}_{k}"] for k in ("bytes", "line_bytes", "ways"))
        need(
            size % (line * ways) == 0,
            f"{level}_bytes",
            f"{size} bytes is not a whole number of sets of '{level}_ways' = {ways} "
            f"x '{level}_line_bytes' = {line}",
        )
    need(
        v["l2_bytes"] % v["l2_channels"] == 0,
        "l2_channels",
        f"must divide 'l2_bytes' = {v['l2_bytes']}",
    )


def _check_topology(v: Mapping[str, Any], need: _Need) -> None:
    """The node's Infinity Fabric figures must describe a buildable hive."""
    need((v["peer_links_per_gpu"] == 0) == (v["peer_link_gbs"] == 0), "peer_link_gbs",
         "must be 0 exactly when 'peer_links_per_gpu' is 0")
    need(v["in_package_links"] <= v["peer_links_per_gpu"], "in_package_links",
         f"cannot exceed 'peer_links_per_gpu' = {v['peer_links_per_gpu']}")
    need((v["gpus_per_package"] > 1) == (v["in_package_links"] > 0), "in_package_links",
         "must be > 0 exactly when 'gpus_per_package' > 1")
    need(v["hive_gpus"] % v["gpus_per_package"] == 0, "hive_gpus",
         f"must be a whole number of packages of 'gpus_per_package' = "
         f"{v['gpus_per_package']}")
    off_package = v["peer_links_per_gpu"] - v["in_package_links"]
    peers = v["hive_gpus"] - v["gpus_per_package"]
    need(not v["fully_connected"] or off_package >= peers, "fully_connected",
         f"a fully connected hive of {v['hive_gpus']} GPUs needs {peers} off-package links "
         f"per GPU, the profile gives {off_package}")
