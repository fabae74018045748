"""Communicators: unique ids, init (per rank or all at once), split, queries, teardown.

A communicator is one rank of a clique. ``ncclCommInitRank`` uses the calling thread's
current HIP device, as RCCL does; in one process the ranks of a clique join one by one
(RCCL needs a group or several threads for that; the emulator does not block), and the
clique is usable once all ``nranks`` have joined. ``ncclCommSplit`` is collective too:
the new communicators are ready when every rank of the parent has called it (across MPI
processes: when this process's ranks have, after mpi.py swapped the colors and keys).

>>> from gpusim import rccl
>>> comms = rccl.ncclCommInitAll(4)
>>> [rccl.ncclCommUserRank(c) for c in comms], rccl.ncclCommCount(comms[0])
([0, 1, 2, 3], 4)
>>> halves = [rccl.ncclCommSplit(c, c.rank % 2, c.rank) for c in comms]
>>> [(rccl.ncclCommCuDevice(h), rccl.ncclCommUserRank(h)) for h in halves]
[(0, 0), (1, 0), (2, 1), (3, 1)]
"""

from __future__ import annotations

import hashlib
import itertools
import os
from dataclasses import dataclass, field
from typing import Any

from gpusim.libs.rccl import group, mpi
from gpusim.libs.rccl.enums import NcclError, ncclResult_t
from gpusim.runtime.system import get_system

NCCL_UNIQUE_ID_BYTES = 128
NCCL_SPLIT_NOCOLOR = -1
# NCCL_VERSION(2, 22, 3) = 22203: the NCCL API level of RCCL in ROCm 6.4.
NCCL_VERSION_CODE = 22203
_ids = itertools.count(1)


@dataclass(frozen=True)
class ncclUniqueId:  # noqa: N801
    """Opaque 128-byte id naming a clique (made by ncclGetUniqueId, shared by all ranks)."""

    internal: bytes


@dataclass(eq=False)
class Clique:
    """The ranks of one communicator and what they have posted but not yet run."""

    key: bytes
    nranks: int
    comms: dict[int, ncclComm] = field(default_factory=dict)
    pending: dict[int, list[Any]] = field(default_factory=dict)  # rank -> queued calls
    p2p: dict[tuple[str, int, int], list[Any]] = field(default_factory=dict)
    splits: dict[int, tuple[int, int, ncclComm | None]] = field(default_factory=dict)
    nsplits: int = 0  # ncclCommSplit calls completed (names the children)
    collectives: int = 0  # launched so far (numbers the records)
    owners: dict[int, int] = field(default_factory=dict)  # rank -> MPI process (mpi.py)
    mpi: Any = None  # the MPI communicator when ranks live in several processes
    failed: str | None = None  # why an exchange with another process failed (then unusable)

    @property
    def complete(self) -> bool:
        return len(self.comms) == self.nranks or len(self.owners) == self.nranks

    def devices(self) -> list[int]:
        return [self.comms[r].device for r in range(self.nranks)]


@dataclass(eq=False)
class ncclComm:  # noqa: N801
    """One rank's handle (ncclComm_t)."""

    rank: int
    device: int
    clique: Clique | None = None  # None until a split completes
    state: str = "ok"  # ok, finalized, destroyed, aborted

    def __repr__(self) -> str:
        n = self.clique.nranks if self.clique else "?"
        return f"<ncclComm rank {self.rank} of {n} on device {self.device} ({self.state})>"


ncclComm_t = ncclComm
_cliques: dict[bytes, Clique] = {}


def check_comm(comm: Any, origin: str, *, ready: bool = True) -> ncclComm:
    """The communicator argument, or NcclError saying what is wrong with it."""
    if not isinstance(comm, ncclComm):
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"{origin}: comm must be an ncclComm_t from ncclCommInitRank / "
                        f"ncclCommInitAll, got {type(comm).__name__}")
    if comm.state != "ok" and ready:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"{origin}: the communicator was {comm.state}")
    if ready and comm.clique is not None and comm.clique.failed:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"{origin}: this communicator failed earlier ({comm.clique.failed}); "
                        "abort it (ncclCommAbort) and create a new one, as NCCL requires")
    if ready and (comm.clique is None or not comm.clique.complete):
        joined = len(comm.clique.comms) if comm.clique else 0
        total = comm.clique.nranks if comm.clique else "?"
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"{origin}: only {joined} of {total} ranks have joined this "
                        "communicator; init (or split) every rank first")
    return comm


def ncclGetVersion() -> int:
    """NCCL_VERSION_CODE of the emulated RCCL."""
    return NCCL_VERSION_CODE


def ncclGetUniqueId() -> ncclUniqueId:
    """A new id for ncclCommInitRank (pass the same id to every rank)."""
    tag = f"gpusim-rccl:{os.getpid()}:{next(_ids)}".encode()
    return ncclUniqueId(tag.ljust(NCCL_UNIQUE_ID_BYTES, b"\0"))


def _join(key: bytes, nranks: int, rank: int, device: int, origin: str) -> ncclComm:
    if not isinstance(nranks, int) or nranks < 1:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"{origin}: nranks must be a positive integer, got {nranks!r}")
    if not isinstance(rank, int) or not 0 <= rank < nranks:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"{origin}: rank {rank!r} is not in 0..{nranks - 1}")
    clique = _cliques.setdefault(key, Clique(key, nranks))
    if clique.nranks != nranks:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"{origin}: this id was used with nranks={clique.nranks}, now "
                        f"{nranks}")
    if rank in clique.comms:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"{origin}: rank {rank} already joined this communicator")
    comm = ncclComm(rank, device, clique)
    clique.comms[rank] = comm
    clique.pending[rank] = []
    if group.is_open():  # a process owning several ranks joins them in one group
        group.joins.append(clique)
    else:
        mpi.join(clique)
    return comm


