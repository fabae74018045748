"""The MPI backend: ranks of one communicator spread over processes (mpiexec).

Each process owns one or more emulated GPUs (ranks); ``ncclCommInitRank`` with an id
broadcast by the application (e.g. ``MPI.COMM_WORLD.bcast(ncclGetUniqueId())``) learns
which process owns which rank. A collective then runs when the process's own ranks
have all called it: the processes swap each rank's call (what it is, and its send
data) over MPI, every process checks that all ranks made the same call, runs the same
algorithm on all ranks' data (so results are bit for bit those of one process) and
keeps its own ranks' results.

Nothing waits forever: every exchange gives up after ``GPUSIM_RCCL_TIMEOUT`` seconds
(default 30) with ncclRemoteError naming the processes that did not answer (exited,
hung, or stuck in another call). Mismatched calls (count, datatype, op, root, which
collective, or order) fail with ncclInvalidUsage on every process, naming each rank's
call. Simplifications: the host waits for a rank's earlier stream work before the
exchange (the data must be there to send); the modeled time places rank r on GPU r of
one node.

Sends and receives between processes (p2p.py) are messages: ``post`` sends one without
waiting, ``take`` waits (within the timeout) for the next one under a key, keeping
those that arrive for other keys in a mailbox. ``split`` swaps the ranks' colors and
keys for ncclCommSplit.

MPI is used only when the process runs under mpiexec with more than one process (or
has imported mpi4py itself).
"""

from __future__ import annotations

import atexit
import os
import sys
import time
import zlib
from typing import Any

import numpy as np

from gpusim.libs.rccl.enums import NcclError, ncclResult_t

JOIN_TAG = 7000
COLL_TAG = 8000  # + 1000 x (communicator hash % 50) + collective number % 1000
P2P_TAG, ACK_TAG, SPLIT_TAG = 60001, 60002, 60003
_outgoing: list[Any] = []  # isend requests in flight (kept alive until they complete)
_mailbox: dict[tuple, list[Any]] = {}  # (tag, key) -> payloads received, not yet taken
_drain_at_exit: list[Any] = []  # the exit handler, once registered


def timeout_s() -> float:
    return float(os.environ.get("GPUSIM_RCCL_TIMEOUT", "30"))


def world() -> Any | None:
    """mpi4py's COMM_WORLD when this process is one of several MPI processes."""
    if os.environ.get("PMI_SIZE", "1") == "1" and "mpi4py.MPI" not in sys.modules:
        return None
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    return comm if comm.Get_size() > 1 else None


def _exchange(comm: Any, peers: list[int], tag: int, payload: Any, what: str) -> dict:
    """Send ``payload`` to every peer process and receive theirs, within the timeout."""
    sends = [comm.isend(payload, dest=p, tag=tag) for p in peers]
    got: dict[int, Any] = {}
    deadline = time.monotonic() + timeout_s()
    while len(got) < len(peers):
        for p in peers:
            if p not in got and comm.iprobe(source=p, tag=tag):
                got[p] = comm.recv(source=p, tag=tag)
        if len(got) < len(peers) and time.monotonic() > deadline:
            missing = [p for p in peers if p not in got]
            raise NcclError(ncclResult_t.ncclRemoteError,
                            f"{what}: MPI process(es) {missing} did not take part within "
                            f"{timeout_s():g} s (exited, hung, or stuck in another call); "
                            "set GPUSIM_RCCL_TIMEOUT to wait longer")
        time.sleep(0.0005)
    while not all(s.Test() for s in sends):  # peers answered, so ours are being read
        if time.monotonic() > deadline:
            break
        time.sleep(0.0005)
    return got


def join(clique: Any) -> None:
    """Learn which process owns each rank of ``clique`` (all processes call this)."""
    comm = world()
    if comm is None or clique.complete:
        return
    me = comm.Get_rank()
    peers = [p for p in range(comm.Get_size()) if p != me]
    mine = sorted(clique.comms)
    got = _exchange(comm, peers, JOIN_TAG, (clique.key, clique.nranks, mine),
                    "ncclCommInitRank")
    owners = {r: me for r in mine}
    for p, (key, nranks, ranks) in sorted(got.items()):
        if key != clique.key or nranks != clique.nranks:
            raise NcclError(ncclResult_t.ncclInvalidUsage,
                            f"ncclCommInitRank: MPI process {p} initialised a different "
                            "communicator (another id or nranks); every process must "
                            "init the same one at the same time")
        for r in ranks:
            if r in owners:
                raise NcclError(ncclResult_t.ncclInvalidUsage,
                                f"ncclCommInitRank: rank {r} claimed by processes "
                                f"{owners[r]} and {p}")
            owners[r] = p
    missing = sorted(set(range(clique.nranks)) - set(owners))
    if missing:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"ncclCommInitRank: no process initialised rank(s) {missing} of "
                        f"{clique.nranks}")
    clique.owners, clique.mpi = owners, comm


