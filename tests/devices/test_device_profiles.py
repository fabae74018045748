"""Shipped device profiles: they load, carry the published headline figures, and cite sources.

The expected numbers below are typed in from DESIGN.md section 6 (which in turn quotes
ROCm's "GPU hardware specifications" and the architecture pages), not read from the
profile files, so a typo in a profile fails here.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from gpusim.devices import (
    DeviceSpec,
    get_spec,
    list_devices,
    load_profile,
    profile_field_names,
    profile_path,
)
from gpusim.errors import DeviceProfileError

KiB, MiB, GiB = 2**10, 2**20, 2**30

# DESIGN.md section 6, one column per device.
HEADLINE = {
    "mi300x": dict(
        gfx_target="gfx942",
        family="CDNA3",
        compute_capability=(9, 4),
        cu_count=304,
        xcd_count=8,
        cus_per_xcd=38,
        simds_per_cu=4,
        wave_size=64,
        max_waves_per_simd=8,
        vgprs_per_simd_lane=512,
        unified_agprs=True,
        vgpr_alloc_granule=8,
        sgpr_limit_per_wave=102,
        lds_bytes_per_cu=64 * KiB,
        lds_alloc_granule_bytes=512,
        l1_bytes=32 * KiB,
        l1_line_bytes=128,
        l2_bytes=4 * MiB,
        l2_channels=16,
        l2_line_bytes=128,
        infinity_cache_bytes=256 * MiB,
        memory_bytes=192 * GiB,
        clock_mhz=2100,
    ),
    "mi250x": dict(
        gfx_target="gfx90a",
        family="CDNA2",
        compute_capability=(9, 0),
        cu_count=110,
        xcd_count=1,
        simds_per_cu=4,
        wave_size=64,
        max_waves_per_simd=8,
        vgprs_per_simd_lane=512,
        unified_agprs=True,
        vgpr_alloc_granule=8,
        sgpr_limit_per_wave=102,
        lds_bytes_per_cu=64 * KiB,
        l1_bytes=16 * KiB,
        l1_line_bytes=64,
        l2_bytes=8 * MiB,
        l2_channels=32,
        l2_line_bytes=128,
        infinity_cache_bytes=0,
        memory_bytes=64 * GiB,
        clock_mhz=1700,
    ),
    "mi100": dict(
        gfx_target="gfx908",
        family="CDNA",
        compute_capability=(9, 0),
        cu_count=120,
        xcd_count=1,
        simds_per_cu=4,
        wave_size=64,
        max_waves_per_simd=10,
        vgprs_per_simd_lane=256,
        agprs_per_simd_lane=256,
        unified_agprs=False,
        vgpr_alloc_granule=4,
        sgpr_limit_per_wave=102,
        lds_bytes_per_cu=64 * KiB,
        l1_bytes=16 * KiB,
        l1_line_bytes=64,
        l2_bytes=8 * MiB,
        l2_line_bytes=64,
        infinity_cache_bytes=0,
        memory_bytes=32 * GiB,
        clock_mhz=1502,
    ),
    "rx7900xtx": dict(
        gfx_target="gfx1100",
        family="RDNA3",
        compute_capability=(11, 0),
        cu_count=96,
        simds_per_cu=2,
        wave_size=32,
        max_waves_per_simd=16,
        vgprs_per_simd_lane=1536,
        vgpr_alloc_granule=24,
        sgpr_limit_per_wave=106,
        lds_bytes_per_cu=64 * KiB,
        l1_bytes=32 * KiB,
        l2_bytes=6 * MiB,
        infinity_cache_bytes=96 * MiB,
        memory_bytes=24 * GiB,
    ),
}

# Figures DESIGN.md gives rounded: (field, value, relative tolerance).
APPROX = {
    "mi300x": [("memory_bandwidth_gbs", 5300.0, 0.01), ("fp32_tflops", 163.4, 0.001)],
    "mi250x": [("memory_bandwidth_gbs", 1600.0, 0.03), ("fp32_tflops", 23.9, 0.01)],
    "mi100": [("memory_bandwidth_gbs", 1230.0, 0.01), ("fp32_tflops", 23.1, 0.01)],
    "rx7900xtx": [
        ("memory_bandwidth_gbs", 960.0, 0.001),
        ("fp32_tflops", 61.0, 0.02),
        ("clock_mhz", 2500, 0.05),
    ],
}


def test_list_devices_has_the_four_profiles_default_first():
    assert list_devices() == ["mi300x", "mi250x", "mi100", "rx7900xtx"]


def test_every_profile_loads(device_key):
    spec = load_profile(profile_path(device_key))
    assert isinstance(spec, DeviceSpec)
    assert spec.key == device_key
    assert spec == get_spec(device_key)


@pytest.mark.parametrize("key", sorted(HEADLINE))
def test_headline_figures_match_design_table(key):
    spec = get_spec(key)
    for name, expected in HEADLINE[key].items():
        assert getattr(spec, name) == expected, f"{key}.{name}"
    for name, expected, rel in APPROX[key]:
        assert math.isclose(getattr(spec, name), expected, rel_tol=rel), f"{key}.{name}"


def test_every_field_has_a_source(device_key):
    spec = get_spec(device_key)
    assert set(spec.sources) == set(profile_field_names())
    for name, source in spec.sources.items():
        assert isinstance(source, str) and source.strip(), name


def test_model_assumptions_say_why(device_key):
    for name, source in get_spec(device_key).sources.items():
        if source.lower().startswith("model assumption"):
            reason = source.split(":", 1)[1] if ":" in source else ""
            assert len(reason.strip()) > 20, f"{device_key}.{name}: say why"


def test_get_spec_is_cached_and_case_insensitive():
    assert get_spec("mi300x") is get_spec("MI300X") is get_spec(" mi300x ")
    assert get_spec() is get_spec("mi300x")


def test_get_spec_passes_a_spec_through():
    spec = get_spec("mi100")
    assert get_spec(spec) is spec


def test_get_spec_unknown_key_lists_valid_keys():
    with pytest.raises(DeviceProfileError) as info:
        get_spec("mi999")
    message = str(info.value)
    assert "mi999" in message
    for key in list_devices():
        assert key in message
    assert isinstance(info.value, ValueError)


def test_get_spec_suggests_a_close_key():
    with pytest.raises(DeviceProfileError, match="did you mean 'mi300x'"):
        get_spec("mi300")


def test_get_spec_rejects_non_string():
    with pytest.raises(DeviceProfileError, match="DeviceSpec"):
        get_spec(42)  # type: ignore[arg-type]


def test_spec_is_frozen_and_sources_read_only():
    spec = get_spec("mi300x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.cu_count = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        spec.sources["cu_count"] = "mine"  # type: ignore[index]


def test_spec_is_hashable_and_equality_ignores_sources():
    a = get_spec("mi300x")
    b = dataclasses.replace(a, sources={})
    assert a == b and hash(a) == hash(b)
    assert len({a, b, get_spec("mi100")}) == 2


def test_replace_is_validated_like_a_file():
    spec = get_spec("mi300x")
    tiny = dataclasses.replace(spec, key="tiny", cu_count=2, xcd_count=1)
    assert tiny.simd_count == 8 and tiny.sources["cu_count"] == spec.sources["cu_count"]
    with pytest.raises(DeviceProfileError, match="cu_count"):
        dataclasses.replace(spec, cu_count=0)
    with pytest.raises(DeviceProfileError, match="l1_line_bytes"):
        dataclasses.replace(spec, l1_line_bytes=96)


def test_tuple_fields_are_tuples_even_when_given_lists():
    spec = dataclasses.replace(get_spec("mi300x"), max_block_dims=[1024, 1024, 64])
    assert spec.max_block_dims == (1024, 1024, 64)


def test_rows_lists_every_field_with_group_and_source():
    rows = get_spec("mi250x").rows()
    assert [r[1] for r in rows] == list(profile_field_names())
    group, name, value, source = rows[profile_field_names().index("cu_count")]
    assert (group, name, value) == ("compute", "cu_count", 110)
    assert "110 per GCD" in source


def test_profile_field_names_match_the_required_contract():
    required = {
        "key",
        "name",
        "gcn_arch_name",
        "gfx_target",
        "family",
        "cu_count",
        "xcd_count",
        "simds_per_cu",
        "wave_size",
        "max_waves_per_simd",
        "vgprs_per_simd_lane",
        "agprs_per_simd_lane",
        "vgpr_alloc_granule",
        "unified_agprs",
        "max_vgprs_per_wave_lane",
        "sgpr_limit_per_wave",
        "sgprs_per_simd",
        "lds_bytes_per_cu",
        "lds_bytes_per_workgroup_max",
        "lds_alloc_granule_bytes",
        "lds_banks",
        "lds_bank_width_bytes",
        "max_threads_per_block",
        "max_block_dims",
        "max_grid_dims",
        "max_workgroups_per_cu",
        "l1_bytes",
        "l1_line_bytes",
        "l1_ways",
        "l2_bytes",
        "l2_line_bytes",
        "l2_ways",
        "l2_channels",
        "infinity_cache_bytes",
        "infinity_cache_line_bytes",
        "memory_bytes",
        "memory_bandwidth_gbs",
        "memory_clock_mhz",
        "memory_bus_width_bits",
        "clock_mhz",
        "fp32_tflops",
        "fp64_tflops",
        "host_link",
        "host_link_pinned_gbs",
        "host_link_pageable_gbs",
        "peer_link_gbs",
        "compute_capability",
    }
    assert required <= set(profile_field_names())


def test_hip_launch_limits():
    for key in list_devices():
        spec = get_spec(key)
        assert spec.max_threads_per_block == 1024
        assert spec.max_block_dims == (1024, 1024, 1024)
        assert spec.max_grid_dims == (2**31 - 1, 65536, 65536)
        assert spec.lds_bytes_per_workgroup_max == 64 * KiB


def _reference_occupancy(spec, *, vgprs=0, block=64, lds=0):
    """DESIGN.md section 6 occupancy rules, written out here as an independent check."""
    limits = [spec.max_waves_per_simd]
    if vgprs:
        per_wave = -(-vgprs // spec.vgpr_alloc_granule) * spec.vgpr_alloc_granule
        limits.append(spec.vgprs_per_simd_lane // per_wave)
    waves_per_wg = -(-block // spec.wave_size)
    if waves_per_wg == 1:
        wgs = spec.max_waves_per_cu
    else:
        wgs = min(spec.max_waves_per_cu // waves_per_wg, spec.max_workgroups_per_cu)
    if lds:
        granule = spec.lds_alloc_granule_bytes
        wgs = min(wgs, spec.lds_bytes_per_cu // (-(-lds // granule) * granule))
    limits.append(-(-wgs * waves_per_wg // spec.simds_per_cu))
    return min(limits)


@pytest.mark.parametrize(
    ("key", "kwargs", "waves_per_simd"),
    [
        ("mi300x", dict(vgprs=128), 4),
        ("mi100", dict(vgprs=119), 2),
        ("mi300x", dict(block=256, lds=16 * KiB), 4),
        ("mi300x", dict(block=256, lds=32 * KiB), 2),
        ("mi300x", dict(block=256, lds=64 * KiB), 1),
        ("mi300x", dict(block=1024, lds=64 * KiB), 4),
        ("mi100", dict(block=128), 8),
        # AMD's MI250 profiler tutorial: 49.9 % for 128 VGPRs, 12.5 % for 64 KiB LDS.
        ("mi250x", dict(vgprs=128), 4),
        ("mi250x", dict(block=256, lds=64 * KiB), 1),
    ],
)
def test_profiles_reproduce_design_worked_occupancy_examples(key, kwargs, waves_per_simd):
    assert _reference_occupancy(get_spec(key), **kwargs) == waves_per_simd
