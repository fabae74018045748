"""Per-request level streams and reuse distances, against the level counters and a
brute-force definition."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim.memsim import GpuMemoryModel
from gpusim.memsim.reuse import histogram, reuse_distances
from gpusim.memsim.streams import HIT, MISS, WRITE
from gpusim.trace.record import STORE, Access, Trace


def _brute(lines, instance):
    out = []
    for t in range(len(lines)):
        prev = [p for p in range(t) if lines[p] == lines[t] and instance[p] == instance[t]]
        if not prev:
            out.append(-1)
        else:
            between = {lines[q] for q in range(prev[-1] + 1, t) if instance[q] == instance[t]}
            out.append(len(between))
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 2)), max_size=80))
def test_reuse_distance_matches_definition(pairs):
    lines = np.array([p[0] for p in pairs], np.int64)
    inst = np.array([p[1] for p in pairs], np.int64)
    assert reuse_distances(lines, inst).tolist() == _brute(lines.tolist(), inst.tolist())


def test_histogram_bins_powers_of_two():
    h = histogram(np.array([-1, -1, 0, 1, 2, 3, 4, 9]))
    assert h["edges"] == [0, 1, 2, 4, 8, 16]
    assert h["counts"] == [1, 1, 2, 1, 1] and h["cold"] == 2


def test_streams_agree_with_level_counters():
    # read a[i] twice (second read hits the vL1D), then write b[i]
    prog = lambda t: [Access(4 * t.gid), Access(4 * t.gid),  # noqa: E731
                      Access((1 << 20) + 4 * t.gid, kind=STORE)]
    r = GpuMemoryModel("mi300x").run(Trace.from_lane_addresses(16, 256, prog))
    # A request is one line of the level above; counters count this level's lines.
    request_bytes = {"vL1D": 128, "L2": 128, "MALL": 128}
    for name, stream in r.streams.items():
        lv, span = r.levels[name], request_bytes[name] // r.line_bytes[name]
        assert np.count_nonzero(stream.outcome == MISS) * span == lv["load_misses"], name
        assert np.count_nonzero(stream.outcome == HIT) * span == lv["load_hits"], name
        assert np.count_nonzero(stream.outcome != WRITE) == lv["loads"], name
    v = r.streams["vL1D"]
    assert np.count_nonzero(v.outcome == HIT) == np.count_nonzero(v.outcome == MISS)
    assert np.all(np.diff(v.step[v.instance == v.instance[0]]) >= 0)  # time runs forward