def exchange(clique: Any, heads: list[Any], describe: Any) -> list[tuple]:
    """Every rank's (rank, signature, send data, recv size) for the next collective,
    checked to agree on every process; NcclError otherwise."""
    comm = clique.mpi
    me = comm.Get_rank()
    peers = sorted(set(clique.owners.values()) - {me})
    for call in heads:  # the send data must exist before it is sent
        call.stream.scheduler.flush(call.stream.tail)
    seq = clique.collectives
    mine = [(c.comm.rank, c.signature(), None if c.send is None else np.array(c.send),
             -1 if c.recv is None else c.recv.size, describe(c)) for c in heads]
    tag = COLL_TAG + (zlib.crc32(clique.key) % 50) * 1000 + seq % 1000
    got = _exchange(comm, peers, tag, (seq, mine), f"collective #{seq + 1}")
    entries = sorted(mine + [e for _, (_, es) in got.items() for e in es])
    seqs = {s for s, _ in got.values()} | {seq}
    if len(seqs) > 1 or len({e[1] for e in entries}) > 1:
        lines = "; ".join(f"rank {e[0]}: {e[4]}" for e in entries)
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"mismatched collective calls across MPI processes ({lines}); every "
                        "rank must make the same calls in the same order")
    return entries


def post(clique: Any, rank: int, tag: int, key: tuple, payload: Any) -> None:
    """Send ``payload`` under ``key`` to the process owning ``rank``, without waiting."""
    if not _drain_at_exit:  # after mpi4py's own handler, so it runs first (LIFO)
        _drain_at_exit.append(atexit.register(_drain))
    _outgoing[:] = [r for r in _outgoing if not r.Test()]
    _outgoing.append(clique.mpi.isend((key, payload), dest=clique.owners[rank], tag=tag))


def _drain() -> None:
    """At exit: let the last messages complete (within the timeout), so that MPI does
    not finalise with requests still open."""
    deadline = time.monotonic() + timeout_s()
    while _outgoing and time.monotonic() < deadline:
        _outgoing[:] = [r for r in _outgoing if not r.Test()]
        time.sleep(0.0005)


def take(clique: Any, rank: int, tag: int, key: tuple, what: str, hint: str) -> Any:
    """The next payload under ``key`` from the process owning ``rank``; ncclRemoteError
    if none arrives within the timeout (``hint`` says what may be wrong)."""
    comm, src = clique.mpi, clique.owners[rank]
    box = _mailbox.setdefault((tag, key), [])
    deadline = time.monotonic() + timeout_s()
    while not box:
        while comm.iprobe(source=src, tag=tag):
            other, payload = comm.recv(source=src, tag=tag)
            _mailbox.setdefault((tag, other), []).append(payload)
        if box:
            break
        if time.monotonic() > deadline:
            raise NcclError(ncclResult_t.ncclRemoteError,
                            f"{what}: nothing came from MPI process {src} within "
                            f"{timeout_s():g} s ({hint}); set GPUSIM_RCCL_TIMEOUT to wait "
                            "longer")
        time.sleep(0.0005)
    return box.pop(0)


def split(clique: Any, mine: dict[int, tuple[int, int]], seq: int
          ) -> dict[int, tuple[int, int]]:
    """(color, key) of every rank of ``clique`` for its ``seq``-th ncclCommSplit, given
    this process's ranks' ``mine``; every process of the communicator calls it."""
    comm = clique.mpi
    me = comm.Get_rank()
    peers = sorted(set(clique.owners.values()) - {me})
    got = _exchange(comm, peers, SPLIT_TAG, (clique.key, seq, mine), "ncclCommSplit")
    every = dict(mine)
    for p, (key, their_seq, theirs) in sorted(got.items()):
        if key != clique.key or their_seq != seq:
            raise NcclError(ncclResult_t.ncclInvalidUsage,
                            f"ncclCommSplit: MPI process {p} split another communicator "
                            "(or split this one a different number of times); every "
                            "process must split the same communicators in the same order")
        every.update(theirs)
    return every
