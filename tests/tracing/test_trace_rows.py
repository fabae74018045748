"""Lane events -> wavefront rows (trace/rows.py) against a plain-Python reference."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim.trace.events import SITE_KIND_BITS, THREAD_BITS
from gpusim.trace.rows import assign_rows, trace_rows


def _key(ri: int, sk: int, t: int) -> int:
    return (ri << (THREAD_BITS + SITE_KIND_BITS)) | (sk << THREAD_BITS) | t


def _reference(keys: list[int], wave_size: int) -> tuple[list, list]:
    """The k-th time a lane reaches a site-kind within one (region instance, wave) is the
    wave's k-th instruction there; rows numbered by first reach (trace_rows docstring)."""
    rows, row_of = [], []
    group = thread = None
    rowmap: dict = {}
    counts: dict = {}
    for e, key in enumerate(keys):
        t = key & ((1 << THREAD_BITS) - 1)
        sk = (key >> THREAD_BITS) & ((1 << SITE_KIND_BITS) - 1)
        g = (key >> (THREAD_BITS + SITE_KIND_BITS), t // wave_size)
        if g != group:
            group, thread, rowmap = g, None, {}
        if t != thread:
            thread, counts = t, {}
        k = counts.get(sk, 0)
        counts[sk] = k + 1
        if (sk, k) not in rowmap:
            rowmap[sk, k] = len(rows)
            rows.append((sk, t // wave_size, e))
        row_of.append(rowmap[sk, k])
    return rows, row_of


events = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 23), st.integers(0, 255)),
                  min_size=1, max_size=400)


@settings(max_examples=150, deadline=None)
@given(events, st.sampled_from([8, 32, 64]), st.booleans())
def test_rows_match_the_reference(evs, wave_size, by_thread):
    if by_thread:  # as the trace variant records: instance by instance, thread by thread
        evs = sorted(evs, key=lambda v: (v[0], v[2]))
    keys = np.array([_key(*v) for v in evs], np.int64)
    rows, row_of = _reference(keys.tolist(), wave_size)
    got_of, sk, wave, first = assign_rows(keys, wave_size, 6)
    assert got_of.tolist() == row_of
    assert list(zip(sk.tolist(), wave.tolist(), first.tolist(), strict=True)) == rows


def test_one_active_lane_per_wave_makes_a_row_per_event():
    """More rows than the first guess of their number (the row tables grow)."""
    keys = np.array([_key(1, 4, t) for t in range(0, 1024, 8)], np.int64)  # lane 0 of each
    row_of, sk, wave, first = assign_rows(keys, 8)
    assert row_of.tolist() == list(range(128)) and wave.tolist() == list(range(128))


def test_rows_past_the_limit_keep_whole_work_groups():
    """Three work-groups of two rows each, room for five: the third is dropped whole."""
    keys = np.array([_key(1, 4, t) for t in range(4)] * 3, np.int64)  # 2 waves of 2
    keys[4:] += 1 << (THREAD_BITS + SITE_KIND_BITS)  # work-groups 2, 3: new instances
    keys[8:] += 1 << (THREAD_BITS + SITE_KIND_BITS)
    ends = np.array([4, 8, 12])
    fields, kept, cut, per = trace_rows(keys, keys * 0 + 128, ends, np.array([5, 6, 7]), 2,
                                        np.array([4, 4], np.int32), np.zeros(2, np.int8),
                                        2, 5)
    assert (kept, cut) == (2, False)
    assert fields[7].tolist() == [5, 5, 6, 6] and per.tolist() == [4, 0, 0, 0, 0, 0, 0, 0]
    fields, kept, cut, per = trace_rows(keys, keys * 0 + 128, ends, np.array([5, 6, 7]), 2,
                                        np.array([4, 4], np.int32), np.zeros(2, np.int8),
                                        2, 1)
    assert (kept, cut, len(fields[7])) == (1, True, 1)
