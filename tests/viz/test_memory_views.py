"""Memory chart, heat map and reuse histogram against the records' counters."""

import pytest

from gpusim import viz
from gpusim.viz.cache_heatmap import heat_cells
from gpusim.viz.memory_chart import chart_data


def test_memory_chart_numbers_are_the_counters(profiles):
    one, two = profiles["copy"].kernels
    boxes, arrows = chart_data(two)
    c = two.counters
    assert f"requests {c['TCP_TOTAL_CACHE_ACCESSES_sum']:,}" in boxes["vL1D"]
    assert f"{c['TCP_TCC_READ_REQ_sum']:,} rd" in arrows["vL1D -> L2"]
    assert any(line.startswith("MALL hit rate") for line in boxes["Fabric / MALL"])
    # stride 2 reads twice the lines per load instruction: 1.5x the requests (load + store)
    r1, r2 = (k.counters["TCP_TOTAL_CACHE_ACCESSES_sum"] for k in (one, two))
    assert r2 == 1.5 * r1
    v = viz.memory_chart(profiles["copy"])
    assert v.sources["boxes"].data["name"][0] == "Instructions"
    before = dict(v.summary)["vL1D"]
    v.controls["kernel"].value = 1
    assert dict(v.summary)["vL1D"] != before


def test_heatmap_cells_add_up_to_the_counters(profiles):
    k = profiles["copy"].kernels[1]
    c, heat = k.counters, k.memory["heatmap"]

    def total(level, show):
        return sum(heat_cells(heat[level], show)["value"])

    requests = {o: total("vL1D", o) for o in ("hit", "miss", "write")}
    assert sum(requests.values()) == c["TCP_TOTAL_CACHE_ACCESSES_sum"]
    assert requests["miss"] == c["TCP_TCC_READ_REQ_sum"]  # vL1D load misses are L2 reads
    assert requests["write"] == c["TCP_TCC_WRITE_REQ_sum"]  # write-through
    assert total("L2", "hit") + total("L2", "miss") + total("L2", "write") == c["TCC_REQ_sum"]
    assert total("L2", "miss") == c["TCC_EA0_RDREQ_sum"]  # 128 B fabric reads on gfx942
    assert all(0 <= r <= 1 for r in heat_cells(heat["L2"], "miss ratio")["value"])


def test_reuse_histogram_counts_every_request(profiles):
    k = profiles["copy"].kernels[1]
    reuse = k.memory["reuse"]["vL1D"]
    total = sum(reuse["counts"]) + reuse["cold"]
    assert total == k.counters["TCP_TOTAL_CACHE_ACCESSES_sum"]
    assert reuse["capacity_lines"] == 32 * 1024 // 128
    v = viz.cache_heatmap(profiles["copy"])
    v.controls["level"].value = "L2"
    assert "reuses" in dict(v.summary)["reuse distance"]
    v.controls["level"].value = "MALL"
    assert dict(v.summary)["reuse distance"] == "not measured for MALL"


@pytest.mark.parametrize("show", ["hit", "miss", "write", "miss ratio"])
def test_heatmap_control_changes_data_in_place(profiles, show):
    v = viz.cache_heatmap(profiles["copy"])
    cells = v.sources["cells"]
    v.controls["show"].value = show
    assert v.sources["cells"] is cells
    level = profiles["copy"].kernels[0].memory["heatmap"]["vL1D"]
    assert cells.data["value"] == heat_cells(level, show)["value"]
