"""RCCL calls captured into HIP graphs (gpusim/libs/rccl/captured.py): results against
NumPy at every launch, the ways one process may capture its ranks (one graph for all,
one graph per rank as rccl-tests -G does, some ranks uncaptured), the errors, and the
modeled per-call time against the ROCm blog's 8 x MI300X measurement."""

import numpy as np
import pytest

import gpusim
from gpusim import hip, rccl
from gpusim.libs.rccl import matching
from gpusim.profiler import CollectiveRecord
from gpusim.runtime.scheduler import ISSUE_SECONDS
from gpusim.runtime.system import get_system
from gpusim.timing.costs import GRAPH_NODE_S

E = hip.hipError_t
N = 4          # ranks (GPUs) in the functional tests
COUNT = 6      # elements per rank block


@hip.jit
def add(x, a):
    i = hip.grid(1)
    if i < x.size:
        x[i] = x[i] + a


def per_rank(make):
    """[make(r) for each rank r] with rank r's device current (device arrays, streams)."""
    out = []
    for r in range(N):
        hip.hipSetDevice(r)
        out.append(make(r))
    hip.hipSetDevice(0)
    return out


def capture_all(streams, body, mode=hip.hipStreamCaptureModeGlobal):
    """Capture every rank's stream into one graph, as one thread does: fork the other
    streams from streams[0] with an event, run ``body``, join them back."""
    fork = hip.hipEventCreate()
    joins = [hip.hipEventCreate() for _ in streams[1:]]
    with hip.capture(streams[0], mode) as c:
        hip.hipEventRecord(fork, streams[0])
        for s in streams[1:]:
            hip.hipStreamWaitEvent(s, fork)
        body()
        for e, s in zip(joins, streams[1:], strict=True):
            hip.hipEventRecord(e, s)
            hip.hipStreamWaitEvent(streams[0], e)
    return c.graph


def sync_all(streams):
    for s in streams:
        hip.hipStreamSynchronize(s)


# the collectives: (call for rank r, expected receive buffer of rank r from the inputs xs)
def _blocks(x):
    return x.reshape(N, COUNT)


COLLECTIVES = {
    "AllReduce": (lambda r, s, d, c, st: rccl.ncclAllReduce(s, d, COUNT, rccl.ncclFloat,
                                                             rccl.ncclSum, c, st),
                  COUNT, COUNT, lambda xs, r: np.sum(xs, axis=0)),
    "Broadcast": (lambda r, s, d, c, st: rccl.ncclBroadcast(s, d, COUNT, rccl.ncclFloat, 2,
                                                             c, st),
                  COUNT, COUNT, lambda xs, r: xs[2]),
    "Reduce": (lambda r, s, d, c, st: rccl.ncclReduce(s, d, COUNT, rccl.ncclFloat,
                                                       rccl.ncclMax, 1, c, st),
               COUNT, COUNT, lambda xs, r: np.max(xs, axis=0) if r == 1 else None),
    "AllGather": (lambda r, s, d, c, st: rccl.ncclAllGather(s, d, COUNT, rccl.ncclFloat, c, st),
                  COUNT, N * COUNT, lambda xs, r: np.concatenate(xs)),
    "ReduceScatter": (lambda r, s, d, c, st: rccl.ncclReduceScatter(
        s, d, COUNT, rccl.ncclFloat, rccl.ncclSum, c, st),
        N * COUNT, COUNT, lambda xs, r: _blocks(np.sum(xs, axis=0))[r]),
    "AllToAll": (lambda r, s, d, c, st: rccl.ncclAllToAll(s, d, COUNT, rccl.ncclFloat, c, st),
                 N * COUNT, N * COUNT,
                 lambda xs, r: np.concatenate([_blocks(x)[r] for x in xs])),
    "Gather": (lambda r, s, d, c, st: rccl.ncclGather(s, d, COUNT, rccl.ncclFloat, 3, c, st),
               COUNT, N * COUNT, lambda xs, r: np.concatenate(xs) if r == 3 else None),
    "Scatter": (lambda r, s, d, c, st: rccl.ncclScatter(s, d, COUNT, rccl.ncclFloat, 0, c, st),
                N * COUNT, COUNT, lambda xs, r: _blocks(xs[0])[r]),
    "SendRecv": (lambda r, s, d, c, st: (rccl.ncclSend(s, COUNT, rccl.ncclFloat, (r + 1) % N,
                                                       c, st),
                                         rccl.ncclRecv(d, COUNT, rccl.ncclFloat, (r - 1) % N,
                                                       c, st)),
                 COUNT, COUNT, lambda xs, r: xs[(r - 1) % N]),
}


