"""Wrapped loads (memsim.period) against the brute-force period of the whole grid's
addresses, and the reuse correction against its two end points."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gpusim.devices import get_spec
from gpusim.memsim import GpuMemoryModel
from gpusim.memsim.period import holding_level, with_reuse, wrapped_loads
from gpusim.trace.record import Access, Trace

BASE = 1 << 24


def sampled(program, grid: int, block: int, runs: list[int], span: int = 4) -> Trace:
    """The whole grid's trace, kept at runs of ``span`` work-groups (as estimate does)."""
    full = Trace.from_lane_addresses(grid, block, program, wave_size=int(np.prod(block)))
    keep = np.isin(full.workgroup, [r + k for r in runs for k in range(span)])
    return full.take(np.flatnonzero(keep))


def brute_period(program, grid: int, block: int) -> int:
    """Smallest P with work-group w + P reading what w reads, for every w (0: none)."""
    full = Trace.from_lane_addresses(grid, block, program, wave_size=block)
    per_wg = full.addr.reshape(grid, -1)
    for p in range(1, grid):
        if np.array_equal(per_wg[p:], per_wg[:-p]):
            return p
    return 0


@settings(max_examples=60, deadline=None)
@given(stride=st.integers(1, 96), elems=st.sampled_from([256, 384, 1024, 4096, 6000]),
       grid=st.sampled_from([64, 96, 128]))
@example(stride=4, elems=256, grid=64)  # a run of consecutive work-groups crosses the wrap
def test_a_wrapped_stride_has_the_period_of_the_whole_grid(stride, elems, grid):
    block = 16

    def copy(t):  # out[i] = a[(i * stride) % a.size]
        return [Access(BASE + (t.gid * stride % elems) * 4)]

    found = wrapped_loads(sampled(copy, grid, block, [0, grid // 2 + 3, grid - 4]),
                          [(BASE, elems * 4)])
    truth = brute_period(copy, grid, block)
    if found:  # never a wrong period
        assert found == {0: truth}
    if truth > 1 and (elems * 4) % (block * stride * 4) == 0:
        # every work-group inside one pass, the same shape (period 1: each work-group
        # reads what its neighbour read, which the sample's own replay sees)
        assert found == {0: truth}
    if truth == 0:
        assert found == {}


def test_gathers_streams_and_tiles_are_not_wrapped():
    rng = np.random.default_rng(3)
    perm = rng.permutation(64 * 16)
    extents = [(BASE, 1 << 20)]
    runs = [0, 20, 40, 60]
    gather = sampled(lambda t: [Access(BASE + perm[t.gid] * 4)], 64, 16, runs)
    stream = sampled(lambda t: [Access(BASE + t.gid * 4)], 64, 16, runs)
    # a 2-D walk: work-group (x, y) of an 8 x 8 grid reads column x, rows 16y..16y+15
    tile = sampled(lambda t: [Access(BASE + ((t.gy * 64 + t.gx // 16) * 4))], (8, 8),
                   (16, 1), runs)
    assert wrapped_loads(gather, extents) == {}
    assert wrapped_loads(stream, extents) == {}
    assert wrapped_loads(tile, extents) == {}


def test_the_holding_level_follows_capacity_and_xcds():
    h200, mi300x = get_spec("h200"), get_spec("mi300x")
    lines = h200.l2_bytes // h200.l2_line_bytes
    assert holding_level(h200, 100, lines / 100) == "L2"
    assert holding_level(h200, 100, lines / 50) is None  # twice the L2, no MALL
    per_xcd = mi300x.l2_bytes // mi300x.l2_line_bytes
    assert holding_level(mi300x, 80, per_xcd / 10) == "L2"  # 10 per XCD fill it
    assert holding_level(mi300x, 81, per_xcd / 10) == "MALL"  # other XCD: the MALL


def test_reuse_moves_misses_to_hits_between_the_two_replays():
    spec = get_spec("h200")
    program = lambda t: [Access(BASE + (t.gid * 64 % 4096) * 4),  # noqa: E731
                         Access(BASE + (1 << 22) + t.gid * 4, kind="store", site=1)]
    trace = Trace.from_lane_addresses(256, 64, program, wave_size=32)
    model = GpuMemoryModel(spec, sectors=True)
    full = model.run(trace, detail=False)
    model.reset()
    without = model.run(trace.take(np.flatnonzero(trace.site == 1)), detail=False)
    for first in (0.0, 0.25, 1.0):
        got = with_reuse(full, without, first, "L2")
        l2, f2 = got.levels["L2"], full.levels["L2"]
        assert l2["loads"] == f2["loads"] and l2["hits"] + l2["misses"] == pytest.approx(
            f2["hits"] + f2["misses"])
        assert got.hbm_read_bytes == round(without.hbm_read_bytes + first * (
            full.hbm_read_bytes - without.hbm_read_bytes))
        assert got.hbm_write_bytes == full.hbm_write_bytes
    assert with_reuse(full, without, 1.0, "L2").levels["L2"]["load_misses"] == (
        full.levels["L2"]["load_misses"])
    saved = full.levels["L2"]["load_misses"] - without.levels["L2"]["load_misses"]
    assert saved > 0 and with_reuse(full, without, 0.0, "L2").levels["L2"][
        "load_misses"] == without.levels["L2"]["load_misses"]
