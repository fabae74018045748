"""ncclSend / ncclRecv: within one process, and between MPI processes.

NCCL pairs the n-th ncclSend from rank a to rank b with the n-th ncclRecv on rank b
from rank a; their count and datatype must agree, else ncclInvalidUsage names both.

Within one process a pair is matched once both calls are posted, and queued as one
"SendRecv" operation on both ranks' streams (the data moves when both reach it).

Between processes each side queues its own half on its stream. The calls of one batch
(a group, or one call outside a group) are queued sends first, then receives, then the
sends' completions, so the sends and receives of a group progress together and a
grouped exchange cannot deadlock, as with NCCL's fused group kernel:

- a send, when its stream reaches it, posts its data (with count and datatype);
- a receive waits for that data (up to GPUSIM_RCCL_TIMEOUT seconds), checks that the
  calls match, copies the bytes and answers the sender;
- a send completes when the answer comes: a mismatch fails on both ranks, and a
  receive that never runs gives ncclRemoteError. So a send outside a group waits for
  its receive, as NCCL's rendezvous does: two ranks that both send before they
  receive must put the pair in one group, in NCCL as here.

Errors surface where the host synchronises with the stream (as a GPU fault would).
The communicator is then broken, as in NCCL: its queued sends and receives are
dropped and further calls on it fail until it is aborted.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.libs.rccl import collective_time, mpi, timeline
from gpusim.libs.rccl.enums import NcclError, ncclResult_t
from gpusim.runtime import streams


def submit(calls: list[Any]) -> None:
    """Pair (in this process) or queue (across processes) the Send / Recv calls of one
    batch; the first error is raised after all were handled."""
    errors = []
    remote = [c for c in calls if c.root not in c.comm.clique.comms]
    for call in calls:
        if call not in remote:
            try:
                _pair_local(call)
            except NcclError as exc:
                errors.append(exc)
    if remote:
        _queue_remote(remote)
    if errors:
        raise errors[0]


def _mismatch(src: int, count: int, dtype: str, recv: Any) -> str | None:
    if (count, dtype) == (recv.count, recv.datatype.name):
        return None
    return (f"ncclSend from rank {src} ({count} x {dtype}) does not match ncclRecv on "
            f"rank {recv.comm.rank} ({recv.count} x {recv.datatype.name})")


def _pair_local(call: Any) -> None:
    clique, me, peer = call.comm.clique, call.comm.rank, call.root
    key = ("Send", me, peer) if call.collective == "Send" else ("Recv", peer, me)
    other = ("Recv",) + key[1:] if call.collective == "Send" else ("Send",) + key[1:]
    waiting = clique.p2p.get(other)
    if not waiting:
        clique.p2p.setdefault(key, []).append(call)
        return
    match = waiting.pop(0)
    send, recv = (call, match) if call.collective == "Send" else (match, call)
    problem = _mismatch(send.comm.rank, send.count, send.datatype.name, recv)
    if problem:
        raise NcclError(ncclResult_t.ncclInvalidUsage, problem)
    devices = [send.comm.device, recv.comm.device]
    nbytes = send.count * send.send.itemsize
    seconds, steps = collective_time.schedule([(0, 0, 1, nbytes)] if nbytes else [], devices)

    def run() -> None:
        recv.recv[:send.count] = send.send[:send.count]

    timeline.enqueue("SendRecv", "P2P", [send, recv], devices, run, seconds, steps, nbytes, 1)


def _queue_remote(calls: list[Any]) -> None:
    sends = [c for c in calls if c.collective == "Send"]
    for call in sends:
        _queue_half(call, _guarded(call, _post_send))
    for call in calls:
        if call.collective == "Recv":
            _queue_half(call, _guarded(call, _take_recv))
    for call in sends:
        streams.enqueue(call.stream, _guarded(call, _await_answer),
                        name="ncclSend (completion)", kind="event")


def _guarded(call: Any, step: Any) -> Any:
    """``step(call)``, unless the communicator broke; a failure breaks it."""
    clique = call.comm.clique

    def run() -> None:
        if clique.failed:
            return
        try:
            step(call)
        except NcclError as exc:
            clique.failed = str(exc)
            raise

    return run


def _queue_half(call: Any, run: Any) -> None:
    """This rank's kernel for its half of a pair (rank r modeled on GPU r, as for
    collectives across processes)."""
    me, peer = call.comm.rank, call.root
    nbytes = call.count * (call.send if call.send is not None else call.recv).itemsize
    src, dst = (0, 1) if call.collective == "Send" else (1, 0)
    seconds, steps = collective_time.schedule([(0, src, dst, nbytes)] if nbytes else [], [me, peer])
    timeline.enqueue(call.collective, "P2P", [call], [me, peer], run, seconds, steps,
                     nbytes, 1)


def _key(call: Any) -> tuple:
    me, peer = call.comm.rank, call.root
    return (call.comm.clique.key,) + ((me, peer) if call.collective == "Send" else (peer, me))


def _post_send(call: Any) -> None:
    data = np.array(call.send[:call.count])
    mpi.post(call.comm.clique, call.root, mpi.P2P_TAG, _key(call),
             (call.count, call.datatype.name, data))


def _take_recv(call: Any) -> None:
    me, peer = call.comm.rank, call.root
    count, dtype, data = mpi.take(
        call.comm.clique, peer, mpi.P2P_TAG, _key(call), f"ncclRecv on rank {me} from rank "
        f"{peer}", f"rank {peer} exited, hung, is stuck in another call or has not sent")
    problem = _mismatch(peer, count, dtype, call)
    mpi.post(call.comm.clique, peer, mpi.ACK_TAG, _key(call), problem)
    if problem:
        raise NcclError(ncclResult_t.ncclInvalidUsage, problem)
    raw = data.view(np.uint8)  # the bytes, as the GPUs copy them
    call.recv.view(np.uint8)[:raw.size] = raw


def _await_answer(call: Any) -> None:
    me, peer = call.comm.rank, call.root
    problem = mpi.take(
        call.comm.clique, peer, mpi.ACK_TAG, _key(call), f"ncclSend from rank {me} to rank "
        f"{peer}", f"no matching ncclRecv ran on rank {peer}: it exited, hung, is stuck in "
        "another call, or both ranks send before they receive outside a group (put the "
        "pair in ncclGroupStart/End)")
    if problem:
        raise NcclError(ncclResult_t.ncclInvalidUsage, problem)
