"""rccl-tests style sweeps: ``python -m gpusim.rccl_tests all_reduce -b 8 -e 256M -f 2 -g 8``.

Prints rccl-tests' columns (size, count, type, redop, root, then time in us, algbw and
busbw in GB/s and #wrong, out-of-place and in-place). Times are the emulator's modeled
times, not the host's; #wrong compares every rank's result with NumPy.

>>> rows = sweep("all_reduce", 1024, 4096, 4, ngpus=4)
>>> [(r["size"], r["count"]) for r in rows]
[(1024, 256), (4096, 1024)]
>>> rows[0]["wrong"], rows[0]["busbw"] > 0
(0, True)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator

import numpy as np

import gpusim
from gpusim.libs.rccl import collectives as c
from gpusim.libs.rccl.comm import ncclCommInitAll
from gpusim.libs.rccl.enums import ncclDataType_t, ncclRedOp_t
from gpusim.libs.rccl.model import bus_factor
from gpusim.profiler import CollectiveRecord
from gpusim.runtime import api
from gpusim.runtime.darray import DeviceArray

# name -> (collective, send elements per count, recv elements per count, reduces)
TESTS = {"all_reduce": ("AllReduce", 1, 1, True), "broadcast": ("Broadcast", 1, 1, False),
         "reduce": ("Reduce", 1, 1, True), "all_gather": ("AllGather", 1, "n", False),
         "reduce_scatter": ("ReduceScatter", "n", 1, True),
         "alltoall": ("AllToAll", "n", "n", False)}


def parse_size(text: str) -> int:
    """'8', '64K', '256M', '1G' -> bytes.

    >>> parse_size("256M")
    268435456
    """
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper()
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def period(rank: int) -> np.ndarray:
    """One period (16 values) of rank ``rank``'s send data: small integers, so float32
    sums are exact in any order and #wrong counts real errors, not rounding.

    >>> period(1)[:4]
    array([-5.,  2., -7.,  0.], dtype=float32)
    """
    return ((np.arange(16) * 7 + rank * 3) % 16 - 8).astype(np.float32)


def _periodic(out: np.ndarray, values: np.ndarray, phase: int = 0) -> np.ndarray:
    """Fill ``out`` with ``values`` repeated, starting at ``values[phase]`` (no new memory:
    fresh pages are slow to touch, and the sweep goes up to gigabytes)."""
    values = np.roll(values, -(phase % 16))
    whole = out.size // 16 * 16
    out[:whole].reshape(-1, 16)[:] = values
    out[whole:] = values[:out.size - whole]
    return out


def _wrong(got: np.ndarray, values: np.ndarray, phase: int, scratch: np.ndarray) -> int:
    """Elements of ``got`` that differ from ``values`` repeated from ``phase``."""
    return int(np.count_nonzero(got != _periodic(scratch[:got.size], values, phase)))


def _check(coll: str, rank: int, n: int, count: int, got: np.ndarray,
           scratch: np.ndarray) -> int:
    """#wrong in rank ``rank``'s receive buffer ``got`` (elements, as rccl-tests counts)."""
    total = sum(period(r) for r in range(n))
    if coll in ("AllReduce", "Reduce"):
        return _wrong(got, total, 0, scratch) if coll == "AllReduce" or rank == 0 else 0
    if coll == "Broadcast":
        return _wrong(got, period(0), 0, scratch)
    if coll == "ReduceScatter":
        return _wrong(got, total, rank * count, scratch)
    blocks = [(b, 0) if coll == "AllGather" else (b, rank * count) for b in range(n)]
    return sum(_wrong(got[i * count:(i + 1) * count], period(b), phase, scratch)
               for i, (b, phase) in enumerate(blocks))


_CALLS: dict[str, Callable] = {
    "AllReduce": lambda s, r, n, cm: c.ncclAllReduce(s, r, n, ncclDataType_t.ncclFloat,
                                                     ncclRedOp_t.ncclSum, cm, 0),
    "Broadcast": lambda s, r, n, cm: c.ncclBroadcast(s, r, n, ncclDataType_t.ncclFloat, 0,
                                                     cm, 0),
    "Reduce": lambda s, r, n, cm: c.ncclReduce(s, r, n, ncclDataType_t.ncclFloat,
                                               ncclRedOp_t.ncclSum, 0, cm, 0),
    "AllGather": lambda s, r, n, cm: c.ncclAllGather(s, r, n, ncclDataType_t.ncclFloat, cm,
                                                     0),
    "ReduceScatter": lambda s, r, n, cm: c.ncclReduceScatter(s, r, n,
                                                             ncclDataType_t.ncclFloat,
                                                             ncclRedOp_t.ncclSum, cm, 0),
    "AllToAll": lambda s, r, n, cm: c.ncclAllToAll(s, r, n, ncclDataType_t.ncclFloat, cm, 0),
}


