"""Broadcast, AllGather, Gather, Scatter, AllToAll, Send/Recv: exact copies, any rank
count, sizes that do not divide evenly, in place where nccl.h defines it."""

import numpy as np
import pytest
from rccl_helpers import DTYPES, device_buffers, host, on_every_rank

from gpusim import hip, rccl
from gpusim.libs.rccl.enums import storage_of

NRANKS = [1, 2, 3, 4, 8]
COUNT = 77


def ranks_data(n, count, dtype=np.int64):
    return [((np.arange(count) + 1000 * r) % 251).astype(dtype) for r in range(n)]


@pytest.mark.parametrize("n", NRANKS)
@pytest.mark.parametrize("datatype", DTYPES + [rccl.ncclFloat8e4m3, rccl.ncclFloat8e5m2],
                         ids=lambda d: d.name)
def test_broadcast_allgather(n, datatype):
    dtype = storage_of(datatype)
    xs = ranks_data(n, COUNT, dtype)
    root = n // 2
    sends = device_buffers(xs)
    bcast = device_buffers([np.zeros(COUNT, dtype) for _ in xs])
    gathered = device_buffers([np.zeros(COUNT * n, dtype) for _ in xs])
    comms = rccl.ncclCommInitAll(n)

    def calls(r, c):
        rccl.ncclBroadcast(sends[r] if r == root else None, bcast[r], COUNT, datatype, root,
                           c, 0)
        rccl.ncclAllGather(sends[r], gathered[r], COUNT, datatype, c, 0)

    on_every_rank(calls, comms)
    for r in range(n):  # bytes (FP8 data includes NaNs)
        assert host(bcast[r]).tobytes() == xs[root].tobytes()
        assert host(gathered[r]).tobytes() == np.concatenate(xs).tobytes()


@pytest.mark.parametrize("n", NRANKS)
def test_gather_scatter_alltoall(n):
    root = 0
    xs = ranks_data(n, COUNT * n)
    sends = device_buffers(xs)
    gathered = device_buffers([np.zeros(COUNT * n, np.int64) for _ in xs])
    scattered = device_buffers([np.zeros(COUNT, np.int64) for _ in xs])
    exchanged = device_buffers([np.zeros(COUNT * n, np.int64) for _ in xs])
    comms = rccl.ncclCommInitAll(n)

    def calls(r, c):
        rccl.ncclGather(sends[r], gathered[r], COUNT, rccl.ncclInt64, root, c, 0)
        rccl.ncclScatter(sends[r], scattered[r], COUNT, rccl.ncclInt64, root, c, 0)
        rccl.ncclAllToAll(sends[r], exchanged[r], COUNT, rccl.ncclInt64, c, 0)

    on_every_rank(calls, comms)
    np.testing.assert_array_equal(host(gathered[root]),
                                  np.concatenate([x[:COUNT] for x in xs]))
    for r in range(n):
        np.testing.assert_array_equal(host(scattered[r]), xs[root][r * COUNT:(r + 1) * COUNT])
        want = np.concatenate([xs[s][r * COUNT:(r + 1) * COUNT] for s in range(n)])
        np.testing.assert_array_equal(host(exchanged[r]), want)


@pytest.mark.parametrize("n", [2, 3, 8])
def test_in_place_allgather_alltoall(n):
    xs = ranks_data(n, COUNT * n)
    bufs = device_buffers(xs)
    comms = rccl.ncclCommInitAll(n)
    on_every_rank(lambda r, c: rccl.ncclAllToAll(bufs[r], bufs[r], COUNT, rccl.ncclInt64,
                                                 c, 0), comms)
    exchanged = [host(b) for b in bufs]
    for r in range(n):
        want = np.concatenate([xs[s][r * COUNT:(r + 1) * COUNT] for s in range(n)])
        np.testing.assert_array_equal(exchanged[r], want)
    # AllGather in place: sendbuff = recvbuff + rank * count
    on_every_rank(lambda r, c: rccl.ncclAllGather(bufs[r].ptr + r * COUNT * 8, bufs[r],
                                                  COUNT, rccl.ncclInt64, c, 0), comms)
    want = np.concatenate([exchanged[r][r * COUNT:(r + 1) * COUNT] for r in range(n)])
    for b in bufs:
        np.testing.assert_array_equal(host(b), want)


