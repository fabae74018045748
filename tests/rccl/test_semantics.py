"""Groups, errors with RCCL's statuses, communicator lifecycle, the model (ring vs tree,
NCCL_ALGO, busbw factors) and the records a collective leaves in the profiler."""

import numpy as np
import pytest
from rccl_helpers import device_buffers, on_every_rank

import gpusim
from gpusim import hip, rccl
from gpusim.libs.rccl import launch, model
from gpusim.profiler import CollectiveRecord


def plan(n, count, algo_env, monkeypatch):
    """The modeled time of an n-rank float AllReduce of ``count`` elements."""
    if algo_env:
        monkeypatch.setenv("NCCL_ALGO", algo_env)
    else:
        monkeypatch.delenv("NCCL_ALGO", raising=False)
    comms = rccl.ncclCommInitAll(n)
    bufs = [np.zeros(count, np.float32) for _ in range(n)]
    calls = [launch.Call("AllReduce", c, b, b, count, rccl.ncclFloat, rccl.ncclSum, None,
                         None) for c, b in zip(comms, bufs, strict=True)]
    algo, _, seconds, _ = launch.plan(calls)
    return algo, seconds


def test_tree_wins_small_ring_wins_large_and_rccl_picks_the_faster(monkeypatch):
    small, large = 1 << 10, 64 << 20
    ring_s, tree_s = (plan(8, small, a, monkeypatch)[1] for a in ("Ring", "Tree"))
    ring_l, tree_l = (plan(8, large // 4, a, monkeypatch)[1] for a in ("Ring", "Tree"))
    assert tree_s < ring_s and ring_l < tree_l   # the crossover
    assert plan(8, small, None, monkeypatch)[0] == "TREE"
    assert plan(8, large // 4, None, monkeypatch)[0] == "RING"


def test_nccl_algo_unknown_is_an_error(monkeypatch):
    with pytest.raises(rccl.NcclError) as err:
        plan(4, 100, "CollNet", monkeypatch)
    assert err.value.status == rccl.ncclInvalidArgument and "COLLNET" in str(err.value)


def test_tree_result_matches_numpy(monkeypatch):
    monkeypatch.setenv("NCCL_ALGO", "Tree")
    n, count = 8, 5000
    xs = [np.random.default_rng(r).standard_normal(count) for r in range(n)]
    bufs = device_buffers(xs)
    comms = rccl.ncclCommInitAll(n)
    with gpusim.profile() as prof:
        on_every_rank(lambda r, c: rccl.ncclAllReduce(bufs[r], bufs[r], count, rccl.ncclDouble,
                                                      rccl.ncclSum, c, 0), comms)
    rec = [r for r in prof.records if isinstance(r, CollectiveRecord)][0]
    assert rec.algorithm == "TREE"
    np.testing.assert_allclose(bufs[3].copy_to_host(), np.sum(xs, axis=0), rtol=1e-12)


@pytest.mark.parametrize("coll,n,factor", [("AllReduce", 8, 1.75), ("AllGather", 4, 0.75),
                                           ("ReduceScatter", 2, 0.5), ("AllToAll", 8, 0.875),
                                           ("Broadcast", 8, 1.0), ("Reduce", 3, 1.0)])
def test_busbw_factors_are_nccl_tests(coll, n, factor):
    assert model.bus_factor(coll, n) == pytest.approx(factor)


def test_record_steps_and_kernels_on_each_device_timeline():
    n, count = 4, 1 << 16
    bufs = device_buffers([np.ones(count, np.float32)] * n)
    comms = rccl.ncclCommInitAll(n)
    with gpusim.profile() as prof:
        on_every_rank(lambda r, c: rccl.ncclAllReduce(bufs[r], bufs[r], count, rccl.ncclFloat,
                                                      rccl.ncclSum, c, 0), comms, )
    rec = [r for r in prof.records if isinstance(r, CollectiveRecord)][0]
    kernels = [k for k in prof.kernels if k.name.startswith("ncclAllReduce")]
    assert sorted(k.device for k in kernels) == [0, 1, 2, 3]
    assert all(rec.start_ns <= k.start_ns < k.end_ns <= rec.end_ns for k in kernels)
    assert len({k.duration_ns for k in kernels}) == 1
    assert rec.steps and all(rec.start_ns <= s.start_ns < s.end_ns <= rec.end_ns
                             for s in rec.steps)
    if rec.algorithm == "RING":  # every byte of 2(n-1)/n x size crosses some link
        moved = sum(s.nbytes for s in rec.steps)
        assert moved == 2 * (n - 1) * count * 4
    assert {s.link for s in rec.steps} == {"xGMIx1"}


def test_mismatched_calls_fail_with_invalid_usage():
    comms = rccl.ncclCommInitAll(2)
    d = device_buffers([np.zeros(10, np.float32)] * 2)
    rccl.ncclAllReduce(d[0], d[0], 10, rccl.ncclFloat, rccl.ncclSum, comms[0], 0)
    with pytest.raises(rccl.NcclError) as err:
        rccl.ncclAllReduce(d[1], d[1], 8, rccl.ncclFloat, rccl.ncclSum, comms[1], 0)
    assert err.value.status == rccl.ncclInvalidUsage
    assert "count 10" in str(err.value) and "count 8" in str(err.value)


@pytest.mark.parametrize("bad", ["datatype", "op", "root", "buffer", "stream", "count"])
def test_argument_errors(bad):
    comms = rccl.ncclCommInitAll(2)
    d = device_buffers([np.zeros(10, np.float32)] * 2)
    args = dict(send=d[0], recv=d[0], count=10, datatype=rccl.ncclFloat, root=0, stream=0)
    if bad == "datatype":
        args["datatype"] = 42
    if bad == "op":
        pass
    if bad == "root":
        args["root"] = 2
    if bad == "buffer":
        args["recv"] = d[1]   # lives on device 1, rank 0 is on device 0
    if bad == "stream":
        hip.hipSetDevice(1)
        args["stream"] = hip.hipStreamCreate()
        hip.hipSetDevice(0)
    if bad == "count":
        args["count"] = 11    # more than the buffer holds
    with pytest.raises(rccl.NcclError) as err:
        if bad == "op":
            rccl.ncclAllReduce(d[0], d[0], 10, rccl.ncclFloat, 9, comms[0], 0)
        else:
            rccl.ncclReduce(args["send"], args["recv"], args["count"], args["datatype"],
                            rccl.ncclSum, args["root"], comms[0], args["stream"])
    assert err.value.status == rccl.ncclInvalidArgument


def test_comm_lifecycle_and_init_rank():
    uid = rccl.ncclGetUniqueId()
    assert len(uid.internal) == rccl.NCCL_UNIQUE_ID_BYTES
    comms = []
    for r in range(3):
        hip.hipSetDevice(r + 2)
        comms.append(rccl.ncclCommInitRank(3, uid, r))
        if r < 2:
            with pytest.raises(rccl.NcclError, match="only"):
                rccl.ncclCommCount(comms[0])
    hip.hipSetDevice(0)
    assert [rccl.ncclCommCuDevice(c) for c in comms] == [2, 3, 4]
    rccl.ncclCommFinalize(comms[0])
    rccl.ncclCommDestroy(comms[0])
    with pytest.raises(rccl.NcclError) as err:
        rccl.ncclCommCount(comms[0])
    assert err.value.status == rccl.ncclInvalidUsage
    rccl.ncclCommAbort(comms[1])
    with pytest.raises(rccl.NcclError):
        rccl.ncclCommAbort(comms[1])


def test_split_and_nocolor():
    comms = rccl.ncclCommInitAll(4)
    new = [rccl.ncclCommSplit(c, rccl.NCCL_SPLIT_NOCOLOR if r == 3 else 0, -r)
           for r, c in enumerate(comms)]
    assert new[3] is None
    assert [rccl.ncclCommUserRank(c) for c in new[:3]] == [2, 1, 0]   # ordered by key
    assert rccl.ncclCommCount(new[0]) == 3


def test_group_end_without_start_and_nesting():
    with pytest.raises(rccl.NcclError) as err:
        rccl.ncclGroupEnd()
    assert err.value.status == rccl.ncclInvalidUsage
    comms = rccl.ncclCommInitAll(2)
    d = device_buffers([np.ones(4, np.float32)] * 2)
    rccl.ncclGroupStart()
    rccl.ncclGroupStart()
    rccl.ncclAllReduce(d[0], d[0], 4, rccl.ncclFloat, rccl.ncclSum, comms[0], 0)
    rccl.ncclGroupEnd()
    rccl.ncclAllReduce(d[1], d[1], 4, rccl.ncclFloat, rccl.ncclSum, comms[1], 0)
    rccl.ncclGroupEnd()
    np.testing.assert_array_equal(d[1].copy_to_host(), 2.0)


def test_error_strings():
    assert rccl.ncclGetErrorString(rccl.ncclSuccess) == "no error"
    assert rccl.ncclResult_t.ncclRemoteError == 6 and rccl.ncclBfloat16 == 9
