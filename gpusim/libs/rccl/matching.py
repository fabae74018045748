"""Posting calls, grouping them, matching the ranks' calls and queuing the result.

Every collective call becomes a ``Call`` posted to its clique. Inside
ncclGroupStart/End calls are held until the outermost ncclGroupEnd. A collective runs
once every rank of the clique has posted one; the ranks' calls at the head of their
queues must agree (same collective, count, datatype, op, root), else every call of that
collective fails with ncclInvalidUsage naming what differs. Sends and receives go to
p2p.py, which pairs them by (sender, receiver) in order.

Once matched, the collective is planned (ring / tree, collective_time.py) and queued on each
rank's stream with its record (timeline.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.libs.rccl import algorithms, captured, collective_time, group, mpi, p2p, timeline
from gpusim.libs.rccl.comm import Clique, ncclComm
from gpusim.libs.rccl.enums import NcclError, ncclDataType_t, ncclRedOp_t, ncclResult_t
from gpusim.libs.rccl.reduce import Reducer
from gpusim.runtime.scheduler import Stream


@dataclass(eq=False)
class Call:
    """One rank's call, arguments checked and buffers resolved to NumPy views."""

    collective: str  # AllReduce, ..., Send, Recv
    comm: ncclComm
    send: np.ndarray | None
    recv: np.ndarray | None
    count: int
    datatype: ncclDataType_t
    op: ncclRedOp_t | None
    root: int | None
    stream: Stream | None  # None for a rank of another MPI process

    def signature(self) -> tuple:
        return (self.collective, self.count, self.datatype.name,
                self.op.name if self.op is not None else None, self.root)


def group_start() -> None:
    group.stack.append([])


def group_end() -> None:
    if not group.stack:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        "ncclGroupEnd: no matching ncclGroupStart")
    calls = group.stack.pop()
    if group.stack:  # nested: the outer group takes them
        group.stack[-1].extend(calls)
        return
    joined, group.joins[:] = list(dict.fromkeys(group.joins)), []
    for clique in joined:
        mpi.join(clique)
    submit(calls)


def post(call: Call) -> None:
    """Hold the call in the open group, or submit it now."""
    if group.stack:
        group.stack[-1].append(call)
    else:
        submit([call])


def submit(calls: list[Call]) -> None:
    _check_capture(calls)
    errors = []
    for call in calls:
        clique = call.comm.clique
        if call.collective in ("Send", "Recv"):
            continue
        try:
            clique.pending[call.comm.rank].append(call)
            _match(clique)
        except NcclError as exc:
            errors.append(exc)
    try:  # sends and receives of the batch together (a group pairs them concurrently)
        p2p.submit([c for c in calls if c.collective in ("Send", "Recv")])
    except NcclError as exc:
        errors.append(exc)
    if errors:
        raise errors[0]


def _check_capture(calls: list[Call]) -> None:
    """NCCL's rule for one communicator's calls in a group: their streams are all
    uncaptured or all captured by the same graph (src/enqueue.cc). Different ranks may
    differ (captured.py). Capture across MPI processes is not modeled."""
    seen: dict[int, tuple[Any, Call]] = {}
    for call in calls:
        cap = captured.capture_of(call.stream)
        if cap is not None and call.comm.clique.mpi is not None:
            raise NcclError(ncclResult_t.ncclInvalidUsage,
                            f"nccl{call.collective}: rank {call.comm.rank}'s stream is being "
                            "captured, but its communicator spans MPI processes: the "
                            "emulator swaps the ranks' data between processes at the call, "
                            "so it cannot record it into a graph. Call it uncaptured")
        first = seen.setdefault(id(call.comm), (cap, call))
        if first[0] is not cap:
            raise NcclError(ncclResult_t.ncclInvalidUsage,
                            "Streams given to a communicator within a NCCL group must either "
                            f"be all uncaptured or all captured by the same graph: rank "
                            f"{call.comm.rank}'s nccl{first[1].collective} on "
                            f"{first[1].stream!r} and nccl{call.collective} on "
                            f"{call.stream!r}")


