"""Run by tests/rccl/test_mpi.py under mpiexec: one RCCL rank per MPI process.

    mpiexec -n N python mpi_job.py MODE
MODE: collectives (every collective vs NumPy), mismatch_count, mismatch_order, hung
(the last rank stops answering for a while before its collective).
Each process writes one line 'rank R: ok' or 'rank R: <status name>: <message>' to
$MPI_JOB_OUT/rank<R>.txt (mpiexec may interleave the processes' stdout).
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


if __name__ == "__main__":
    main(sys.argv[1])
