"""Streams and events: ordering, independence, modeled overlap, queries, errors."""

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.errors import HipError, hipError_t
from gpusim.runtime import scheduler
from gpusim.timing import costs

MiB = 1 << 20


pytestmark = pytest.mark.usefixtures("fresh_system")


def test_operations_of_a_stream_run_in_issue_order():
    s = hip.hipStreamCreate()
    seen = []
    d = hip.hipMalloc(4)
    hip.hipMemsetAsync(d, 7, 4, s)
    host = hip.pinned_array(4, np.uint8)
    hip.hipMemcpyAsync(host, d, 4, hip.hipMemcpyDeviceToHost, s)
    hip.hipLaunchHostFunc(s, lambda tag: seen.append((tag, host.copy())), "after copy")
    hip.hipMemsetAsync(d, 9, 4, s)
    hip.hipMemcpyAsync(host, d, 4, hip.hipMemcpyDeviceToHost, s)
    assert seen == []  # nothing has run: the host has not synchronised
    hip.hipStreamSynchronize(s)
    assert seen[0][0] == "after copy" and list(seen[0][1]) == [7] * 4
    assert list(host) == [9] * 4


def test_missing_synchronisation_leaves_the_host_buffer_unfilled():
    d = hip.to_device(np.arange(1000, dtype=np.float32))
    out = hip.pinned_array(1000, np.float32)
    s = hip.stream()
    d.copy_to_host(out, stream=s)
    assert not out.any()  # read before the stream was synchronised
    s.synchronize()
    np.testing.assert_array_equal(out, np.arange(1000, dtype=np.float32))


def test_pageable_async_copies_complete_before_returning_as_in_hip():
    d = hip.to_device(np.arange(10.0))
    out = np.zeros(10)  # pageable: HIP stages the copy and returns when it is done
    hip.hipMemcpyAsync(out, d, 80, hip.hipMemcpyDeviceToHost, hip.hipStreamCreate())
    np.testing.assert_array_equal(out, np.arange(10.0))


def _elapsed_ms(work):
    start, stop = hip.hipEventCreate(), hip.hipEventCreate()
    hip.hipEventRecord(start, 0)
    work()
    hip.hipEventRecord(stop, 0)  # the null stream waits for every blocking stream
    hip.hipEventSynchronize(stop)
    return hip.hipEventElapsedTime(start, stop)


def test_events_time_work_monotonically():
    d = hip.hipMalloc(256 * MiB)
    events = [hip.hipEventCreate() for _ in range(3)]
    hip.hipEventRecord(events[0])
    hip.hipMemset(d, 1, 64 * MiB)
    hip.hipEventRecord(events[1])
    hip.hipMemset(d, 2, 256 * MiB)
    hip.hipEventRecord(events[2])
    hip.hipEventSynchronize(events[2])
    t1 = hip.hipEventElapsedTime(events[0], events[1])
    t2 = hip.hipEventElapsedTime(events[0], events[2])
    assert 0 < t1 < t2
    # the GPU waits for the host to issue the memset after the event (5 us), then
    # fills 64 MiB at the MI300X's 5.3 TB/s (12.7 us) after a 3 us launch
    issue, launch = scheduler.ISSUE_SECONDS, costs.KERNEL_LAUNCH_S
    assert t1 == pytest.approx((issue + launch + 64 * MiB / 5.3e12) * 1e3, rel=1e-6)


def test_copy_and_compute_overlap_across_streams():
    # per chunk: a 1 MiB upload (about 19 us over PCIe 5) and a 64 MiB fill on the
    # compute engine (about 16 us of HBM time): balanced, so overlap pays
    n = 4
    host = hip.pinned_array((n, MiB), np.uint8)
    dev = hip.device_array((n, 64 * MiB), np.uint8)

    def pipeline(streams):
        for i in range(n):
            s = streams[i % len(streams)]
            hip.hipMemcpyAsync(dev[i], host[i], MiB, hip.hipMemcpyHostToDevice, s)
            hip.hipMemsetAsync(dev[i], i, 64 * MiB, s)

    one = _elapsed_ms(lambda: pipeline([hip.hipStreamCreate()]))
    two = _elapsed_ms(lambda: pipeline([hip.hipStreamCreate(), hip.hipStreamCreate()]))
    assert two < 0.85 * one


def test_pinned_copies_model_faster_than_pageable():
    d = hip.hipMalloc(64 * MiB)
    pageable, pinned = np.zeros(64 * MiB, np.uint8), hip.hipHostMalloc(64 * MiB)
    t_pageable = _elapsed_ms(
        lambda: hip.hipMemcpy(d, pageable, 64 * MiB, hip.hipMemcpyHostToDevice))
    t_pinned = _elapsed_ms(
        lambda: hip.hipMemcpy(d, pinned, 64 * MiB, hip.hipMemcpyHostToDevice))
    assert t_pinned < t_pageable / 2


