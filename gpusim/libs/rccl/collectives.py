"""RCCL's collective and point-to-point calls, under their C names and argument order.

Buffers are device arrays, hipMalloc pointers or raw device addresses on the rank's
own device; ``stream`` is a HIP stream of that device (0 / None: its null stream).
Calls return once queued, as in RCCL; results appear when the stream runs (any
synchronisation). In place is as in nccl.h: sendbuff == recvbuff (AllReduce,
Broadcast, Reduce, AllToAll), recvbuff == sendbuff + rank*count (ReduceScatter,
Scatter), sendbuff == recvbuff + rank*count (AllGather, Gather).

>>> import numpy as np
>>> from gpusim import hip, rccl
>>> comms = rccl.ncclCommInitAll(2)
>>> bufs = []
>>> for r in range(2):
...     hip.hipSetDevice(r)
...     bufs.append(hip.to_device(np.full(3, r + 1.0, np.float32)))
>>> rccl.ncclGroupStart()
>>> for r in range(2):
...     rccl.ncclAllReduce(bufs[r], bufs[r], 3, rccl.ncclFloat, rccl.ncclSum, comms[r], 0)
>>> rccl.ncclGroupEnd()
>>> hip.hipSetDevice(0); bufs[1].copy_to_host()
array([3., 3., 3.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.errors import HipError
from gpusim.libs.common import stream_on
from gpusim.libs.rccl import matching
from gpusim.libs.rccl.comm import check_comm, ncclComm
from gpusim.libs.rccl.enums import NcclError, dtype_of, ncclResult_t, redop_of
from gpusim.runtime import pointers
from gpusim.runtime.scheduler import Stream
from gpusim.runtime.system import get_system


def _stream(stream: Any, comm: ncclComm, origin: str) -> Stream:
    """The rank's stream: a stream of another device than the rank's is refused, as
    every library refuses one (libs.common.handle; NCCL's launch would fail there)."""
    return stream_on(stream, comm.device, function=origin, error=NcclError,
                     owner=f"rank {comm.rank}'s communicator")


def _view(ptr: Any, count: int, dtype: np.dtype, comm: ncclComm, name: str,
          origin: str, *, optional: bool = False) -> np.ndarray | None:
    """A typed view of ``count`` elements at ``ptr`` on the rank's device."""
    if ptr is None and optional:
        return None
    try:
        alloc, offset = pointers.resolve_device(ptr, origin=f"{origin} {name}")
    except HipError as exc:
        raise NcclError(ncclResult_t.ncclInvalidArgument, str(exc)) from None
    if alloc.device != comm.device:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"{origin}: {name} is on device {alloc.device}, but rank "
                        f"{comm.rank} runs on device {comm.device}")
    nbytes = count * dtype.itemsize
    if offset + nbytes > alloc.buffer.size:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"{origin}: {name} needs {count} x {dtype.itemsize} B = {nbytes} B "
                        f"but has {alloc.buffer.size - offset} B from there")
    return alloc.buffer[offset:offset + nbytes].view(dtype)


def _call(collective: str, sendbuff: Any, recvbuff: Any, count: int, datatype: Any,
          op: Any, root: int | None, comm: Any, stream: Any, *, send_count: int,
          recv_count: int, send_optional: bool = False, recv_optional: bool = False) -> None:
    origin = f"nccl{collective}"
    comm = check_comm(comm, origin)
    if not isinstance(count, (int, np.integer)) or isinstance(count, bool) or count < 0:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"{origin}: count must be a non-negative integer, got {count!r}")
    member, dtype = dtype_of(datatype, origin,
                             get_system().devices[comm.device].spec.gfx_target)
    redop = redop_of(op, origin) if op is not None else None
    n = comm.clique.nranks
    if root is not None and (not isinstance(root, int) or not 0 <= root < n):
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"{origin}: root/peer {root!r} is not a rank of this communicator "
                        f"(0..{n - 1})")
    send = (None if send_count < 0 else
            _view(sendbuff, send_count, dtype, comm, "sendbuff", origin, optional=send_optional))
    recv = (None if recv_count < 0 else
            _view(recvbuff, recv_count, dtype, comm, "recvbuff", origin, optional=recv_optional))
    matching.post(matching.Call(collective, comm, send, recv, int(count), member, redop, root,
                            _stream(stream, comm, origin)))


def _rank(comm: Any) -> int:
    return comm.rank if isinstance(comm, ncclComm) else 0


def _n(comm: Any) -> int:
    return comm.clique.nranks if isinstance(comm, ncclComm) and comm.clique else 1


