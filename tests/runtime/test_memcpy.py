"""hipMemcpy / hipMemset: every kind, sizes, offsets, views, and the errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gpusim
from gpusim import hip
from gpusim.errors import HipError, hipError_t


@pytest.fixture(autouse=True, scope="module")
def fresh_system():
    gpusim.set_system()
    yield
    gpusim.set_system()


def test_round_trip_all_four_kinds():
    x = np.arange(100, dtype=np.float32)
    a, b = hip.hipMalloc(x.nbytes), hip.hipMalloc(x.nbytes)
    h = np.empty_like(x)
    hip.hipMemcpy(a, x, x.nbytes, hip.hipMemcpyHostToDevice)
    hip.hipMemcpy(b, a, x.nbytes, hip.hipMemcpyDeviceToDevice)
    hip.hipMemcpy(h, b, x.nbytes, hip.hipMemcpyDeviceToHost)
    np.testing.assert_array_equal(h, x)
    h2 = np.zeros_like(x)
    hip.hipMemcpy(h2, h, x.nbytes, hip.hipMemcpyHostToHost)
    np.testing.assert_array_equal(h2, x)
    hip.hipFree(a)
    hip.hipFree(b)


def test_default_kind_infers_direction_across_devices():
    x = np.arange(10, dtype=np.int64)
    d0 = hip.to_device(x)
    hip.hipSetDevice(1)
    d1 = hip.device_array_like(x)
    hip.hipSetDevice(0)
    hip.hipMemcpy(d1, d0, x.nbytes, hip.hipMemcpyDefault)  # peer copy
    assert d1.device == 1
    np.testing.assert_array_equal(d1.copy_to_host(), x)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 3000),
    data=st.data(),
    dtype=st.sampled_from([np.uint8, np.int32, np.float64]),
)
def test_offsets_and_partial_sizes_match_numpy(n, data, dtype):
    host = np.arange(n, dtype=dtype)
    item = host.itemsize
    src_off = data.draw(st.integers(0, n - 1))
    dst_off = data.draw(st.integers(0, n - 1))
    count = data.draw(st.integers(0, n - max(src_off, dst_off)))
    dev = hip.hipMalloc(host.nbytes)
    hip.hipMemset(dev, 0, host.nbytes)
    hip.hipMemcpy(dev + dst_off * item, host[src_off:], count * item, hip.hipMemcpyHostToDevice)
    back = np.full(n, 7, dtype=dtype)
    hip.hipMemcpy(back, dev, host.nbytes, hip.hipMemcpyDeviceToHost)
    expected = np.zeros(n, dtype=dtype)
    expected[dst_off:dst_off + count] = host[src_off:src_off + count]
    np.testing.assert_array_equal(back, expected)
    hip.hipFree(dev)


def test_device_array_views_copy_their_own_elements():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    d = hip.to_device(x)
    np.testing.assert_array_equal(d[1:3, 2:5].copy_to_host(), x[1:3, 2:5])
    np.testing.assert_array_equal(d[:, ::2].copy_to_host(), x[:, ::2])
    d[2, :] = np.full(6, -1, np.float32)
    x[2, :] = -1
    np.testing.assert_array_equal(d.copy_to_host(), x)
    assert d[3, 5] == 23.0
    row = d[1]
    assert row.ptr.value == d.ptr.value + 6 * 4
    np.testing.assert_array_equal(d.reshape(24).copy_to_host(), x.ravel())


def test_memset_sets_bytes():
    d = hip.device_array(8, np.uint32)
    hip.hipMemset(d, 0xAB, 16)
    assert list(d.copy_to_host()) == [0xABABABAB] * 4 + [0] * 4


def test_kind_mismatch_names_the_right_kind():
    d = hip.hipMalloc(16)
    with pytest.raises(HipError) as info:
        hip.hipMemcpy(np.zeros(4, np.float32), d, 16, hip.hipMemcpyHostToDevice)
    assert info.value.code == hipError_t.hipErrorInvalidMemcpyDirection
    assert "hipMemcpyDeviceToHost" in str(info.value)
    with pytest.raises(HipError) as info:
        hip.hipMemcpy(d, np.zeros(4, np.float32), 16, 9)
    assert info.value.code == hipError_t.hipErrorInvalidMemcpyDirection
    hip.hipFree(d)


def test_size_past_either_end_is_rejected_and_nothing_is_written():
    d = hip.to_device(np.zeros(4, np.float32))
    big = np.ones(8, np.float32)
    with pytest.raises(HipError) as info:
        hip.hipMemcpy(d, big, 32, hip.hipMemcpyHostToDevice)
    assert info.value.code == hipError_t.hipErrorInvalidValue
    assert "only 16 bytes" in str(info.value)
    np.testing.assert_array_equal(d.copy_to_host(), np.zeros(4))
    with pytest.raises(HipError, match="only 8 bytes"):
        hip.hipMemcpy(np.zeros(4, np.float32), d.ptr + 8, 16, hip.hipMemcpyDeviceToHost)
    with pytest.raises(HipError, match="non-negative"):
        hip.hipMemcpy(d, big, -1, hip.hipMemcpyHostToDevice)


def test_copy_shape_mismatch_in_pythonic_helpers():
    d = hip.device_array((3,), np.float32)
    with pytest.raises(HipError, match="shapes and dtypes must match"):
        d.copy_to_device(np.zeros(4, np.float32))


def test_pinned_memory_is_registered_and_freed():
    from gpusim.runtime.pointers import is_pinned

    h = hip.pinned_array((4, 4), np.float32)
    assert is_pinned(h) and is_pinned(h[2:])
    assert not is_pinned(np.zeros(4))
    raw = hip.hipHostMalloc(64)
    hip.hipHostFree(raw)
    with pytest.raises(HipError, match="hipHostMalloc"):
        hip.hipHostFree(raw)


def test_device_arrays_are_not_host_arrays():
    d = hip.to_device(np.arange(3.0))
    # (iterating is allowed, item by item, as numba.cuda does: test_darray_iter.py)
    for attempt in (np.asarray, np.sum, lambda a: a + np.ones(3)):
        with pytest.raises(TypeError, match="copy_to_host"):
            attempt(d)
    with pytest.raises(TypeError, match="copy_to_host"):
        np.ones(3) * d


def test_a_collected_pinned_buffer_does_not_make_its_address_pinned():
    import gc

    from gpusim.runtime.pointers import _pinned

    h = hip.hipHostMalloc(4096)
    address = h.ctypes.data
    del h
    gc.collect()
    assert address not in _pinned