@pytest.mark.parametrize("mode", [hip.hipStreamCaptureModeGlobal,
                                  hip.hipStreamCaptureModeThreadLocal,
                                  hip.hipStreamCaptureModeRelaxed])
@pytest.mark.parametrize("name", sorted(COLLECTIVES))
def test_collective_captured_in_one_graph_matches_numpy_at_every_launch(name, mode):
    call, send_n, recv_n, expect = COLLECTIVES[name]
    comms = rccl.ncclCommInitAll(N)
    send = per_rank(lambda r: hip.to_device(np.zeros(send_n, np.float32)))
    recv = per_rank(lambda r: hip.to_device(np.full(recv_n, -7, np.float32)))
    streams = per_rank(lambda r: hip.hipStreamCreate())

    def body():
        rccl.ncclGroupStart()
        for r in range(N):
            call(r, send[r], recv[r], comms[r], streams[r])
        rccl.ncclGroupEnd()

    graph = capture_all(streams, body, mode)
    kernels = [n for n in hip.hipGraphGetNodes(graph)
               if hip.hipGraphNodeGetType(n) == hip.hipGraphNodeTypeKernel]
    # a part per rank; N send/receive pairs, each with a part on its two ranks
    pairs = N if name == "SendRecv" else 1
    assert sorted(n.device for n in kernels) == sorted(list(range(N)) * (2 if pairs > 1 else 1))
    sync_all(streams)
    assert all((recv[r].copy_to_host() == -7).all() for r in range(N))  # nothing ran yet
    exe = hip.hipGraphInstantiate(graph)
    rng = np.random.default_rng(7)
    for _ in range(3):                      # new inputs each time: the graph reads them
        xs = [rng.integers(-50, 50, send_n).astype(np.float32) for _ in range(N)]
        for r in range(N):
            send[r].copy_to_device(xs[r])
        with gpusim.profile() as prof:
            hip.hipGraphLaunch(exe, streams[0])
            hip.hipStreamSynchronize(streams[0])
        for r in range(N):
            want = expect(xs, r)
            if want is not None:
                np.testing.assert_array_equal(recv[r].copy_to_host(), want)
        records = prof.collectives
        assert len(records) == pairs and all(r.done and r.collective == name for r in records)
        assert all(k.graph for k in prof.kernels)          # the parts ran as graph nodes


def test_each_rank_captured_into_its_own_graph_like_rccl_tests():
    """rccl-tests -G: every GPU's stream is captured into its own graph (iterations of an
    in-place all-reduce), the graphs are launched rank by rank. Each launch round is one
    call on every rank, in whatever order the graphs are launched."""
    comms = rccl.ncclCommInitAll(N)
    bufs = per_rank(lambda r: hip.to_device(np.full(COUNT, r + 1, np.float32)))
    streams = per_rank(lambda r: hip.hipStreamCreate())
    for s in streams:
        hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    for _ in range(3):
        rccl.ncclGroupStart()
        for r in range(N):
            rccl.ncclAllReduce(bufs[r], bufs[r], COUNT, rccl.ncclFloat, rccl.ncclSum,
                               comms[r], streams[r])
        rccl.ncclGroupEnd()
    graphs = [hip.hipStreamEndCapture(s) for s in streams]
    assert [len(hip.hipGraphGetNodes(g)) for g in graphs] == [3] * N
    execs = [hip.hipGraphInstantiate(g) for g in graphs]
    total = float(sum(range(1, N + 1)))
    for order in (range(N), reversed(range(N))):
        with gpusim.profile() as prof:
            for r in order:
                hip.hipGraphLaunch(execs[r], streams[r])
            sync_all(streams)
        for r in range(N):   # three in-place sums: total, then N x, then N x again
            np.testing.assert_array_equal(bufs[r].copy_to_host(), total * N * N)
        total *= N ** 3
        assert len(prof.collectives) == 3 and all(c.done for c in prof.collectives)


