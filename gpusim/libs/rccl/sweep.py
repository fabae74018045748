"""rccl-tests style sweeps: ``python -m gpusim.rccl_tests all_reduce -b 8 -e 256M -f 2 -g 8``.

Prints rccl-tests' columns (size, count, type, redop, root, then time in us, algbw and
busbw in GB/s and #wrong, out-of-place and in-place). Times are the emulator's modeled
times, not the host's; #wrong compares every rank's result with NumPy. rccl-tests'
options: -b/-e/-f sizes, -g GPUs, -d data type, -o reduction op, -r root.

>>> rows = sweep("all_reduce", 1024, 4096, 4, ngpus=4)
>>> [(r["size"], r["count"]) for r in rows]
[(1024, 256), (4096, 1024)]
>>> rows[0]["wrong"], rows[0]["busbw"] > 0
(0, True)
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

import numpy as np

import gpusim
from gpusim.libs.rccl import collectives as c
from gpusim.libs.rccl.collective_time import bus_factor
from gpusim.libs.rccl.comm import ncclCommInitAll
from gpusim.libs.rccl.enums import ncclDataType_t, ncclRedOp_t, storage_of
from gpusim.profiler import CollectiveRecord
from gpusim.runtime import api
from gpusim.runtime.darray import DeviceArray
from gpusim.runtime.system import get_system

# name -> (collective, send elements per count, recv elements per count, reduces)
TESTS = {"all_reduce": ("AllReduce", 1, 1, True), "broadcast": ("Broadcast", 1, 1, False),
         "reduce": ("Reduce", 1, 1, True), "all_gather": ("AllGather", 1, "n", False),
         "reduce_scatter": ("ReduceScatter", "n", 1, True),
         "alltoall": ("AllToAll", "n", "n", False), "gather": ("Gather", 1, "n", False),
         "scatter": ("Scatter", "n", 1, False)}
T = ncclDataType_t
# rccl-tests' -d names (nccl-tests spells FP8 f8e4m3 / f8e5m2; accepted too)
TYPES = {"int8": T.ncclInt8, "uint8": T.ncclUint8, "int32": T.ncclInt32,
         "uint32": T.ncclUint32, "int64": T.ncclInt64, "uint64": T.ncclUint64,
         "half": T.ncclFloat16, "float": T.ncclFloat32, "double": T.ncclFloat64,
         "bfloat16": T.ncclBfloat16, "fp8_e4m3": T.ncclFloat8e4m3,
         "fp8_e5m2": T.ncclFloat8e5m2, "f8e4m3": T.ncclFloat8e4m3, "f8e5m2": T.ncclFloat8e5m2}
OPS = {"sum": ncclRedOp_t.ncclSum, "prod": ncclRedOp_t.ncclProd, "max": ncclRedOp_t.ncclMax,
       "min": ncclRedOp_t.ncclMin, "avg": ncclRedOp_t.ncclAvg}
_INT_OPS = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "avg": np.sum}


def parse_size(text: str) -> int:
    """'8', '64K', '256M', '1G' -> bytes.

    >>> parse_size("256M")
    268435456
    """
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper()
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def period(rank: int, dtype: Any = np.float32) -> np.ndarray:
    """One period (16 values) of rank ``rank``'s send data: -1, 0 and 1, so sums of up to
    8 ranks, products, max and min are exact in every type and any order (even FP8),
    and #wrong counts real errors, not rounding.

    >>> period(1)[:6]
    array([ 0.,  0.,  1.,  1., -1., -1.], dtype=float32)
    """
    return np.random.default_rng(rank).integers(-1, 2, 16).astype(dtype)


def expected(op: str, n: int, dtype: np.dtype) -> np.ndarray:
    """One period of the reduction of ranks 0..n-1 (integers wrap as on the GPU)."""
    stack = np.stack([period(r, dtype) for r in range(n)])
    if dtype.kind in "iu":
        total = _INT_OPS[op](stack.astype(np.int64), axis=0).astype(dtype)
        if op != "avg":
            return total
        q = np.abs(total.astype(np.int64)) // n  # C's division: toward zero
        return np.where(total.astype(np.int64) < 0, -q, q).astype(dtype)
    exact = _INT_OPS[op](stack.astype(np.float64), axis=0)
    return (exact / n if op == "avg" else exact).astype(dtype)


def _periodic(out: np.ndarray, values: np.ndarray, phase: int = 0) -> np.ndarray:
    """Fill ``out`` with ``values`` repeated, starting at ``values[phase]`` (no new memory:
    fresh pages are slow to touch, and the sweep goes up to gigabytes)."""
    values = np.roll(values, -(phase % 16))
    whole = out.size // 16 * 16
    out[:whole].reshape(-1, 16)[:] = values
    out[whole:] = values[:out.size - whole]
    return out


def _wrong(got: np.ndarray, values: np.ndarray, phase: int, scratch: np.ndarray,
           tolerance: float = 0.0) -> int:
    """Elements of ``got`` that differ from ``values`` repeated from ``phase`` (by more
    than ``tolerance``, relative, where rounding is expected: ncclAvg on floats)."""
    want = _periodic(scratch[:got.size], values, phase)
    if not tolerance:
        return int(np.count_nonzero(got != want))
    g, w = got.astype(np.float64), want.astype(np.float64)
    return int(np.count_nonzero(np.abs(g - w) > tolerance * np.maximum(1.0, np.abs(w))))


def _check(coll: str, rank: int, n: int, count: int, got: np.ndarray,
           scratch: np.ndarray, op: str = "sum", root: int = 0) -> int:
    """#wrong in rank ``rank``'s receive buffer ``got`` (elements, as rccl-tests counts)."""
    dtype = got.dtype
    if coll in ("AllReduce", "Reduce", "ReduceScatter"):
        if coll == "Reduce" and rank != root:
            return 0
        tol = 0.0
        if op == "avg" and dtype.kind not in "iu":  # 1/n rounded to the type, n roundings
            tol = n * 2.0 ** -_mantissa_bits(dtype)
        phase = rank * count if coll == "ReduceScatter" else 0
        return _wrong(got, expected(op, n, dtype), phase, scratch, tol)
    if coll == "Broadcast":
        return _wrong(got, period(root, dtype), 0, scratch)
    if coll == "Scatter":
        return _wrong(got, period(root, dtype), rank * count, scratch)
    if coll == "Gather" and rank != root:
        return 0
    blocks = [(b, 0) if coll in ("AllGather", "Gather") else (b, rank * count)
              for b in range(n)]
    return sum(_wrong(got[i * count:(i + 1) * count], period(b, dtype), phase, scratch)
               for i, (b, phase) in enumerate(blocks))


