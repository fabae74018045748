"""Streams on hardware queues and SDMA engines, against timelines worked out by hand.

The rules (ROCm CLR, see gpusim/runtime/hw_queues.py): stream i of a device is bound to
hardware queue i mod GPU_MAX_HW_QUEUES; operations of one hardware queue run in
submission order; a kernel starts when it is ready and the compute units are free; a
copy starts when it is ready, its SDMA engine has finished what was queued on it, and
its link direction is free. Every asynchronous call costs the host ISSUE_SECONDS, so
the k-th call of a test is issued at t0 + k * ISSUE_SECONDS. Kernel durations are the
model's own (read from the profile records), copy and memset durations come from
gpusim.timing; the tests work out the starts and ends from those.
"""

import math

import numpy as np
import pytest

import gpusim
from gpusim import hip, timing
from gpusim.devices import get_spec
from gpusim.errors import HipError
from gpusim.runtime.hw_queues import QueuePool
from gpusim.runtime.scheduler import ISSUE_SECONDS, Scheduler
from gpusim.runtime.streams import scheduler

MiB = 1 << 20
NS = 2e-9  # records hold whole nanoseconds: start and end are each rounded


@hip.jit
def scale(x, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = math.sqrt(x[i]) * 2.0


@pytest.fixture()
def system(monkeypatch):
    """A fresh one-GPU MI300X whose GPU_MAX_HW_QUEUES the test may set first."""
    def make(max_queues=None, device="mi300x"):
        if max_queues is None:
            monkeypatch.delenv("GPU_MAX_HW_QUEUES", raising=False)
        else:
            monkeypatch.setenv("GPU_MAX_HW_QUEUES", str(max_queues))
        gpusim.set_system(device, ngpus=1)
    yield make
    monkeypatch.delenv("GPU_MAX_HW_QUEUES", raising=False)
    gpusim.set_system()


def _by_stream(records, kind):
    return {r.stream: r for r in records if type(r).__name__ == kind}


def _s(record):
    return record.start_ns * 1e-9, record.end_ns * 1e-9


def test_streams_are_bound_round_robin_to_four_queues_by_default(system):
    system()
    streams = [hip.hipStreamCreate() for _ in range(5)]
    assert [s.hw_queue for s in streams] == [0, 1, 2, 3, 0]
    hip.hipStreamDestroy(streams[1])  # its queue now has the fewest streams
    assert hip.hipStreamCreate().hw_queue == 1
    # priorities have pools of their own (hip_stream.cpp clamps to -1, 0, 1)
    assert hip.hipStreamCreateWithPriority(0, -3).hw_queue == 0


def test_gpu_max_hw_queues_is_read_from_the_environment(system):
    system(max_queues=2)
    assert [hip.hipStreamCreate().hw_queue for _ in range(5)] == [0, 1, 0, 1, 0]
    with pytest.raises(HipError, match="GPU_MAX_HW_QUEUES='none'"):
        system(max_queues="none")


def _five_stream_kernels():
    """Stream 0 waits for a 64 MiB upload made on stream 3; then one kernel on each of
    streams 0, 1, 2 and 4. Returns each kernel's record by stream, the first call's
    issue time, the kernels' issue times and the upload's length."""
    streams = [hip.hipStreamCreate() for _ in range(5)]
    h = hip.pinned_array(16 * MiB, np.float32)
    d_in = hip.device_array((5, 16 * MiB), np.float32)
    xs = [hip.device_array(256, np.float32) for _ in range(5)]
    ys = [hip.device_array(256, np.float32) for _ in range(5)]
    uploaded = hip.hipEventCreate()
    t0 = scheduler().host_time
    with gpusim.profile() as prof:
        hip.hipMemcpyAsync(d_in[3], h, h.nbytes, hip.hipMemcpyHostToDevice, streams[3])  # 0
        hip.hipEventRecord(uploaded, streams[3])                                        # 1
        hip.hipStreamWaitEvent(streams[0], uploaded)                                    # 2
        for s in (0, 1, 2, 4):                                                          # 3-6
            scale[1, 256, streams[s]](xs[s], ys[s])
        hip.hipDeviceSynchronize()
    issued = {s: t0 + (3 + k) * ISSUE_SECONDS for k, s in enumerate((0, 1, 2, 4))}
    copy = timing.copy_seconds(get_spec("mi300x"), h.nbytes, "HtoD", pinned=True)
    kernels = _by_stream(prof.records, "KernelRecord")
    return {s: kernels[streams[s].handle] for s in issued}, t0, issued, copy


def test_a_kernel_waits_only_for_the_streams_that_share_its_queue(system):
    system()  # 4 queues: streams 0 and 4 share queue 0
    k, t0, issued, copy = _five_stream_kernels()
    d = {s: k[s].duration_ns * 1e-9 for s in k}
    copy_end = t0 + copy
    # streams 1 and 2 are ready at once and take turns on the compute units
    assert _s(k[1])[0] == pytest.approx(issued[1], abs=NS)
    assert _s(k[2])[0] == pytest.approx(max(issued[2], issued[1] + d[1]), abs=NS)
    assert _s(k[2])[1] < copy_end  # ... long before the upload ends
    # stream 0 waits for the upload, and stream 4, behind it in queue 0, for stream 0
    assert _s(k[0])[0] == pytest.approx(copy_end, abs=NS)
    assert _s(k[4])[0] == pytest.approx(copy_end + d[0], abs=NS)


def test_with_more_queues_the_false_dependency_goes(system):
    system(max_queues=8)  # stream 4 has a queue of its own
    k, t0, issued, copy = _five_stream_kernels()
    d = {s: k[s].duration_ns * 1e-9 for s in k}
    # kernel 4 is ready at its issue and takes the compute units after kernels 1 and 2
    assert _s(k[4])[0] == pytest.approx(max(issued[4], issued[1] + d[1] + d[2]), abs=NS)
    assert _s(k[0])[0] == pytest.approx(t0 + copy, abs=NS)


def test_a_copy_waiting_for_an_event_does_not_hold_back_ready_copies(system):
    system()
    fill, waiter, ready = (hip.hipStreamCreate() for _ in range(3))
    big = hip.hipMalloc(1 << 30)
    src = hip.pinned_array(MiB, np.uint8)
    dst = [hip.hipMalloc(MiB) for _ in range(2)]
    filled = hip.hipEventCreate()
    spec = get_spec("mi300x")
    t0 = scheduler().host_time
    with gpusim.profile() as prof:
        hip.hipMemsetAsync(big, 0, 1 << 30, fill)                                    # 0
        hip.hipEventRecord(filled, fill)                                             # 1
        hip.hipStreamWaitEvent(waiter, filled)                                       # 2
        hip.hipMemcpyAsync(dst[0], src, MiB, hip.hipMemcpyHostToDevice, waiter)      # 3
        hip.hipMemcpyAsync(dst[1], src, MiB, hip.hipMemcpyHostToDevice, ready)       # 4
        hip.hipDeviceSynchronize()
    copies = _by_stream(prof.records, "CopyRecord")
    memset_end = t0 + timing.memset_seconds(spec, 1 << 30)
    copy = timing.copy_seconds(spec, MiB, "HtoD", pinned=True)
    assert copy < memset_end - t0  # so the ready copy fits before the blocked one
    assert _s(copies[ready.handle]) == pytest.approx(
        (t0 + 4 * ISSUE_SECONDS, t0 + 4 * ISSUE_SECONDS + copy), abs=NS)
    assert _s(copies[waiter.handle]) == pytest.approx((memset_end, memset_end + copy),
                                                      abs=NS)


def test_copies_that_share_an_sdma_engine_wait_in_its_ring():
    # one engine: a copy queued behind a blocked one waits, as in ROCr's SDMA ring
    s = Scheduler(max_queues=4, sdma_engines=1)
    a, b, c = (s.new_stream(0, blocking=False) for _ in range(3))
    slow = s.submit(c, run=lambda: None, kind="kernel", name="k", duration=lambda op: 1e-3)
    blocked = s.submit(a, run=lambda: None, kind="HtoD", name="a", waits=[slow],
                       duration=lambda op: 2e-5)
    queued = s.submit(b, run=lambda: None, kind="HtoD", name="b", duration=lambda op: 2e-5)
    s.flush()
    assert (blocked.start, blocked.end) == pytest.approx((1e-3, 1e-3 + 2e-5))
    assert (queued.start, queued.end) == pytest.approx((1e-3 + 2e-5, 1e-3 + 4e-5))


def test_the_queue_pool_matches_rocclr_for_any_number_of_streams():
    for queues in range(1, 6):
        pool = QueuePool(queues)
        assert [pool.acquire(0) for _ in range(12)] == [i % queues for i in range(12)]
