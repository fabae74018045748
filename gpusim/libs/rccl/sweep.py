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
from collections.abc import Callable

import numpy as np

import gpusim
from gpusim.libs.rccl import collectives as c
from gpusim.libs.rccl.comm import ncclCommInitAll
from gpusim.libs.rccl.enums import ncclDataType_t, ncclRedOp_t
from gpusim.libs.rccl.model import bus_factor
from gpusim.profiler import CollectiveRecord
from gpusim.runtime import api
from gpusim.runtime.darray import DeviceArray, to_device

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


def _one(test: str, nbytes: int, ngpus: int, in_place: bool, comms: list) -> dict:
    coll, send_k, recv_k, reduces = TESTS[test]
    n = ngpus
    # rccl-tests' count: elements of the larger buffer divided as the collective needs
    count = nbytes // 4 // (n if "n" in (send_k, recv_k) else 1)
    sk, rk = (n if k == "n" else 1 for k in (send_k, recv_k))
    rng = np.random.default_rng(0)
    inputs = [rng.integers(-8, 8, count * sk).astype(np.float32) for _ in range(n)]
    sends: list[DeviceArray] = []
    recvs: list[DeviceArray] = []
    for r in range(n):
        api.hipSetDevice(r)
        sends.append(to_device(inputs[r]))
        recvs.append(sends[r] if in_place else to_device(np.zeros(count * rk, np.float32)))
    calls: dict[str, Callable[[int, object], None]] = {
        "AllReduce": lambda r, cm: c.ncclAllReduce(sends[r], recvs[r], count,
                                                   ncclDataType_t.ncclFloat,
                                                   ncclRedOp_t.ncclSum, cm, 0),
        "Broadcast": lambda r, cm: c.ncclBroadcast(sends[r], recvs[r], count,
                                                   ncclDataType_t.ncclFloat, 0, cm, 0),
        "Reduce": lambda r, cm: c.ncclReduce(sends[r], recvs[r], count,
                                             ncclDataType_t.ncclFloat, ncclRedOp_t.ncclSum,
                                             0, cm, 0),
        "AllGather": lambda r, cm: c.ncclAllGather(sends[r], recvs[r], count,
                                                   ncclDataType_t.ncclFloat, cm, 0),
        "ReduceScatter": lambda r, cm: c.ncclReduceScatter(sends[r], recvs[r], count,
                                                           ncclDataType_t.ncclFloat,
                                                           ncclRedOp_t.ncclSum, cm, 0),
        "AllToAll": lambda r, cm: c.ncclAllToAll(sends[r], recvs[r], count,
                                                 ncclDataType_t.ncclFloat, cm, 0)}
    if in_place and coll in ("AllGather", "ReduceScatter"):
        recvs = [to_device(np.zeros(count * rk, np.float32)) for _ in range(n)]
    with gpusim.profile() as prof:
        c.ncclGroupStart()
        for r in range(n):
            calls[coll](r, comms[r])
        c.ncclGroupEnd()
        for r in range(n):
            api.hipSetDevice(r)
            api.hipDeviceSynchronize()
    api.hipSetDevice(0)
    record = next(x for x in prof.records if isinstance(x, CollectiveRecord))
    total = np.sum(inputs, axis=0)
    want = {"AllReduce": [total] * n, "Broadcast": [inputs[0]] * n, "Reduce": [total],
            "AllGather": [np.concatenate(inputs)] * n,
            "ReduceScatter": [total[r * count:(r + 1) * count] for r in range(n)],
            "AllToAll": [np.concatenate([inputs[s][r * count:(r + 1) * count]
                                         for s in range(n)]) for r in range(n)]}[coll]
    wrong = sum(int(np.count_nonzero(recvs[r].copy_to_host() != w))
                for r, w in enumerate(want))
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
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose one of {sorted(TESTS)}")
    comms = ncclCommInitAll(ngpus)
    rows, size = [], begin
    while size <= end:
        row = _one(test, size, ngpus, False, comms)
        row["ip"] = _one(test, size, ngpus, True, comms)
        rows.append(row)
        size *= factor
    return rows


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
    rows = sweep(args.test, parse_size(args.minbytes), parse_size(args.maxbytes),
                 args.stepfactor, args.ngpus)
    for r in rows:
        ip = r["ip"]
        print(f"  {r['size']:>10} {r['count']:>11} {r['type']:>6} {r['redop']:>6} "
              f"{r['root']:>5} {r['time']:>8.2f} {r['algbw']:>7.2f} {r['busbw']:>7.2f} "
              f"{r['wrong']:>6} {ip['time']:>8.2f} {ip['algbw']:>7.2f} {ip['busbw']:>7.2f} "
              f"{ip['wrong']:>6}")
    busbw = [r["busbw"] for r in rows]
    print(f"# Avg bus bandwidth    : {sum(busbw) / len(busbw):.3f} GB/s (modeled)")
