"""Run by tests/rccl/test_mpi.py under mpiexec: RCCL ranks in MPI processes.

    mpiexec -n N python mpi_job.py MODE [RANKS_PER_PROCESS]
MODE: collectives (every collective vs NumPy, then Send/Recv and Split across the
processes; RANKS_PER_PROCESS ranks in each, default 1), mismatch_count, mismatch_order,
hung (the last rank stops answering for a while before its collective), p2p_errors
(2 ranks: a Send/Recv count mismatch, two ungrouped sends before their receives, a
Split that one rank skips); all but collectives use one rank per process.
Each process writes 'rank R: ok' or 'rank R: <status name>: <message>' (one line per
phase) to $MPI_JOB_OUT/rank<R>.txt (mpiexec may interleave the processes' stdout).
"""

import os
import sys
import time

import numpy as np
from mpi4py import MPI

from gpusim import hip, rccl


def main(mode, per=1):
    world = MPI.COMM_WORLD
    me, n = world.Get_rank(), world.Get_size()
    if mode == "collectives":
        try:
            collectives(world, per)
            report(me, "ok")
        except rccl.NcclError as err:
            report(me, str(err))
        return
    uid = world.bcast(rccl.ncclGetUniqueId() if me == 0 else None, root=0)
    hip.hipSetDevice(me)
    comm = rccl.ncclCommInitRank(n, uid, me)
    count = 1001
    xs = [np.random.default_rng(r).standard_normal(count * n) for r in range(n)]
    send = hip.to_device(xs[me])
    recv = hip.device_array(count * n, np.float64)
    try:
        if mode == "hung" and me == n - 1:
            # Stop answering: the others must give up on their own. (A rank that exits
            # at once is killed together with the others by mpiexec, so cannot be used.)
            time.sleep(2 * float(os.environ["GPUSIM_RCCL_TIMEOUT"]))
            report(me, "woke up")
            return
        if mode == "p2p_errors":
            report(me, " | ".join(p2p_errors(world, me, send, recv)))
            return
        elif mode == "mismatch_count":
            rccl.ncclAllReduce(send, recv, count + me, rccl.ncclDouble, rccl.ncclSum, comm, 0)
        elif mode == "mismatch_order":
            first, second = (("bcast", "sum") if me % 2 else ("sum", "bcast"))
            for what in (first, second):
                if what == "sum":
                    rccl.ncclAllReduce(send, recv, count, rccl.ncclDouble, rccl.ncclSum,
                                       comm, 0)
                else:
                    rccl.ncclBroadcast(send, recv, count, rccl.ncclDouble, 0, comm, 0)
        else:
            rccl.ncclAllReduce(send, recv, count, rccl.ncclDouble, rccl.ncclSum, comm, 0)
        hip.hipDeviceSynchronize()
        report(me, "ok")
    except rccl.NcclError as err:
        report(me, str(err))


def report(me, text):
    with open(os.path.join(os.environ["MPI_JOB_OUT"], f"rank{me}.txt"), "w") as f:
        f.write(f"rank {me}: {text}")


class Ranks:
    """This process's ranks (per of them) of an n-rank communicator, with their data."""

    def __init__(self, world, per, count):
        self.me, self.count = world.Get_rank(), count
        self.n = per * world.Get_size()
        self.mine = list(range(self.me * per, (self.me + 1) * per))
        self.xs = [np.random.default_rng(r).standard_normal(count * self.n)
                   for r in range(self.n)]
        uid = world.bcast(rccl.ncclGetUniqueId() if self.me == 0 else None, root=0)
        self.comm, self.send, self.recv = {}, {}, {}
        rccl.ncclGroupStart()  # a process with several ranks joins them in one group
        for r in self.mine:
            hip.hipSetDevice(r)
            self.comm[r] = rccl.ncclCommInitRank(self.n, uid, r)
            self.send[r] = hip.to_device(self.xs[r])
            self.recv[r] = hip.device_array(count * self.n, np.float64)
        rccl.ncclGroupEnd()

    def each(self, fn, group=True):
        """fn(rank) for every local rank (in one group), then wait for their devices;
        returns the ranks' receive buffers."""
        if group:
            rccl.ncclGroupStart()
        for r in self.mine:
            hip.hipSetDevice(r)
            fn(r)
        if group:
            rccl.ncclGroupEnd()
        for r in self.mine:
            hip.hipSetDevice(r)
            hip.hipDeviceSynchronize()
        return {r: self.recv[r].copy_to_host() for r in self.mine}


def collectives(world, per):
    k = Ranks(world, per, count=1001)
    check_all(k)
    check_p2p_and_split(k)


def check_all(k):
    n, cnt, xs, send, recv, comm = k.n, k.count, k.xs, k.send, k.recv, k.comm
    total = np.sum([x[:cnt] for x in xs], axis=0)
    got = k.each(lambda r: rccl.ncclAllReduce(send[r], recv[r], cnt, rccl.ncclDouble,
                                              rccl.ncclSum, comm[r], 0))
    for r in k.mine:
        np.testing.assert_allclose(got[r][:cnt], total, rtol=1e-12)
    got = k.each(lambda r: rccl.ncclAllGather(send[r], recv[r], cnt, rccl.ncclDouble,
                                              comm[r], 0))
    for r in k.mine:
        np.testing.assert_array_equal(got[r], np.concatenate([x[:cnt] for x in xs]))
    got = k.each(lambda r: rccl.ncclBroadcast(send[r], recv[r], cnt, rccl.ncclDouble, 1 % n,
                                              comm[r], 0))
    for r in k.mine:
        np.testing.assert_array_equal(got[r][:cnt], xs[1 % n][:cnt])
    got = k.each(lambda r: rccl.ncclReduceScatter(send[r], recv[r], cnt, rccl.ncclDouble,
                                                  rccl.ncclMax, comm[r], 0))
    for r in k.mine:
        want = np.max(xs, axis=0)[r * cnt:(r + 1) * cnt]
        np.testing.assert_array_equal(got[r][:cnt], want)
    got = k.each(lambda r: rccl.ncclAllToAll(send[r], recv[r], cnt, rccl.ncclDouble,
                                             comm[r], 0))
    for r in k.mine:
        want = np.concatenate([x[r * cnt:(r + 1) * cnt] for x in xs])
        np.testing.assert_array_equal(got[r], want)


