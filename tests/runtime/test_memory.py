"""Device memory: capacity accounting, lazy backing, double free, use after free."""

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.errors import HipError, hipError_t

pytestmark = pytest.mark.usefixtures("fresh_system")


def test_a_192_gib_device_costs_nothing_until_used():
    free, total = hip.hipMemGetInfo()
    assert total == 192 * 2**30 and free == total


def test_allocation_is_counted_in_whole_pages():
    p = hip.hipMalloc(10)
    free, total = hip.hipMemGetInfo()
    assert total - free == 4096
    hip.hipFree(p)
    assert hip.hipMemGetInfo()[0] == total


def test_allocating_past_total_global_mem_is_out_of_memory():
    gpusim.set_system("mi100", ngpus=1)  # 32 GiB
    with pytest.raises(HipError) as info:
        hip.hipMalloc(33 * 2**30)
    assert info.value.code == hipError_t.hipErrorOutOfMemory
    assert "totalGlobalMem" in str(info.value)
    assert hip.hipGetLastError() == hipError_t.hipErrorOutOfMemory
    assert hip.hipGetLastError() == hipError_t.hipSuccess  # reset after reading
    p = hip.hipMalloc(1024)  # still usable afterwards
    hip.hipFree(p)


def test_more_than_the_host_can_back_is_a_clear_error(monkeypatch):
    from gpusim.runtime import memory

    monkeypatch.setattr(memory, "host_backable_bytes", lambda: 1 << 30)
    with pytest.raises(HipError) as info:
        hip.hipMalloc(2 << 30)
    assert info.value.code == hipError_t.hipErrorOutOfMemory
    assert "host" in str(info.value)


def test_pointers_are_distinct_per_device_and_aligned():
    p0 = hip.hipMalloc(100)
    hip.hipSetDevice(3)
    p3 = hip.hipMalloc(100)
    hip.hipSetDevice(0)
    assert p0.device == 0 and p3.device == 3
    assert p0.value % 4096 == 0 and p3.value % 4096 == 0
    assert abs(p3.value - p0.value) >= 3 << 40
    hip.hipFree(p3)  # hipFree works on any device's pointer
    hip.hipFree(p0)


def test_double_free_names_the_buffer():
    p = hip.hipMalloc(256)
    hip.hipFree(p)
    with pytest.raises(HipError) as info:
        hip.hipFree(p)
    assert info.value.code == hipError_t.hipErrorInvalidValue
    assert "double free" in str(info.value) and f"{p.value:#x}" in str(info.value)


@pytest.mark.parametrize(
    "foreign, code",
    [
        (12345, hipError_t.hipErrorInvalidValue),
        (np.zeros(4), hipError_t.hipErrorInvalidValue),
        ("0x1000", hipError_t.hipErrorInvalidValue),
    ],
)
def test_free_of_a_foreign_pointer(foreign, code):
    with pytest.raises(HipError) as info:
        hip.hipFree(foreign)
    assert info.value.code == code


def test_free_of_an_interior_pointer_says_where_it_points():
    p = hip.hipMalloc(1024)
    with pytest.raises(HipError, match="points 16 bytes into"):
        hip.hipFree(p + 16)
    hip.hipFree(p)


def test_use_after_free_in_memcpy_and_in_arrays():
    p = hip.hipMalloc(64)
    hip.hipFree(p)
    with pytest.raises(HipError, match="use after free"):
        hip.hipMemcpy(np.zeros(16, np.float32), p, 64, hip.hipMemcpyDeviceToHost)
    d = hip.to_device(np.arange(4.0))
    view = d[1:]
    hip.hipFree(d)
    with pytest.raises(HipError, match="use after free"):
        view.copy_to_host()


def test_device_arrays_free_their_buffer_when_collected():
    import gc

    used = lambda: hip.hipMemGetInfo()[1] - hip.hipMemGetInfo()[0]  # noqa: E731
    d = hip.device_array(1 << 20, np.float32)
    assert used() == 4 << 20
    view = d[10:20]
    del d
    gc.collect()
    assert used() == 4 << 20  # the view keeps the buffer alive
    del view
    gc.collect()
    assert used() == 0


def test_replacing_the_system_invalidates_old_arrays():
    d = hip.to_device(np.ones(3))
    gpusim.set_system("mi250x", ngpus=2)
    with pytest.raises(HipError, match="set_system"):
        d.copy_to_host()
    assert hip.hipGetDeviceCount() == 2
