"""Unified memory: host/device access, page faults on first touch, prefetch, advice."""

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.errors import HipError

PAGE = 4096


pytestmark = pytest.mark.usefixtures("fresh_system")


def test_host_uses_a_managed_array_like_numpy():
    a = hip.managed_array((64, 64), np.float32)
    a[:] = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    assert a.sum() == np.arange(64 * 64).sum()
    np.testing.assert_array_equal(np.asarray(a[3]), np.arange(192, 256))
    assert float(a[1, 2]) == 66.0
    assert a.faults == 0  # first touch on the host: pages start there


def test_device_first_touch_faults_every_page_and_prefetch_avoids_it():
    n_pages = 10
    a = hip.managed_array(n_pages * PAGE // 4, np.float32)
    a[:] = 1.0
    a.device_touch(stream=0)
    hip.hipDeviceSynchronize()
    assert a.faults == n_pages and a.pages_on_host() == 0

    b = hip.managed_array(n_pages * PAGE // 4, np.float32)
    b[:] = 1.0
    hip.hipMemPrefetchAsync(b, b.nbytes, 0)
    b.device_touch(stream=0)
    hip.hipDeviceSynchronize()
    assert b.faults == 0 and b.pages_on_host() == 0
    np.asarray(b)  # reading it back on the host faults the pages home again
    assert b.faults == n_pages and b.pages_on_host() == n_pages


def test_faults_cost_more_modeled_time_than_a_prefetch():
    with gpusim.profile() as prof:
        a = hip.managed_array(256 * PAGE // 8)
        a[:] = 2.0
        a.device_touch(0)
        b = hip.managed_array(256 * PAGE // 8)
        b[:] = 2.0
        hip.hipMemPrefetchAsync(b, b.nbytes, 0)
        hip.hipDeviceSynchronize()
    fault, prefetch = prof.migrations
    assert (fault.reason, fault.faults, fault.pages) == ("fault", 256, 256)
    assert (prefetch.reason, prefetch.faults, prefetch.pages) == ("prefetch", 0, 256)
    assert fault.nbytes == prefetch.nbytes == 256 * PAGE
    assert fault.duration_ns > 10 * prefetch.duration_ns


def test_read_mostly_duplicates_instead_of_moving():
    a = hip.managed_array(4 * PAGE, np.uint8)
    hip.hipMemAdvise(a, a.nbytes, hip.hipMemAdviseSetReadMostly, 0)
    a.device_touch(0, write=False)
    hip.hipDeviceSynchronize()
    assert a.faults == 4 and a.pages_on_host() == 4  # copied, not moved
    np.asarray(a)
    assert a.faults == 4  # the host still has its copy: no fault
    a[0] = 1  # a write invalidates the device duplicate of that page only
    a.device_touch(0, write=False)
    hip.hipDeviceSynchronize()
    assert a.faults == 5


def test_accessed_by_maps_remotely_without_faults():
    a = hip.managed_array(8 * PAGE, np.uint8)
    hip.hipMemAdvise(a, a.nbytes, hip.hipMemAdviseSetAccessedBy, 0)
    a.device_touch(0)
    hip.hipDeviceSynchronize()
    assert a.faults == 0 and a.pages_on_host() == 8


def test_partial_ranges_and_bad_arguments():
    a = hip.managed_array(8 * PAGE, np.uint8)
    hip.hipMemPrefetchAsync(a[2 * PAGE:], 3 * PAGE, 0)
    hip.hipDeviceSynchronize()
    assert a.pages_on_host() == 5
    with pytest.raises(HipError, match="hipMallocManaged"):
        hip.hipMemPrefetchAsync(hip.to_device(np.zeros(4)), 32, 0)
    with pytest.raises(HipError, match="count"):
        hip.hipMemAdvise(a, a.nbytes + 1, hip.hipMemAdviseSetReadMostly, 0)
    with pytest.raises(HipError, match="does not exist"):
        hip.hipMemPrefetchAsync(a, a.nbytes, 99)
    m = hip.hipMallocManaged(100)
    assert m.nbytes == 100
    hip.hipFree(m)


def test_a_kernel_on_managed_memory_faults_its_pages_then_the_host_sees_the_result():
    @hip.jit
    def double(a):
        i = hip.grid(1)
        if i < a.size:
            a[i] *= 2

    a = hip.managed_array(8 * PAGE // 4, np.float32)
    a[:] = np.arange(a.size, dtype=np.float32)
    with gpusim.profile() as prof:
        double[a.size // 256, 256](a)
        hip.hipDeviceSynchronize()
    assert a.faults == 8
    (migration,) = prof.migrations
    (kernel,) = prof.kernels
    assert migration.end_ns <= kernel.start_ns  # faults are served before the kernel runs
    np.testing.assert_array_equal(np.asarray(a), 2 * np.arange(a.size, dtype=np.float32))
    assert a.faults == 16  # and back to the host when it reads them
