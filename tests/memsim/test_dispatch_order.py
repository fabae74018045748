"""Workgroup dispatch: hardware order, residency, and the interleave's invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim.devices import get_spec
from gpusim.memsim import Access, LaunchInfo, Trace, TraceBuilder, dispatch, dispatch_for
from gpusim.memsim.dispatch import _simulate


def one_load(grid: int, block: int, per_wave: int = 1) -> Trace:
    return Trace.from_lane_addresses(
        grid, block, lambda t: [Access(4 * t.gid + 4096 * k) for k in range(per_wave)]
    )


def test_mi300x_round_robins_workgroups_over_xcds_then_cus():
    spec = get_spec("mi300x")
    tr = one_load(3 * 8, 64)  # one wave per workgroup, one row per wave
    d = dispatch_for(tr, spec, workgroups_per_cu=2)
    wg = np.arange(24)
    assert d.xcd.tolist() == (wg % 8).tolist()  # 0..7 on XCDs 0..7, 8..15 again, ...
    assert d.cu.tolist() == ((wg % 8) * 38 + wg // 8).tolist()  # then the next CU
    assert d.wg_start.tolist() == [0] * 24  # all resident at once


def test_workgroups_beyond_residency_wait_for_a_retiring_one():
    # 2 XCDs x 2 CUs, one workgroup per CU: workgroups 0-3 start, 4-7 follow in order.
    tr = one_load(8, 64, per_wave=3)
    d = dispatch(tr, xcd_count=2, cus_per_xcd=2, workgroups_per_cu=1)
    assert d.wg_start.tolist() == [0, 0, 0, 0, 3, 3, 3, 3]
    assert d.wg_end.tolist() == [3, 3, 3, 3, 6, 6, 6, 6]
    assert d.wg_cu.tolist() == [0, 2, 1, 3, 0, 2, 1, 3]  # the freed CU of the same XCD
    assert (d.xcd == tr.workgroup % 2).all()


def test_waves_of_resident_workgroups_interleave_one_instruction_per_step():
    tr = one_load(2, 128, per_wave=4)  # 2 workgroups x 2 waves x 4 rows
    d = dispatch(tr, xcd_count=1, cus_per_xcd=1, workgroups_per_cu=2)
    waves_in_order = tr.wave[d.order].tolist()
    assert waves_in_order == [0, 1, 2, 3] * 4  # every step: each resident wave once
    assert d.step[d.order].tolist() == np.repeat(np.arange(4), 4).tolist()


def random_trace(seed: int) -> Trace:
    """Waves of unequal lengths, rows of different waves mixed (order inside a wave kept)."""
    rng = np.random.default_rng(seed)
    info = LaunchInfo(grid=int(rng.integers(1, 40)), block=int(rng.integers(1, 4)) * 64)
    left = rng.integers(1, 7, info.total_waves)
    done = np.zeros(info.total_waves, np.int64)
    b = TraceBuilder(info)
    while (left > 0).any():  # a random wave with rows left issues its next one
        w = int(rng.choice(np.flatnonzero(left > 0)))
        b.append(
            np.full(64, 128 * (w * 16 + done[w])),
            site=int(done[w]),
            wave=w,
            workgroup=w // info.waves_per_workgroup,
        )
        left[w] -= 1
        done[w] += 1
    return b.build()


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("xcds", "cus", "slots"), [(1, 1, 1), (2, 3, 2), (8, 2, 3)])
def test_interleave_invariants(seed, xcds, cus, slots):
    tr = random_trace(seed)
    d = dispatch(tr, xcd_count=xcds, cus_per_xcd=cus, workgroups_per_cu=slots)
    assert sorted(d.order.tolist()) == list(range(len(tr)))  # every row exactly once
    for w in np.unique(tr.wave):  # each wave's rows keep their program order
        mine = np.flatnonzero(tr.wave == w)
        issued = d.order[np.isin(d.order, mine)]
        assert issued.tolist() == mine.tolist()
        assert np.all(np.diff(d.step[mine]) >= 1)
    for g in np.unique(tr.workgroup):  # a workgroup lives on one CU of XCD g % xcds
        rows = tr.workgroup == g
        assert len(np.unique(d.cu[rows])) == 1
        assert (d.xcd[rows] == g % xcds).all()
    for cu in np.unique(d.wg_cu):  # never more than `slots` resident workgroups on a CU
        on = d.wg_cu == cu
        for step in range(d.steps):
            live = (d.wg_start[on] <= step) & (step < d.wg_end[on])
            assert live.sum() <= slots
    for x in range(xcds):  # per XCD, workgroups start in id order
        mine = d.workgroups % xcds == x
        assert np.all(np.diff(d.wg_start[mine]) >= 0)


def test_no_resident_workgroup_is_a_clear_error():
    with pytest.raises(ValueError, match="not one workgroup fits"):
        dispatch(one_load(1, 64), xcd_count=1, cus_per_xcd=1, workgroups_per_cu=0)


def test_sampled_workgroups_keep_their_xcd():
    full = one_load(64, 64)
    keep = np.flatnonzero(full.workgroup % 5 == 0)
    tr = full.take(keep)
    d = dispatch(tr, xcd_count=8, cus_per_xcd=4, workgroups_per_cu=1)
    assert (d.xcd == tr.workgroup % 8).all()


def numpy_placement(trace: Trace, xcds: int, cus: int, slots: int) -> tuple:
    """The placement as NumPy spells it (dispatch's former prelude: stable argsort,
    unique, lexsort, searchsorted) around the same stepping kernel: the oracle of
    ``dispatch.place``'s compiled grouping of rows into waves and waves into workgroups."""
    n = len(trace)
    by_wave = np.argsort(trace.wave, kind="stable")
    waves, wave_first = np.unique(trace.wave[by_wave], return_index=True)
    wave_start = np.append(wave_first, n).astype(np.int64)
    wgs, wave_wg = np.unique(trace.workgroup[by_wave][wave_first], return_inverse=True)
    wave_order = np.lexsort((waves, wave_wg))
    wg_wave_start = np.searchsorted(wave_wg[wave_order], np.arange(len(wgs) + 1))
    wg_xcd = wgs % xcds
    queue = np.argsort(wg_xcd, kind="stable").astype(np.int64)
    queue_start = np.searchsorted(wg_xcd[queue], np.arange(xcds + 1)).astype(np.int64)
    out = [np.empty(n, np.int64) for _ in range(3)]
    per_wg = [np.full(len(wgs), -1, np.int64), np.zeros(len(wgs), np.int64),
              np.zeros(len(wgs), np.int64)]  # CU, start and end of each workgroup
    _simulate(by_wave, wave_start[wave_order], wave_start[wave_order + 1],
              wg_wave_start.astype(np.int64), queue, queue_start, xcds, cus, slots,
              *out, *per_wg)  # fmt: skip
    order, row_cu, row_step = out
    cu, step = np.empty(n, np.int64), np.empty(n, np.int64)
    cu[order], step[order] = row_cu, row_step
    return order, cu, step, wgs, *per_wg


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.2, 1.0),
       shape=st.sampled_from([(1, 1, 1), (2, 3, 2), (8, 2, 3), (3, 1, 4)]))
def test_compiled_placement_equals_numpy(seed, keep, shape):
    full = random_trace(seed)
    rows = np.flatnonzero(np.random.default_rng(seed).random(len(full)) < keep)
    tr = full.take(rows) if len(rows) else full  # some waves or workgroups missing
    d = dispatch(tr, xcd_count=shape[0], cus_per_xcd=shape[1], workgroups_per_cu=shape[2])
    want = numpy_placement(tr, *shape)
    got = (d.order, d.cu, d.step, d.workgroups, d.wg_cu, d.wg_start, d.wg_end)
    for w, g in zip(want, got, strict=True):
        assert np.array_equal(w, g)
