"""RCCL's enums with the numeric values of its header, and its error.

Values from RCCL's ``src/nccl.h.in`` (https://github.com/ROCm/rccl/blob/develop/src/nccl.h.in):
ncclResult_t success 0 ... inProgress 7; ncclRedOp_t sum 0, prod 1, max 2, min 3, avg 4;
ncclDataType_t int8 0, uint8 1, int32 2, uint32 3, int64 4, uint64 5, float16 6,
float32 7, float64 8, bfloat16 9, float8e4m3 10, float8e5m2 11 (RCCL up to ROCm 6.3
spelled the FP8 pair ncclFp8E4M3 / ncclFp8E5M2; both spellings are here).

The FP8 formats depend on the GPU, as RCCL's ``src/include/rccl_float8.h`` picks them:
gfx942 (MI300) uses the FNUZ encodings (``__hip_fp8_e4m3_fnuz`` / ``__hip_fp8_e5m2_fnuz``:
no infinities, no negative zero, one NaN 0x80, e4m3 up to 240), gfx950 and gfx12 the OCP
ones (e4m3 up to 448, e5m2 with infinities), and other targets a software fallback in
the FNUZ formats. The NumPy types are ml_dtypes' (float8_e4m3fnuz, float8_e4m3fn, ...).

>>> ncclDataType_t.ncclFloat32.value, ncclRedOp_t.ncclAvg.value
(7, 4)
>>> ncclGetErrorString(ncclResult_t.ncclInvalidUsage)
'invalid usage'
"""

from __future__ import annotations

import enum

import ml_dtypes
import numpy as np

from gpusim.errors import GpusimError
from gpusim.libs.common import LibraryError, check_enum


class ncclResult_t(enum.IntEnum):  # noqa: N801 - RCCL's spelling
    ncclSuccess = 0
    ncclUnhandledCudaError = 1
    ncclSystemError = 2
    ncclInternalError = 3
    ncclInvalidArgument = 4
    ncclInvalidUsage = 5
    ncclRemoteError = 6
    ncclInProgress = 7
    ncclNumResults = 8


class ncclRedOp_t(enum.IntEnum):  # noqa: N801
    ncclSum = 0
    ncclProd = 1
    ncclMax = 2
    ncclMin = 3
    ncclAvg = 4
    ncclNumOps = 5


class ncclDataType_t(enum.IntEnum):  # noqa: N801 - aliases as in the header
    ncclInt8 = 0
    ncclChar = 0
    ncclUint8 = 1
    ncclInt32 = 2
    ncclInt = 2
    ncclUint32 = 3
    ncclInt64 = 4
    ncclUint64 = 5
    ncclFloat16 = 6
    ncclHalf = 6
    ncclFloat32 = 7
    ncclFloat = 7
    ncclFloat64 = 8
    ncclDouble = 8
    ncclBfloat16 = 9
    ncclFloat8e4m3 = 10
    ncclFp8E4M3 = 10
    ncclFloat8e5m2 = 11
    ncclFp8E5M2 = 11
    ncclNumTypes = 12


DATATYPES = [t for t in ncclDataType_t if t != ncclDataType_t.ncclNumTypes]
REDOPS = [op for op in ncclRedOp_t if op != ncclRedOp_t.ncclNumOps]  # the built-in ones

# Storage dtype of each type (bfloat16 and FP8 are ml_dtypes' types; reduce.py computes
# them in float32 with one rounding per operation, as RCCL's reduction functors do).
STORAGE = {
    ncclDataType_t.ncclInt8: np.int8, ncclDataType_t.ncclUint8: np.uint8,
    ncclDataType_t.ncclInt32: np.int32, ncclDataType_t.ncclUint32: np.uint32,
    ncclDataType_t.ncclInt64: np.int64, ncclDataType_t.ncclUint64: np.uint64,
    ncclDataType_t.ncclFloat16: np.float16, ncclDataType_t.ncclFloat32: np.float32,
    ncclDataType_t.ncclFloat64: np.float64, ncclDataType_t.ncclBfloat16: ml_dtypes.bfloat16,
}
# FP8: (FNUZ type, OCP type); OCP_TARGETS use the second (rccl_float8.h, see above).
FP8 = {ncclDataType_t.ncclFloat8e4m3: (ml_dtypes.float8_e4m3fnuz, ml_dtypes.float8_e4m3fn),
       ncclDataType_t.ncclFloat8e5m2: (ml_dtypes.float8_e5m2fnuz, ml_dtypes.float8_e5m2)}
