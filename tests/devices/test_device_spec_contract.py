"""Contract tests every device profile must pass, present and future (one run per profile)."""

from __future__ import annotations

import math

from gpusim.devices import get_spec, profile_field_names
from gpusim.devices.spec import field_type
from gpusim.devices.validate import ZERO_ALLOWED


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def test_numbers_are_positive(device_key):
    spec = get_spec(device_key)
    for name in profile_field_names():
        value, tp = getattr(spec, name), field_type(name)
        if tp in (int, float):
            assert value >= 0 if name in ZERO_ALLOWED else value > 0, name
        elif tp not in (str, bool):
            assert all(v >= 0 for v in value), name


def test_line_sizes_and_banks_are_powers_of_two(device_key):
    spec = get_spec(device_key)
    for name in ("l1_line_bytes", "l2_line_bytes", "lds_banks", "lds_bank_width_bytes"):
        assert _is_pow2(getattr(spec, name)), name
    if spec.has_infinity_cache:
        assert _is_pow2(spec.infinity_cache_line_bytes)
    else:
        assert spec.infinity_cache_line_bytes == 0


def test_wave_size(device_key):
    spec = get_spec(device_key)
    assert spec.wave_size in (32, 64)
    # wave32: RDNA under HIP, and an NVIDIA calibration target's 32-thread warps
    wave32 = spec.family.startswith("RDNA") or spec.is_calibration_target
    assert spec.is_wave32 == (spec.wave_size == 32) == wave32


def test_compute_derived_values(device_key):
    spec = get_spec(device_key)
    assert spec.simd_count == spec.cu_count * spec.simds_per_cu
    assert spec.cus_per_xcd * spec.xcd_count == spec.cu_count
    assert spec.is_chiplet == (spec.xcd_count > 1)
    assert spec.max_waves_per_cu == spec.max_waves_per_simd * spec.simds_per_cu
    assert spec.max_threads_per_cu == spec.max_waves_per_cu * spec.wave_size
    assert spec.max_waves_per_block * spec.wave_size == spec.max_threads_per_block


def test_peak_flops_match_cus_times_clock(device_key):
    # Peak = CUs x FLOPs/clock/CU x clock: the quoted TFLOPs must imply a whole,
    # power-of-two number of FLOPs per clock per CU.
    spec = get_spec(device_key)
    for per_clock in (spec.fp32_flops_per_clock_per_cu, spec.fp64_flops_per_clock_per_cu):
        nearest = 2 ** round(math.log2(per_clock))
        assert math.isclose(per_clock, nearest, rel_tol=0.01), per_clock
    assert spec.fp32_tflops >= spec.fp64_tflops


def test_register_files(device_key):
    spec = get_spec(device_key)
    assert spec.vgprs_per_simd_lane % spec.vgpr_alloc_granule == 0
    assert spec.max_vgprs_per_wave_lane <= spec.vgprs_per_simd_lane + spec.agprs_per_simd_lane
    if spec.unified_agprs:
        assert spec.agprs_per_simd_lane == 0
    # One wave with the most VGPRs still fits: occupancy is at least 1.
    per_wave = (
        -(-min(spec.max_vgprs_per_wave_lane, spec.vgprs_per_simd_lane) // spec.vgpr_alloc_granule)
        * spec.vgpr_alloc_granule
    )
    assert spec.vgprs_per_simd_lane // per_wave >= 1
    assert spec.vgpr_file_bytes_per_simd >= spec.vgprs_per_simd_lane * spec.wave_size * 4
    assert spec.sgpr_limit_per_wave <= spec.sgprs_per_simd


def test_lds(device_key):
    spec = get_spec(device_key)
    assert spec.lds_banks_bytes == spec.lds_banks * spec.lds_bank_width_bytes == 128
    assert spec.lds_bytes_per_workgroup_max <= spec.lds_bytes_per_cu
    assert spec.lds_bytes_per_cu % spec.lds_alloc_granule_bytes == 0


def test_cache_geometry(device_key):
    spec = get_spec(device_key)
    assert spec.l1_sets * spec.l1_ways * spec.l1_line_bytes == spec.l1_bytes
    assert spec.l2_sets * spec.l2_ways * spec.l2_line_bytes == spec.l2_bytes
    assert spec.l2_bytes_per_channel * spec.l2_channels == spec.l2_bytes
    assert spec.l2_bytes_total == spec.l2_bytes * spec.xcd_count
    assert spec.l1_bytes < spec.l2_bytes
    if spec.has_infinity_cache:
        assert spec.infinity_cache_bytes > spec.l2_bytes_total
    assert spec.l1_line_bytes <= spec.l2_line_bytes


def test_memory(device_key):
    spec = get_spec(device_key)
    assert math.isclose(spec.memory_gib, spec.memory_bytes / 2**30)
    # Per-pin data rate implied by bandwidth and bus width is a real DRAM speed.
    gbps_per_pin = spec.memory_bandwidth_gbs * 8 / spec.memory_bus_width_bits
    assert 1.0 <= gbps_per_pin <= 32.0, gbps_per_pin


def test_links(device_key):
    spec = get_spec(device_key)
    assert spec.host_link.startswith("PCIe ")
    assert 0 < spec.host_link_pageable_gbs <= spec.host_link_pinned_gbs
    # peer links: CDNA's Infinity Fabric, and the NVIDIA calibration target's NVLink
    assert (spec.peer_link_gbs > 0) == (spec.family.startswith("CDNA")
                                        or spec.is_calibration_target)


def test_identity(device_key):
    spec = get_spec(device_key)
    assert spec.compute_capability == spec.arch_version[:2]
    assert spec.gcn_arch_name.split(":")[0] == spec.gfx_target
    assert spec.name.startswith("NVIDIA " if spec.is_calibration_target else "AMD ")