def _one(test: str, nbytes: int, comms: list, buffers: list, staging: np.ndarray,
         in_place: bool) -> dict:
    """Run one size on buffers allocated once for the largest size (as rccl-tests does)."""
    coll, send_k, recv_k, reduces = TESTS[test]
    n = len(comms)
    count = nbytes // 4 // (n if "n" in (send_k, recv_k) else 1)
    sk, rk = (n if k == "n" else 1 for k in (send_k, recv_k))
    sends, recvs = [], []
    for r, (send, recv) in enumerate(buffers):
        api.hipSetDevice(r)
        data = _periodic(staging[:count * sk], period(r))
        # in place: the send data sits where nccl.h puts it inside the receive buffer
        at = r * count if in_place and coll == "AllGather" else 0
        target = recv if in_place else send
        api.hipMemcpy(target.ptr + at * 4, data, data.nbytes, api.hipMemcpyHostToDevice)
        sends.append(target.ptr + at * 4)
        recvs.append(recv.ptr + (r * count * 4 if in_place and coll == "ReduceScatter"
                                 else 0))
    with gpusim.profile() as prof:
        c.ncclGroupStart()
        for r in range(n):
            _CALLS[coll](sends[r], recvs[r], count, comms[r])
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
        api.hipMemcpy(got, recvs[r], got.nbytes, api.hipMemcpyDeviceToHost)
        wrong += _check(coll, r, n, count, got, staging[half:])
    # the collective's own modeled time (each rank's kernel), not the issue skew
    seconds = next(k for k in prof.kernels if k.name.startswith(record.name)).duration_ns * 1e-9
    algbw = nbytes / seconds / 1e9 if seconds else 0.0
    return {"size": nbytes, "count": count * (sk if coll == "ReduceScatter" else 1),
            "type": "float", "redop": "sum" if reduces else "none",
            "root": 0 if coll in ("Broadcast", "Reduce") else -1,
            "time": seconds * 1e6, "algbw": algbw, "busbw": algbw * bus_factor(coll, n),
            "wrong": wrong, "algorithm": record.algorithm}


def sweep(test: str, begin: int, end: int, factor: int, ngpus: int = 8) -> list[dict]:
    """One row per size (out-of-place); rows carry 'ip' with the in-place numbers."""
    return list(iter_sweep(test, begin, end, factor, ngpus))


def iter_sweep(test: str, begin: int, end: int, factor: int,
               ngpus: int = 8) -> Iterator[dict]:
    """The rows of ``sweep``, each as soon as it is measured."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose one of {sorted(TESTS)}")
    if begin < 1 or end < begin or factor < 2:
        raise ValueError(f"need 1 <= begin <= end and factor >= 2, got {begin}, {end}, "
                         f"{factor}")
    comms = ncclCommInitAll(ngpus)
    buffers = []
    for r in range(ngpus):  # sized for the largest message, reused for every size
        api.hipSetDevice(r)
        buffers.append((DeviceArray.allocate(end // 4 + ngpus, np.float32, origin="sweep"),
                        DeviceArray.allocate(end // 4 + ngpus, np.float32, origin="sweep")))
    # host side: data in the first half, expected values in the second, reused
    staging = np.empty(2 * (end // 4 + ngpus), np.float32)
    size = begin
    while size <= end:
        row = _one(test, size, comms, buffers, staging, False)
        row["ip"] = _one(test, size, comms, buffers, staging, True)
        yield row
        size *= factor
    api.hipSetDevice(0)


def main(argv: list[str] | None = None) -> None:
    """Command line entry: rccl-tests' -b/-e/-f/-g options and output table."""
    p = argparse.ArgumentParser(prog="python -m gpusim.rccl_tests")
    p.add_argument("test", choices=sorted(TESTS))
    p.add_argument("-b", "--minbytes", default="8")
    p.add_argument("-e", "--maxbytes", default="32M")
    p.add_argument("-f", "--stepfactor", type=int, default=2)
    p.add_argument("-g", "--ngpus", type=int, default=8)
    p.add_argument("-d", "--device", default="mi300x")
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
                        args.stepfactor, args.ngpus):
        rows.append(r)
        ip = r["ip"]
        print(f"  {r['size']:>10} {r['count']:>11} {r['type']:>6} {r['redop']:>6} "
              f"{r['root']:>5} {r['time']:>8.2f} {r['algbw']:>7.2f} {r['busbw']:>7.2f} "
              f"{r['wrong']:>6} {ip['time']:>8.2f} {ip['algbw']:>7.2f} {ip['busbw']:>7.2f} "
              f"{ip['wrong']:>6}", flush=True)
    busbw = [r["busbw"] for r in rows]
    print(f"# Avg bus bandwidth    : {sum(busbw) / len(busbw):.3f} GB/s (modeled)")
