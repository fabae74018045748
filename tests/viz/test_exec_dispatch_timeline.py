"""Divergence, dispatch and timeline views on known launches."""

import numpy as np

from gpusim import viz
from gpusim.viz.dispatch import resident
from gpusim.viz.divergence import mask_cells

EVEN = sum(1 << lane for lane in range(0, 64, 2))  # lanes 0, 2, 4, ...


def test_even_lanes_show_in_every_exec_mask(profiles):
    k = profiles["diverge"].kernels[0]
    ex = k.memory["exec"]
    assert len(ex["waves"]) == 16  # the first 16 of 16 waves
    for w in ex["waves"].values():
        assert w["mask"] == [EVEN, EVEN]  # load x, store out: both inside the if
    assert set(ex["active_lanes"].values()) == {32.0}
    v = viz.divergence(profiles["diverge"])
    colors = v.sources["cells"].data["color"]
    assert colors[:4] == ["#1f77b4", "#eeeeee", "#1f77b4", "#eeeeee"]
    assert "2 with lanes switched off" in dict(v.summary)["wave"]


def test_mask_cells_reads_bits_as_lanes():
    d = mask_cells([1 << 63, 1], 64)
    on = [(r, lane) for r, lane, a in zip(d["row"], d["lane"], d["active"], strict=True) if a]
    assert on == [(0, 63), (1, 0)]


def test_dispatch_round_robins_workgroups_over_xcds(profiles):
    k = profiles["copy"].kernels[0]  # 64 workgroups of 256 threads
    d = k.memory["dispatch"]
    assert d["xcd"] == [wg % 8 for wg in d["workgroup"]]
    assert np.bincount(d["xcd"]).tolist() == [8] * 8
    assert resident(d, 0).sum() == 64  # all fit at once: one per CU
    v = viz.dispatch(profiles["copy"])
    assert dict(v.summary)["workgroups per XCD"] == "8 8 8 8 8 8 8 8"
    grid = v.sources["cus"]
    v.controls["step"].value = v.controls["step"].max
    assert v.sources["cus"] is grid and sum(grid.data["n"]) == 0  # all retired by the end


def test_timeline_rows_and_device_filter(profiles):
    prof = profiles["saxpy"]
    v = viz.timeline(prof)
    bars = v.sources["bars"].data
    assert len(bars["row"]) == len([r for r in prof.records if r.done])
    assert all(e >= s for s, e in zip(bars["start"], bars["end"], strict=True))
    assert bars["what"][0] == repr(prof.records[0])
    v.controls["device"].value = 0
    assert set(v.sources["bars"].data["row"]) == {"device 0 stream 0"}
