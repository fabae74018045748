"""Lab 10 (several GPUs): students' all-reduce by parts, bus factors, the LL / Simple
crossover and gradient averaging, on the lab's 8 GPUs."""

from __future__ import annotations

import os

import numpy as np

import gpusim
from answers import right, wrong
from gpusim import hip, rccl, rocblas
from gpusim.profiler import CollectiveRecord

N, COUNT = 8, 8 * 125


def _ranks(make):
    out = []
    for r in range(N):
        hip.hipSetDevice(r)
        out.append(make(r))
    hip.hipSetDevice(0)
    return out


def _group(call):
    rccl.ncclGroupStart()
    for r in range(N):
        call(r)
    rccl.ncclGroupEnd()
    for r in range(N):
        hip.hipSetDevice(r)
        hip.hipDeviceSynchronize()
    hip.hipSetDevice(0)


def _lab10_1(body):
    """The lab's buffers; ``body(comms, d_x, d_blk, d_mine)`` is the student's code."""
    def build():
        comms = rccl.ncclCommInitAll(N)
        rng = np.random.default_rng(0)
        xs = [rng.standard_normal(COUNT).astype(np.float32) for _ in range(N)]
        d_x = _ranks(lambda r: hip.to_device(xs[r]))
        d_blk = _ranks(lambda r: hip.device_array(COUNT // N, np.float32))
        d_mine = _ranks(lambda r: hip.device_array(COUNT, np.float32))
        body(comms, d_x, d_blk, d_mine)
        return d_mine, xs
    return build


F, SUM = rccl.ncclFloat, rccl.ncclSum


def rs_ag(comms, d_x, d_blk, d_mine):
    _group(lambda r: rccl.ncclReduceScatter(d_x[r], d_blk[r], COUNT // N, F, SUM, comms[r], 0))
    _group(lambda r: rccl.ncclAllGather(d_blk[r], d_mine[r], COUNT // N, F, comms[r], 0))


def rs_ag_one_group(comms, d_x, d_blk, d_mine):
    rccl.ncclGroupStart()
    for r in range(N):
        rccl.ncclReduceScatter(d_x[r], d_blk[r], COUNT // N, F, SUM, comms[r], 0)
    rccl.ncclGroupEnd()
    rccl.ncclGroupStart()
    for r in range(N):
        rccl.ncclAllGather(d_blk[r], d_mine[r], COUNT // N, F, comms[r], 0)
    rccl.ncclGroupEnd()
    for r in range(N):
        hip.hipSetDevice(r)
        hip.hipDeviceSynchronize()
    hip.hipSetDevice(0)


def rs_in_place_ag(comms, d_x, d_blk, d_mine):  # gather in place from the slot of rank r
    _group(lambda r: rccl.ncclReduceScatter(d_x[r], d_mine[r][r * (COUNT // N):
                                                              (r + 1) * (COUNT // N)],
                                            COUNT // N, F, SUM, comms[r], 0))
    _group(lambda r: rccl.ncclAllGather(d_mine[r][r * (COUNT // N):(r + 1) * (COUNT // N)],
                                        d_mine[r], COUNT // N, F, comms[r], 0))


def rs_only(comms, d_x, d_blk, d_mine):
    _group(lambda r: rccl.ncclReduceScatter(d_x[r], d_blk[r], COUNT // N, F, SUM, comms[r], 0))


def ag_of_inputs(comms, d_x, d_blk, d_mine):
    _group(lambda r: rccl.ncclReduceScatter(d_x[r], d_blk[r], COUNT // N, F, SUM, comms[r], 0))
    _group(lambda r: rccl.ncclAllGather(d_x[r], d_mine[r], COUNT // N, F, comms[r], 0))


def rs_max(comms, d_x, d_blk, d_mine):
    _group(lambda r: rccl.ncclReduceScatter(d_x[r], d_blk[r], COUNT // N, F, rccl.ncclMax,
                                            comms[r], 0))
    _group(lambda r: rccl.ncclAllGather(d_blk[r], d_mine[r], COUNT // N, F, comms[r], 0))


def rs_avg(comms, d_x, d_blk, d_mine):
    _group(lambda r: rccl.ncclReduceScatter(d_x[r], d_blk[r], COUNT // N, F, rccl.ncclAvg,
                                            comms[r], 0))
    _group(lambda r: rccl.ncclAllGather(d_blk[r], d_mine[r], COUNT // N, F, comms[r], 0))


# ---- 10.2: bus factors


def bus_right(c, n):
    return {"AllReduce": 2 * (n - 1) / n, "Broadcast": 1.0}.get(c, (n - 1) / n)


def bus_numpy(c, n):
    ranks = np.float32(n)
    base = (ranks - 1) / ranks
    return np.float32(1) if c == "Broadcast" else base * (2 if c == "AllReduce" else 1)


def bus_match(c, n):
    match c:
        case "AllReduce":
            return 2.0 * (n - 1) / n
        case "AllGather" | "ReduceScatter":
            return 1.0 - 1.0 / n
        case _:
            return 1


# ---- 10.3: where Simple overtakes LL; students' sweeps with the lab's allreduce_record

def allreduce_record(nbytes, algo=None, proto=None):
    """The lab's helper: (CollectiveRecord, modeled us) of one all-reduce on the 8 ranks."""
    comms = rccl.ncclCommInitAll(N)
    for var, value in (("NCCL_ALGO", algo), ("NCCL_PROTO", proto)):
        os.environ.pop(var, None)
        if value:
            os.environ[var] = value
    bufs = _ranks(lambda r: hip.device_array(nbytes // 4, np.float32))
    with gpusim.profile() as prof:
        _group(lambda r: rccl.ncclAllReduce(bufs[r], bufs[r], nbytes // 4, F, SUM, comms[r], 0))
    os.environ.pop("NCCL_ALGO", None)
    os.environ.pop("NCCL_PROTO", None)
    rec = next(x for x in prof.records if isinstance(x, CollectiveRecord))
    kernel = next(k for k in prof.kernels if k.name.startswith("ncclAllReduce"))
    return rec, kernel.duration_ns / 1e3


SIZES = [1 << k for k in range(12, 27)]


def first_simple_faster():
    return next(b for b in SIZES if allreduce_record(b, proto="Simple")[1]
                < allreduce_record(b, proto="LL")[1])


def loop_with_break():
    found = None
    size = 4096
    while size <= 64 << 20:
        ll = allreduce_record(size, proto="LL")[1]
        simple = allreduce_record(size, proto="Simple")[1]
        if simple < ll:
            found = size
            break
        size *= 2
    return found


def busbw_larger():  # same size: the larger bus bandwidth is the faster protocol
    for b in SIZES:
        if allreduce_record(b, proto="Simple")[0].busbw_gbs > \
                allreduce_record(b, proto="LL")[0].busbw_gbs:
            return b
    return None


def rccl_leaves_ll():  # RCCL's own choice is no longer LL's time
    return next(b for b in SIZES if allreduce_record(b)[1] < allreduce_record(b, proto="LL")[1])


def ring_before_tree():  # the old lesson: where the ring beats the tree
    return next(b for b in SIZES if allreduce_record(b, "Ring")[1]
                < allreduce_record(b, "Tree")[1])


def first_ll_faster():
    return next(b for b in SIZES if allreduce_record(b, proto="LL")[1]
                < allreduce_record(b, proto="Simple")[1])


def busbw_smaller():  # busbw read as a time: smaller taken as faster
    return next(b for b in SIZES if allreduce_record(b, proto="Simple")[0].busbw_gbs
                < allreduce_record(b, proto="LL")[0].busbw_gbs)


def last_ll_win():
    return [b for b in SIZES if allreduce_record(b, proto="LL")[1]
            < allreduce_record(b, proto="Simple")[1]][-1]


def sweep_by_four():
    return next(b for b in SIZES[::2] if allreduce_record(b, proto="Simple")[1]
                < allreduce_record(b, proto="LL")[1])


def float_count():  # the count of floats at the crossover, not its bytes
    return first_simple_faster() // 4


def simple_time():  # the time at the crossover, not its size
    return allreduce_record(first_simple_faster(), proto="Simple")[1]


# ---- 10.4: average the gradients (replicas with dev, handle, dw1, dw2)

def _average(scale=lambda n: 1.0 / n, groups=1, scaled=None, reduce=True):
    def average_gradients(replicas):
        comms = rccl.ncclCommInitAll(len(replicas))
        n = len(replicas)
        if reduce:
            for g in range(groups):
                rccl.ncclGroupStart()
                for r, rep in enumerate(replicas):
                    names = ("dw1", "dw2") if groups == 1 else (("dw1", "dw2")[g],)
                    for name in names:
                        buf = getattr(rep, name)
                        rccl.ncclAllReduce(buf, buf, buf.size, F, SUM, comms[r], 0)
                rccl.ncclGroupEnd()
        if scale is not None:
            for rep in replicas[:scaled]:
                hip.hipSetDevice(rep.dev)
                for buf in (rep.dw1, rep.dw2):
                    rocblas.rocblas_sscal(rep.handle, buf.size, np.float32(scale(n)), buf, 1)
            hip.hipSetDevice(0)
    return average_gradients


def _scale_first(replicas):
    comms = rccl.ncclCommInitAll(len(replicas))
    for rep in replicas:
        hip.hipSetDevice(rep.dev)
        for buf in (rep.dw1, rep.dw2):
            rocblas.rocblas_sscal(rep.handle, buf.size, 0.125, buf, 1)
    rccl.ncclGroupStart()
    for r, rep in enumerate(replicas):
        for buf in (rep.dw1, rep.dw2):
            rccl.ncclAllReduce(buf, buf, buf.size, F, SUM, comms[r], 0)
    rccl.ncclGroupEnd()
    hip.hipSetDevice(0)


G8 = dict(ngpus=8)

ANSWERS = [
    right("10.1", "two groups, as the lab's helper", _lab10_1(rs_ag), **G8),
    right("10.1", "explicit group calls", _lab10_1(rs_ag_one_group), **G8),
    right("10.1", "reduce into d_mine's own block, gather in place",
          _lab10_1(rs_in_place_ag), **G8),
    wrong("10.1", "starter: nothing", ["only zeros"], _lab10_1(lambda *a: None), **G8),
    wrong("10.1", "no all-gather", ["only zeros", "all-gather"], _lab10_1(rs_only), **G8),
    wrong("10.1", "gathers the inputs", ["unreduced", "d_blk"], _lab10_1(ag_of_inputs), **G8),
    wrong("10.1", "ncclMax", ["maximum", "ncclSum"], _lab10_1(rs_max), **G8),
    wrong("10.1", "ncclAvg", ["mean", "ncclSum"], _lab10_1(rs_avg), **G8),
    right("10.2", "a dict", lambda: (bus_right,), **G8),
    right("10.2", "NumPy float32", lambda: (bus_numpy,), **G8),
    right("10.2", "match statement, int 1", lambda: (bus_match,), **G8),
    wrong("10.2", "starter: 1 for all", ["bus_factor('AllReduce', 4) is 1,"],
          lambda: (lambda c, n: 1.0,), **G8),
    wrong("10.2", "all-reduce's factor for all-gather", ["all-reduce's factor", "once"],
          lambda: (lambda c, n: 1.0 if c == "Broadcast" else 2 * (n - 1) / n,), **G8),
    wrong("10.2", "broadcast like an all-gather", ["Broadcast", "whole buffer"],
          lambda: (lambda c, n: 2 * (n - 1) / n if c == "AllReduce" else (n - 1) / n,), **G8),
    wrong("10.2", "factors upside down", ["upside down"],
          lambda: (lambda c, n: 1.0 if c == "Broadcast" else
                   (n / (2 * (n - 1)) if c == "AllReduce" else n / (n - 1)),), **G8),
    right("10.3", "the crossover", lambda: (131072,), **G8),
    right("10.3", "a shift", lambda: (1 << 17,), **G8),
    right("10.3", "NumPy int", lambda: (np.int64(2**17),), **G8),
    right("10.3", "a whole float, in KiB times 1024", lambda: (128 * 1024.0,), **G8),
    right("10.3", "sweep: first size where Simple is faster", lambda: (first_simple_faster(),),
          **G8),
    right("10.3", "while loop doubling the size", lambda: (loop_with_break(),), **G8),
    right("10.3", "sweep on busbw: Simple's larger", lambda: (busbw_larger(),), **G8),
    right("10.3", "where RCCL's own time leaves LL's", lambda: (rccl_leaves_ll(),), **G8),
    wrong("10.3", "the smallest size", ["LL is still faster", "first size"],
          lambda: (4096,), **G8),
    wrong("10.3", "ring against tree, as before", ["LL is still faster", "ring with the tree"],
          lambda: (ring_before_tree(),), **G8),
    wrong("10.3", "first size where LL wins", ["LL is still faster", "where LL wins"],
          lambda: (first_ll_faster(),), **G8),
    wrong("10.3", "smaller busbw taken as faster", ["LL is still faster", "larger busbw"],
          lambda: (busbw_smaller(),), **G8),
    wrong("10.3", "last size where LL wins", ["last size where LL wins", "next power of two"],
          lambda: (last_ll_win(),), **G8),
    wrong("10.3", "sweep by a factor of 4", ["already wins", "skip sizes", "factor of 2"],
          lambda: (sweep_by_four(),), **G8),
    wrong("10.3", "too big", ["already wins", "smaller sizes"], lambda: (1 << 20,), **G8),
    wrong("10.3", "starter: None", ["power of two"], lambda: (None,), **G8),
    wrong("10.3", "in KiB", ["power of two", "KiB", "bytes"], lambda: (128,), **G8),
    wrong("10.3", "the float count", ["float count", "bytes"], lambda: (float_count(),), **G8),
    wrong("10.3", "the time, not the size", ["time in microseconds", "size in bytes"],
          lambda: (simple_time(),), **G8),
    wrong("10.3", "allreduce_record's tuple", ["(record, microseconds)"],
          lambda: (allreduce_record(1 << 17, proto="Simple"),), **G8),
    right("10.4", "the solution", lambda: (_average(),), **G8),
    right("10.4", "a group per gradient", lambda: (_average(groups=2),), **G8),
    right("10.4", "scale first, then sum", lambda: (_scale_first,), **G8),
    wrong("10.4", "no scaling", ["sum over the 8"], lambda: (_average(scale=None),), **G8),
    wrong("10.4", "starter: nothing", ["nothing was all-reduced"],
          lambda: (lambda reps: None,), **G8),
    wrong("10.4", "divided by n - 1", ["times the mean", "1 / 8"],
          lambda: (_average(scale=lambda n: 1.0 / (n - 1)),), **G8),
    wrong("10.4", "only replica 0 scaled", ["Replica 1", "sum", "every replica"],
          lambda: (_average(scaled=1),), **G8),
    wrong("10.4", "scaled, never reduced", ["own gradient times 0.125", "never all-reduced"],
          lambda: (_average(reduce=False),), **G8),
]
