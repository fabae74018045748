"""Property tests: random geometries and traces.

- the numba hierarchy == the plain-Python reference (``cache_reference.py``) for every
  write policy, both LRU-on-store settings, mixed line sizes and straddling accesses;
- the numba hierarchy == pycachesim where both define the semantics;
- invariants that hold for any trace (only valid ones: LRU's stack property holds for the
  same sets and line with more ways, not for more sets).
"""

from __future__ import annotations

import numpy as np
from cache_reference import RefHierarchy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pycachesim_oracle import compare

from gpusim.memsim import Cache, Hierarchy

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def cache_level(draw, name: str, **fixed) -> Cache:
    line = fixed.pop("line", None) or draw(st.sampled_from([4, 8, 16, 32, 64]))
    sets = draw(st.integers(1, 6))
    ways = draw(st.integers(1, 4))
    policy = {
        "write_back": draw(st.booleans()),
        "write_allocate": draw(st.booleans()),
        "store_updates_lru": draw(st.booleans()),
    }
    policy.update(fixed)
    return Cache(name, size=sets * ways * line, ways=ways, line=line, **policy)


@st.composite
def hierarchy_levels(draw, **fixed) -> list[Cache]:
    n = draw(st.integers(1, 3))
    return [draw(cache_level(f"L{i + 1}", **fixed)) for i in range(n)]


@st.composite
def traces(draw, max_size: int = 100, stores: bool = True) -> tuple[np.ndarray, ...]:
    n = draw(st.integers(1, 300))
    span = draw(st.sampled_from([64, 256, 1024, 4096]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    addr = rng.integers(0, span, n)
    size = rng.integers(1, max_size + 1, n)
    is_store = rng.random(n) < (draw(st.floats(0, 1)) if stores else 0.0)
    return addr, size, is_store


@SETTINGS
@given(levels=hierarchy_levels(), trace=traces())
def test_matches_reference_model(levels, trace):
    addr, size, is_store = trace
    h = Hierarchy(levels)
    ours = h.run(addr, size, is_store)
    ref = RefHierarchy(levels)
    ref.run(addr, size, is_store)
    expected = ref.stats()
    for name in expected:
        assert {k: ours[name][k] for k in expected[name]} == expected[name], name
    for spec, ref_level in zip(levels, ref.levels, strict=True):
        assert h.contents(spec.name) == ref_level.contents()


@SETTINGS
@given(
    levels=hierarchy_levels(write_back=True, write_allocate=True, store_updates_lru=False),
    trace=traces(),
)
def test_matches_pycachesim_write_back(levels, trace):
    levels = sorted(levels, key=lambda c: c.line)  # pycachesim: lines only grow downwards
    compare(levels, *trace)


@SETTINGS
@given(
    first=cache_level("L1", write_back=False, write_allocate=False, store_updates_lru=False),
    second=cache_level("L2", write_back=True, write_allocate=True, store_updates_lru=False),
    trace=traces(max_size=4),
)
def test_matches_pycachesim_write_through(first, second, trace):
    """Write-through stores must stay in one line (pycachesim mis-clips straddling ones)."""
    addr, size, is_store = trace
    addr = addr // 4 * 4
    size = np.minimum(size, 4)
    levels = sorted([first, second], key=lambda c: c.line)
    if levels[0] is second:  # pycachesim: lines only grow downwards; keep WT first
        levels = [
            first,
            Cache(
                "L2",
                size=second.sets * second.ways * first.line,
                ways=second.ways,
                line=first.line,
                store_updates_lru=False,
            ),
        ]
    compare(levels, addr, size, is_store)


@SETTINGS
@given(levels=hierarchy_levels(), trace=traces(max_size=1))
def test_every_access_is_a_hit_or_a_miss(levels, trace):
    """One-byte accesses touch one line each: hits + misses == accesses at L1."""
    addr, size, is_store = trace
    s = Hierarchy(levels).run(addr, size, is_store)["L1"]
    assert s["hits"] + s["misses"] == s["loads"] + s["stores"] == len(addr)
    assert s["load_hits"] + s["load_misses"] == s["loads"]


@SETTINGS
@given(
    line=st.sampled_from([8, 32]),
    sets=st.integers(1, 8),
    ways=st.tuples(st.integers(1, 6), st.integers(1, 6)).map(sorted),
    trace=traces(),
)
def test_more_ways_never_more_misses(line, sets, ways, trace):
    """LRU stack property: same sets and line, more ways => a superset held, no more misses.

    With write-allocate and LRU refreshed by every access, stores affect residency like
    loads, so the property holds for mixed traces too.
    """
    small, big = (Cache("C", size=sets * w * line, ways=w, line=line) for w in ways)
    hs, hb = Hierarchy([small]), Hierarchy([big])
    ss, sb = hs.run(*trace)["C"], hb.run(*trace)["C"]
    assert sb["misses"] <= ss["misses"]
    for set_small, set_big in zip(hs.contents("C"), hb.contents("C"), strict=True):
        assert {a for a, _ in set_small} <= {a for a, _ in set_big}


@SETTINGS
@given(levels=hierarchy_levels(), trace=traces(), cut=st.floats(0, 1))
def test_splitting_a_trace_into_batches_changes_nothing(levels, trace, cut):
    addr, size, is_store = trace
    k = int(cut * len(addr))
    whole = Hierarchy(levels)
    whole.run(addr, size, is_store)
    parts = Hierarchy(levels)
    parts.run(addr[:k], size[:k], is_store[:k])
    parts.run(addr[k:], size[k:], is_store[k:])
    assert parts.stats() == whole.stats()


@SETTINGS
@given(levels=hierarchy_levels(), trace=traces())
def test_traffic_is_conserved_between_levels(levels, trace):
    """What a level sends down is exactly what the next level receives."""
    h = Hierarchy(levels)
    s = h.run(*trace)
    names = [c.name for c in levels] + ["memory"]
    for upper, lower, spec in zip(names, names[1:], levels, strict=False):
        u, d = s[upper], s[lower]
        fills = u["load_misses"] + (u["store_misses"] if spec.write_allocate else 0)
        assert d["loads"] == fills and d["load_bytes"] == fills * spec.line
        assert d["stores"] == u["writebacks"] + u["write_throughs"]