OCP_TARGETS = ("gfx950", "gfx1200", "gfx1201", "gfx1250", "gfx1251")

# ncclGetErrorString's texts (RCCL src/misc/argcheck / init.cc), without the
# "run with NCCL_DEBUG" hints.
_STRINGS = {
    ncclResult_t.ncclSuccess: "no error",
    ncclResult_t.ncclUnhandledCudaError: "unhandled cuda error",
    ncclResult_t.ncclSystemError: "unhandled system error",
    ncclResult_t.ncclInternalError: "internal error",
    ncclResult_t.ncclInvalidArgument: "invalid argument",
    ncclResult_t.ncclInvalidUsage: "invalid usage",
    ncclResult_t.ncclRemoteError: "remote process exited or there was a network error",
    ncclResult_t.ncclInProgress: "NCCL operation in progress",
}


def ncclGetErrorString(result: ncclResult_t | int) -> str:
    """RCCL's text for a result code."""
    try:
        return _STRINGS[ncclResult_t(result)]
    except (ValueError, KeyError):
        return "unknown result code"


class NcclError(LibraryError):
    """A non-success ncclResult_t; ``.status`` is the member, the message says why.

    RCCL's messages start with the call (``NcclError(status, "ncclAllReduce: count < 0")``);
    the common helpers (libs.common: enum and stream checks) pass the function and the
    detail apart, which read the same: ``NcclError(status, "ncclAllReduce", "count < 0")``.

    >>> NcclError(ncclResult_t.ncclInvalidArgument, "count < 0").status.name
    'ncclInvalidArgument'
    >>> str(NcclError(ncclResult_t.ncclInvalidArgument, "ncclAllReduce", "count < 0"))
    'ncclInvalidArgument: ncclAllReduce: count < 0'
    """

    status_enum = ncclResult_t
    pointer_status = value_status = ncclResult_t.ncclInvalidArgument

    def __init__(self, status: ncclResult_t, message: str, detail: str | None = None):
        self.status = ncclResult_t(status)
        self.function = message if detail is not None else None
        self.detail = message if detail is None else detail
        text = message if detail is None else f"{message}: {detail}"
        GpusimError.__init__(self, f"{self.status.name}: {text}")

    def __reduce__(self):  # picklable like every LibraryError
        if self.function is None:
            return type(self), (self.status, self.detail)
        return type(self), (self.status, self.function, self.detail)


def storage_of(member: ncclDataType_t, gfx_target: str = "gfx942") -> np.dtype:
    """The NumPy dtype RCCL's type has on a GPU of ``gfx_target``.

    >>> storage_of(ncclDataType_t.ncclFloat8e4m3, "gfx942").name
    'float8_e4m3fnuz'
    >>> storage_of(ncclDataType_t.ncclFloat8e4m3, "gfx950").name
    'float8_e4m3fn'
    """
    if member in FP8:
        return np.dtype(FP8[member][gfx_target in OCP_TARGETS])
    return np.dtype(STORAGE[member])


def dtype_of(datatype: ncclDataType_t | int, origin: str, gfx_target: str = "gfx942"
             ) -> tuple[ncclDataType_t, np.dtype]:
    """(member, NumPy storage dtype on ``gfx_target``) of a datatype argument; NcclError
    if invalid."""
    member = check_enum(datatype, DATATYPES, function=origin, arg="datatype", error=NcclError)
    return member, storage_of(member, gfx_target)


def redop_of(op: ncclRedOp_t | int, origin: str) -> ncclRedOp_t:
    """The ncclRedOp_t member of an op argument; NcclError if invalid."""
    return check_enum(op, REDOPS, function=origin, arg="op", error=NcclError)
