"""Modeled time of traced kernels orders them as hardware would (invariants only)."""

import kernels
import numpy as np

import gpusim
from gpusim import hip

K = kernels.jitted("copy_strided", "matmul_naive", "matmul_tiled")


def test_coalesced_copy_is_faster_than_strided(monkeypatch):
    # both from cold caches: the second kernel would otherwise find `a` in the L2 and MALL
    # (they keep data between kernels), which is not what this compares
    monkeypatch.setattr(gpusim.config, "cold_caches", True)
    n = 1 << 16
    a, b = hip.to_device(np.ones(n, np.float32)), hip.device_array(n, np.float32)
    with gpusim.profile(memory=True) as prof:
        K.copy_strided[n // 256, 256](a, b, 1)
        K.copy_strided[n // 256, 256](a, b, 32)
    coalesced, strided = prof.kernels
    assert coalesced.duration_ns < strided.duration_ns
    assert coalesced.breakdown["model"] == strided.breakdown["model"] == "kernel_model"
    assert coalesced.breakdown["bytes_L2"] < strided.breakdown["bytes_L2"]


def test_tiled_matmul_is_faster_than_naive():
    n = 128
    A = hip.to_device(np.ones((n, n), np.float32))
    B, C = hip.to_device(np.ones((n, n), np.float32)), hip.device_array((n, n), np.float32)
    with gpusim.profile(memory=True) as prof:
        K.matmul_naive[(8, 8), (16, 16)](A, B, C, n)
        K.matmul_tiled[(8, 8), (16, 16)](A, B, C)
    naive, tiled = prof.kernels
    assert tiled.duration_ns < naive.duration_ns


def test_occupancy_matters_when_memory_bound():
    """The same copy, with 64 KiB of (unused) dynamic LDS per workgroup: one workgroup
    per CU, one wave per SIMD, so memory latency is no longer hidden."""
    n = 1 << 20
    a, b = hip.to_device(np.ones(n, np.float32)), hip.device_array(n, np.float32)
    with gpusim.profile(memory=True) as prof:
        K.copy_strided[n // 256, 256](a, b, 1)
        K.copy_strided[n // 256, 256, 0, 65536](a, b, 1)
    full, starved = prof.kernels
    assert full.occupancy == 1.0 and starved.occupancy == 0.125
    assert starved.duration_ns > full.duration_ns
    assert starved.breakdown["bound"] == "latency"


def test_events_and_the_timeline_use_the_modeled_time():
    """Events around a launch see the model's time: the default model's (a sample: each
    work-group makes 65 K lane accesses, past ``TraceLimits.sample_events`` after the
    first) and the full trace's under profile(memory=True)."""
    n = 128  # long enough that the stop event waits for the kernel, not for the host
    A = hip.to_device(np.ones((n, n), np.float32))
    B, C = hip.to_device(np.ones((n, n), np.float32)), hip.device_array((n, n), np.float32)
    elapsed, records = [], []
    for memory in (False, True):
        start, stop = hip.hipEventCreate(), hip.hipEventCreate()
        with gpusim.profile(memory=memory) as prof:
            hip.hipEventRecord(start)
            K.matmul_naive[(8, 8), (16, 16)](A, B, C, n)
            hip.hipEventRecord(stop)
            hip.hipEventSynchronize(stop)
        elapsed.append(hip.hipEventElapsedTime(start, stop) * 1e6)
        records.append(prof.kernels[0])
    default, traced = records
    assert default.breakdown["estimate"] == "sampled"
    assert default.breakdown["traced_workgroups"] == 1
    assert default.breakdown["bound"] == traced.breakdown["bound"]
    assert elapsed[0] >= default.duration_ns and elapsed[1] >= traced.duration_ns
    times = [v for key, v in traced.breakdown.items()
             if key in ("valu", "salu", "lds", "vL1D", "L2", "MALL", "HBM", "latency")]
    # start and end are each whole nanoseconds on the stream's clock: +-1 from rounding
    assert abs(traced.duration_ns - (traced.breakdown["launch"] + max(times)) * 1e9) <= 1


def test_without_tracing_the_default_model_times_and_leaves_counters_empty():
    n = 1 << 16
    a, b = hip.to_device(np.ones(n, np.float32)), hip.device_array(n, np.float32)
    with gpusim.profile() as prof:
        K.copy_strided[n // 256, 256](a, b, 1)
    k = prof.kernels[0]
    assert k.counters == {} and k.memory == {}
    assert k.breakdown["model"] == "kernel_model"


def test_with_the_default_model_off_the_first_order_estimate_stays():
    from gpusim.engine import estimate

    n = 1 << 16
    a, b = hip.to_device(np.ones(n, np.float32)), hip.device_array(n, np.float32)
    estimate.ENABLED = False
    try:
        with gpusim.profile() as prof:
            K.copy_strided[n // 256, 256](a, b, 1)
    finally:
        estimate.ENABLED = True
    assert prof.kernels[0].breakdown["bound"] in ("memory", "compute")
