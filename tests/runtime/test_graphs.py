"""HIP graphs and stream capture against HIP's semantics (ROCm clr hip_graph.cpp,
hip_stream.cpp, hip_event.cpp), results against NumPy, and the modeled launch cost."""

import numpy as np
import pytest

import gpusim
from gpusim import hip, rccl
from gpusim.runtime.scheduler import ISSUE_SECONDS
from gpusim.timing.costs import GRAPH_NODE_S

E = hip.hipError_t


@hip.jit
def scale(x, a):
    i = hip.grid(1)
    if i < x.size:
        x[i] = a * x[i]


@hip.jit
def add(x, a):
    i = hip.grid(1)
    if i < x.size:
        x[i] = x[i] + a


@hip.jit
def combine(out, y, z):
    i = hip.grid(1)
    if i < out.size:
        out[i] = y[i] + z[i]


N = 1000
GRID, BLOCK = (N + 255) // 256, 256


def code(excinfo):
    return excinfo.value.code


@pytest.fixture(autouse=True)
def _fresh(fresh_system):
    yield


def test_capture_then_launch_many_times_matches_numpy():
    x0 = np.linspace(-1, 1, N).astype(np.float32)
    x = hip.to_device(x0)
    s = hip.hipStreamCreate()
    hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    assert hip.hipStreamIsCapturing(s) == hip.hipStreamCaptureStatusActive
    scale[GRID, BLOCK, s](x, np.float32(2.0))   # the usual launch syntax, unchanged
    add[GRID, BLOCK, s](x, np.float32(1.0))
    graph = hip.hipStreamEndCapture(s)
    assert hip.hipStreamIsCapturing(s) == hip.hipStreamCaptureStatusNone
    hip.hipDeviceSynchronize()
    np.testing.assert_array_equal(x.copy_to_host(), x0)  # captured work did not run
    assert [hip.hipGraphNodeGetType(n) for n in hip.hipGraphGetNodes(graph)] == [
        hip.hipGraphNodeTypeKernel] * 2
    exe = hip.hipGraphInstantiate(graph)
    expect = x0.copy()
    for _ in range(4):
        hip.hipGraphLaunch(exe, s)
        expect = expect * np.float32(2) + np.float32(1)
    hip.hipStreamSynchronize(s)
    np.testing.assert_allclose(x.copy_to_host(), expect, rtol=1e-6)


def test_two_streams_joined_by_events_keep_dependency_order():
    x0 = np.arange(N, dtype=np.float32)
    x, y = hip.to_device(x0), hip.device_array(N, np.float32)
    z, out = hip.to_device(np.zeros(N, np.float32)), hip.device_array(N, np.float32)
    s1, s2 = hip.hipStreamCreate(), hip.hipStreamCreate()
    fork, join = hip.hipEventCreate(), hip.hipEventCreate()
    with hip.capture(s1) as c:
        scale[GRID, BLOCK, s1](x, np.float32(2.0))               # A
        hip.hipEventRecord(fork, s1)
        hip.hipStreamWaitEvent(s2, fork)                          # s2 joins the capture
        hip.hipMemcpyAsync(y, x, 4 * N, hip.hipMemcpyDeviceToDevice, s2)   # B after A
        add[GRID, BLOCK, s1](z, np.float32(1.0))                  # C after A
        hip.hipEventRecord(join, s2)
        hip.hipStreamWaitEvent(s1, join)
        combine[GRID, BLOCK, s1](out, y, z)                       # D after B and C
    a, b, cc, d = hip.hipGraphGetNodes(c.graph)
    assert hip.hipGraphNodeGetType(b) == hip.hipGraphNodeTypeMemcpy
    assert hip.hipGraphNodeGetDependencies(b) == [a]
    assert hip.hipGraphNodeGetDependencies(cc) == [a]
    assert set(hip.hipGraphNodeGetDependencies(d)) == {b, cc}
    exe = c.instantiate()
    with gpusim.profile() as prof:
        for _ in range(3):
            hip.hipGraphLaunch(exe, s1)
        hip.hipStreamSynchronize(s1)
    np.testing.assert_array_equal(out.copy_to_host(), x0 * 8 + 3)
    recs = [r for r in prof.records if r.graph and " #2 " in r.graph]
    by = {r.graph.rsplit(" ", 1)[1]: r for r in recs}
    ra, rb, rc, rd = by["0"], by["1"], by["2"], by["3"]
    assert rb.start_ns >= ra.end_ns and rc.start_ns >= ra.end_ns
    assert rd.start_ns >= max(rb.end_ns, rc.end_ns)
    assert rb.stream != rc.stream                     # a branch of its own ...
    assert rb.start_ns < rc.end_ns and rc.start_ns < rb.end_ns   # ... that overlaps
    launch1 = [r for r in prof.records if r.graph and "#1 " in r.graph]
    assert ra.start_ns >= max(r.end_ns for r in launch1)   # launches follow one another
    from gpusim import viz  # the timeline shows the graph's nodes

    assert dict(viz.timeline(prof).summary)["graph node records"] == str(
        len([r for r in prof.records if r.graph]))


