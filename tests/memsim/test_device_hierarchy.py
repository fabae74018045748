"""``levels_for`` / ``hierarchy_for``: the cache levels of every shipped device profile."""

from __future__ import annotations

import numpy as np
import pytest

from gpusim.devices import get_spec, list_devices
from gpusim.memsim import hierarchy_for, levels_for


@pytest.mark.parametrize("key", list_devices())
def test_levels_follow_the_profile(key):
    spec = get_spec(key)
    levels = levels_for(spec)
    l1, l2 = levels[:2]
    assert (l1.size, l1.ways, l1.line) == (spec.l1_bytes, spec.l1_ways, spec.l1_line_bytes)
    assert (l2.size, l2.ways, l2.line) == (spec.l2_bytes, spec.l2_ways, spec.l2_line_bytes)
    assert l1.sets == spec.l1_sets and l2.sets == spec.l2_sets
    assert l1.policy == "write-through/no-write-allocate"
    assert l2.policy == "write-back/write-allocate"
    assert (len(levels) == 3) == spec.has_infinity_cache
    if spec.has_infinity_cache:
        mall = levels[2]
        assert (mall.name, mall.size, mall.line) == (
            "MALL", spec.infinity_cache_bytes, spec.infinity_cache_line_bytes,
        )  # fmt: skip
    assert len(levels_for(spec, infinity_cache=False)) == 2


@pytest.mark.parametrize("key", list_devices())
def test_read_then_reread_a_buffer(key):
    """Reading 1 MiB twice: HBM sees it once; the second pass is served by L2 (or MALL)."""
    spec = get_spec(key)
    h = hierarchy_for(key)
    addr = np.arange(0, 1 << 20, spec.l1_line_bytes)  # one access per vL1D line
    first = h.run(addr)
    assert first["memory"]["load_bytes"] == 1 << 20
    again = h.run(addr)
    assert again["memory"]["loads"] == 0
    assert again["L2"]["hits"] == again["L2"]["loads"]  # 1 MiB fits every profile's L2


def test_stores_pass_through_vl1d_and_stay_in_l2():
    h = hierarchy_for("mi250x")
    s = h.run(np.arange(0, 8192, 4), is_store=True)
    assert s["vL1D"]["write_throughs"] == 2048 and s["vL1D"]["misses"] == 2048
    assert s["L2"]["store_misses"] == 64 and s["memory"]["stores"] == 0  # not yet evicted
    assert h.flush()["memory"]["store_bytes"] == 8192
