"""Run by tests/rccl/test_mpi.py under mpiexec: one RCCL rank per MPI process.

    mpiexec -n N python mpi_job.py MODE
MODE: collectives (every collective vs NumPy, then Send/Recv and Split across the
processes), mismatch_count, mismatch_order, hung (the last rank stops answering for a
while before its collective), p2p_errors (2 ranks: a Send/Recv count mismatch, two
ungrouped sends before their receives, a Split that one rank skips).
Each process writes 'rank R: ok' or 'rank R: <status name>: <message>' (one line per
phase) to $MPI_JOB_OUT/rank<R>.txt (mpiexec may interleave the processes' stdout).
"""

import os
import sys
import time

import numpy as np
from mpi4py import MPI

from gpusim import hip, rccl


def main(mode):
    world = MPI.COMM_WORLD
    me, n = world.Get_rank(), world.Get_size()
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
        if mode == "collectives":
            check_all(comm, me, n, xs, send, recv, count)
            check_p2p_and_split(comm, me, n, xs, send, recv, count)
        elif mode == "p2p_errors":
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


def check_all(comm, me, n, xs, send, recv, count):
    def run(fn):
        fn()
        hip.hipDeviceSynchronize()
        return recv.copy_to_host()

    total = np.sum([x[:count] for x in xs], axis=0)
    got = run(lambda: rccl.ncclAllReduce(send, recv, count, rccl.ncclDouble, rccl.ncclSum,
                                         comm, 0))
    np.testing.assert_allclose(got[:count], total, rtol=1e-12)
    got = run(lambda: rccl.ncclAllGather(send, recv, count, rccl.ncclDouble, comm, 0))
    np.testing.assert_array_equal(got, np.concatenate([x[:count] for x in xs]))
    got = run(lambda: rccl.ncclBroadcast(send, recv, count, rccl.ncclDouble, 1 % n, comm, 0))
    np.testing.assert_array_equal(got[:count], xs[1 % n][:count])
    got = run(lambda: rccl.ncclReduceScatter(send, recv, count, rccl.ncclDouble, rccl.ncclMax,
                                             comm, 0))
    np.testing.assert_array_equal(got[:count], np.max(xs, axis=0)[me * count:(me + 1) * count])
    got = run(lambda: rccl.ncclAllToAll(send, recv, count, rccl.ncclDouble, comm, 0))
    want = np.concatenate([x[me * count:(me + 1) * count] for x in xs])
    np.testing.assert_array_equal(got, want)


def check_p2p_and_split(comm, me, n, xs, send, recv, count):
    nxt, prev = (me + 1) % n, (me - 1) % n
    # a grouped ring exchange, receive posted first: a group cannot deadlock
    rccl.ncclGroupStart()
    rccl.ncclRecv(recv, count, rccl.ncclDouble, prev, comm, 0)
    rccl.ncclSend(send, count, rccl.ncclDouble, nxt, comm, 0)
    rccl.ncclGroupEnd()
    hip.hipDeviceSynchronize()
    np.testing.assert_array_equal(recv.copy_to_host()[:count], xs[prev][:count])
    # an ungrouped pipeline 0 -> 1 -> ... -> n-1, forwarding rank 0's data
    if me > 0:
        rccl.ncclRecv(recv, count, rccl.ncclDouble, me - 1, comm, 0)
    if me < n - 1:
        rccl.ncclSend(send if me == 0 else recv, count, rccl.ncclDouble, me + 1, comm, 0)
    hip.hipDeviceSynchronize()
    if me == n - 1:
        np.testing.assert_array_equal(recv.copy_to_host()[:count], xs[0][:count])
    # split: rank 1 opts out, the others form one communicator ordered by -rank
    part = rccl.ncclCommSplit(comm, rccl.NCCL_SPLIT_NOCOLOR if me == 1 else 0, -me)
    members = sorted(set(range(n)) - {1}, reverse=True)
    if me == 1:
        assert part is None
    else:
        assert rccl.ncclCommUserRank(part) == members.index(me)
        assert rccl.ncclCommCount(part) == len(members)
        rccl.ncclAllReduce(send, recv, count, rccl.ncclDouble, rccl.ncclSum, part, 0)
        hip.hipDeviceSynchronize()
        want = np.sum([xs[r][:count] for r in members], axis=0)
        np.testing.assert_allclose(recv.copy_to_host()[:count], want, rtol=1e-12)
    # all ranks, reversed, then a send/receive pair on the new communicator
    rev = rccl.ncclCommSplit(comm, 0, n - me)
    me2 = rccl.ncclCommUserRank(rev)
    assert me2 == n - 1 - me
    if me2 in (0, 1) and n > 1:
        call = rccl.ncclSend if me2 == 0 else rccl.ncclRecv
        call(send if me2 == 0 else recv, count, rccl.ncclDouble, 1 - me2, rev, 0)
        hip.hipDeviceSynchronize()
        if me2 == 1:
            np.testing.assert_array_equal(recv.copy_to_host()[:count], xs[n - 1][:count])


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
    main(sys.argv[1])