def _mantissa_bits(dtype: np.dtype) -> int:
    """Explicit mantissa bits of a floating type (its rounding step is 2**-bits)."""
    named = {"bfloat16": 7, "float8_e4m3fnuz": 3, "float8_e4m3fn": 3, "float8_e5m2fnuz": 2,
             "float8_e5m2": 2}
    return named.get(dtype.name) or int(np.finfo(dtype).nmant)


def _call(coll: str, send: int, recv: int, count: int, comm: object, datatype: T,
          op: ncclRedOp_t, root: int) -> None:
    """rank's call of the collective (the root's buffers as nccl.h places them)."""
    if coll in ("AllReduce", "ReduceScatter"):
        fn = c.ncclAllReduce if coll == "AllReduce" else c.ncclReduceScatter
        fn(send, recv, count, datatype, op, comm, 0)
    elif coll == "Reduce":
        c.ncclReduce(send, recv, count, datatype, op, root, comm, 0)
    elif coll in ("Broadcast", "Gather", "Scatter"):
        fn = {"Broadcast": c.ncclBroadcast, "Gather": c.ncclGather,
              "Scatter": c.ncclScatter}[coll]
        fn(send, recv, count, datatype, root, comm, 0)
    else:
        fn = c.ncclAllGather if coll == "AllGather" else c.ncclAllToAll
        fn(send, recv, count, datatype, comm, 0)


