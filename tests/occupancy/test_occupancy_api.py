"""occupancy(), occupancy_table() and HIP's occupancy API: inputs, records, text."""

from __future__ import annotations

import dataclasses

import pytest

from gpusim.devices import get_spec
from gpusim.errors import HipError, hipError_t
from gpusim.occupancy_model import (
    MINIMAL_KERNEL_SGPRS,
    MINIMAL_KERNEL_VGPRS,
    OccupancyError,
    hipOccupancyMaxActiveBlocksPerMultiprocessor,
    hipOccupancyMaxPotentialBlockSize,
    occupancy,
    occupancy_table,
)

KIB = 1024


class FakeKernel:
    """What gpusim.compile's kernels will offer: resources(device) -> mapping."""

    def __init__(self, **resources):
        self._resources = resources
        self.asked = []

    def resources(self, device):
        self.asked.append(device)
        return self._resources


def test_record_holds_inputs_limits_and_whole_workgroups():
    o = occupancy(block_size=256, vgprs=128, lds_bytes=8 * KIB)
    assert (o.device, o.gfx_target, o.block_size, o.vgprs, o.lds_bytes) == (
        "mi300x",
        "gfx942",
        256,
        128,
        8 * KIB,
    )
    assert dict(o.limits) == {"vgpr": 4, "sgpr": 8, "lds": 8, "workgroup": 8, "waves": 8}
    assert (o.waves_per_simd, o.limiter, o.fraction) == (4, "vgpr", 0.5)
    assert (o.workgroups_per_cu, o.waves_per_cu, o.waves_per_workgroup, o.unit) == (4, 16, 4, "CU")
    assert dataclasses.is_dataclass(o)
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.vgprs = 1


def test_missing_registers_default_to_the_minimal_kernel():
    o = occupancy(block_size=64)
    assert (o.vgprs, o.sgprs, o.agprs, o.lds_bytes) == (
        MINIMAL_KERNEL_VGPRS,
        MINIMAL_KERNEL_SGPRS,
        0,
        0,
    )
    assert o.limiter == "waves" and o.fraction == 1.0


def test_kernel_resources_fill_the_blanks_and_arguments_override():
    kernel = FakeKernel(vgprs=96, sgprs=30, agprs=0, lds_bytes=16 * KIB)
    o = occupancy(kernel, block_size=256, device="mi250x")
    assert kernel.asked == [get_spec("mi250x")]
    assert (o.vgprs, o.sgprs, o.lds_bytes, o.waves_per_simd) == (96, 30, 16 * KIB, 4)
    o = occupancy(kernel, block_size=256, lds_bytes=0, device="mi250x")
    assert (o.lds_bytes, o.waves_per_simd, o.limiter) == (0, 5, "vgpr")
    assert occupancy({"vgprs": 200}, block_size=64).vgprs == 200  # a plain mapping works


def test_kernel_compiled_for_smaller_blocks_or_another_target_is_refused():
    with pytest.raises(OccupancyError, match="256 threads this kernel was compiled for"):
        occupancy({"max_flat_workgroup_size": 256}, block_size=512)
    with pytest.raises(OccupancyError, match="compiled for gfx90a, not gfx942"):
        occupancy({"vgprs": 8, "target": "gfx90a"}, block_size=64)
    with pytest.raises(TypeError, match="resources"):
        occupancy(object(), block_size=64)


def test_devices_by_key_gfx_target_or_spec():
    spec = get_spec("rx7900xtx")
    assert occupancy(block_size=64, device="gfx1100").device == "rx7900xtx"
    assert occupancy(block_size=64, device=spec).unit == "WGP"
    with pytest.raises(OccupancyError, match="unknown device 'h100'"):
        occupancy(block_size=64, device="h100")


