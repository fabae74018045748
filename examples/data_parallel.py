"""Data-parallel training over RCCL, in one process or several.

    mpiexec -n 4 python examples/data_parallel.py    # 4 processes, one GPU (rank) each
    mpiexec -n 2 python examples/data_parallel.py    # 2 processes, two GPUs each
    python examples/data_parallel.py                 # 1 process, all 4 GPUs

A linear model is trained on 4 ranks, each on its quarter of the data; every step the
ranks' gradients are averaged with ncclAllReduce(ncclAvg) on the emulated GPUs. The
ring runs over the same 4 ranks in every layout, so all three print the same weights,
bit for bit (the last line is a hash of them).
"""

import hashlib
import os

import numpy as np

from gpusim import hip, rccl

NRANKS, FEATURES, SAMPLES, STEPS, LR = 4, 16, 1024, 25, np.float32(0.05)


def processes():
    """(this process's index, number of processes): MPI's when run under mpiexec."""
    if os.environ.get("PMI_SIZE", "1") == "1":
        return 0, 1
    from mpi4py import MPI
    return MPI.COMM_WORLD.Get_rank(), MPI.COMM_WORLD.Get_size()


def share_id(me, nprocs):
    uid = rccl.ncclGetUniqueId() if me == 0 else None
    if nprocs > 1:
        from mpi4py import MPI
        uid = MPI.COMM_WORLD.bcast(uid, root=0)
    return uid


def main():
    me, nprocs = processes()
    if NRANKS % nprocs:
        raise SystemExit(f"run with 1, 2 or 4 processes (each owns {NRANKS} / n ranks)")
    per = NRANKS // nprocs
    mine = list(range(me * per, (me + 1) * per))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((SAMPLES, FEATURES)).astype(np.float32)
    y = x @ np.linspace(-1, 1, FEATURES, dtype=np.float32) + np.float32(0.1)
    uid = share_id(me, nprocs)
    comms, grads = {}, {}
    rccl.ncclGroupStart()
    for r in mine:
        hip.hipSetDevice(r)
        comms[r] = rccl.ncclCommInitRank(NRANKS, uid, r)
        grads[r] = hip.device_array(FEATURES, np.float32)
    rccl.ncclGroupEnd()
    w = np.zeros(FEATURES, np.float32)
    shard = SAMPLES // NRANKS
    for _ in range(STEPS):
        rccl.ncclGroupStart()
        for r in mine:
            xs, ys = x[r * shard:(r + 1) * shard], y[r * shard:(r + 1) * shard]
            g = (np.float32(2 / shard) * xs.T @ (xs @ w - ys)).astype(np.float32)
            hip.hipSetDevice(r)
            grads[r].copy_to_device(g)
            rccl.ncclAllReduce(grads[r], grads[r], FEATURES, rccl.ncclFloat, rccl.ncclAvg,
                               comms[r], 0)
        rccl.ncclGroupEnd()
        hip.hipSetDevice(mine[0])
        w = w - LR * grads[mine[0]].copy_to_host()
    for c in comms.values():
        rccl.ncclCommDestroy(c)
    if me == 0:
        print("weights:", np.array2string(w[:4], precision=6), "...")
        print("sha256:", hashlib.sha256(w.tobytes()).hexdigest()[:16])


if __name__ == "__main__":
    main()