def _one(test: str, nbytes: int, comms: list, buffers: list, staging: np.ndarray,
         in_place: bool, datatype: T, op: str, root: int) -> dict:
    """Run one size on buffers allocated once for the largest size (as rccl-tests does)."""
    coll, send_k, recv_k, reduces = TESTS[test]
    n, dtype, size = len(comms), staging.dtype, staging.itemsize
    count = nbytes // size // (n if "n" in (send_k, recv_k) else 1)
    sk, rk = (n if k == "n" else 1 for k in (send_k, recv_k))
    sends, recvs = [], []
    for r, (send, recv) in enumerate(buffers):
        api.hipSetDevice(r)
        data = _periodic(staging[:count * sk], period(r, dtype))
        # in place: the send data sits where nccl.h puts it inside the receive buffer,
        # or the receive buffer inside the send data
        at = r * count if in_place and coll in ("AllGather", "Gather") else 0
        target = recv if in_place else send
        api.hipMemcpy(target.ptr + at * size, data.view(np.uint8), data.nbytes,
                      api.hipMemcpyHostToDevice)
        sends.append(target.ptr + at * size)
        recvs.append(recv.ptr + (r * count * size if in_place and coll in
                                 ("ReduceScatter", "Scatter") else 0))
    with gpusim.profile() as prof:
        c.ncclGroupStart()
        for r in range(n):
            _call(coll, sends[r], recvs[r], count, comms[r], datatype, OPS[op], root)
        c.ncclGroupEnd()
        for r in range(n):
            api.hipSetDevice(r)
            api.hipDeviceSynchronize()
    api.hipSetDevice(0)
    record = next(x for x in prof.records if isinstance(x, CollectiveRecord))
    wrong = 0
    half = staging.size // 2
    for r in range(n):
        got = staging[:count * rk]
        api.hipMemcpy(got.view(np.uint8), recvs[r], got.nbytes, api.hipMemcpyDeviceToHost)
        wrong += _check(coll, r, n, count, got, staging[half:], op, root)
    # the collective's own modeled time (each rank's kernel), not the issue skew
    seconds = next(k for k in prof.kernels if k.name.startswith(record.name)).duration_ns * 1e-9
    algbw = nbytes / seconds / 1e9 if seconds else 0.0
    return {"size": nbytes, "count": count * max(sk, rk),  # elements of the larger buffer
            "type": next(k for k, v in TYPES.items() if v == datatype),
            "redop": op if reduces else "none",
            "root": root if coll in ("Broadcast", "Reduce", "Gather", "Scatter") else -1,
            "time": seconds * 1e6, "algbw": algbw, "busbw": algbw * bus_factor(coll, n),
            "wrong": wrong, "algorithm": record.algorithm}


def sweep(test: str, begin: int, end: int, factor: int, ngpus: int = 8,
          datatype: str = "float", op: str = "sum", root: int = 0) -> list[dict]:
    """One row per size (out-of-place); rows carry 'ip' with the in-place numbers."""
    return list(iter_sweep(test, begin, end, factor, ngpus, datatype, op, root))