def check_p2p_and_split(k):
    n, cnt, xs, send, recv, comm = k.n, k.count, k.xs, k.send, k.recv, k.comm

    def ring(r):  # receive posted first: a group cannot deadlock
        rccl.ncclRecv(recv[r], cnt, rccl.ncclDouble, (r - 1) % n, comm[r], 0)
        rccl.ncclSend(send[r], cnt, rccl.ncclDouble, (r + 1) % n, comm[r], 0)

    got = k.each(ring)
    for r in k.mine:
        np.testing.assert_array_equal(got[r][:cnt], xs[(r - 1) % n][:cnt])

    def pipeline(r):  # ungrouped, 0 -> 1 -> ... -> n-1, forwarding rank 0's data
        if r > 0:
            rccl.ncclRecv(recv[r], cnt, rccl.ncclDouble, r - 1, comm[r], 0)
        if r < n - 1:
            rccl.ncclSend(send[r] if r == 0 else recv[r], cnt, rccl.ncclDouble, r + 1,
                          comm[r], 0)

    got = k.each(pipeline, group=False)
    if n - 1 in k.mine:
        np.testing.assert_array_equal(got[n - 1][:cnt], xs[0][:cnt])
    # split: rank 1 opts out, the others form one communicator ordered by -rank
    part = {}
    k.each(lambda r: part.update({r: rccl.ncclCommSplit(
        comm[r], rccl.NCCL_SPLIT_NOCOLOR if r == 1 else 0, -r)}))
    members = sorted(set(range(n)) - {1}, reverse=True)
    assert (part.get(1, None)) is None
    inside = [r for r in k.mine if r != 1]
    for r in inside:
        assert rccl.ncclCommUserRank(part[r]) == members.index(r)
        assert rccl.ncclCommCount(part[r]) == len(members)
    rccl.ncclGroupStart()
    for r in inside:
        hip.hipSetDevice(r)
        rccl.ncclAllReduce(send[r], recv[r], cnt, rccl.ncclDouble, rccl.ncclSum, part[r], 0)
    rccl.ncclGroupEnd()
    want = np.sum([xs[r][:cnt] for r in members], axis=0)
    for r in inside:
        hip.hipSetDevice(r)
        hip.hipDeviceSynchronize()
        np.testing.assert_allclose(recv[r].copy_to_host()[:cnt], want, rtol=1e-12)
    # all ranks, reversed, then a send/receive pair on the new communicator
    rev = {}
    k.each(lambda r: rev.update({r: rccl.ncclCommSplit(comm[r], 0, n - r)}))
    pair = [r for r in k.mine if rccl.ncclCommUserRank(rev[r]) in (0, 1)]
    for r in k.mine:
        assert rccl.ncclCommUserRank(rev[r]) == n - 1 - r

    def swap(r):
        if r in pair:  # new rank 0 (old n-1) sends to new rank 1 (old n-2)
            new = rccl.ncclCommUserRank(rev[r])
            call = rccl.ncclSend if new == 0 else rccl.ncclRecv
            call(send[r] if new == 0 else recv[r], cnt, rccl.ncclDouble, 1 - new, rev[r], 0)

    got = k.each(swap)
    if n - 2 in k.mine:
        np.testing.assert_array_equal(got[n - 2][:cnt], xs[n - 1][:cnt])


def p2p_errors(world, me, send, recv):
    """Three mistakes, each must fail on both ranks within the timeout (each on a new
    communicator: a failure breaks the one it happened on)."""
    out = []
    for phase in ("count", "both_send_first", "split_skipped"):
        uid = world.bcast(rccl.ncclGetUniqueId() if me == 0 else None, root=0)
        comm = rccl.ncclCommInitRank(2, uid, me)
        try:
            if phase == "count":
                if me == 0:
                    rccl.ncclSend(send, 10, rccl.ncclDouble, 1, comm, 0)
                else:
                    rccl.ncclRecv(recv, 12, rccl.ncclDouble, 0, comm, 0)
            elif phase == "both_send_first":
                rccl.ncclSend(send, 10, rccl.ncclDouble, 1 - me, comm, 0)
                rccl.ncclRecv(recv, 10, rccl.ncclDouble, 1 - me, comm, 0)
            elif me == 0:
                rccl.ncclCommSplit(comm, 0, 0)
            else:
                rccl.ncclAllReduce(send, recv, 10, rccl.ncclDouble, rccl.ncclSum, comm, 0)
            hip.hipDeviceSynchronize()
            out.append(f"{phase} ok")
        except rccl.NcclError as err:
            out.append(f"{phase} {err}")
    return out


if __name__ == "__main__":
    main(sys.argv[1], *map(int, sys.argv[2:]))
