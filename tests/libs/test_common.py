"""gpusim.libs.common: library errors, pointer resolution, queued library kernels, model."""

import enum

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.devices import get_spec
from gpusim.errors import HipError, hipError_t
from gpusim.libs.common import (
    LibraryError,
    device_view,
    host_view,
    launch,
    roofline_seconds,
    saturating_efficiency,
    scalar_reader,
    wait,
)

pytestmark = pytest.mark.usefixtures("fresh_system")


class toy_status(enum.IntEnum):  # noqa: N801 - C spelling, as the libraries use
    toy_status_success = 0
    toy_status_invalid_pointer = 3
    toy_status_invalid_value = 11


class ToyError(LibraryError):
    status_enum = toy_status
    pointer_status = toy_status.toy_status_invalid_pointer
    value_status = toy_status.toy_status_invalid_value


def view(ptr, dtype=np.float32, count=4, **kw):
    return device_view(ptr, dtype, count, function="toy_f", arg="x", error=ToyError, **kw)


def test_error_carries_the_enum_member_function_and_detail():
    err = ToyError(3, "toy_f", "argument 'x' is null")
    assert err.status is toy_status.toy_status_invalid_pointer
    assert str(err) == "toy_f: toy_status_invalid_pointer (3): argument 'x' is null"
    assert isinstance(err, gpusim.GpusimError)


def test_every_device_pointer_spelling_reaches_the_same_bytes():
    host = np.arange(8, dtype=np.float32)
    d = hip.to_device(host)
    p = hip.hipMalloc(32)
    hip.hipMemcpy(p, host, 32, hip.hipMemcpyHostToDevice)
    for ptr in (d, d.ptr, int(d.ptr), p, int(p)):
        np.testing.assert_array_equal(view(ptr, count=8), host)
    np.testing.assert_array_equal(view(d[3:], count=5), host[3:])
    np.testing.assert_array_equal(view(p + 8, count=6), host[2:])


def test_the_view_writes_device_memory_in_place():
    d = hip.to_device(np.zeros(4, np.float64))
    view(d, np.float64)[:] = [1, 2, 3, 4]
    np.testing.assert_array_equal(d.copy_to_host(), [1, 2, 3, 4])


@pytest.mark.parametrize("bad, status", [
    (None, toy_status.toy_status_invalid_pointer),
    (np.zeros(4, np.float32), toy_status.toy_status_invalid_pointer),
    ("0x1234", toy_status.toy_status_invalid_pointer),
    (12345, toy_status.toy_status_invalid_pointer),
])
def test_bad_pointers_raise_the_library_status_naming_the_argument(bad, status):
    with pytest.raises(ToyError) as info:
        view(bad)
    assert info.value.status is status and "'x'" in str(info.value)


def test_wrong_element_type_is_the_value_status():
    with pytest.raises(ToyError) as info:
        view(hip.to_device(np.zeros(4, np.float64)), np.float32)
    assert info.value.status is toy_status.toy_status_invalid_value
    assert "float64" in str(info.value) and "float32" in str(info.value)


def test_freed_buffer_and_reading_past_the_end():
    p = hip.hipMalloc(16)
    with pytest.raises(HipError) as info:
        view(p, count=5)
    assert info.value.code is hipError_t.hipErrorIllegalAddress
    hip.hipFree(p)
    with pytest.raises(ToyError, match="freed"):
        view(p)


def test_memory_of_another_device_is_refused():
    hip.hipSetDevice(1)
    d = hip.to_device(np.zeros(4, np.float32))
    hip.hipSetDevice(0)
    with pytest.raises(ToyError, match="device 1"):
        view(d, device=0)


def test_host_view_checks_type_and_size():
    a = np.arange(3, dtype=np.float64)
    np.testing.assert_array_equal(
        host_view(a, np.float64, 3, function="f", arg="a", error=ToyError), a)
    for bad in (hip.to_device(a), None):
        with pytest.raises(ToyError):
            host_view(bad, np.float64, 3, function="f", arg="a", error=ToyError)
    with pytest.raises(HipError):
        host_view(a, np.float64, 4, function="f", arg="a", error=ToyError)


def test_scalar_reader_host_mode_reads_at_the_call_device_mode_when_the_kernel_runs():
    host_alpha = np.array([2.0], np.float32)
    read_host = scalar_reader(host_alpha, np.float32, device_mode=False, function="f",
                              arg="alpha", error=ToyError)
    host_alpha[0] = 5.0
    assert read_host() == 2.0
    d_alpha = hip.to_device(np.array([2.0], np.float32))
    read_dev = scalar_reader(d_alpha, np.float32, device_mode=True, function="f",
                             arg="alpha", error=ToyError)
    d_alpha.copy_to_device(np.array([7.0], np.float32))
    assert read_dev() == 7.0
    with pytest.raises(ToyError):
        scalar_reader(d_alpha, np.float32, device_mode=False, function="f", arg="alpha",
                      error=ToyError)
    with pytest.raises(ToyError):
        scalar_reader(1j, np.float32, device_mode=False, function="f", arg="alpha",
                      error=ToyError)


def test_launch_runs_in_stream_order_and_is_profiled_with_the_given_duration():
    s = hip.hipStreamCreate()
    seen = []
    with gpusim.profile() as prof:
        first = launch(s, lambda: seen.append(1), name="k_first", grid=(2, 1, 1),
                       block=(64, 1, 1), seconds=1e-5, breakdown={"bound": "HBM"})
        second = launch(s, lambda: seen.append(2), name="k_second", grid=(1, 1, 1),
                        block=(64, 1, 1), seconds=3e-6)
        assert seen == []
        wait(second)
    assert seen == [1, 2] and first.done
    k1, k2 = prof.kernels[-2:]
    assert (k1.name, k1.grid, k1.duration_ns, k1.breakdown["bound"]) == (
        "k_first", (2, 1, 1), 10_000, "HBM")
    assert k2.start_ns >= k1.end_ns and k2.duration_ns == 3000


def test_model_is_monotone_and_picks_the_binding_resource():
    spec = get_spec("mi300x")
    effs = [saturating_efficiency(w, half_work=1e6, best=0.9) for w in (1e3, 1e6, 1e9)]
    assert effs[0] < effs[1] < effs[2] < 0.9 and effs[1] == pytest.approx(0.45)
    t_small, _ = roofline_seconds(spec, flops=1e9, bytes_moved=1e6, peak_tflops=100)
    t_big, parts = roofline_seconds(spec, flops=1e12, bytes_moved=1e6, peak_tflops=100)
    assert t_big > t_small and parts["bound"] == "compute"
    assert parts["compute"] == pytest.approx(1e12 / 100e12)
    _, parts = roofline_seconds(spec, flops=1e6, bytes_moved=5.3e12, peak_tflops=100)
    assert parts["bound"] == "HBM" and parts["memory"] == pytest.approx(1.0)