def test_unjoined_stream_fails_end_capture_and_streams_stay_usable():
    x = hip.to_device(np.ones(N, np.float32))
    s1, s2 = hip.hipStreamCreate(), hip.hipStreamCreate()
    ev = hip.hipEventCreate()
    hip.hipStreamBeginCapture(s1, hip.hipStreamCaptureModeGlobal)
    hip.hipEventRecord(ev, s1)
    hip.hipStreamWaitEvent(s2, ev)
    add[GRID, BLOCK, s2](x, np.float32(1.0))  # never joined back into s1
    assert hip.hipStreamIsCapturing(s2) == hip.hipStreamCaptureStatusActive
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamEndCapture(s2)              # not the stream that began it
    assert code(err) == E.hipErrorStreamCaptureUnmatched
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamEndCapture(s1)
    assert code(err) == E.hipErrorStreamCaptureUnjoined and "hipStreamWaitEvent" in str(
        err.value)
    assert hip.hipStreamIsCapturing(s2) == hip.hipStreamCaptureStatusNone
    add[GRID, BLOCK, s2](x, np.float32(1.0))
    hip.hipStreamSynchronize(s2)
    np.testing.assert_array_equal(x.copy_to_host(), 2)


@pytest.mark.parametrize("call", ["other stream", "own stream", "device", "hipMalloc",
                                  "event"])
def test_illegal_calls_during_global_capture_invalidate_it(call):
    x = hip.to_device(np.ones(N, np.float32))
    s, other = hip.hipStreamCreate(), hip.hipStreamCreate()
    ev = hip.hipEventCreate()
    hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    add[GRID, BLOCK, s](x, np.float32(1.0))
    hip.hipEventRecord(ev, s)
    expected = E.hipErrorStreamCaptureUnsupported
    with pytest.raises(hip.HipError) as err:
        if call == "other stream":
            hip.hipStreamSynchronize(other)
        elif call == "own stream":
            hip.hipStreamSynchronize(s)
        elif call == "device":
            hip.hipDeviceSynchronize()
        elif call == "hipMalloc":
            hip.hipMalloc(64)
        else:
            expected = E.hipErrorCapturedEvent
            hip.hipEventSynchronize(ev)
    assert code(err) == expected and "hipStreamEndCapture" in str(err.value)
    assert hip.hipStreamIsCapturing(s) == hip.hipStreamCaptureStatusInvalidated
    with pytest.raises(hip.HipError) as err:
        add[GRID, BLOCK, s](x, np.float32(1.0))
    assert code(err) == E.hipErrorStreamCaptureInvalidated
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamEndCapture(s)
    assert code(err) == E.hipErrorStreamCaptureInvalidated
    hip.hipDeviceSynchronize()                   # usable again; nothing ran
    np.testing.assert_array_equal(x.copy_to_host(), 1)