def test_work_after_a_part_queued_before_its_peers_is_reported():
    """Rank 0's graph goes on after its all-reduce; launched before rank 1's, that kernel
    would read the result before it exists (a GPU would hold it back): an error at the
    synchronisation, naming it. Launched after every rank's graph, it is correct."""
    comms = rccl.ncclCommInitAll(2)
    bufs = [None, None]
    streams = []
    for r in range(2):
        hip.hipSetDevice(r)
        bufs[r] = hip.to_device(np.full(COUNT, r + 1, np.float32))
        streams.append(hip.hipStreamCreate())
    hip.hipSetDevice(0)
    for s in streams:
        hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    rccl.ncclGroupStart()
    for r in range(2):
        rccl.ncclAllReduce(bufs[r], bufs[r], COUNT, rccl.ncclFloat, rccl.ncclSum, comms[r],
                           streams[r])
    rccl.ncclGroupEnd()
    add[1, 64, streams[0]](bufs[0], np.float32(100.0))
    execs = [hip.hipGraphInstantiate(hip.hipStreamEndCapture(s)) for s in streams]
    hip.hipGraphLaunch(execs[1], streams[1])         # rank 1 first: fine
    hip.hipGraphLaunch(execs[0], streams[0])
    sync_all(streams)
    np.testing.assert_array_equal(bufs[0].copy_to_host(), 103)
    hip.hipGraphLaunch(execs[0], streams[0])         # rank 0 first: its kernel is early
    hip.hipGraphLaunch(execs[1], streams[1])
    with pytest.raises(rccl.NcclError) as err:
        sync_all(streams)
    assert err.value.status == rccl.ncclInvalidUsage
    assert "add" in str(err.value) and "rank 1's" in str(err.value)


def test_a_rank_graph_launched_fewer_times_is_reported_not_hung():
    comms = rccl.ncclCommInitAll(2)
    bufs, streams = [], []
    for r in range(2):
        hip.hipSetDevice(r)
        bufs.append(hip.to_device(np.ones(COUNT, np.float32)))
        streams.append(hip.hipStreamCreate())
    hip.hipSetDevice(0)
    for s in streams:
        hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    rccl.ncclGroupStart()
    for r in range(2):
        rccl.ncclAllReduce(bufs[r], bufs[r], COUNT, rccl.ncclFloat, rccl.ncclSum, comms[r],
                           streams[r])
    rccl.ncclGroupEnd()
    execs = [hip.hipGraphInstantiate(hip.hipStreamEndCapture(s)) for s in streams]
    hip.hipGraphLaunch(execs[0], streams[0])
    with pytest.raises(rccl.NcclError) as err:    # rank 1 never launched: a GPU would hang
        hip.hipStreamSynchronize(streams[0])
    assert err.value.status == rccl.ncclInvalidUsage and "[1]" in str(err.value)
    assert "for ever" in str(err.value)


