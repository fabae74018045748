"""Properties that hold for every valid kernel on every device (hypothesis)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gpusim.devices import get_spec, list_devices
from gpusim.occupancy_model import occupancy, rules

# Each resource and the limit it moves (AGPRs share the vector register budget).
LIMIT_OF = {"vgprs": "vgpr", "agprs": "vgpr", "sgprs": "sgpr", "lds_bytes": "lds"}


@st.composite
def kernels(draw):
    """A device and a kernel that the device could run (validation passes)."""
    key = draw(st.sampled_from(list_devices()))
    spec = get_spec(key)
    most = spec.max_vgprs_per_wave_lane
    if spec.unified_agprs:
        vgprs = draw(st.integers(0, most // 2))
        agprs = draw(st.integers(0, most - rules.round_up(vgprs, rules.ACCUM_OFFSET_ALIGN)))
    else:
        vgprs = draw(st.integers(0, most))
        agprs = draw(st.integers(0, spec.agprs_per_simd_lane))
    return key, {
        "block_size": draw(st.integers(1, spec.max_threads_per_block)),
        "vgprs": vgprs,
        "agprs": agprs,
        "sgprs": draw(st.integers(0, spec.sgpr_limit_per_wave + rules.MAX_EXTRA_SGPRS)),
        "lds_bytes": draw(st.integers(0, spec.lds_bytes_per_workgroup_max)),
    }


def _valid(key, kwargs) -> bool:
    try:
        rules.check_resources(get_spec(key), **kwargs)
    except rules.OccupancyError:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(kernels())
def test_limiter_fraction_and_whole_workgroups(case):
    key, kwargs = case
    spec, o = get_spec(key), occupancy(device=key, **kwargs)
    assert o.fraction == o.waves_per_simd / spec.max_waves_per_simd
    assert 0 <= o.waves_per_simd <= spec.max_waves_per_simd
    assert o.waves_per_cu == o.workgroups_per_cu * o.waves_per_workgroup
    if o.fits:
        assert 0 < o.fraction <= 1
        assert o.limits[o.limiter] == o.waves_per_simd == min(o.limits.values())
        # Whole workgroups never hold more than the per-SIMD limits allow.
        assert o.waves_per_cu <= o.waves_per_simd * rules.unit(spec).simds
    else:
        assert o.waves_per_simd == 0 and o.limiter in ("vgpr", "sgpr")


@settings(max_examples=300, deadline=None)
@given(kernels(), st.sampled_from(sorted(LIMIT_OF)), st.integers(1, 512))
def test_more_of_any_resource_never_raises_occupancy(case, resource, extra):
    key, kwargs = case
    more = {**kwargs, resource: kwargs[resource] + extra}
    assume(_valid(key, more))
    before, after = occupancy(device=key, **kwargs), occupancy(device=key, **more)
    assert after.waves_per_simd <= before.waves_per_simd
    assert after.workgroups_per_cu <= before.workgroups_per_cu
    assert after.limits[LIMIT_OF[resource]] <= before.limits[LIMIT_OF[resource]]