@pytest.mark.parametrize("n", [2, 3, 8])
def test_in_place_broadcast_reduce_gather_scatter(n):
    """In place as nccl.h defines it: Broadcast and Reduce with sendbuff == recvbuff,
    Gather with sendbuff = recvbuff + rank * count, Scatter with recvbuff = sendbuff +
    rank * count (on the root; elsewhere the rank's own block)."""
    root = n - 1
    xs = ranks_data(n, COUNT * n)
    bcast, red, gath, scat = (device_buffers(xs) for _ in range(4))
    comms = rccl.ncclCommInitAll(n)

    def calls(r, c):
        rccl.ncclBroadcast(bcast[r], bcast[r], COUNT, rccl.ncclInt64, root, c, 0)
        rccl.ncclReduce(red[r], red[r], COUNT * n, rccl.ncclInt64, rccl.ncclSum, root, c, 0)
        block = r * COUNT * 8
        rccl.ncclGather(gath[r].ptr + block, gath[r] if r == root else None, COUNT,
                        rccl.ncclInt64, root, c, 0)
        rccl.ncclScatter(scat[r] if r == root else None, scat[r].ptr + block, COUNT,
                         rccl.ncclInt64, root, c, 0)

    on_every_rank(calls, comms)
    np.testing.assert_array_equal(host(red[root]), np.sum(xs, axis=0))
    np.testing.assert_array_equal(
        host(gath[root]), np.concatenate([xs[r][r * COUNT:(r + 1) * COUNT] for r in range(n)]))
    for r in range(n):
        np.testing.assert_array_equal(host(bcast[r])[:COUNT], xs[root][:COUNT])
        np.testing.assert_array_equal(host(scat[r])[r * COUNT:(r + 1) * COUNT],
                                      xs[root][r * COUNT:(r + 1) * COUNT])


def test_send_recv_ring_shift_in_a_group():
    n = 4
    xs = ranks_data(n, COUNT)
    sends = device_buffers(xs)
    recvs = device_buffers([np.zeros(COUNT, np.int64) for _ in xs])
    comms = rccl.ncclCommInitAll(n)

    def shift(r, c):
        rccl.ncclSend(sends[r], COUNT, rccl.ncclInt64, (r + 1) % n, c, 0)
        rccl.ncclRecv(recvs[r], COUNT, rccl.ncclInt64, (r - 1) % n, c, 0)

    on_every_rank(shift, comms)
    for r in range(n):
        np.testing.assert_array_equal(host(recvs[r]), xs[(r - 1) % n])


def test_collective_runs_on_each_rank_stream_after_earlier_work():
    """A collective queued on user streams runs after the kernels/memsets before it."""
    n = 2
    comms = rccl.ncclCommInitAll(n)
    bufs, streams = [], []
    for r in range(n):
        hip.hipSetDevice(r)
        streams.append(hip.hipStreamCreate())
        bufs.append(hip.device_array(8, np.int32))
        hip.hipMemsetAsync(bufs[r], r + 1, 32, streams[r])   # bytes r+1: 0x01010101, ...
    rccl.ncclGroupStart()
    for r in range(n):
        rccl.ncclAllReduce(bufs[r], bufs[r], 8, rccl.ncclInt32, rccl.ncclSum, comms[r],
                           streams[r])
    rccl.ncclGroupEnd()
    hip.hipStreamSynchronize(streams[1])
    np.testing.assert_array_equal(host(bufs[1]), np.full(8, 0x01010101 + 0x02020202))