def test_captured_and_uncaptured_ranks_meet_once():
    """RCCL allows one rank's stream captured and another's not (they are different
    communicators): the uncaptured part is queued at the call, so exactly one launch of
    the graph meets it."""
    comms = rccl.ncclCommInitAll(2)
    bufs, streams = [], []
    for r in range(2):
        hip.hipSetDevice(r)
        bufs.append(hip.to_device(np.full(COUNT, 10.0 * (r + 1), np.float32)))
        streams.append(hip.hipStreamCreate())
    hip.hipSetDevice(0)
    hip.hipStreamBeginCapture(streams[0], hip.hipStreamCaptureModeGlobal)
    rccl.ncclGroupStart()
    for r in range(2):
        rccl.ncclAllReduce(bufs[r], bufs[r], COUNT, rccl.ncclFloat, rccl.ncclSum, comms[r],
                           streams[r])
    rccl.ncclGroupEnd()
    exe = hip.hipGraphInstantiate(hip.hipStreamEndCapture(streams[0]))
    hip.hipGraphLaunch(exe, streams[0])
    sync_all(streams)
    for r in range(2):
        np.testing.assert_array_equal(bufs[r].copy_to_host(), 30)
    hip.hipGraphLaunch(exe, streams[0])           # rank 1 has no second part
    with pytest.raises(rccl.NcclError) as err:
        hip.hipStreamSynchronize(streams[0])
    assert err.value.status == rccl.ncclInvalidUsage


def test_end_capture_with_a_collective_whose_peers_never_called_it():
    comms = rccl.ncclCommInitAll(2)
    bufs, streams = [], []
    for r in range(2):
        hip.hipSetDevice(r)
        bufs.append(hip.to_device(np.full(COUNT, r + 1.0, np.float32)))
        streams.append(hip.hipStreamCreate())
    hip.hipSetDevice(0)
    hip.hipStreamBeginCapture(streams[0], hip.hipStreamCaptureModeGlobal)
    rccl.ncclAllReduce(bufs[0], bufs[0], COUNT, rccl.ncclFloat, rccl.ncclSum, comms[0],
                       streams[0])               # no group: waits for rank 1's call
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamEndCapture(streams[0])
    assert err.value.code == E.hipErrorStreamCaptureUnjoined
    assert "ncclAllReduce on rank 0 waits for rank(s) [1]" in str(err.value)
    assert "ncclGroupStart" in str(err.value)
    # the call was dropped: the communicator and the stream work as before
    rccl.ncclGroupStart()
    for r in range(2):
        rccl.ncclAllReduce(bufs[r], bufs[r], COUNT, rccl.ncclFloat, rccl.ncclSum, comms[r],
                           streams[r])
    rccl.ncclGroupEnd()
    sync_all(streams)
    np.testing.assert_array_equal(bufs[1].copy_to_host(), 3)


def test_end_capture_inside_an_open_group():
    comms = rccl.ncclCommInitAll(2)
    hip.hipSetDevice(0)
    s = hip.hipStreamCreate()
    d = hip.to_device(np.ones(COUNT, np.float32))
    hip.hipStreamBeginCapture(s, hip.hipStreamCaptureModeGlobal)
    rccl.ncclGroupStart()
    rccl.ncclAllReduce(d, d, COUNT, rccl.ncclFloat, rccl.ncclSum, comms[0], s)
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamEndCapture(s)
    assert err.value.code == E.hipErrorStreamCaptureUnjoined
    assert "ncclGroupEnd has not closed" in str(err.value)
    rccl.ncclGroupEnd()                           # the dropped call is not run later
    assert not comms[0].clique.pending[0]


def test_forked_peer_never_joined_back():
    comms = rccl.ncclCommInitAll(2)
    bufs = per_rank(lambda r: hip.to_device(np.ones(COUNT, np.float32)))[:2]
    streams = per_rank(lambda r: hip.hipStreamCreate())[:2]
    fork = hip.hipEventCreate()
    hip.hipStreamBeginCapture(streams[0], hip.hipStreamCaptureModeGlobal)
    hip.hipEventRecord(fork, streams[0])
    hip.hipStreamWaitEvent(streams[1], fork)
    rccl.ncclGroupStart()
    for r in range(2):
        rccl.ncclAllReduce(bufs[r], bufs[r], COUNT, rccl.ncclFloat, rccl.ncclSum, comms[r],
                           streams[r])
    rccl.ncclGroupEnd()
    with pytest.raises(hip.HipError) as err:       # rank 1's part never joined stream 0
        hip.hipStreamEndCapture(streams[0])
    assert err.value.code == E.hipErrorStreamCaptureUnjoined
    assert "ncclAllReduce (RING) on device 1" in str(err.value)


