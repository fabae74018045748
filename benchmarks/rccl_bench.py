"""8-GPU AllReduce of 256 MiB of float32 (in place): host seconds the emulator takes,
and the modeled time / bus bandwidth it reports. Run: python benchmarks/rccl_bench.py"""

from __future__ import annotations

import time

import numpy as np

import gpusim
from gpusim import hip, rccl
from gpusim.profiler import CollectiveRecord


def bench_allreduce(nbytes: int = 256 << 20, ngpus: int = 8) -> list[tuple[str, str]]:
    gpusim.set_system("mi300x", ngpus)
    count = nbytes // 4
    comms = rccl.ncclCommInitAll(ngpus)
    bufs = []
    for r in range(ngpus):
        hip.hipSetDevice(r)
        bufs.append(hip.to_device(np.full(count, r + 1, np.float32)))
    t = time.perf_counter()
    with gpusim.profile() as prof:
        rccl.ncclGroupStart()
        for r in range(ngpus):
            rccl.ncclAllReduce(bufs[r], bufs[r], count, rccl.ncclFloat, rccl.ncclSum,
                               comms[r], 0)
        rccl.ncclGroupEnd()
        for r in range(ngpus):
            hip.hipSetDevice(r)
            hip.hipDeviceSynchronize()
    host_s = time.perf_counter() - t
    rec = next(x for x in prof.records if isinstance(x, CollectiveRecord))
    kernel = next(k for k in prof.kernels if k.name.startswith("ncclAllReduce"))
    assert float(bufs[-1][:1].copy_to_host()[0]) == ngpus * (ngpus + 1) / 2
    busbw = nbytes / kernel.duration_ns * 2 * (ngpus - 1) / ngpus
    gpusim.set_system()
    return [(f"RCCL AllReduce {nbytes >> 20} MiB float32 on {ngpus} GPUs: host time",
             f"{host_s:.2f} s"),
            ("  modeled time / busbw (algorithm)",
             f"{kernel.duration_ns / 1e3:.0f} us / {busbw:.0f} GB/s ({rec.algorithm}, "
             f"{rec.nchannels} channels)")]


if __name__ == "__main__":
    for name, value in bench_allreduce():
        print(f"{name}: {value}")
