"""Element get/set on device arrays are synchronous copies ordered on the null stream
(numba.cuda's DeviceNDArray.__getitem__/__setitem__, HIP's hipMemcpy)."""

import numpy as np
import pytest

from gpusim import cuda
from gpusim.profiler import profile

pytestmark = pytest.mark.usefixtures("fresh_system")


@cuda.jit
def set_one(a):
    a[0] = 1


@cuda.jit
def copy_first(a, out):
    out[0] = a[0]


def test_reading_an_element_waits_for_the_kernel_queued_before_it():
    d = cuda.device_array(1, np.int32)
    d[0] = 0
    set_one[1, 1](d)
    assert d[0] == 1


def test_writing_an_element_after_a_launch_is_not_seen_by_that_launch():
    d = cuda.to_device(np.array([7], np.int64))
    out = cuda.device_array(1, np.int64)
    copy_first[1, 1](d, out)
    d[0] = 5
    assert out.copy_to_host()[0] == 7
    assert d[0] == 5


def test_element_access_waits_for_work_on_other_blocking_streams():
    s = cuda.stream()
    d = cuda.to_device(np.zeros(4, np.float32))
    set_one[1, 1, s](d)
    assert d[0] == 1.0  # the null stream waits for every blocking stream


def test_slice_assignment_from_host_and_device_values():
    d = cuda.to_device(np.zeros((3, 4), np.int32))
    src = np.arange(4, dtype=np.int32)
    d[1] = src
    src[:] = -1  # the value was copied when assigned, not when the copy ran
    d[2, 1:3] = cuda.to_device(np.array([8, 9], np.int32))
    expect = np.zeros((3, 4), np.int32)
    expect[1] = np.arange(4)
    expect[2, 1:3] = [8, 9]
    np.testing.assert_array_equal(d.copy_to_host(), expect)


def test_an_element_read_is_a_small_device_to_host_copy_in_the_profile():
    d = cuda.to_device(np.arange(8, dtype=np.float64))
    with profile() as prof:
        value = d[3]
    assert value == 3.0
    copies = [r for r in prof.records if getattr(r, "direction", None) == "DtoH"]
    assert [c.nbytes for c in copies] == [8]
