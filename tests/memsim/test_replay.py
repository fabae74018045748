"""The compiled replay (memsim/replay.py) against GpuMemoryModel.run, its reference: the
same GpuMemoryResult and the same cache state after it, on random traces."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusim.devices import get_spec
from gpusim.memsim import Access, GpuMemoryModel, LaunchInfo, Trace
from gpusim.memsim.replay import replay
from gpusim.trace.record import ATOMIC, GLOBAL, LDS, LOAD, STORE


def tiny(device: str, xcds: int, cus_per_xcd: int):
    """``device`` with a few CUs and caches of a few sets, so that random traces evict,
    write back and flush at every level."""
    spec = get_spec(device)
    mall = spec.infinity_cache_bytes and 16 * 8 * spec.infinity_cache_line_bytes
    return dataclasses.replace(
        spec, xcd_count=xcds, cu_count=xcds * cus_per_xcd, l2_channels=1,
        l1_bytes=4 * spec.l1_ways * spec.l1_line_bytes,
        l2_bytes=4 * spec.l2_ways * spec.l2_line_bytes, infinity_cache_bytes=mall,
    )  # fmt: skip


def random_trace(seed: int, workgroups: int, waves_per_wg: int, max_rows: int,
                 lds: float, atomic: float, stride: int) -> Trace:
    """Waves of random lengths, their rows interleaved at random (each wave's own order
    kept); per row a random kind, space, width, active mask and one of three address
    patterns: coalesced, strided, random over a small region (reuse, conflicts)."""
    rng = np.random.default_rng(seed)
    info = LaunchInfo(grid=workgroups, block=64 * waves_per_wg)
    waves = info.total_waves
    lengths = rng.integers(0, max_rows + 1, waves)
    lengths[rng.integers(waves)] += 1  # at least one row
    wave = rng.permutation(np.repeat(np.arange(waves, dtype=np.int64), lengths))
    n = len(wave)
    lanes = np.arange(64, dtype=np.int64)
    width = rng.choice([1, 2, 4, 8, 16], n).astype(np.int32)
    base = rng.integers(0, 1 << 16, n) * 4
    pattern = rng.integers(0, 3, n)
    addr = np.where(pattern[:, None] == 0, base[:, None] + lanes * width[:, None],
                    base[:, None] + lanes * stride)
    addr = np.where(pattern[:, None] == 2, rng.integers(0, 1 << 15, (n, 64)), addr)
    space = np.where(rng.random(n) < lds, LDS, GLOBAL).astype(np.int8)
    addr = np.where(space[:, None] == LDS, addr % (1 << 14), addr)  # LDS offsets
    kind = rng.choice([LOAD, STORE], n).astype(np.int8)
    kind[(rng.random(n) < atomic) & (space == GLOBAL)] = ATOMIC
    width[kind == ATOMIC] = 4
    active = rng.random((n, 64)) < rng.choice([0.3, 1.0], n)[:, None]
    return Trace(addr, active, width, kind, space, rng.integers(0, 5, n).astype(np.int32),
                 wave, wave // waves_per_wg, info)


def same(a, b) -> None:
    """Every field of two GpuMemoryResults equal (arrays elementwise, dispatch too)."""
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name == "dispatch":
            for g in dataclasses.fields(x):
                assert np.array_equal(getattr(x, g.name), getattr(y, g.name)), g.name
        elif f.name == "per_instance":
            assert x.keys() == y.keys()
            for k in x:
                assert np.array_equal(x[k], y[k]), k
        elif isinstance(x, np.ndarray):
            assert np.array_equal(x, y), f.name
        else:
            assert x == y, f.name


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), workgroups=st.integers(1, 24),
       waves_per_wg=st.integers(1, 4), max_rows=st.integers(0, 6),
       lds=st.sampled_from([0.0, 0.3]), atomic=st.sampled_from([0.0, 0.2]),
       stride=st.sampled_from([4, 128, 4096]),
       device=st.sampled_from(["mi300x", "mi250x", "rx7900xtx"]),
       shape=st.sampled_from([(1, 1), (2, 3), (8, 1)]), slots=st.integers(1, 3),
       hash_sets=st.booleans(), sectors=st.booleans(), flush_mall=st.booleans())
def test_replay_equals_the_level_by_level_model(seed, workgroups, waves_per_wg, max_rows, lds,
                                                atomic, stride, device, shape, slots,
                                                hash_sets, sectors, flush_mall):
    spec = tiny(device, *shape)
    tr = random_trace(seed, workgroups, waves_per_wg, max_rows, lds, atomic, stride)
    reference = GpuMemoryModel(spec, hash_sets=hash_sets, sectors=sectors)
    compiled = GpuMemoryModel(spec, hash_sets=hash_sets, sectors=sectors)
    for k in range(3):  # cold, then warm L2 and MALL with the first run's lines, then
        if k == 2:      # cold again (the flush sweeps only the sets the replay filled)
            reference.reset()
            compiled.reset()
        want = reference.run(tr, workgroups_per_cu=slots, flush_mall=flush_mall, detail=False)
        got = replay(compiled, tr, workgroups_per_cu=slots, flush_mall=flush_mall)
        same(want, got)
        for name in reference.tags:
            assert np.array_equal(reference.tags[name], compiled.tags[name]), name
            assert np.array_equal(reference.counters[name], compiled.counters[name]), name
        assert np.array_equal(reference.memory, compiled.memory)
    compiled.reset()  # after a cold replay: only the sets it filled are cleared
    for name in compiled.tags:
        assert (compiled.tags[name] == -1).all(), name


def test_unflushed_and_default_residency_agree():
    def prog(t):
        return [Access(4 * t.gid), Access((1 << 20) + 512 * t.gid, kind=STORE),
                Access(64 * (t.gid % 5), kind=ATOMIC)]

    tr = Trace.from_lane_addresses(40, 128, prog)
    spec = tiny("mi300x", 2, 2)
    want = GpuMemoryModel(spec).run(tr, flush=False, detail=False)
    got = replay(GpuMemoryModel(spec), tr, flush=False)
    same(want, got)
    assert got.atomic_lane_ops == 40 * 128
    # without the kernel-end flush the L2 writes back only what it evicted
    assert got.requests["l2_to_fabric_write"] == got.levels["L2"]["writebacks"] > 0


def test_bad_addresses_and_residency_say_so():
    tr = Trace.from_lane_addresses(1, 64, lambda t: [Access(4 * t.gid - 8)])
    with pytest.raises(ValueError, match="addresses must be >= 0; found -8"):
        replay(GpuMemoryModel("mi300x"), tr)
    ok = Trace.from_lane_addresses(1, 64, lambda t: [Access(4 * t.gid)])
    with pytest.raises(ValueError, match="not one workgroup fits"):
        replay(GpuMemoryModel("mi300x"), ok, workgroups_per_cu=0)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.integers(0, 5000), min_size=0, max_size=300),
       spread=st.sampled_from([1, 3]), instances=st.sampled_from([1, 4]))
def test_sets_a_cold_replay_reached_are_numpys_unique(lines, spread, instances):
    """Few sets (sorted) and most of them (read from the flags) alike."""
    from gpusim.memsim.replay import _sets_of

    sets, line_bits = 64, 7
    addr = np.array(lines, np.int64) << line_bits
    size = np.full(1, spread << line_bits, np.int64)  # every request 1 or 3 lines long
    inst = np.arange(len(lines), dtype=np.int64) % instances
    geometry = np.array([sets, 4, line_bits, 1, 1, 1], np.int64)
    want = [int(i) * sets + (ln + d) % sets
            for ln, i in zip(lines, inst, strict=True) for d in range(spread)]
    got = _sets_of(addr, size, inst, geometry, instances)
    assert got.tolist() == sorted(set(want))