@pytest.mark.parametrize("regs,blocks,percent", [(32, 8, 100), (64, 4, 50), (128, 2, 25)])
def test_calibration_target_by_key_matches_cuda_occupancy(regs, blocks, percent):
    """The H200 (a calibration target, not listed for the course) resolves by key; its
    figures follow the CUDA occupancy rules for sm_90 (65536 registers and 2048 threads per
    SM): 256-thread blocks at 32/64/128 registers a thread fit 8/4/2 blocks."""
    occ = occupancy(block_size=256, vgprs=regs, device="h200")
    assert (occ.workgroups_per_cu, round(100 * occ.fraction)) == (blocks, percent)


def test_repr_and_explain_read_as_sentences():
    o = occupancy(block_size=256, lds_bytes=21800)
    assert repr(o) == (
        "Occupancy(mi300x gfx942, block 256: 2/8 waves per SIMD (25%), limiter 'lds', "
        "2 workgroups per CU)"
    )
    text = o.explain()
    assert "21800 bytes per workgroup (allocated as 22016)" in text
    assert "limited by LDS" in text and text.endswith("A CU holds 2 workgroups (8 waves).")
    assert "barriers" in occupancy(block_size=128, device="mi100").explain()
    assert "Only whole workgroups" in occupancy(block_size=1024, vgprs=96).explain()


def test_table_sweeps_one_resource():
    rows = occupancy_table("lds_bytes", [0, 16 * KIB, 32 * KIB], block_size=256)
    assert [r.waves_per_simd for r in rows] == [8, 4, 2]
    cols = occupancy_table("block_size", [64, 1024], vgprs=96, columns=True)
    assert cols["block_size"] == [64, 1024]
    assert cols["workgroups_per_cu"] == [20, 1] and cols["waves_per_cu"] == [20, 16]
    with pytest.raises(OccupancyError, match="choose one of"):
        occupancy_table("registers", [1], block_size=64)
    with pytest.raises(OccupancyError, match="needs block_size"):
        occupancy_table("vgprs", [1])


def test_hip_max_active_blocks():
    assert hipOccupancyMaxActiveBlocksPerMultiprocessor({"vgprs": 128}, 256) == 4
    assert hipOccupancyMaxActiveBlocksPerMultiprocessor(None, 256, 32 * KIB) == 2
    static = FakeKernel(lds_bytes=16 * KIB)
    assert hipOccupancyMaxActiveBlocksPerMultiprocessor(static, 256, 16 * KIB) == 2
    # As HIP: too large a block, or too much LDS, gives 0 blocks, not an error.
    assert hipOccupancyMaxActiveBlocksPerMultiprocessor(None, 2048) == 0
    assert hipOccupancyMaxActiveBlocksPerMultiprocessor(static, 64, 60 * KIB) == 0
    with pytest.raises(HipError) as err:
        hipOccupancyMaxActiveBlocksPerMultiprocessor(None, 0)
    assert err.value.code == hipError_t.hipErrorInvalidValue
    with pytest.raises(HipError, match="AGPRs"):
        hipOccupancyMaxActiveBlocksPerMultiprocessor({"agprs": 8}, 64, device="rx7900xtx")


def test_hip_max_potential_block_size():
    # Nothing limits: the largest block, two per CU, on all 304 CUs.
    assert hipOccupancyMaxPotentialBlockSize(None) == (608, 1024)
    # 96 VGPRs leave 20 wave slots: 1024 threads would use 16 of them, 640 all 20.
    assert hipOccupancyMaxPotentialBlockSize({"vgprs": 96}) == (608, 640)
    # A 100-thread block is 2 waves: 16 per CU (barriers) fill the CU as 64-thread ones do.
    assert hipOccupancyMaxPotentialBlockSize(None, blockSizeLimit=100) == (304 * 16, 100)
    assert hipOccupancyMaxPotentialBlockSize(None, 64 * KIB, device="mi100") == (120, 1024)
    # RDNA: per WGP (48 of them on the RX 7900 XTX), as HIP reports multiprocessors.
    assert hipOccupancyMaxPotentialBlockSize(None, device="rx7900xtx") == (96, 1024)
    with pytest.raises(HipError, match="65537 bytes of LDS"):
        hipOccupancyMaxPotentialBlockSize(None, 64 * KIB + 1)