def ncclAllReduce(sendbuff: Any, recvbuff: Any, count: int, datatype: Any, op: Any,
                  comm: ncclComm, stream: Any = 0) -> None:
    """recvbuff = op over all ranks of sendbuff (count elements), on every rank."""
    _call("AllReduce", sendbuff, recvbuff, count, datatype, op, None, comm, stream,
          send_count=count, recv_count=count)


def ncclBroadcast(sendbuff: Any, recvbuff: Any, count: int, datatype: Any, root: int,
                  comm: ncclComm, stream: Any = 0) -> None:
    """recvbuff on every rank = sendbuff of ``root`` (sendbuff may be None elsewhere)."""
    me = _rank(comm)
    _call("Broadcast", sendbuff, recvbuff, count, datatype, None, root, comm, stream,
          send_count=count if me == root else -1, recv_count=count)


def ncclBcast(buff: Any, count: int, datatype: Any, root: int, comm: ncclComm,
              stream: Any = 0) -> None:
    """In-place broadcast (deprecated spelling)."""
    ncclBroadcast(buff, buff, count, datatype, root, comm, stream)


def ncclReduce(sendbuff: Any, recvbuff: Any, count: int, datatype: Any, op: Any, root: int,
               comm: ncclComm, stream: Any = 0) -> None:
    """recvbuff on ``root`` = op over all ranks of sendbuff (recvbuff may be None elsewhere)."""
    me = _rank(comm)
    _call("Reduce", sendbuff, recvbuff, count, datatype, op, root, comm, stream,
          send_count=count, recv_count=count if me == root else -1)


def ncclAllGather(sendbuff: Any, recvbuff: Any, sendcount: int, datatype: Any,
                  comm: ncclComm, stream: Any = 0) -> None:
    """recvbuff[i*sendcount:(i+1)*sendcount] = sendbuff of rank i, on every rank."""
    _call("AllGather", sendbuff, recvbuff, sendcount, datatype, None, None, comm, stream,
          send_count=sendcount, recv_count=sendcount * _n(comm))


def ncclReduceScatter(sendbuff: Any, recvbuff: Any, recvcount: int, datatype: Any, op: Any,
                      comm: ncclComm, stream: Any = 0) -> None:
    """recvbuff on rank i = op over ranks of block i of sendbuff (recvcount each)."""
    _call("ReduceScatter", sendbuff, recvbuff, recvcount, datatype, op, None, comm, stream,
          send_count=recvcount * _n(comm), recv_count=recvcount)


def ncclGather(sendbuff: Any, recvbuff: Any, sendcount: int, datatype: Any, root: int,
               comm: ncclComm, stream: Any = 0) -> None:
    """recvbuff on ``root``: block i = sendbuff of rank i."""
    me = _rank(comm)
    _call("Gather", sendbuff, recvbuff, sendcount, datatype, None, root, comm, stream,
          send_count=sendcount, recv_count=sendcount * _n(comm) if me == root else -1)


def ncclScatter(sendbuff: Any, recvbuff: Any, recvcount: int, datatype: Any, root: int,
                comm: ncclComm, stream: Any = 0) -> None:
    """recvbuff on rank i = block i of ``root``'s sendbuff."""
    me = _rank(comm)
    _call("Scatter", sendbuff, recvbuff, recvcount, datatype, None, root, comm, stream,
          send_count=recvcount * _n(comm) if me == root else -1, recv_count=recvcount)


def ncclAllToAll(sendbuff: Any, recvbuff: Any, count: int, datatype: Any, comm: ncclComm,
                 stream: Any = 0) -> None:
    """Block j of rank i's sendbuff goes to block i of rank j's recvbuff."""
    _call("AllToAll", sendbuff, recvbuff, count, datatype, None, None, comm, stream,
          send_count=count * _n(comm), recv_count=count * _n(comm))


def ncclSend(sendbuff: Any, count: int, datatype: Any, peer: int, comm: ncclComm,
             stream: Any = 0) -> None:
    """Send count elements to rank ``peer`` (which posts the matching ncclRecv)."""
    _call("Send", sendbuff, None, count, datatype, None, peer, comm, stream,
          send_count=count, recv_count=-1)


def ncclRecv(recvbuff: Any, count: int, datatype: Any, peer: int, comm: ncclComm,
             stream: Any = 0) -> None:
    """Receive count elements from rank ``peer``."""
    _call("Recv", None, recvbuff, count, datatype, None, peer, comm, stream,
          send_count=-1, recv_count=count)


def ncclGroupStart() -> None:
    """Hold calls until the matching ncclGroupEnd (groups nest)."""
    matching.group_start()


def ncclGroupEnd() -> None:
    """Submit the calls held since ncclGroupStart (fused, sends and receives paired)."""
    matching.group_end()