def _match(clique: Clique) -> None:
    local = sorted(clique.comms)
    while all(clique.pending.get(r) for r in local):
        heads = [clique.pending[r].pop(0) for r in local]
        if clique.mpi is not None:
            try:
                heads = _all_ranks(clique, heads)
            except NcclError as exc:  # the processes disagree: the communicator is broken
                clique.failed = str(exc)
                raise
        if len({c.signature() for c in heads}) > 1:
            lines = "; ".join(f"rank {c.comm.rank}: {_describe(c)}" for c in heads)
            raise NcclError(ncclResult_t.ncclInvalidUsage,
                            f"mismatched collective calls on one communicator ({lines}); "
                            "every rank must make the same calls in the same order")
        queue_matched(clique, heads)


def _all_ranks(clique: Clique, heads: list[Call]) -> list[Call]:
    """Calls of every rank: ours, and stand-ins holding the other processes' data."""
    mine = {c.comm.rank: c for c in heads}
    calls = []
    for rank, (name, count, _, _, root), send, recv_size, _ in mpi.exchange(
            clique, heads, _describe):
        if rank in mine:
            calls.append(mine[rank])
            continue
        first = heads[0]
        recv = None if recv_size < 0 else np.zeros(recv_size, send.dtype if send is not None
                                                   else first.recv.dtype)
        calls.append(Call(name, ncclComm(rank, rank, clique), send, recv, count,
                          first.datatype, first.op, root, None))
    return calls


def _describe(call: Call) -> str:
    name, count, dtype, op, root = call.signature()
    extra = (f", {op}" if op else "") + (f", root {root}" if root is not None else "")
    return f"nccl{name}(count {count}, {dtype}{extra})"


def plan(calls: list[Call]) -> tuple[str, algorithms.Job, float, list[dict]]:
    """(algorithm, job, seconds, steps) of a matched collective, without running it."""
    first = calls[0]
    n = len(calls)
    # across MPI processes, rank r is modeled on GPU r of one node
    devices = ([c.comm.device for c in calls] if first.comm.clique.mpi is None
               else list(range(n)))
    dtype = np.dtype(first.send.dtype if first.send is not None else first.recv.dtype)
    itemsize = dtype.itemsize
    per_rank = first.count * itemsize * (n if first.collective in
                                         ("AllGather", "ReduceScatter", "AllToAll") else 1)
    nchannels = collective_time.channels_for(per_rank, n)
    reducer = Reducer(first.op, dtype, n) if first.op is not None else None
    rings = collective_time.rings_for(devices)
    job = algorithms.Job(first.collective, n, first.count, itemsize, reducer, first.root or 0,
                         rings=rings, trees=[collective_time.chain(r) for r in rings],
                         nchannels=nchannels)
    options = {"AllReduce": ["RING", "TREE"]}.get(first.collective, None)
    if options is None:
        options = ["P2P"] if first.collective in ("Gather", "Scatter", "AllToAll") else ["RING"]
    forced = collective_time.forced_algorithm(first.collective)
    if forced in options:
        options = [forced]
    protocols = collective_time.allowed_protocols()
    best = None
    for algo in options:
        job.chunk_elems = max(1, (collective_time.TREE_CHUNK_BYTES if algo == "TREE"
                                  else collective_time.RING_CHUNK_BYTES) // itemsize)
        transfers = algorithms.ALGORITHMS[(first.collective, algo)](job) if n > 1 else []
        # point-to-point collectives run as sends and receives: Simple, as p2p.py times them
        for proto in protocols if algo != "P2P" else ("SIMPLE",):
            seconds, steps = collective_time.schedule(transfers, devices,
                                            *collective_time.protocol_costs(algo, proto))
            if best is None or seconds < best[2]:
                best = (algo, job.chunk_elems, seconds, steps, proto)
    algo, job.chunk_elems, seconds, steps, job.protocol = best
    return algo, job, seconds, steps


def queue_matched(clique: Clique, calls: list[Call]) -> None:
    """Plan a matched collective and queue it on every local rank's stream."""
    algo, job, seconds, steps = plan(calls)
    job.inputs = [c.send for c in calls]
    job.outputs = [c.recv for c in calls]
    first = calls[0]
    nbytes = first.count * (first.send if first.send is not None else first.recv).itemsize
    if first.collective in ("AllGather", "ReduceScatter", "AllToAll", "Gather", "Scatter"):
        nbytes *= len(calls)
    fn = algorithms.ALGORITHMS.get((first.collective, algo))

    def run() -> None:
        fn(job)

    clique.collectives += 1
    timeline.enqueue(first.collective, algo, calls, [c.comm.device for c in calls], run, seconds,
             steps, nbytes, job.nchannels)
