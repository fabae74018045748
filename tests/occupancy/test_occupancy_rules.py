"""The occupancy rules, one resource at a time, and DESIGN.md section 6's worked examples."""

from __future__ import annotations

import pytest

from gpusim.devices import get_spec
from gpusim.occupancy_model import OccupancyError, occupancy, rules

KIB = 1024


@pytest.mark.parametrize(
    ("device", "kwargs", "waves"),
    [
        ("mi300x", {"block_size": 256, "vgprs": 128}, 4),
        ("mi100", {"block_size": 256, "vgprs": 119}, 2),
        ("mi300x", {"block_size": 256, "lds_bytes": 16 * KIB}, 4),
        ("mi300x", {"block_size": 256, "lds_bytes": 32 * KIB}, 2),
        ("mi300x", {"block_size": 256, "lds_bytes": 64 * KIB}, 1),
        ("mi300x", {"block_size": 1024, "lds_bytes": 64 * KIB}, 4),
        ("mi300x", {"block_size": 64, "sgprs": 102}, 7),
        ("mi100", {"block_size": 128}, 8),
    ],
)
def test_design_worked_examples(device, kwargs, waves):
    assert occupancy(device=device, **kwargs).waves_per_simd == waves


def test_mi250_profiler_tutorial_percentages():
    # AMD's MI250 rocprofiler-compute tutorial: 49.9% measured for 128 VGPRs, 12.5% for
    # a 64 KiB LDS kernel (DESIGN.md section 6).
    assert occupancy(block_size=256, vgprs=128, device="mi250x").fraction == 0.5
    assert occupancy(block_size=256, lds_bytes=64 * KIB, device="mi250x").fraction == 0.125


def test_sgpr_closed_form_is_llvms_gfx9_table():
    def table(s: int) -> int:  # AMDGPUBaseInfo.cpp getOccupancyWithNumSGPRs, GFX8/GFX9
        return 10 if s <= 80 else 9 if s <= 88 else 8 if s <= 100 else 7

    for key in ("mi300x", "mi250x", "mi100"):
        spec = get_spec(key)
        for s in range(1, spec.sgpr_limit_per_wave + rules.MAX_EXTRA_SGPRS + 1):
            assert rules.sgpr_limit(spec, s) == min(table(s), spec.max_waves_per_simd), (key, s)


def test_sgprs_never_limit_on_rdna():
    spec = get_spec("rx7900xtx")
    top = spec.sgpr_limit_per_wave + rules.MAX_EXTRA_SGPRS
    assert {rules.sgpr_limit(spec, s) for s in range(top + 1)} == {16}


def test_vgpr_granules_and_file_sizes():
    mi300x, mi100, rdna = get_spec("mi300x"), get_spec("mi100"), get_spec("rx7900xtx")
    assert [rules.vgpr_limit(mi300x, v) for v in (7, 64, 65, 72, 512)] == [8, 8, 7, 7, 1]
    assert [rules.vgpr_limit(mi100, v) for v in (24, 25, 28, 256)] == [10, 9, 9, 1]
    assert [rules.vgpr_limit(rdna, v) for v in (23, 96, 97, 256)] == [16, 16, 12, 5]


def test_agprs_share_the_unified_file_but_not_gfx908s():
    # gfx942: roundup(VGPR, 4) + AGPR, then the granule of 8.
    assert rules.vgpr_limit(get_spec("mi300x"), 61, 64) == 4  # 64 + 64 = 128
    assert rules.vgpr_limit(get_spec("mi300x"), 61, 0) == 8
    # gfx908: a separate 256-entry AGPR file limits on its own.
    assert rules.vgpr_limit(get_spec("mi100"), 60, 128) == 2
    assert rules.vgpr_limit(get_spec("mi100"), 128, 60) == 2


def test_barrier_and_slot_limits():
    mi100, mi300x = get_spec("mi100"), get_spec("mi300x")
    assert rules.workgroup_slots(mi100, 64) == 40  # single-wave groups need no barrier
    assert rules.workgroup_slots(mi100, 128) == 16  # 16 barriers per CU
    assert rules.workgroup_slots(mi300x, 1024) == 2
    # 5-wave groups: 6 fit in 32 slots; the busiest SIMD holds ceil(30 / 4) = 8.
    assert rules.workgroup_limit(mi300x, 320) == 8


def test_rdna_divides_a_workgroup_processor():
    spec = get_spec("rx7900xtx")
    wgp = rules.unit(spec)
    assert (wgp.name, wgp.simds, wgp.lds_bytes, wgp.barriers) == ("WGP", 4, 128 * KIB, 32)
    assert rules.unit(get_spec("mi300x")).name == "CU"
    # Three 40 KiB workgroups share the WGP's 128 KiB (a CU alone would hold one).
    assert rules.lds_workgroups(spec, 40 * KIB) == 3


def test_lds_is_allocated_in_granules():
    spec = get_spec("mi300x")
    assert rules.lds_workgroups(spec, 16 * KIB) == 4
    assert rules.lds_workgroups(spec, 16 * KIB + 1) == 3  # 16.5 KiB each
    assert rules.lds_workgroups(get_spec("rx7900xtx"), 8500) == 14  # 1 KiB granule: 9 KiB


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"block_size": 0}, "block_size 0 is outside 1..1024"),
        ({"block_size": 1025}, "block_size 1025 is outside 1..1024"),
        ({"block_size": 64, "vgprs": -1}, "cannot be negative"),
        ({"block_size": 64, "lds_bytes": -4}, "cannot be negative"),
        ({"block_size": 64, "vgprs": 257, "device": "mi100"}, "the 256 one wave may address"),
        ({"block_size": 64, "vgprs": 256, "agprs": 257}, "unified register file"),
        ({"block_size": 64, "agprs": 1, "device": "rx7900xtx"}, "the 0 AGPRs"),
        ({"block_size": 64, "sgprs": 109}, "102 addressable"),
        ({"block_size": 64, "lds_bytes": 64 * KIB + 1}, "65536 one workgroup may allocate"),
    ],
)
def test_impossible_kernels_are_refused_with_the_limit(kwargs, words):
    with pytest.raises(OccupancyError, match=words) as err:
        occupancy(**kwargs)
    assert isinstance(err.value, ValueError)


def test_a_workgroup_that_cannot_fit_gives_zero_and_names_the_registers():
    o = occupancy(block_size=1024, vgprs=200)  # 16 waves need 4 per SIMD; 200 VGPRs allow 2
    assert (o.waves_per_simd, o.workgroups_per_cu, o.fraction, o.fits) == (0, 0, 0.0, False)
    assert o.limiter == "vgpr" and o.limits["vgpr"] == 2
    assert "launch would fail" in o.explain()