def test_null_stream_synchronises_with_blocking_streams_only():
    sched = gpusim.runtime.system.get_system().scheduler
    d = hip.hipMalloc(128 * MiB)
    blocking, non_blocking = hip.hipStreamCreate(), hip.stream(non_blocking=True)
    hip.hipMemsetAsync(d, 1, 128 * MiB, blocking)
    slow = blocking.tail
    hip.hipMemsetAsync(d, 1, 4, non_blocking)
    independent = non_blocking.tail
    hip.hipMemset(d, 2, 4)  # null stream: waits for `blocking`, not `non_blocking`
    on_null = sched.null_stream(0).tail
    hip.hipDeviceSynchronize()
    assert on_null.start >= slow.end
    assert independent.waits == []


def test_stream_wait_event_orders_across_streams():
    s1, s2 = hip.stream(non_blocking=True), hip.stream(non_blocking=True)
    d = hip.hipMalloc(256 * MiB)
    ev = hip.hipEventCreate()
    hip.hipMemsetAsync(d, 1, 256 * MiB, s1)
    hip.hipEventRecord(ev, s1)
    hip.hipStreamWaitEvent(s2, ev)
    host = hip.pinned_array(4, np.uint8)
    hip.hipMemcpyAsync(host, d, 4, hip.hipMemcpyDeviceToHost, s2)
    copy = s2.tail
    hip.hipStreamSynchronize(s2)
    assert copy.start >= ev.op.end
    assert list(host) == [1] * 4


def test_queries_report_not_ready_then_success_as_time_passes():
    d = hip.hipMalloc(512 * MiB)
    s = hip.hipStreamCreate()
    hip.hipMemsetAsync(d, 0, 512 * MiB, s)
    ev = hip.hipEventCreate()
    hip.hipEventRecord(ev, s)
    assert hip.hipEventQuery(ev) == hip.hipErrorNotReady
    with pytest.raises(HipError) as info:
        hip.hipEventElapsedTime(ev, ev)
    assert info.value.code == hipError_t.hipErrorNotReady
    polls = 0
    while hip.hipStreamQuery(s) == hip.hipErrorNotReady:
        polls += 1
        assert polls < 10_000, "a polling loop must terminate"
    assert polls > 0 and hip.hipEventQuery(ev) == hip.hipSuccess


def test_bad_handles_are_clear_errors():
    s = hip.hipStreamCreate()
    hip.hipStreamDestroy(s)
    with pytest.raises(HipError, match="destroyed") as info:
        hip.hipStreamSynchronize(s)
    assert info.value.code == hipError_t.hipErrorInvalidHandle
    with pytest.raises(HipError, match="not a stream"):
        hip.hipMemsetAsync(hip.hipMalloc(4), 0, 4, "stream 1")
    ev = hip.hipEventCreateWithFlags(hip.hipEventDisableTiming)
    hip.hipEventRecord(ev)
    hip.hipEventSynchronize(ev)
    with pytest.raises(HipError, match="DisableTiming"):
        hip.hipEventElapsedTime(ev, ev)
    with pytest.raises(HipError, match="never recorded"):
        hip.hipEventElapsedTime(hip.hipEventCreate(), ev)


def test_a_failing_operation_raises_at_the_synchronising_call_and_nothing_else_breaks():
    s = hip.hipStreamCreate()

    def fail(_):
        raise RuntimeError("boom in a host callback")

    host = hip.pinned_array(4, np.uint8)
    d = hip.to_device(np.full(4, 5, np.uint8))
    hip.hipLaunchHostFunc(s, fail)
    hip.hipMemcpyAsync(host, d, 4, hip.hipMemcpyDeviceToHost, s)
    with pytest.raises(RuntimeError, match="boom"):
        hip.hipStreamSynchronize(s)
    hip.hipStreamSynchronize(s)  # the rest of the queue still runs
    assert list(host) == [5] * 4


def test_numba_style_stream_and_event_objects():
    s = hip.stream()
    start, stop = hip.event(), hip.event()
    start.record(s)
    d = hip.to_device(np.zeros(1 << 20), stream=s)
    stop.record(s)
    stop.synchronize()
    assert start.elapsed_time(stop) > 0 and stop.query()
    assert d.copy_to_host().sum() == 0


def test_a_finished_launch_keeps_nothing_alive():
    """Each operation waits on the one before it on its stream; once run it must let go,
    or the stream would keep every launch's arguments (and first-launch traces) alive."""
    import gc
    import weakref

    @hip.jit
    def inc(a):
        i = hip.grid(1)
        if i < a.size:
            a[i] += 1

    host = np.zeros(4096, np.float32)
    inc[16, 256](host)  # a host array: the launch stages a device copy of it
    hip.hipDeviceSynchronize()
    gone = weakref.ref(host)
    del host
    for _ in range(3):  # later operations on the same stream
        inc[16, 256](np.zeros(4096, np.float32))
    hip.hipDeviceSynchronize()
    gc.collect()
    assert gone() is None
