"""LDS bank conflicts: degrees and cycles of known patterns, worked by hand, and of
random batches against the rule applied lane by lane in Python.

32 banks x 4 B: dword d is in bank d % 32. A wave64 32-bit access is served in two
halves of 32 lanes; 64-bit in four quarters; 128-bit in eight groups of eight lanes
(reads: the ds_read_b128 lane groups).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim.devices import get_spec
from gpusim.memsim import bank_conflicts
from gpusim.memsim.lds import phase_of_lane, rows_conflicts

LANES = np.arange(64, dtype=np.int64)


@pytest.mark.parametrize(
    ("name", "addresses", "degree", "cycles"),
    [
        ("row read tile[r][lane]: consecutive floats", 4 * LANES, 1, 2),
        ("column read tile[lane][c] of float[64][32]", 4 * 32 * LANES + 8, 32, 64),
        ("column read with padding float[64][33]", 4 * 33 * LANES + 8, 1, 2),
        ("stride 2 floats", 8 * LANES, 2, 4),
        ("stride 16 floats", 64 * LANES, 16, 32),
        ("broadcast: one address", np.full(64, 12), 1, 2),
        ("same dword per lane pair", 4 * (LANES // 2), 1, 2),
    ],
)
def test_32_bit_patterns(name, addresses, degree, cycles):
    r = bank_conflicts(addresses)
    assert (r.degree[0], r.cycles[0]) == (degree, cycles), name
    assert r.ideal_cycles[0] == 2 and r.extra_cycles[0] == cycles - 2


def test_transpose_tile_with_and_without_padding():
    """32x32 float tile, 64-lane waves: the write is row-wise, the read column-wise."""
    ty, tx = LANES // 32, LANES % 32  # a wave covers two rows of the tile
    for pad, read_degree in ((0, 32), (1, 1)):
        row = 32 + pad
        write = bank_conflicts(4 * (ty * row + tx), is_store=True)
        read = bank_conflicts(4 * (tx * row + ty))  # tile[tx][ty]
        assert write.degree.tolist() == [1]
        assert read.degree.tolist() == [read_degree]
        assert read.extra_cycles.tolist() == [2 * (read_degree - 1)]


def test_64_bit_accesses_run_in_quarter_waves():
    assert bank_conflicts(8 * LANES, bytes_per_lane=8).cycles.tolist() == [4]  # 4 x 1
    r = bank_conflicts(16 * LANES, bytes_per_lane=8)  # 2 dwords of every other 16 B: 2-way
    assert (r.degree[0], r.cycles[0], r.ideal_cycles[0]) == (2, 8, 4)


def test_128_bit_read_and_write_groups_differ():
    """Quads of lanes q = lane // 4 each own a row; h(q) picks the bank half.

    Write phases pair quads (0,1), (2,3), ...: same half, different rows -> 2-way.
    ds_read_b128 groups pair quads (0,5), (1,4), (2,7), (3,6), ...: halves differ -> none.
    """
    q = LANES // 4
    half = np.isin(q, [4, 5, 6, 7, 12, 13, 14, 15]).astype(np.int64)
    addr = 512 * q + 64 * half + 16 * (LANES % 4)
    read = bank_conflicts(addr, bytes_per_lane=16, is_store=False)
    write = bank_conflicts(addr, bytes_per_lane=16, is_store=True)
    assert (read.degree[0], read.cycles[0]) == (1, 8)
    assert (write.degree[0], write.cycles[0]) == (2, 16)
    assert bank_conflicts(16 * LANES, bytes_per_lane=16, is_store=True).cycles.tolist() == [8]


def test_inactive_lanes_and_phases():
    active = LANES < 8  # eight lanes of the first half reading one column
    r = bank_conflicts(4 * 32 * LANES, active=active)
    assert (r.degree[0], r.cycles[0], r.ideal_cycles[0]) == (8, 8, 1)
    assert bank_conflicts(4 * LANES, active=np.zeros(64, bool)).cycles.tolist() == [0]


def test_wave32_device_serves_32_lanes_at_once():
    spec = get_spec("rx7900xtx")
    lanes = np.arange(spec.wave_size)
    r = bank_conflicts(4 * 32 * lanes, banks=spec.lds_banks, bank_width=spec.lds_bank_width_bytes)
    assert (r.degree[0], r.cycles[0]) == (32, 32)


def test_batch_summary():
    r = bank_conflicts(np.stack([4 * LANES, 128 * LANES, 132 * LANES]))
    assert r.degree.tolist() == [1, 32, 1]
    s = r.summary()
    assert (s["instructions"], s["cycles"], s["bank_conflict_cycles"]) == (3, 68, 62)
    assert s["max_degree"] == 32 and s["bank_conflict_rate"] == pytest.approx(62 / 68)


def test_bad_arguments():
    with pytest.raises(ValueError, match="active has shape"):
        bank_conflicts(np.zeros((2, 64)), active=np.ones(64, bool)[None, :32])
    with pytest.raises(ValueError, match="bank_width"):
        bank_conflicts([0], bank_width=3)
    with pytest.raises(ValueError, match="must be >= 0"):
        bank_conflicts([-4])


def test_96_bit_accesses_are_served_like_128_bit():
    assert bank_conflicts(16 * LANES, bytes_per_lane=12, is_store=True).cycles.tolist() == [8]


def _brute(addr, active, width, store, banks=32, bank_width=4):
    """Per instruction (degree, cycles, active phases), straight from the rule: per
    phase, the most distinct dwords one bank serves."""
    out = []
    for k in range(addr.shape[0]):
        phases: dict = {}
        for lane in range(addr.shape[1]):
            if active[k, lane]:
                p = phase_of_lane(lane, width[k], store[k], addr.shape[1], banks, bank_width)
                a = int(addr[k, lane])
                words = range(a // bank_width, (a + int(width[k]) - 1) // bank_width + 1)
                phases.setdefault(p, set()).update(words)
        degrees = [max(sum(1 for d in ws if d % banks == b) for b in range(banks))
                   for ws in phases.values()]
        out.append((max(degrees, default=0), sum(degrees), len(degrees)))
    return out


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spread=st.sampled_from([4, 64, 4096]))
def test_mixed_forms_and_row_subsets_match_the_rule(seed, spread):
    """Loads and stores of 1-16 bytes mixed in one batch (the lane grouping changes from
    row to row), broadcasts and inactive lanes, and a subset of rows read in place."""
    rng = np.random.default_rng(seed)
    n = 12
    addr = rng.integers(0, spread, (n, 64)) * rng.choice([1, 4, 8, 16], (n, 1))
    active = rng.random((n, 64)) < 0.85
    width = rng.choice([1, 2, 4, 8, 12, 16], n)
    store = rng.random(n) < 0.5
    rows = np.sort(rng.choice(n, 7, replace=False))
    got = rows_conflicts(addr, active, width, store, rows)
    want = _brute(addr[rows], active[rows], width[rows], store[rows])
    assert list(zip(got.degree.tolist(), got.cycles.tolist(), got.ideal_cycles.tolist(),
                    strict=True)) == want
