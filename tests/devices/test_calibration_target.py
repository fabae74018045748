"""The h200 profile: an NVIDIA GPU the timing model is calibrated against, validated
with NVIDIA's names (sm_90, warps of 32) and kept out of the course's device list."""

import pytest

from gpusim.devices import get_spec, list_devices, spec_from_dict
from gpusim.errors import DeviceProfileError
from gpusim.occupancy_model import occupancy


def test_listed_only_when_asked():
    assert "h200" not in list_devices()
    assert list_devices(calibration=True) == list_devices() + ["h200"]
    assert get_spec("h200").is_calibration_target
    assert not any(get_spec(k).is_calibration_target for k in list_devices())


def test_figures_agree_with_each_other():
    spec = get_spec("h200")
    assert spec.arch_version == (9, 0, 0) == (*spec.compute_capability, 0)
    assert spec.max_threads_per_cu == 2048 and spec.max_waves_per_cu == 64  # CUDA guide
    # FP32: 128 lanes per SM, an FMA is 2 FLOPs
    assert spec.fp32_flops_per_clock_per_cu == pytest.approx(256, rel=0.01)
    assert spec.memory_bandwidth_gbs == pytest.approx(
        spec.memory_bus_width_bits / 8 * spec.memory_clock_mhz * 2 / 1e3, rel=0.03)


def test_occupancy_in_cuda_terms():
    # 256-thread blocks: 8 per SM by the 2048-thread limit; 48 KiB of shared memory:
    # 4 per SM (228 KB per SM), as the CUDA occupancy calculator gives
    h200 = get_spec("h200")
    o = occupancy(block_size=256, lds_bytes=0, device=h200)
    assert o.workgroups_per_cu == 8 and o.fraction == 1.0
    assert occupancy(block_size=256, lds_bytes=48 * 1024, device=h200).workgroups_per_cu == 4


@pytest.mark.parametrize("target, family, problem", [
    ("gfx942", "Hopper", "CUDA target name"),
    ("sm_90", "CDNA3", "LLVM AMDGPU processor"),
    ("sm_9x", "Hopper", "CUDA target name"),
])
def test_targets_must_match_the_family(raw_profile, target, family, problem):
    data = raw_profile("h200")
    data["identity"]["gfx_target"]["value"] = target
    data["identity"]["gcn_arch_name"]["value"] = target
    data["identity"]["family"]["value"] = family
    with pytest.raises(DeviceProfileError, match=problem):
        spec_from_dict(data, origin="h200 copy")


def test_compute_capability_must_match_sm_target(raw_profile):
    data = raw_profile("h200")
    data["identity"]["compute_capability"]["value"] = [8, 0]
    with pytest.raises(DeviceProfileError, match="compute_capability"):
        spec_from_dict(data, origin="h200 copy")