def test_relaxed_mode_allows_unsafe_calls_and_null_stream_use_is_implicit():
    s = hip.hipStreamCreate()
    x = hip.to_device(np.ones(4, np.float32))
    hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeRelaxed)
    d = hip.hipMalloc(64)                        # allowed in relaxed mode
    hip.hipStreamSynchronize(hip.hipStreamCreate())
    with pytest.raises(hip.HipError) as err:     # s is a blocking stream
        add[1, 64](x, np.float32(1.0))           # ... on the null stream
    assert code(err) == E.hipErrorStreamCaptureImplicit
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamEndCapture(s)
    assert code(err) == E.hipErrorStreamCaptureInvalidated
    hip.hipFree(d)


def test_capture_api_errors():
    s = hip.hipStreamCreate()
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamBeginCapture(0, hip.hipStreamCaptureModeGlobal)
    assert code(err) == E.hipErrorStreamCaptureUnsupported
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamEndCapture(s)
    assert code(err) == E.hipErrorIllegalState
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamBeginCapture(s, 7)
    assert code(err) == E.hipErrorInvalidValue
    hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeThreadLocal)
    status, cid = hip.hipStreamGetCaptureInfo(s)
    assert status == hip.hipStreamCaptureStatusActive and cid > 0
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    assert code(err) == E.hipErrorIllegalState
    assert hip.hipGraphGetNodes(hip.hipStreamEndCapture(s)) == []
    old = hip.hipThreadExchangeStreamCaptureMode(hip.hipStreamCaptureModeRelaxed)
    assert old == hip.hipStreamCaptureModeGlobal
    hip.hipThreadExchangeStreamCaptureMode(old)


def test_kernel_node_parameters_update():
    x = hip.to_device(np.zeros(N, np.float32))
    g = hip.hipGraphCreate()
    node = hip.hipGraphAddKernelNode(g, [], hip.hipKernelNodeParams(
        add, GRID, BLOCK, (x, np.float32(1.0))))
    exe = hip.hipGraphInstantiate(g)
    hip.hipGraphLaunch(exe, 0)
    hip.hipGraphKernelNodeSetParams(node, hip.hipKernelNodeParams(   # the graph only
        add, GRID, BLOCK, (x, np.float32(100.0))))
    hip.hipGraphLaunch(exe, 0)
    hip.hipDeviceSynchronize()
    np.testing.assert_array_equal(x.copy_to_host(), 2)
    hip.hipGraphExecKernelNodeSetParams(exe, node, hip.hipKernelNodeParams(
        scale, GRID, BLOCK, (x, np.float32(5.0))))
    hip.hipGraphLaunch(exe, 0)
    hip.hipDeviceSynchronize()
    np.testing.assert_array_equal(x.copy_to_host(), 10)
    assert hip.hipGraphKernelNodeGetParams(node).kernelParams[1] == 100
    with pytest.raises(hip.HipError) as err:
        hip.hipGraphExecKernelNodeSetParams(exe, node, hip.hipKernelNodeParams(
            add, GRID, 2048, (x, 1.0)))
    assert code(err) == E.hipErrorInvalidConfiguration


def test_memset_kernel_memcpy_and_host_nodes():
    d = hip.device_array(8, np.float32)
    out = hip.pinned_array(8, np.float32)
    seen = []
    g = hip.hipGraphCreate()
    ones = hip.hipGraphAddMemsetNode(g, [], hip.hipMemsetParams(
        d, np.float32(1.0).view(np.uint32), 4, 8))
    k = hip.hipGraphAddKernelNode(g, [ones], hip.hipKernelNodeParams(
        add, 1, 64, (d, np.float32(2.0))))
    back = hip.hipGraphAddMemcpyNode1D(g, [k], out, d, 32, hip.hipMemcpyDeviceToHost)
    hip.hipGraphAddHostNode(g, [back], hip.hipHostNodeParams(
        lambda tag: seen.append((tag, out.sum())), "after copy"))
    exe = hip.hipGraphInstantiate(g)
    for _ in range(2):
        hip.hipGraphLaunch(exe, 0)
    assert seen == []                 # queued, not run: nothing synchronised yet
    hip.hipDeviceSynchronize()
    assert seen == [("after copy", 24.0)] * 2
    hip.hipGraphExecMemsetNodeSetParams(exe, ones, hip.hipMemsetParams(
        d, np.float32(5.0).view(np.uint32), 4, 4))         # half the array
    hip.hipGraphLaunch(exe, 0)
    hip.hipDeviceSynchronize()
    np.testing.assert_array_equal(out, [7] * 4 + [5] * 4)
    with pytest.raises(hip.HipError) as err:
        hip.hipGraphAddMemcpyNode1D(g, [], out, d, 64, hip.hipMemcpyDeviceToHost)
    assert code(err) == E.hipErrorInvalidValue


