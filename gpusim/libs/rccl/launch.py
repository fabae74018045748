"""Posting calls, grouping them, matching the ranks' calls and queuing the result.

Every collective call becomes a ``Call`` posted to its clique. Inside
ncclGroupStart/End calls are held until the outermost ncclGroupEnd. A collective runs
once every rank of the clique has posted one; the ranks' calls at the head of their
queues must agree (same collective, count, datatype, op, root), else every call of that
collective fails with ncclInvalidUsage naming what differs. Sends and receives pair up
by (sender, receiver) in order.

Once matched, the collective is queued on each rank's stream (``streams.enqueue``, a
kernel named after the collective on each device's timeline) after the work already
queued on every participating stream; the data moves when the last rank's part runs,
and one ``CollectiveRecord`` (gpusim.profiler) records every step with its modeled time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.libs.rccl import algorithms, group, model, mpi
from gpusim.libs.rccl.comm import Clique, ncclComm
from gpusim.libs.rccl.enums import NcclError, ncclDataType_t, ncclRedOp_t, ncclResult_t
from gpusim.libs.rccl.reduce import Reducer
from gpusim.profiler import CollectiveRecord, CollectiveStep, emit
from gpusim.runtime import streams
from gpusim.runtime.scheduler import Op, Stream


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
    errors = []
    for call in calls:
        clique = call.comm.clique
        try:
            if call.collective in ("Send", "Recv"):
                _post_p2p(clique, call)
            else:
                clique.pending[call.comm.rank].append(call)
                _try_launch(clique)
        except NcclError as exc:
            errors.append(exc)
    if errors:
        raise errors[0]


def _try_launch(clique: Clique) -> None:
    local = sorted(clique.comms)
    while all(clique.pending.get(r) for r in local):
        heads = [clique.pending[r].pop(0) for r in local]
        if clique.mpi is not None:
            heads = _all_ranks(clique, heads)
        if len({c.signature() for c in heads}) > 1:
            lines = "; ".join(f"rank {c.comm.rank}: {_describe(c)}" for c in heads)
            raise NcclError(ncclResult_t.ncclInvalidUsage,
                            f"mismatched collective calls on one communicator ({lines}); "
                            "every rank must make the same calls in the same order")
        launch(clique, heads)


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


def _post_p2p(clique: Clique, call: Call) -> None:
    me, peer = call.comm.rank, call.root
    if peer not in clique.comms:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"nccl{call.collective}: rank {peer} lives in another MPI process; "
                        "the emulator pairs sends and receives within one process only")
    key = ("Send", me, peer) if call.collective == "Send" else ("Recv", peer, me)
    other = ("Recv",) + key[1:] if call.collective == "Send" else ("Send",) + key[1:]
    waiting = clique.p2p.get(other)
    if not waiting:
        clique.p2p.setdefault(key, []).append(call)
        return
    match = waiting.pop(0)
    send, recv = (call, match) if call.collective == "Send" else (match, call)
    if (send.count, send.datatype) != (recv.count, recv.datatype):
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"ncclSend from rank {send.comm.rank} ({send.count} x "
                        f"{send.datatype.name}) does not match ncclRecv on rank "
                        f"{recv.comm.rank} ({recv.count} x {recv.datatype.name})")
    devices = [send.comm.device, recv.comm.device]
    nbytes = send.count * send.send.itemsize
    seconds, steps = model.schedule([(0, 0, 1, nbytes)] if nbytes else [], devices)

    def run() -> None:
        recv.recv[:send.count] = send.send[:send.count]

    _enqueue("SendRecv", "P2P", [send, recv], devices, run, seconds, steps, nbytes, 1)


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
    nchannels = model.channels_for(per_rank, n)
    reducer = Reducer(first.op, dtype, n) if first.op is not None else None
    job = algorithms.Job(first.collective, n, first.count, itemsize, reducer, first.root or 0,
                         rings=model.rings_for(devices), trees=model.dtrees(n),
                         nchannels=nchannels)
    options = {"AllReduce": ["RING", "TREE"]}.get(first.collective, None)
    if options is None:
        options = ["P2P"] if first.collective in ("Gather", "Scatter", "AllToAll") else ["RING"]
    forced = model.forced_algorithm(first.collective)
    if forced in options:
        options = [forced]
    best = None
    for algo in options:
        job.chunk_elems = max(1, (model.TREE_CHUNK_BYTES if algo == "TREE"
                                  else model.RING_CHUNK_BYTES) // itemsize)
        transfers = algorithms.ALGORITHMS[(first.collective, algo)](job) if n > 1 else []
        seconds, steps = model.schedule(transfers, devices)
        if best is None or seconds < best[2]:
            best = (algo, job.chunk_elems, seconds, steps)
    algo, job.chunk_elems, seconds, steps = best
    return algo, job, seconds, steps


def launch(clique: Clique, calls: list[Call]) -> None:
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
    _enqueue(first.collective, algo, calls, [c.comm.device for c in calls], run, seconds,
             steps, nbytes, job.nchannels)


def _enqueue(collective: str, algo: str, calls: list[Call], devices: list[int], run: Any,
             seconds: float, steps: list[dict], nbytes: int, nchannels: int) -> None:
    calls = [c for c in calls if c.stream is not None]  # other processes queue their own
    before = [c.stream.tail for c in calls if c.stream.tail is not None]
    name = f"nccl{collective}"
    ops: list[Op] = []
    for i, call in enumerate(calls):
        last = i == len(calls) - 1
        ops.append(streams.enqueue(
            call.stream, run if last else (lambda: None), name=f"{name} ({algo})",
            kind="kernel", waits=before,
            info={"grid": (nchannels, 1, 1), "block": (256, 1, 1), "seconds": seconds}))
    record = CollectiveRecord(
        name=name, device=devices[0], stream=calls[0].stream.handle, collective=collective,
        algorithm=algo, nranks=len(calls), devices=devices,
        streams=[c.stream.handle for c in calls], count=calls[0].count,
        datatype=calls[0].datatype.name, op=calls[0].op.name if calls[0].op else None,
        root=calls[0].root, nbytes=nbytes, nchannels=nchannels,
        bus_factor=model.bus_factor(collective, len(calls)))
    emit(record)
    previous = ops[-1].on_done

    def complete(op: Op) -> None:
        if previous is not None:
            previous(op)
        # Each rank's kernel starts when its stream reaches it; the steps start once
        # every rank has arrived. The record spans the first start to the last end.
        start = max(o.start for o in ops)
        record.start_ns = round(min(o.start for o in ops) * 1e9)
        record.end_ns = round(max(o.end for o in ops) * 1e9)
        record.done = op.error is None
        record.steps = [CollectiveStep(s["step"], s["src"], s["dst"], s["bytes"], s["link"],
                                       round((start + s["start_s"]) * 1e9),
                                       round((start + s["end_s"]) * 1e9)) for s in steps]

    ops[-1].on_done = complete
