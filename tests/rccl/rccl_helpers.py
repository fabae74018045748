"""Helpers for the RCCL tests: device buffers filled from NumPy, and running one
collective on every rank in a group."""

import ml_dtypes
import numpy as np

from gpusim import hip, rccl
from gpusim.libs.rccl.enums import storage_of

DTYPES = [rccl.ncclInt8, rccl.ncclUint8, rccl.ncclInt32, rccl.ncclUint32, rccl.ncclInt64,
          rccl.ncclUint64, rccl.ncclFloat16, rccl.ncclFloat32, rccl.ncclFloat64,
          rccl.ncclBfloat16]
OPS = [rccl.ncclSum, rccl.ncclProd, rccl.ncclMax, rccl.ncclMin, rccl.ncclAvg]


def values(datatype, count, seed):
    """Inputs that keep products and sums in range: small integers, or floats near 1."""
    rng = np.random.default_rng(seed)
    dt = storage_of(datatype)  # on the default MI300X (gfx942)
    if dt.kind == "f" or datatype == rccl.ncclBfloat16:
        return rng.uniform(0.5, 1.5, count).astype(np.float32).astype(dt)
    lo = -3 if dt.kind == "i" else 0
    return rng.integers(lo, 4, count).astype(dt)


def as_float(datatype, a):
    return a.astype(np.float64) if a.dtype == ml_dtypes.bfloat16 else a


def device_buffers(host_arrays):
    """One device array per rank r (on device r) holding host_arrays[r]."""
    out = []
    for r, a in enumerate(host_arrays):
        hip.hipSetDevice(r)
        out.append(hip.to_device(a))
    hip.hipSetDevice(0)
    return out


def on_every_rank(fn, comms):
    """fn(rank, comm) for every rank inside one group, then wait for all devices."""
    rccl.ncclGroupStart()
    for r, c in enumerate(comms):
        fn(r, c)
    rccl.ncclGroupEnd()
    for r in range(len(comms)):
        hip.hipSetDevice(r)
        hip.hipDeviceSynchronize()
    hip.hipSetDevice(0)


def host(d):
    return d.copy_to_host()
