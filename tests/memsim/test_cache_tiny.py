"""Tiny caches (1-2 sets, 2 ways, 16 B lines) with exact expected contents, worked by hand.

Line of address a = a // 16. ``contents`` lists per set ``(line address, dirty)``, most
recently used first.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpusim.memsim import Cache, Hierarchy
from gpusim.memsim import hierarchy as hierarchy_module

S = True  # store
L = False  # load


def tiny(sets: int = 1, **policy) -> Cache:
    return Cache("L1", size=sets * 2 * 16, ways=2, line=16, **policy)


def test_lru_evicts_least_recently_used():
    h = Hierarchy([tiny(sets=2)])  # set = line % 2
    s = h.run([0, 32, 0, 64])  # lines 0, 2, 0 (hit), 4 -> evicts line 2, not line 0
    assert h.contents("L1") == [[(64, False), (0, False)], []]
    assert (s["L1"]["hits"], s["L1"]["misses"], s["L1"]["evictions"]) == (1, 3, 1)
    h.run([16, 32])  # line 1 -> set 1; line 2 evicts line 0 (64 was used later)
    assert h.contents("L1") == [[(32, False), (64, False)], [(16, False)]]


def test_dirty_line_written_back_on_eviction():
    h = Hierarchy([tiny()])
    s = h.run([0, 16, 32], is_store=[S, L, L])  # store miss allocates dirty; 32 evicts it
    assert h.contents("L1") == [[(32, False), (16, False)]]
    assert s["L1"]["store_misses"] == 1 and s["L1"]["writebacks"] == 1
    assert s["memory"] == {"loads": 3, "stores": 1, "load_bytes": 48, "store_bytes": 16}


@pytest.mark.parametrize(
    ("store_updates_lru", "expected", "writebacks"),
    [
        (True, [[(32, False), (0, True)]], 0),  # true LRU: the store refreshed line 0
        (False, [[(32, False), (16, False)]], 1),  # pycachesim: line 0 stayed LRU, dirty
    ],
)
def test_store_hit_and_lru_order(store_updates_lru, expected, writebacks):
    h = Hierarchy([tiny(store_updates_lru=store_updates_lru)])
    s = h.run([0, 16, 0, 32], is_store=[L, L, S, L])
    assert h.contents("L1") == expected
    assert s["L1"]["store_hits"] == 1 and s["L1"]["writebacks"] == writebacks


def test_write_through_no_allocate_over_write_back_l2():
    l1 = tiny(write_back=False, write_allocate=False)
    l2 = Cache("L2", size=64, ways=2, line=32)
    h = Hierarchy([l1, l2])
    s = h.run([0, 0, 4], sizes=4, is_store=[S, L, S])
    # store 0: L1 miss, not allocated, passed to L2 (miss there: fetch, fill dirty)
    # load 0: L1 miss, filled clean from L2 (hit); store 4: L1 hit, passed through
    assert h.contents("L1") == [[(0, False)]]
    assert h.contents("L2") == [[(0, True)]]
    assert (s["L1"]["write_throughs"], s["L1"]["write_through_bytes"]) == (2, 8)
    assert (s["L2"]["stores"], s["L2"]["store_hits"], s["L2"]["load_hits"]) == (2, 1, 1)
    assert s["memory"] == {"loads": 1, "stores": 0, "load_bytes": 32, "store_bytes": 0}


def test_write_back_no_allocate_forwards_store_misses():
    h = Hierarchy([tiny(write_allocate=False)])
    s = h.run([0, 0, 0], is_store=[S, L, S])  # miss -> memory; fill on load; hit -> dirty
    assert h.contents("L1") == [[(0, True)]]
    assert s["memory"] == {"loads": 1, "stores": 1, "load_bytes": 16, "store_bytes": 4}


def test_write_through_with_allocate_fetches_then_forwards():
    h = Hierarchy([tiny(write_back=False)])
    s = h.run([8], is_store=[S])
    assert h.contents("L1") == [[(0, False)]]
    assert s["memory"] == {"loads": 1, "stores": 1, "load_bytes": 16, "store_bytes": 4}


def test_straddling_access_touches_both_lines():
    h = Hierarchy([tiny(sets=2)])
    s = h.run([12], sizes=8)  # bytes 12..19: lines 0 and 1
    assert (s["L1"]["loads"], s["L1"]["misses"]) == (1, 2)
    assert h.contents("L1") == [[(0, False)], [(16, False)]]
    assert h.run([14], sizes=2)["L1"]["hits"] == 1


def test_flush_writes_dirty_lines_down_and_cleans_them():
    h = Hierarchy([tiny(sets=2), Cache("L2", size=256, ways=2, line=32)])
    h.run([0, 16, 48], is_store=[S, S, L])
    s = h.flush()
    assert s["L1"]["writebacks"] == 2 and s["L2"]["stores"] == 2
    # Both 16 B lines land in L2 line 0, which is then flushed to memory in one piece.
    assert s["L2"]["writebacks"] == 1 and s["memory"]["store_bytes"] == 32
    for name in ("L1", "L2"):
        assert all(not dirty for line in h.contents(name) for _, dirty in line)
    assert h.flush()["memory"]["stores"] == 0  # nothing left to write


def test_run_returns_batch_counts_and_stats_accumulate():
    h = Hierarchy([tiny()])
    assert h.run([0, 0])["L1"]["hits"] == 1
    assert h.run([0])["L1"]["hits"] == 1
    assert h.stats()["L1"]["hits"] == 2 and h.stats()["L1"]["loads"] == 3
    h.reset_stats()
    assert h.stats()["L1"]["loads"] == 0 and h.contents("L1") == [[(0, False)]]
    h.reset()
    assert h.contents("L1") == [[]]


def test_small_buffers_give_the_same_counts(monkeypatch):
    """Draining the next level in tiny pieces (and growing for a 100-line request) is exact."""
    rng = np.random.default_rng(5)
    n = 20_000
    addr = rng.integers(0, 1 << 14, n)
    size = rng.integers(1, 40, n)
    size[100] = 1600  # 100 lines of 16 B in one request
    st = rng.random(n) < 0.4
    levels = [tiny(sets=4), Cache("L2", size=1024, ways=4, line=32)]
    expected = Hierarchy(levels).run(addr, size, st)
    monkeypatch.setattr(hierarchy_module, "_BUFFER", 4)
    assert Hierarchy(levels).run(addr, size, st) == expected


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"addresses": [-4]}, "must be >= 0"),
        ({"addresses": [1.5]}, "must be integers"),
        ({"addresses": [[0, 4]]}, "must be 1-D"),
        ({"addresses": [0, 4], "sizes": [4, 4, 4]}, "sizes has 3 entries for 2"),
        ({"addresses": [0], "sizes": 0}, "sizes must be >= 1"),
        ({"addresses": [0, 4], "is_store": [True]}, None),  # length 1 broadcasts: fine
    ],
)
def test_trace_validation(kwargs, message):
    h = Hierarchy([tiny()])
    if message is None:
        h.run(**kwargs)
        return
    with pytest.raises((ValueError, TypeError), match=message):
        h.run(**kwargs)


def test_spec_and_hierarchy_validation():
    with pytest.raises(ValueError, match="line=48 must be a power of two"):
        Cache("L1", size=96, ways=2, line=48)
    with pytest.raises(ValueError, match="ways=0 must be a positive int"):
        Cache("L1", size=96, ways=0, line=16)
    with pytest.raises(ValueError, match="unique"):
        Hierarchy([tiny(), tiny()])
    with pytest.raises(ValueError, match="at least one"):
        Hierarchy([])
    with pytest.raises(KeyError, match="no level 'L3'"):
        Hierarchy([tiny()]).contents("L3")
    assert tiny(sets=3).sets == 3 and tiny(write_back=False).policy.startswith("write-through")
