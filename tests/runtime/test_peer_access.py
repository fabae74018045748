"""Peer access (HIP's errors and one-way semantics), peer copies, and the node topology
built from each device profile's link figures."""

import dataclasses

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.devices import get_spec
from gpusim.errors import DeviceProfileError
from gpusim.runtime import peer
from gpusim.runtime.topology import direct_links, link_between, topology_table


@pytest.fixture(autouse=True)
def system(fresh_system):
    yield


def test_can_access_peer_on_instinct_not_self_not_radeon():
    assert hip.hipDeviceCanAccessPeer(0, 7) == 1
    assert hip.hipDeviceCanAccessPeer(3, 3) == 0
    with pytest.raises(hip.HipError) as err:
        hip.hipDeviceCanAccessPeer(0, 8)
    assert err.value.code == hip.hipErrorInvalidDevice
    gpusim.set_system("rx7900xtx", ngpus=2)
    assert hip.hipDeviceCanAccessPeer(0, 1) == 0
    with pytest.raises(hip.HipError) as err:
        hip.hipDeviceEnablePeerAccess(1, 0)
    assert err.value.code == hip.hipErrorPeerAccessUnsupported


def test_enable_disable_errors_and_one_way_access():
    hip.hipSetDevice(2)
    for bad, code in ((2, hip.hipErrorInvalidDevice), (9, hip.hipErrorInvalidDevice)):
        with pytest.raises(hip.HipError) as err:
            hip.hipDeviceEnablePeerAccess(bad, 0)
        assert err.value.code == code
    with pytest.raises(hip.HipError) as err:
        hip.hipDeviceEnablePeerAccess(5, 1)
    assert err.value.code == hip.hipErrorInvalidValue
    with pytest.raises(hip.HipError) as err:
        hip.hipDeviceDisablePeerAccess(5)
    assert err.value.code == hip.hipErrorPeerAccessNotEnabled
    hip.hipDeviceEnablePeerAccess(5, 0)
    assert peer.peer_access_enabled(2, 5) and not peer.peer_access_enabled(5, 2)
    with pytest.raises(hip.HipError) as err:
        hip.hipDeviceEnablePeerAccess(5, 0)
    assert err.value.code == hip.hipErrorPeerAccessAlreadyEnabled
    assert hip.hipGetLastError() == hip.hipErrorPeerAccessAlreadyEnabled
    hip.hipDeviceDisablePeerAccess(5)
    assert not peer.peer_access_enabled(2, 5)


def test_kernel_access_check_follows_enable():
    hip.hipSetDevice(4)
    remote = hip.to_device(np.arange(4.0))
    hip.hipSetDevice(1)
    with pytest.raises(hip.HipError, match="hipDeviceEnablePeerAccess\\(4, 0\\)"):
        peer.check_kernel_access(1, remote)
    hip.hipDeviceEnablePeerAccess(4, 0)
    peer.check_kernel_access(1, remote)
    peer.check_kernel_access(1, remote.ptr + 8)
    peer.check_kernel_access(4, remote)        # its own memory, always


def test_memcpy_peer_sync_and_async_and_wrong_device():
    hip.hipSetDevice(6)
    dst = hip.device_array(5, np.int32)
    hip.hipSetDevice(1)
    src = hip.to_device(np.arange(5, dtype=np.int32))
    with gpusim.profile() as prof:
        hip.hipMemcpyPeer(dst, 6, src, 1, 20)
    np.testing.assert_array_equal(dst.copy_to_host(), np.arange(5))
    assert [(c.direction, c.src_device, c.dst_device) for c in prof.copies] == [("PtoP", 1, 6)]
    s = hip.hipStreamCreate()
    hip.hipMemsetAsync(src, 0, 20, s)
    hip.hipMemcpyPeerAsync(dst, 6, src, 1, 8, s)
    hip.hipStreamSynchronize(s)
    np.testing.assert_array_equal(dst.copy_to_host(), [0, 0, 2, 3, 4])
    with pytest.raises(hip.HipError) as err:
        hip.hipMemcpyPeer(dst, 5, src, 1, 8)   # dst is on device 6
    assert err.value.code == hip.hipErrorInvalidValue


@pytest.mark.parametrize("key", ["mi300x", "mi250x", "mi100", "rx7900xtx"])
def test_links_per_gpu_never_exceed_the_profile(key):
    spec = get_spec(key)
    n = 8
    for a in range(n):
        used = sum(direct_links(spec, a, b) for b in range(n))
        assert used <= spec.peer_links_per_gpu
        assert all(direct_links(spec, a, b) == direct_links(spec, b, a) for b in range(n))


def test_mi300x_fully_connected_seven_links_mi250x_pairs():
    table = topology_table()
    assert all(table[a][b] == ("0" if a == b else "XGMIx1") for a in range(8) for b in range(8))
    assert sum(direct_links(get_spec("mi300x"), 0, b) for b in range(8)) == 7
    gpusim.set_system("mi250x", ngpus=8)
    assert link_between(2, 3).links == 4 and link_between(2, 3).gbs == 200.0
    assert link_between(0, 6).kind == "xGMI"          # ring of packages wraps around
    assert link_between(0, 3).kind == "PCIe"          # other die of the next package


def test_profile_topology_is_validated():
    spec = get_spec("mi300x")
    with pytest.raises(DeviceProfileError, match="fully_connected"):
        dataclasses.replace(spec, peer_links_per_gpu=5)
    with pytest.raises(DeviceProfileError, match="in_package_links"):
        dataclasses.replace(spec, gpus_per_package=2)
    with pytest.raises(DeviceProfileError, match="peer_link_gbs"):
        dataclasses.replace(spec, peer_links_per_gpu=0, fully_connected=False)
