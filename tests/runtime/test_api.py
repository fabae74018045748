"""Device queries, properties per profile, error codes and messages."""

import pytest

import gpusim
from gpusim import hip
from gpusim.devices import get_spec, list_devices
from gpusim.errors import HipError, hipError_t

pytestmark = pytest.mark.usefixtures("fresh_system")


def test_default_system_is_eight_mi300x():
    assert hip.hipGetDeviceCount() == 8
    props = hip.hipGetDeviceProperties(7)
    assert props.name == "AMD Instinct MI300X"
    assert props.gcnArchName.startswith("gfx942")
    assert (props.multiProcessorCount, props.warpSize) == (304, 64)
    assert props.totalGlobalMem == 192 * 2**30
    assert props.l2CacheSize == 4 * 2**20
    assert props.clockRate == 2_100_000  # kHz, as HIP reports it
    assert props.sharedMemPerBlock == 64 * 1024
    assert (props.major, props.minor) == (9, 4)


# independent known answers: DESIGN.md section 6 table
EXPECTED = {
    "mi300x": dict(multiProcessorCount=304, warpSize=64, arch="gfx942", gib=192),
    "mi250x": dict(multiProcessorCount=110, warpSize=64, arch="gfx90a", gib=64),
    "mi100": dict(multiProcessorCount=120, warpSize=64, arch="gfx908", gib=32),
    # RDNA 3 in WGP mode: HIP reports 48 WGPs as multiprocessors for its 96 CUs
    "rx7900xtx": dict(multiProcessorCount=48, warpSize=32, arch="gfx1100", gib=24),
}


@pytest.mark.parametrize("key", list_devices())
def test_properties_per_profile(key):
    gpusim.set_system(key, ngpus=2)
    p = hip.hipGetDeviceProperties(1)
    want = EXPECTED[key]
    assert p.multiProcessorCount == want["multiProcessorCount"]
    assert p.warpSize == want["warpSize"]
    assert p.gcnArchName.split(":")[0] == want["arch"]
    assert p.totalGlobalMem == want["gib"] * 2**30
    assert p.maxThreadsPerBlock == 1024 and p.maxThreadsDim[0] == 1024
    spec = get_spec(key)
    assert p.clockRate == spec.clock_mhz * 1000
    assert p.as_dict()["name"] == spec.name


def test_set_and_get_device_and_invalid_ordinal():
    hip.hipSetDevice(5)
    assert hip.hipGetDevice() == 5
    with pytest.raises(HipError) as info:
        hip.hipSetDevice(8)
    assert info.value.code == hipError_t.hipErrorInvalidDevice
    assert "0..7" in str(info.value)
    assert hip.hipGetDevice() == 5  # unchanged by the failed call
    assert hip.hipPeekAtLastError() == hipError_t.hipErrorInvalidDevice
    assert hip.hipPeekAtLastError() == hipError_t.hipErrorInvalidDevice
    assert hip.hipGetLastError() == hipError_t.hipErrorInvalidDevice
    assert hip.hipGetLastError() == hipError_t.hipSuccess


def test_current_device_is_per_host_thread():
    import threading

    hip.hipSetDevice(2)
    seen = []
    t = threading.Thread(target=lambda: seen.append(hip.hipGetDevice()))
    t.start()
    t.join()
    assert seen == [0] and hip.hipGetDevice() == 2


@pytest.mark.parametrize(
    "name, value",
    [
        ("hipSuccess", 0), ("hipErrorInvalidValue", 1), ("hipErrorOutOfMemory", 2),
        ("hipErrorInvalidConfiguration", 9), ("hipErrorInvalidDevicePointer", 17),
        ("hipErrorInvalidMemcpyDirection", 21), ("hipErrorInvalidDevice", 101),
        ("hipErrorNotReady", 600), ("hipErrorIllegalAddress", 700),
        ("hipErrorLaunchTimeOut", 702), ("hipErrorLaunchFailure", 719),
        ("hipErrorNotSupported", 801), ("hipErrorUnknown", 999),
    ],
)
def test_error_codes_have_hips_numeric_values(name, value):
    assert hip.hipError_t[name] == value
    assert getattr(hip, name) == value
    assert hip.hipGetErrorName(value) == name


def test_error_strings_and_deprecated_aliases():
    assert hip.hipGetErrorString(hip.hipErrorInvalidValue) == "invalid argument"
    assert hip.hipGetErrorString(12345) == "unknown error"
    assert hip.hipError_t.hipErrorMemoryAllocation is hip.hipError_t.hipErrorOutOfMemory
    err = HipError(hipError_t.hipErrorInvalidValue, "what went wrong")
    assert str(err) == "hipErrorInvalidValue (1): what went wrong"


def test_set_system_validates_its_arguments():
    from gpusim.errors import DeviceProfileError

    with pytest.raises(DeviceProfileError, match="mi300x"):
        gpusim.set_system("mi999")
    with pytest.raises(ValueError, match="ngpus"):
        gpusim.set_system("mi300x", ngpus=0)
    assert hip.hipGetDeviceCount() == 8  # the failed calls changed nothing