def ncclCommInitRank(nranks: int, commId: ncclUniqueId, rank: int) -> ncclComm:
    """Rank ``rank`` of ``nranks`` joins the clique ``commId`` on the current device."""
    if not isinstance(commId, ncclUniqueId):
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        "ncclCommInitRank: commId must come from ncclGetUniqueId")
    return _join(commId.internal, nranks, rank, get_system().current_ordinal,
                 "ncclCommInitRank")


def ncclCommInitAll(ndev: int, devlist: list[int] | None = None) -> list[ncclComm]:
    """One communicator per device of ``devlist`` (default 0..ndev-1), rank = position."""
    system = get_system()
    devlist = list(range(ndev)) if devlist is None else list(devlist)
    if not isinstance(ndev, int) or ndev < 1 or len(devlist) != ndev:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"ncclCommInitAll: ndev={ndev!r} must be >= 1 and match devlist")
    for d in devlist:
        if not isinstance(d, int) or not 0 <= d < len(system.devices):
            raise NcclError(ncclResult_t.ncclInvalidArgument,
                            f"ncclCommInitAll: device {d!r} does not exist (0.."
                            f"{len(system.devices) - 1})")
    if len(set(devlist)) != ndev:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"ncclCommInitAll: devlist {devlist} repeats a device; RCCL needs "
                        "one device per rank")
    key = ncclGetUniqueId().internal
    return [_join(key, ndev, r, d, "ncclCommInitAll") for r, d in enumerate(devlist)]


def ncclCommSplit(comm: ncclComm, color: int, key: int, config: Any = None
                  ) -> ncclComm | None:
    """This rank's communicator among the ranks with the same ``color`` (ordered by
    ``key``, then old rank); None for NCCL_SPLIT_NOCOLOR. Ready once all ranks split
    (across MPI processes: once this process's ranks have, after swapping the colors)."""
    check_comm(comm, "ncclCommSplit")
    clique = comm.clique
    if comm.rank in clique.splits:
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"ncclCommSplit: rank {comm.rank} already called it")
    if not isinstance(color, int) or color < NCCL_SPLIT_NOCOLOR:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"ncclCommSplit: color must be >= 0 or NCCL_SPLIT_NOCOLOR, got "
                        f"{color!r}")
    if not isinstance(key, int):
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"ncclCommSplit: key must be an integer, got {key!r}")
    new = None if color == NCCL_SPLIT_NOCOLOR else ncclComm(-1, comm.device)
    clique.splits[comm.rank] = (color, key, new)
    if len(clique.splits) == len(clique.comms):  # every rank of this process split
        splits, clique.splits = clique.splits, {}
        colors = {r: (c, k) for r, (c, k, _) in splits.items()}
        if clique.mpi is not None:
            colors = mpi.split(clique, colors, clique.nsplits)
        _make_children(clique, colors, {r: h for r, (_, _, h) in splits.items()})
    return new


def _make_children(clique: Clique, colors: dict[int, tuple[int, int]],
                   handles: dict[int, ncclComm | None]) -> None:
    """The communicators of one split: a color's ranks ordered by (key, old rank); their
    id derives from the parent's, so every process names them alike."""
    clique.nsplits += 1
    groups: dict[int, list[tuple[int, int]]] = {}
    for old, (color, key) in colors.items():
        if color != NCCL_SPLIT_NOCOLOR:
            groups.setdefault(color, []).append((key, old))
    for color, members in groups.items():
        tag = hashlib.sha256(clique.key + f":split{clique.nsplits}:{color}".encode())
        child = Clique(tag.digest().ljust(NCCL_UNIQUE_ID_BYTES, b"\0"), len(members))
        for rank, (_, old) in enumerate(sorted(members)):
            if old in handles:
                handle = handles[old]
                handle.rank, handle.clique = rank, child
                child.comms[rank], child.pending[rank] = handle, []
            if clique.mpi is not None:
                child.owners[rank] = clique.owners[old]
        if child.comms:
            if len(set(child.owners.values())) > 1:
                child.mpi = clique.mpi
            else:  # all its ranks live in this process
                child.owners = {}
            _cliques[child.key] = child


def ncclCommCount(comm: ncclComm) -> int:
    """Number of ranks in the communicator."""
    return check_comm(comm, "ncclCommCount").clique.nranks


def ncclCommCuDevice(comm: ncclComm) -> int:
    """The HIP device of this rank."""
    return check_comm(comm, "ncclCommCuDevice").device


def ncclCommUserRank(comm: ncclComm) -> int:
    """This communicator's rank."""
    return check_comm(comm, "ncclCommUserRank").rank


def _close(comm: ncclComm, state: str, origin: str) -> None:
    check_comm(comm, origin, ready=False)
    if comm.state in ("destroyed", "aborted"):
        raise NcclError(ncclResult_t.ncclInvalidUsage,
                        f"{origin}: the communicator was already {comm.state}")
    if state != "finalized" and comm.clique is not None:
        comm.clique.pending.get(comm.rank, []).clear()
    comm.state = state


def ncclCommFinalize(comm: ncclComm) -> None:
    """Flush this rank's operations; afterwards only ncclCommDestroy is allowed."""
    _close(comm, "finalized", "ncclCommFinalize")


def ncclCommDestroy(comm: ncclComm) -> None:
    """Free the communicator (its queued work still completes on the streams)."""
    _close(comm, "destroyed", "ncclCommDestroy")


def ncclCommAbort(comm: ncclComm) -> None:
    """Free the communicator and drop operations that have not started."""
    _close(comm, "aborted", "ncclCommAbort")