def test_child_graph_event_nodes_and_instantiate_errors():
    x = hip.to_device(np.zeros(4, np.float32))
    child = hip.hipGraphCreate()
    hip.hipGraphAddKernelNode(child, [], hip.hipKernelNodeParams(add, 1, 64, (x, 1.0)))
    g = hip.hipGraphCreate()
    a = hip.hipGraphAddChildGraphNode(g, [], child)
    b = hip.hipGraphAddChildGraphNode(g, [a], child)
    ev = hip.hipEventCreate()
    hip.hipGraphAddEventRecordNode(g, [b], ev)
    exe = hip.hipGraphInstantiate(g)
    hip.hipGraphLaunch(exe, hip.hipStreamCreate())
    hip.hipEventSynchronize(ev)
    np.testing.assert_array_equal(x.copy_to_host(), 2)
    assert hip.hipGraphNodeGetType(a) == hip.hipGraphNodeTypeGraph
    hip.hipGraphAddDependencies(g, [b], [a])                 # a cycle
    with pytest.raises(hip.HipError) as err:
        hip.hipGraphInstantiate(g)
    assert code(err) == E.hipErrorInvalidValue
    with pytest.raises(hip.HipError) as err:
        hip.hipGraphInstantiate(None)
    assert code(err) == E.hipErrorInvalidValue
    hip.hipGraphExecDestroy(exe)
    with pytest.raises(hip.HipError) as err:
        hip.hipGraphLaunch(exe, 0)
    assert code(err) == E.hipErrorInvalidValue


def _pipeline_records(prof, n):
    recs = sorted(prof.kernels, key=lambda r: r.start_ns)
    assert len(recs) == n
    return recs


def test_graph_launch_saves_the_modeled_issue_cost():
    """A 10-kernel chain of tiny kernels: through a stream the host issues one kernel
    per ISSUE_SECONDS and the GPU waits for it; a graph costs one ISSUE_SECONDS, then
    the kernels run back to back (each node's issue, GRAPH_NODE_S, is shorter than a
    kernel)."""
    n = 10
    x = hip.to_device(np.zeros(64, np.float32))
    s = hip.hipStreamCreate()
    sched = gpusim.runtime.system.get_system().scheduler
    add[1, 64, s](x, np.float32(1.0))           # compiled and its time model remembered
    hip.hipStreamSynchronize(s)

    with gpusim.profile() as plain:
        t0 = sched.host_time
        for _ in range(n):
            add[1, 64, s](x, np.float32(1.0))
        host_plain = sched.host_time - t0
        hip.hipStreamSynchronize(s)
    with hip.capture(s) as c:
        for _ in range(n):
            add[1, 64, s](x, np.float32(1.0))
    exe = c.instantiate()
    with gpusim.profile() as graphed:
        t0 = sched.host_time
        hip.hipGraphLaunch(exe, s)
        host_graph = sched.host_time - t0
        hip.hipStreamSynchronize(s)
    np.testing.assert_array_equal(x.copy_to_host(), 1 + 2 * n)

    # host time to issue the chain: n stream launches, or one graph launch
    assert host_plain == pytest.approx(n * ISSUE_SECONDS)
    assert host_graph == pytest.approx(ISSUE_SECONDS + n * GRAPH_NODE_S)
    p, g = _pipeline_records(plain, n), _pipeline_records(graphed, n)
    k = [r.duration_ns for r in g]  # each kernel's modeled time (its launch cost included)
    assert GRAPH_NODE_S * 1e9 < min(k) and max(k) < ISSUE_SECONDS * 1e9
    # through the stream the GPU waits for the host: a kernel every ISSUE_SECONDS
    assert [b.start_ns - a.start_ns for a, b in zip(p[:-1], p[1:], strict=True)] == pytest.approx(
        [ISSUE_SECONDS * 1e9] * (n - 1), abs=1)
    plain_total = p[-1].end_ns - p[0].start_ns  # from the first launch call to the end
    assert plain_total == pytest.approx((n - 1) * ISSUE_SECONDS * 1e9 + p[-1].duration_ns,
                                        abs=2)
    # the graph: its first node one ISSUE_SECONDS after hipGraphLaunch, then back to back
    assert g[0].start_ns == pytest.approx((t0 + ISSUE_SECONDS) * 1e9, abs=1)
    assert all(b.start_ns == a.end_ns for a, b in zip(g[:-1], g[1:], strict=True))
    graph_total = g[-1].end_ns - round(t0 * 1e9)
    assert graph_total == pytest.approx(ISSUE_SECONDS * 1e9 + sum(k), abs=2)
    assert plain_total - graph_total == pytest.approx(
        (n - 2) * ISSUE_SECONDS * 1e9 - sum(k[:-1]) + p[-1].duration_ns - k[-1], abs=3)
    assert plain_total - graph_total > 0


