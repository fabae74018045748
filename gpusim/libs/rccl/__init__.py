"""RCCL, the ROCm collective communication library, on the emulated GPUs.

    enums.py            ncclResult_t, ncclDataType_t (FP8 per GPU), ncclRedOp_t, NcclError
                        (a libs.common LibraryError)
    comm.py             unique ids, communicators (init per rank / all, split, queries,
                        teardown)
    collectives.py      the C API: AllReduce, Broadcast, Reduce, AllGather, ReduceScatter,
                        Gather, Scatter, AllToAll, Send/Recv, GroupStart/End; a stream of
                        another device than the rank's is refused (libs.common.handle)
    group.py            the open ncclGroupStart/End groups: held calls and joins
    matching.py         posting, grouping and matching the ranks' calls; planning them
    p2p.py              Send/Recv pairing, in one process and across MPI processes
    timeline.py         a matched operation on each rank's stream, and its CollectiveRecord
    captured.py         the same when the streams are captured into HIP graphs: a part per
                        rank, met again at every graph launch
    layout.py           channels, loops and chunks as RCCL's kernels cut a buffer
    algorithms.py       ring / tree / point-to-point, chunk by chunk (RCCL's order of sums)
    reduce.py           the reduction operators in each data type (bf16, FP8, avg)
    collective_time.py  rings and chains on the topology, modeled time, algorithm and
                        protocol choice (LL / Simple), busbw
    mpi.py              the MPI backend: ranks in several processes (mpiexec)
    sweep.py            rccl-tests style bandwidth sweeps (python -m gpusim.rccl_tests)

call -> Call (checked, views) -> group -> match across ranks -> plan (ring/tree,
     collective_time) -> queue on each rank's stream -> algorithm runs on the buffers
     -> CollectiveRecord
"""

from gpusim.libs.rccl.collectives import (
    ncclAllGather,
    ncclAllReduce,
    ncclAllToAll,
    ncclBcast,
    ncclBroadcast,
    ncclGather,
    ncclGroupEnd,
    ncclGroupStart,
    ncclRecv,
    ncclReduce,
    ncclReduceScatter,
    ncclScatter,
    ncclSend,
)
from gpusim.libs.rccl.comm import (
    NCCL_SPLIT_NOCOLOR,
    NCCL_UNIQUE_ID_BYTES,
    NCCL_VERSION_CODE,
    ncclComm,
    ncclComm_t,
    ncclCommAbort,
    ncclCommCount,
    ncclCommCuDevice,
    ncclCommDestroy,
    ncclCommFinalize,
    ncclCommInitAll,
    ncclCommInitRank,
    ncclCommSplit,
    ncclCommUserRank,
    ncclGetUniqueId,
    ncclGetVersion,
    ncclUniqueId,
)
from gpusim.libs.rccl.enums import (
    NcclError,
    ncclDataType_t,
    ncclGetErrorString,
    ncclRedOp_t,
    ncclResult_t,
)

# Enumerators at module level, as C code names them (rccl.ncclFloat, rccl.ncclSum, ...).
globals().update(ncclResult_t.__members__)
globals().update(ncclRedOp_t.__members__)
globals().update(ncclDataType_t.__members__)

__all__ = [
    "NcclError", "ncclDataType_t", "ncclRedOp_t", "ncclResult_t", "ncclGetErrorString",
    "NCCL_SPLIT_NOCOLOR", "NCCL_UNIQUE_ID_BYTES", "NCCL_VERSION_CODE", "ncclComm",
    "ncclComm_t", "ncclUniqueId", "ncclGetUniqueId", "ncclGetVersion", "ncclCommInitRank",
    "ncclCommInitAll", "ncclCommSplit", "ncclCommCount", "ncclCommCuDevice",
    "ncclCommUserRank", "ncclCommFinalize", "ncclCommDestroy", "ncclCommAbort",
    "ncclAllReduce", "ncclBroadcast", "ncclBcast", "ncclReduce", "ncclAllGather",
    "ncclReduceScatter", "ncclGather", "ncclScatter", "ncclAllToAll", "ncclSend", "ncclRecv",
    "ncclGroupStart", "ncclGroupEnd",
    *ncclResult_t.__members__, *ncclRedOp_t.__members__, *ncclDataType_t.__members__,
]
