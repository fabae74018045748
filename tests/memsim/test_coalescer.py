"""Coalescer: requests per wavefront instruction for known access patterns."""

from __future__ import annotations

import numpy as np
import pytest

from gpusim.memsim import Cache, Hierarchy, coalesce
from gpusim.memsim.coalescer import sector_bytes

LANES = np.arange(64, dtype=np.int64)
BASE = 1 << 20  # a 128 B aligned buffer start


@pytest.mark.parametrize(
    ("name", "addresses", "width", "line", "requests", "efficiency"),
    [
        ("coalesced float, MI300X", BASE + 4 * LANES, 4, 128, 2, 1.0),
        ("coalesced float, MI250X", BASE + 4 * LANES, 4, 64, 4, 1.0),
        ("coalesced float4", BASE + 16 * LANES, 16, 128, 8, 1.0),
        ("stride 2 floats", BASE + 8 * LANES, 4, 128, 4, 0.5),
        ("stride 32 floats", BASE + 128 * LANES, 4, 128, 64, 1 / 32),
        ("misaligned by 64 B", BASE + 64 + 4 * LANES, 4, 128, 3, 256 / 384),
        ("broadcast", np.full(64, BASE), 4, 128, 1, 4 / 128),
    ],
)
def test_known_patterns(name, addresses, width, line, requests, efficiency):
    c = coalesce(addresses, bytes_per_lane=width, line=line)
    assert c.requests.tolist() == [requests], name
    assert c.efficiency[0] == pytest.approx(efficiency), name
    assert c.bytes_requested.tolist() == [64 * width]
    assert c.bytes_moved.tolist() == [requests * line]


def test_random_lanes_request_their_distinct_lines_in_first_touch_order():
    rng = np.random.default_rng(3)
    addr = rng.integers(0, 1 << 14, (200, 64)) * 4
    c = coalesce(addr, line=128)
    for k in range(200):
        lines = addr[k] // 128 * 128
        _, first = np.unique(lines, return_index=True)
        assert c.lines[c.offsets[k] : c.offsets[k + 1]].tolist() == lines[np.sort(first)].tolist()


def _lanes(rng: np.random.Generator, order: str, n: int = 60) -> tuple:
    """(addresses, active) of ``n`` instructions: lanes in address order (the no-hash
    path), in random order (the hash path), or dense (every lane active, each at most a
    line past the one before: the one-run path), with repeats and overlaps."""
    if order == "dense":
        gaps = rng.choice([0, 1, 4, 8, 64, 128], (n, 64), p=[.1, .1, .5, .1, .1, .1])
        return rng.integers(0, 1 << 12, (n, 1)) + np.cumsum(gaps, axis=1), np.ones((n, 64), bool)
    addr = rng.integers(0, 1 << 12, (n, 64)) * rng.choice([1, 2, 4, 64], (n, 1))
    return (np.sort(addr, axis=1) if order == "ordered" else addr), rng.random((n, 64)) < 0.9


@pytest.mark.parametrize("width", [1, 4, 6, 16, 200])
@pytest.mark.parametrize("order", ["ordered", "random", "dense"])
def test_lines_and_useful_bytes_match_numpy(width, order):
    """Every path of the coalescer, with unaligned widths, against NumPy's byte sets."""
    rng = np.random.default_rng(width)
    addr, active = _lanes(rng, order)
    c = coalesce(addr, active=active, bytes_per_lane=width, line=128)
    for k in range(60):
        starts = addr[k][active[k]]
        touched = (starts[:, None] + np.arange(width)).ravel()  # every byte, lane order
        lines = touched // 128 * 128
        _, first = np.unique(lines, return_index=True)
        assert c.lines[c.offsets[k]:c.offsets[k + 1]].tolist() == lines[np.sort(first)].tolist()
        assert c.bytes_useful[k] == len(np.unique(touched))
        assert c.bytes_requested[k] == len(starts) * width


@pytest.mark.parametrize("width", [1, 4, 16, 200])
@pytest.mark.parametrize("order", ["ordered", "random", "dense"])
def test_sector_bytes_match_numpy(width, order):
    """Per line request, the 32-byte sectors its instruction's lanes touch in it."""
    rng = np.random.default_rng(width + 7)
    addr, active = _lanes(rng, order)
    c = coalesce(addr, active=active, bytes_per_lane=width, line=128)
    got = sector_bytes(c, addr, active, width)
    for k in range(60):
        starts = addr[k][active[k]]
        touched = (starts[:, None] + np.arange(width)).ravel()
        for j in range(c.offsets[k], c.offsets[k + 1]):
            mine = touched[touched // 128 * 128 == c.lines[j]]
            assert got[j] == 32 * len(np.unique(mine // 32))


def test_lane_straddling_a_line_touches_both():
    c = coalesce([126], bytes_per_lane=4, line=128)
    assert c.lines.tolist() == [0, 128]
    assert c.efficiency[0] == pytest.approx(4 / 256)


def test_inactive_lanes_are_ignored():
    active = LANES < 32  # the first half: 128 B, one line
    c = coalesce(np.stack([4 * LANES, 4 * LANES]), active=np.stack([active, np.zeros(64, bool)]))
    assert c.requests.tolist() == [1, 0]
    assert c.bytes_requested.tolist() == [128, 0]
    assert c.efficiency.tolist() == [1.0, 1.0]  # nothing moved, nothing wasted


def test_batch_with_widths_per_instruction_and_summary():
    addr = np.stack([4 * LANES, 8 * LANES, 128 * LANES])
    c = coalesce(addr, bytes_per_lane=[4, 8, 4], line=128)
    assert c.requests.tolist() == [2, 4, 64]
    s = c.summary()
    assert s["instructions"] == 3 and s["requests"] == 70
    assert s["bytes_useful"] == 256 + 512 + 256
    assert s["efficiency"] == pytest.approx(1024 / (70 * 128))


def test_requests_feed_the_cache_hierarchy():
    """Coalesced loads hit in L1 on the second wave of a line; strided ones never do."""
    h = Hierarchy([Cache("vL1D", size=16 * 1024, ways=4, line=128)])
    waves = np.arange(32)[:, None]
    coalesced = coalesce(waves * 256 + 4 * LANES, line=128)
    # Column walk of a row-major float[64][2048]: lane l reads row l, wave w column w.
    # The 64 lines of a wave are 8 KiB apart: all in one 4-way set, so nothing survives
    # until the next wave reads the neighbouring float.
    strided = coalesce((1 << 24) + waves * 4 + 2048 * 4 * LANES, line=128)
    s = h.run(*coalesced.trace())["vL1D"]
    assert (s["loads"], s["misses"]) == (64, 64)  # 32 waves x 256 B = 64 lines, once each
    s = h.run(*strided.trace())["vL1D"]
    assert (s["loads"], s["misses"]) == (32 * 64, 32 * 64)
    addresses, sizes, stores = coalesced.trace(is_store=True)
    assert stores.all() and sizes.tolist() == [128] and len(addresses) == 64


def test_bad_arguments():
    with pytest.raises(ValueError, match="active has shape"):
        coalesce(np.zeros((2, 64)), active=np.ones((2, 32), bool))
    with pytest.raises(ValueError, match="power of two"):
        coalesce([0], line=96)
    with pytest.raises(ValueError, match="bytes_per_lane"):
        coalesce([0], bytes_per_lane=0)
    with pytest.raises(ValueError, match="must be >= 0"):
        coalesce([-8])