def test_rccl_all_reduce_captured_across_two_devices():
    n, count = 2, 256
    comms = rccl.ncclCommInitAll(n)
    send, recv, streams = [], [], []
    for r in range(n):
        hip.hipSetDevice(r)
        send.append(hip.to_device(np.full(count, r + 1, np.float32)))
        recv.append(hip.device_array(count, np.float32))
        streams.append(hip.hipStreamCreate())
    hip.hipSetDevice(0)
    fork, join = hip.hipEventCreate(), hip.hipEventCreate()
    with hip.capture(streams[0]) as c:
        hip.hipEventRecord(fork, streams[0])
        hip.hipStreamWaitEvent(streams[1], fork)
        rccl.ncclGroupStart()
        for r in range(n):
            rccl.ncclAllReduce(send[r], recv[r], count, rccl.ncclFloat32, rccl.ncclSum,
                               comms[r], streams[r])
        rccl.ncclGroupEnd()
        add[1, 256, streams[1]](recv[1], np.float32(10.0))
        hip.hipEventRecord(join, streams[1])
        hip.hipStreamWaitEvent(streams[0], join)
    assert [n.device for n in hip.hipGraphGetNodes(c.graph)] == [0, 1, 1]
    hip.hipDeviceSynchronize()
    assert np.all(recv[0].copy_to_host() == 0)          # nothing ran at capture
    exe = c.instantiate()
    for k in range(1, 3):
        send[0].copy_to_device(np.full(count, k * 100, np.float32))
        hip.hipGraphLaunch(exe, streams[0])
        hip.hipStreamSynchronize(streams[0])
        np.testing.assert_array_equal(recv[0].copy_to_host(), k * 100 + 2)
        np.testing.assert_array_equal(recv[1].copy_to_host(), k * 100 + 12)


def test_capture_host_arrays_host_functions_pageable_copies_and_graph_launches():
    s = hip.hipStreamCreate()
    host = np.zeros(64, np.float32)             # a host array argument: copied in and back
    log = []
    inner = hip.hipGraphCreate()
    hip.hipGraphAddHostNode(inner, [], hip.hipHostNodeParams(log.append, "inner"))
    inner_exe = hip.hipGraphInstantiate(inner)
    d = hip.device_array(64, np.float32)
    back = np.zeros(64, np.float32)             # pageable
    with hip.capture(s) as c:
        hip.hipLaunchKernelGGL(add, 1, 64, 0, s, host, np.float32(1.0))
        hip.hipLaunchHostFunc(s, log.append, "host fn")
        hip.hipGraphLaunch(inner_exe, s)        # a child graph node
        hip.hipMemcpyAsync(d, host, 256, hip.hipMemcpyHostToDevice, s)
        hip.hipMemcpyAsync(back, d, 256, hip.hipMemcpyDeviceToHost, s)
    assert log == [] and host[0] == 0
    types = [hip.hipGraphNodeGetType(n) for n in hip.hipGraphGetNodes(c.graph)]
    assert types == [hip.hipGraphNodeTypeKernel, hip.hipGraphNodeTypeHost,
                     hip.hipGraphNodeTypeGraph, hip.hipGraphNodeTypeMemcpy,
                     hip.hipGraphNodeTypeMemcpy]
    exe = c.instantiate()
    for _ in range(3):
        exe.launch(s)
    hip.hipStreamSynchronize(s)
    assert log == ["host fn", "inner"] * 3
    np.testing.assert_array_equal(host, 3)
    np.testing.assert_array_equal(back, 3)


