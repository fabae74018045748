"""Storing an array into a record's nested-array field (issue 19: numba's
TestNestedArrays assign_array_to_nested, setitem, issue_7693): ``r['a'] = arr`` fills
the field; against the same stores done by NumPy on the host."""

import numpy as np
import pytest

from gpusim import cuda

DT = np.dtype([("u", np.float64), ("v", np.int16, (3,)), ("m", np.float32, (3, 2))], align=True)


@cuda.jit
def fill_fields(dest, v, m):
    dest["v"] = v
    dest["m"] = m


@cuda.jit
def copy_fields(src, dest, index):
    dest[index]["u"] = src[index]["u"]
    dest[index]["m"] = src[index]["m"]


def test_a_field_filled_from_arrays_of_its_shape():
    v, m = np.array([7, -1, 3], np.int16), np.arange(6, dtype=np.float32).reshape(3, 2)
    got, want = np.zeros(2, DT), np.zeros(2, DT)
    fill_fields[1, 1](got[1], v, m)
    want[1]["v"], want[1]["m"] = v, m
    np.testing.assert_array_equal(got, want)


def test_a_field_copied_from_another_record():
    src = np.zeros(3, DT)
    src["u"], src["m"] = [1.5, 2.5, 3.5], np.arange(18, dtype=np.float32).reshape(3, 3, 2)
    got, want = np.zeros(3, DT), np.zeros(3, DT)
    copy_fields[1, 1](src, got, 2)
    want[2]["u"], want[2]["m"] = src[2]["u"], src[2]["m"]
    np.testing.assert_array_equal(got, want)


def test_an_array_of_another_shape_is_refused_and_nothing_is_written():
    got = np.zeros(1, DT)
    with pytest.raises(ValueError, match="shape"):
        fill_fields[1, 1](got[0], np.ones(2, np.int16), np.ones((3, 2), np.float32))
        cuda.synchronize()
    np.testing.assert_array_equal(got, np.zeros(1, DT))