def test_one_communicator_with_captured_and_uncaptured_streams_in_a_group():
    """NCCL's rule (src/enqueue.cc) for one communicator's calls in a group."""
    comms = rccl.ncclCommInitAll(2)
    hip.hipSetDevice(0)
    a, b = hip.hipStreamCreate(), hip.hipStreamCreate()
    d = hip.to_device(np.ones(COUNT, np.float32))
    hip.hipStreamBeginCapture(a, hip.hipStreamCaptureModeGlobal)
    rccl.ncclGroupStart()
    rccl.ncclAllReduce(d, d, COUNT, rccl.ncclFloat, rccl.ncclSum, comms[0], a)
    rccl.ncclAllReduce(d, d, COUNT, rccl.ncclFloat, rccl.ncclSum, comms[0], b)
    with pytest.raises(rccl.NcclError) as err:
        rccl.ncclGroupEnd()
    assert err.value.status == rccl.ncclInvalidUsage
    assert "all uncaptured or all captured by the same graph" in str(err.value)
    assert hip.hipGraphGetNodes(hip.hipStreamEndCapture(a)) == []


def test_collective_on_an_invalidated_capture_is_an_unhandled_hip_error():
    comms = rccl.ncclCommInitAll(2)
    bufs = per_rank(lambda r: hip.to_device(np.ones(COUNT, np.float32)))[:2]
    streams = per_rank(lambda r: hip.hipStreamCreate())[:2]
    fork = hip.hipEventCreate()
    hip.hipStreamBeginCapture(streams[0], hip.hipStreamCaptureModeGlobal)
    hip.hipEventRecord(fork, streams[0])
    hip.hipStreamWaitEvent(streams[1], fork)
    with pytest.raises(hip.HipError):
        hip.hipMalloc(64)                          # unsafe under a global-mode capture
    rccl.ncclGroupStart()
    for r in range(2):
        rccl.ncclAllReduce(bufs[r], bufs[r], COUNT, rccl.ncclFloat, rccl.ncclSum, comms[r],
                           streams[r])
    with pytest.raises(rccl.NcclError) as err:
        rccl.ncclGroupEnd()
    assert err.value.status == rccl.ncclUnhandledCudaError
    assert "hipErrorStreamCaptureInvalidated" in str(err.value)
    with pytest.raises(hip.HipError) as err:
        hip.hipStreamEndCapture(streams[0])
    assert err.value.code == E.hipErrorStreamCaptureInvalidated


# modeled time ------------------------------------------------------------------------------
def _all_reduce_per_call(ngpus, calls, nbytes):
    """Modeled seconds per ``nbytes`` all-reduce on ``ngpus`` GPUs in a loop of ``calls``,
    from one host thread: through the streams, and as one captured graph; also the host
    time one graph launch takes, and the collective's own modeled duration."""
    gpusim.set_system(ngpus=ngpus)
    sched = get_system().scheduler
    comms = rccl.ncclCommInitAll(ngpus)
    count = nbytes // 4
    send, recv, streams = [], [], []
    for r in range(ngpus):
        hip.hipSetDevice(r)
        send.append(hip.to_device(np.full(count, r + 1, np.float32)))
        recv.append(hip.device_array(count, np.float32))
        streams.append(hip.hipStreamCreate())
    hip.hipSetDevice(0)

    def loop():
        for _ in range(calls):
            rccl.ncclGroupStart()
            for r in range(ngpus):
                rccl.ncclAllReduce(send[r], recv[r], count, rccl.ncclFloat32, rccl.ncclSum,
                                   comms[r], streams[r])
            rccl.ncclGroupEnd()

    def timed(issue):
        issue()
        sync_all(streams)   # warm: compiled, and the clocks past the set-up copies
        start = sched.host_time
        with gpusim.profile() as prof:
            issue()
            host = sched.host_time - start
            sync_all(streams)
        return (sched.host_time - start) / calls, host, prof

    plain, plain_host, _ = timed(loop)
    graph = capture_all(streams, loop)
    exe = hip.hipGraphInstantiate(graph)
    captured, graph_host, prof = timed(lambda: hip.hipGraphLaunch(exe, streams[0]))
    np.testing.assert_array_equal(recv[ngpus - 1].copy_to_host(),
                                  ngpus * (ngpus + 1) / 2)
    seconds = prof.kernels[0].duration_ns * 1e-9
    return plain, plain_host, captured, graph_host, seconds, prof