def iter_sweep(test: str, begin: int, end: int, factor: int, ngpus: int = 8,
               datatype: str = "float", op: str = "sum", root: int = 0) -> Iterator[dict]:
    """The rows of ``sweep``, each as soon as it is measured."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose one of {sorted(TESTS)}")
    if begin < 1 or end < begin or factor < 2:
        raise ValueError(f"need 1 <= begin <= end and factor >= 2, got {begin}, {end}, "
                         f"{factor}")
    if datatype not in TYPES or op not in OPS or not 0 <= root < ngpus:
        raise ValueError(f"need a type in {sorted(TYPES)}, an op in {sorted(OPS)} and a "
                         f"root in 0..{ngpus - 1}; got {datatype!r}, {op!r}, {root!r}")
    comms = ncclCommInitAll(ngpus)
    dtype = storage_of(TYPES[datatype], get_system().devices[0].spec.gfx_target)
    buffers = []
    for r in range(ngpus):  # sized for the largest message, reused for every size
        api.hipSetDevice(r)
        buffers.append(tuple(DeviceArray.allocate(end + ngpus * 8, np.uint8, origin="sweep")
                             for _ in range(2)))
    # host side: data in the first half, expected values in the second, reused
    staging = np.empty(2 * (end // dtype.itemsize + ngpus), dtype)
    size = begin
    while size <= end:
        row = _one(test, size, comms, buffers, staging, False, TYPES[datatype], op, root)
        row["ip"] = _one(test, size, comms, buffers, staging, True, TYPES[datatype], op, root)
        yield row
        size *= factor
    api.hipSetDevice(0)


def main(argv: list[str] | None = None) -> None:
    """Command line entry: rccl-tests' -b/-e/-f/-g/-d/-o/-r options and output table
    (the emulated GPU is --device, as rccl-tests' -d is the data type)."""
    p = argparse.ArgumentParser(prog="python -m gpusim.rccl_tests")
    p.add_argument("test", choices=sorted(TESTS))
    p.add_argument("-b", "--minbytes", default="8")
    p.add_argument("-e", "--maxbytes", default="32M")
    p.add_argument("-f", "--stepfactor", type=int, default=2)
    p.add_argument("-g", "--ngpus", type=int, default=8)
    p.add_argument("-d", "--datatype", default="float", choices=sorted(TYPES))
    p.add_argument("-o", "--op", default="sum", choices=sorted(OPS))
    p.add_argument("-r", "--root", type=int, default=0)
    p.add_argument("--device", default="mi300x")
    args = p.parse_args(argv)
    gpusim.set_system(args.device, max(args.ngpus, 1))
    print(f"# gpusim rccl-tests: {args.test}, {args.ngpus} x {args.device}, modeled times")
    print(f"#{'':>40} {'out-of-place':>30} {'in-place':>32}")
    print(f"# {'size':>10} {'count':>11} {'type':>6} {'redop':>6} {'root':>5} "
          f"{'time':>8} {'algbw':>7} {'busbw':>7} {'#wrong':>6} "
          f"{'time':>8} {'algbw':>7} {'busbw':>7} {'#wrong':>6}")
    print(f"# {'(B)':>10} {'(elements)':>11} {'':>6} {'':>6} {'':>5} "
          f"{'(us)':>8} {'(GB/s)':>7} {'(GB/s)':>7} {'':>6} "
          f"{'(us)':>8} {'(GB/s)':>7} {'(GB/s)':>7}")
    rows = []
    for r in iter_sweep(args.test, parse_size(args.minbytes), parse_size(args.maxbytes),
                        args.stepfactor, args.ngpus, args.datatype, args.op, args.root):
        rows.append(r)
        ip = r["ip"]
        print(f"  {r['size']:>10} {r['count']:>11} {r['type']:>6} {r['redop']:>6} "
              f"{r['root']:>5} {r['time']:>8.2f} {r['algbw']:>7.2f} {r['busbw']:>7.2f} "
              f"{r['wrong']:>6} {ip['time']:>8.2f} {ip['algbw']:>7.2f} {ip['busbw']:>7.2f} "
              f"{ip['wrong']:>6}", flush=True)
    busbw = [r["busbw"] for r in rows]
    print(f"# Avg bus bandwidth    : {sum(busbw) / len(busbw):.3f} GB/s (modeled)")
