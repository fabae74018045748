"""A record indexed by a field's position (issue 19: numba's test_record_dtype
test_getitem_idx): ``r[0]``, ``r[-1]`` are fields, as in NumPy on the host."""

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import HipError

REC = np.dtype([("a", np.int32), ("h", np.float32, (2,)), ("z", np.float64)])


@cuda.jit(device=True)
def first(r):
    return r[0]


@cuda.jit
def fields_by_position(recs, ints, floats):
    i = cuda.grid(1)
    if i < recs.size:
        ints[i] = first(recs[i])
        floats[i, 0] = recs[i][1][1]
        floats[i, 1] = recs[i][-1]


def test_fields_by_position_match_numpy():
    recs = np.zeros(5, REC)
    recs["a"] = np.arange(5) * 3
    recs["h"] = np.arange(10, dtype=np.float32).reshape(5, 2)
    recs["z"] = np.linspace(0, 1, 5)
    ints, floats = np.zeros(5, np.int32), np.zeros((5, 2))
    fields_by_position[1, 8](recs, ints, floats)
    np.testing.assert_array_equal(ints, [r[0] for r in recs])
    np.testing.assert_array_equal(floats, [[r[1][1], r[-1]] for r in recs])


def test_an_index_past_a_nested_array_field_is_caught():
    @cuda.jit
    def k(recs, out):
        out[0] = recs[0]["h"][2]  # h has 2 elements

    with pytest.raises(HipError, match=r"out-of-bounds read .*recs\[0\]\['h'\]"):
        k[1, 1](np.zeros(1, REC), np.zeros(1))
        cuda.synchronize()