def test_graph_removes_the_host_part_of_each_call_and_keeps_the_device_part():
    """Host part of a call: each rank's kernel is queued for ISSUE_SECONDS (RCCL's
    enqueue + the launch), which a graph replaces by GRAPH_NODE_S per node. Device part:
    the kernel's modeled time (collective_time.LAUNCH_S + the steps), unchanged by a graph."""
    n, calls = 8, 6
    plain, plain_host, captured, graph_host, seconds, prof = _all_reduce_per_call(n, calls, 8)
    assert plain_host == pytest.approx(calls * n * ISSUE_SECONDS)
    assert graph_host == pytest.approx(ISSUE_SECONDS + calls * n * GRAPH_NODE_S)
    # one thread issuing 8 ranks is host-bound through the streams ...
    assert n * ISSUE_SECONDS > seconds
    assert plain == pytest.approx(n * ISSUE_SECONDS, rel=0.05)
    # ... and device-bound in a graph: each call costs the collective's own time, after
    # the launch's one issue and the first call's parts being queued node by node
    assert captured == pytest.approx(
        seconds + (ISSUE_SECONDS + (n - 1) * GRAPH_NODE_S) / calls, abs=1e-9)
    assert [k.duration_ns for k in prof.kernels] == pytest.approx(
        [seconds * 1e9] * n * calls, abs=1)
    records = [r for r in prof.records if isinstance(r, CollectiveRecord)]
    assert len(records) == calls and all(r.done for r in records)
    # the device part: the rccl-tests row's 16 us (docs/rccl.md), what a graph keeps
    algo, _, planned, _ = matching.plan(_fake_calls(n, 2))
    assert algo == "RING" and seconds == pytest.approx(planned, abs=1e-9)


def _fake_calls(n, count):
    comms = rccl.ncclCommInitAll(n)
    return [matching.Call("AllReduce", c, np.zeros(count, np.float32),
                             np.zeros(count, np.float32), count, rccl.ncclFloat32,
                             rccl.ncclSum, None, None) for c in comms]


# ROCm blog 'Understanding RCCL Bandwidth and xGMI Performance on AMD Instinct MI300X'
# (https://rocm.blogs.amd.com/software-tools-optimization/mi300x-rccl-xgmi/README.html),
# all_reduce_perf on 8 x MI300X, one process per GPU: 16.6 us per 8-byte call without a
# graph; with -G 1, 6.0-7.6 us per call from 32 B to 8 KiB (its 8 B and 16 B rows stay at
# 16.4 and 15.8 us).
@pytest.mark.xfail(strict=True, reason=(
    "the model puts the whole 16.2 us of an 8-byte all-reduce on the GPU: collective_time.LAUNCH_S "
    "(5 us) plus a ring's 14 LL hops at RCCL's own tuning-table latency (0.8 us, pinned "
    "by test_semantics); the hops alone are 11.2 us, 1.5x the graph figure. On MI300X "
    "RCCL's small all-reduce is not that ring (MSCCL's one-step all-pairs), which is "
    "not modeled; see docs/graphs.md"))
def test_captured_8_byte_all_reduce_reaches_the_blogs_graph_figure():
    captured = _all_reduce_per_call(8, 4, 8)[2]
    assert 6.0e-6 / 1.3 <= captured <= 7.6e-6 * 1.3
