"""The occupancy explorer shows exactly gpusim.occupancy's numbers."""

from hypothesis import given, settings
from hypothesis import strategies as st

import gpusim
from gpusim import viz
from gpusim.occupancy_model import occupancy_table

VIEW = viz.occupancy(block_size=256, vgprs=64)  # one view, moved by every example


@settings(max_examples=40, deadline=None)
@given(device=st.sampled_from(gpusim.list_devices()), block=st.integers(1, 16),
       vgprs=st.integers(1, 256), sgprs=st.integers(1, 102), lds=st.integers(0, 64))
def test_view_matches_occupancy(device, block, vgprs, sgprs, lds):
    c = VIEW.controls
    c["device"].value = device
    wave = gpusim.devices.get_spec(device).wave_size
    c["block_size"].value = block * wave
    c["vgprs"].value, c["sgprs"].value, c["lds_bytes"].value = vgprs, sgprs, lds * 1024
    now = {k: c[k].value for k in ("block_size", "vgprs", "sgprs", "lds_bytes")}
    o = gpusim.occupancy(device=device, **now)
    bars = VIEW.sources["limits"].data
    assert dict(zip(bars["resource"], bars["waves"], strict=True)) == dict(o.limits)
    assert dict(VIEW.summary)["occupancy"].startswith(f"{o.waves_per_simd} of ")
    assert dict(VIEW.summary)["limiter"] == o.limiter
    point = VIEW.sources["vgprs_point"].data
    assert point == {"x": [now["vgprs"]], "waves": [o.waves_per_simd]}


def test_register_cliffs_are_steps_of_the_curve():
    v = viz.occupancy(block_size=256, vgprs=64, sgprs=24, device="mi300x")
    curve = dict(zip(v.sources["vgprs"].data["x"], v.sources["vgprs"].data["waves"],
                     strict=True))
    assert (curve[64], curve[65], curve[128], curve[129]) == (8, 7, 4, 3)
    ref = occupancy_table("vgprs", range(1, 513), block_size=256, sgprs=24, columns=True)
    assert v.sources["vgprs"].data["waves"] == ref["waves_per_simd"]


def test_device_switch_keeps_sliders_in_range():
    v = viz.occupancy(block_size=1024, vgprs=400, device="mi300x")
    v.controls["device"].value = "mi100"  # 256 VGPRs per lane at most
    assert v.controls["vgprs"].max == 256 and v.controls["vgprs"].value == 256
    assert dict(v.summary)["occupancy"].startswith("0 of 10")  # does not fit: 0, as occupancy()


def test_kernel_resources_prefill(profiles):
    counts = {"vgprs": 40, "sgprs": 30, "lds_bytes": 8192, "target": "gfx942"}
    v = viz.occupancy(counts, block_size=512)
    assert [v.controls[k].value for k in ("vgprs", "sgprs", "lds_bytes")] == [40, 30, 8192]