def test_python_malloc_async_in_a_capture_is_an_allocation_node():
    """hipMallocAsync / hipFreeAsync from Python on a captured stream become memory
    allocation and free nodes, as from HIP C++; the graph's kernel uses the memory at
    every launch."""
    from gpusim.runtime import mempool

    s = hip.hipStreamCreate()
    hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    ptr = mempool.malloc_async(256, s)
    mempool.free_async(int(ptr), s)
    graph = hip.hipStreamEndCapture(s)
    kinds = [n.type.name for n in hip.hipGraphGetNodes(graph)]
    assert kinds == ["hipGraphNodeTypeMemAlloc", "hipGraphNodeTypeMemFree"]
    assert ptr.value != 0 and ptr.device == 0


def _captured_step(x, s, a, kernels=(scale, add)):
    hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    for k in kernels:
        k[GRID, BLOCK, s](x, np.float32(a))
    return hip.hipStreamEndCapture(s)


def test_exec_update_with_a_recaptured_step_uses_its_arguments():
    """The loop HIP's docs recommend: capture the step again with new arguments and
    hipGraphExecUpdate the executable graph instead of instantiating again."""
    x0 = np.linspace(-1, 1, N).astype(np.float32)
    x, s = hip.to_device(x0), hip.hipStreamCreate()
    exe = hip.hipGraphInstantiate(_captured_step(x, s, 2.0))
    expect = x0.copy()
    for a in (2.0, 3.0, 0.5):
        result, node = hip.hipGraphExecUpdate(exe, _captured_step(x, s, a))
        assert result == hip.hipGraphExecUpdateResult.hipGraphExecUpdateSuccess and node is None
        hip.hipGraphLaunch(exe, s)
        expect = expect * np.float32(a) + np.float32(a)
    hip.hipStreamSynchronize(s)
    np.testing.assert_allclose(x.copy_to_host(), expect, rtol=1e-6)


@pytest.mark.parametrize("kernels,result,names_node", [
    ((scale, add, add), "hipGraphExecUpdateErrorTopologyChanged", False),
    ((scale, scale), "hipGraphExecUpdateErrorFunctionChanged", True),
])
def test_exec_update_refuses_another_shape_and_keeps_the_graph(kernels, result, names_node):
    """HIP's rules (hipGraphExecUpdate tests of ROCm's hip-tests): another node count is
    TopologyChanged with no error node, another kernel FunctionChanged naming the node;
    the error is hipErrorGraphExecUpdateFailure and the executable graph still runs."""
    x0 = np.ones(N, np.float32)
    x, s = hip.to_device(x0), hip.hipStreamCreate()
    exe = hip.hipGraphInstantiate(_captured_step(x, s, 2.0))
    with pytest.raises(hip.HipError) as err:
        hip.hipGraphExecUpdate(exe, _captured_step(x, s, 5.0, kernels))
    assert code(err) == E.hipErrorGraphExecUpdateFailure
    assert err.value.update_result.name == result
    assert (err.value.error_node is not None) == names_node
    hip.hipGraphLaunch(exe, s)
    hip.hipStreamSynchronize(s)
    np.testing.assert_array_equal(x.copy_to_host(), x0 * 2 + 2)
