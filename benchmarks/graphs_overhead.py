"""Modeled launch overhead with and without a HIP graph: a chain of tiny kernels.

    python benchmarks/graphs_overhead.py [--kernels 10] [--launches 20]

The chain (``--kernels`` launches of a 64-thread kernel that adds 1 to 64 floats, each
after the previous one on one stream) is issued ``--launches`` times, once through the
stream and once as one captured graph launched ``--launches`` times. Printed, all in
modeled microseconds (the emulator's clocks, not this machine's):

- host issue per kernel: host time spent issuing, per kernel (the scheduler's
  ISSUE_SECONDS per stream launch; ISSUE_SECONDS per hipGraphLaunch plus GRAPH_NODE_S
  per node with a graph);
- GPU time per chain: from the first issue to the end of the last kernel, divided by
  the number of chains: what a loop of such chains takes;
- the kernel's own modeled time (its GPU launch cost, KERNEL_LAUNCH_S, included).

A kernel shorter than ISSUE_SECONDS leaves the GPU waiting for the host between stream
launches; the graph issues the chain at once and the kernels run back to back.

Then the case of the ROCm blog 'Understanding RCCL Bandwidth and xGMI Performance on AMD
Instinct MI300X' (8 x MI300X, small-message all-reduce: 16 us per call, 6-7.6 us
captured in a graph): modeled time per 8-byte ncclAllReduce on 8 GPUs, ``--launches``
calls in a loop from one host thread, through the streams and as one captured graph.
Model and sources: docs/graphs.md.
"""

from __future__ import annotations

import argparse

import numpy as np

import gpusim
from gpusim import hip, rccl
from gpusim.runtime.scheduler import ISSUE_SECONDS
from gpusim.runtime.system import get_system
from gpusim.timing.costs import GRAPH_NODE_S, KERNEL_LAUNCH_S


@hip.jit
def add_one(x):
    i = hip.grid(1)
    if i < x.size:
        x[i] += 1.0


def run(kernels: int, launches: int) -> dict[str, dict[str, float]]:
    """Modeled (host issue per kernel, GPU time per chain, kernel time) in seconds."""
    gpusim.set_system()
    sched = get_system().scheduler
    x = hip.to_device(np.zeros(64, np.float32))
    s = hip.hipStreamCreate()
    add_one[1, 64, s](x)  # compile, and let the time model remember this launch
    hip.hipStreamSynchronize(s)

    def measure(issue) -> dict[str, float]:
        with gpusim.profile() as prof:
            start = sched.host_time
            for _ in range(launches):
                issue()
            host = sched.host_time - start
            hip.hipStreamSynchronize(s)
        end = max(r.end_ns for r in prof.kernels) * 1e-9
        return {"host issue per kernel": host / (launches * kernels),
                "GPU time per chain": (end - start) / launches,
                "kernel time": float(np.mean([r.duration_ns for r in prof.kernels])) * 1e-9}

    def chain() -> None:
        for _ in range(kernels):
            add_one[1, 64, s](x)

    plain = measure(chain)
    with hip.capture(s) as c:
        chain()
    exe = c.instantiate()
    graph = measure(lambda: hip.hipGraphLaunch(exe, s))
    assert x.copy_to_host()[0] == 1 + 2 * kernels * launches  # both ran every kernel
    return {"stream": plain, "graph": graph}


def all_reduce(calls: int, ngpus: int = 8) -> dict[str, float]:
    """Modeled seconds per 8-byte all-reduce on ``ngpus`` GPUs, in a loop of ``calls``."""
    gpusim.set_system(ngpus=ngpus)
    sched = get_system().scheduler
    comms = rccl.ncclCommInitAll(ngpus)
    send, recv, streams = [], [], []
    for r in range(ngpus):
        hip.hipSetDevice(r)
        send.append(hip.to_device(np.ones(2, np.float32)))
        recv.append(hip.device_array(2, np.float32))
        streams.append(hip.hipStreamCreate())
    hip.hipSetDevice(0)

    def loop() -> None:
        for _ in range(calls):
            rccl.ncclGroupStart()
            for r in range(ngpus):
                rccl.ncclAllReduce(send[r], recv[r], 2, rccl.ncclFloat32, rccl.ncclSum,
                                   comms[r], streams[r])
            rccl.ncclGroupEnd()

    def timed(issue) -> float:
        issue()  # once to warm up
        for s in streams:
            hip.hipStreamSynchronize(s)
        start = sched.host_time
        issue()
        for s in streams:
            hip.hipStreamSynchronize(s)
        return (sched.host_time - start) / calls

    plain = timed(loop)
    events = [hip.hipEventCreate() for _ in range(ngpus)]
    with hip.capture(streams[0]) as c:  # fork the other ranks' streams in, join them back
        hip.hipEventRecord(events[0], streams[0])
        for s in streams[1:]:
            hip.hipStreamWaitEvent(s, events[0])
        loop()
        for e, s in zip(events[1:], streams[1:], strict=True):
            hip.hipEventRecord(e, s)
            hip.hipStreamWaitEvent(streams[0], e)
    exe = c.instantiate()
    graph = timed(lambda: hip.hipGraphLaunch(exe, streams[0]))
    assert (recv[ngpus - 1].copy_to_host() == ngpus).all()
    gpusim.set_system()
    return {"stream": plain, "graph": graph}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=int, default=10)
    ap.add_argument("--launches", type=int, default=20)
    args = ap.parse_args()
    rows = run(args.kernels, args.launches)
    print(f"# {args.kernels}-kernel chain issued {args.launches} times (modeled us); "
          f"ISSUE_SECONDS {ISSUE_SECONDS * 1e6:g}, GRAPH_NODE_S {GRAPH_NODE_S * 1e6:g}, "
          f"KERNEL_LAUNCH_S {KERNEL_LAUNCH_S * 1e6:g}")
    print(f"{'':28}{'stream':>10}{'graph':>10}")
    for what in rows["stream"]:
        print(f"{what:28}{rows['stream'][what] * 1e6:10.2f}{rows['graph'][what] * 1e6:10.2f}")
    saved = rows["stream"]["GPU time per chain"] - rows["graph"]["GPU time per chain"]
    print(f"{'saved per chain':28}{saved * 1e6:20.2f}")
    ar = all_reduce(args.launches)
    print(f"# 8-byte ncclAllReduce on 8 GPUs, {args.launches} calls (modeled us per call; "
          "ROCm blog, 8 x MI300X: 16 through streams, 6-7.6 in a graph)")
    print(f"{'all-reduce per call':28}{ar['stream'] * 1e6:10.2f}{ar['graph'] * 1e6:10.2f}")


if __name__ == "__main__":
    main()
