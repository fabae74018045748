"""Cost formulas for copies, memsets, page migrations and (first-order) kernels.

Every constant that is not a device-profile figure is a model assumption, named here
with the reason, so the model is explained rather than hidden.

>>> from gpusim.devices import get_spec
>>> mi300x = get_spec("mi300x")
>>> pinned = copy_seconds(mi300x, 1 << 30, "HtoD", pinned=True)
>>> pageable = copy_seconds(mi300x, 1 << 30, "HtoD", pinned=False)
>>> pinned < pageable
True
"""

from __future__ import annotations

from gpusim.devices import DeviceSpec

GB = 1e9
# Model assumptions (order of magnitude of what hipMemcpy shows for tiny copies on
# ROCm hosts): DMA setup for a pinned copy; pageable copies are staged through a pinned
# bounce buffer by the runtime, which costs an extra host memcpy setup.
COPY_LATENCY_PINNED_S = 2e-6
COPY_LATENCY_PAGEABLE_S = 8e-6
# GPU-side cost of dispatching one kernel (command processor, wave launch): a few
# microseconds, the floor every tiny kernel pays. Model assumption.
KERNEL_LAUNCH_S = 3e-6
# hipGraphLaunch submits a whole graph in one call: the call costs one host issue (the
# scheduler's ISSUE_SECONDS), then each node's work is put in its queue from what
# hipGraphInstantiate prepared (ROCm clr, hipamd/src/hip_graph_internal.cpp: with
# DEBUG_CLR_GRAPH_PACKET_CAPTURE, on by default, a chain of kernel nodes is dispatched as
# pre-built AQL packets whose kernel arguments were uploaded at instantiation). Model
# assumption: that costs a tenth of a stream launch's issue per node. Each kernel still
# pays KERNEL_LAUNCH_S on the GPU. See docs/graphs.md.
GRAPH_NODE_S = 0.5e-6
# One GPU page fault on unified memory (XNACK replay + driver migration decision),
# model assumption in the tens of microseconds that HMM-based migration costs.
PAGE_FAULT_S = 20e-6


def copy_seconds(spec: DeviceSpec, nbytes: int, direction: str, *, pinned: bool) -> float:
    """Modeled duration of one copy of ``nbytes`` in ``direction`` (HtoD, DtoH, DtoD, PtoP).

    >>> from gpusim.devices import get_spec
    >>> round(copy_seconds(get_spec("mi300x"), 55_000_000, "HtoD", pinned=True) * 1e3, 3)
    1.002
    """
    from gpusim.timing.kernel_model import achieved  # (imports this module)

    if direction in ("HtoD", "DtoH"):
        gbs = achieved(spec, "host_link_pinned_gbs") if pinned else spec.host_link_pageable_gbs
        latency = COPY_LATENCY_PINNED_S if pinned else COPY_LATENCY_PAGEABLE_S
        return latency + nbytes / (gbs * GB)
    if direction == "DtoD":  # read and write the same HBM
        return COPY_LATENCY_PINNED_S + 2 * nbytes / (
            achieved(spec, "memory_bandwidth_gbs") * GB)
    if direction == "PtoP":  # over one Infinity Fabric link between GPUs
        return COPY_LATENCY_PINNED_S + nbytes / (achieved(spec, "peer_link_gbs") * GB)
    if direction == "HtoH":
        return 0.0
    raise ValueError(f"unknown copy direction {direction!r}")


def memset_seconds(spec: DeviceSpec, nbytes: int) -> float:
    """A memset is a fill kernel: launch cost plus writing ``nbytes`` of HBM."""
    return KERNEL_LAUNCH_S + nbytes / (spec.memory_bandwidth_gbs * GB)


def migration_seconds(spec: DeviceSpec, nbytes: int, faults: int) -> float:
    """Moving ``nbytes`` of managed memory over the host link, after ``faults`` faults
    (a prefetch has none: one bulk DMA)."""
    if nbytes == 0:
        return 0.0
    return faults * PAGE_FAULT_S + COPY_LATENCY_PINNED_S + nbytes / (
        spec.host_link_pinned_gbs * GB)


def kernel_estimate(spec: DeviceSpec, *, threads: int, bytes_moved: int,
                    flops: int = 0) -> tuple[float, dict[str, float | str]]:
    """First-order roofline time of a kernel and its breakdown.

    Assumes each byte of the kernel's array arguments crosses HBM once and every
    thread does at least one fused multiply-add (2 flops) at the FP32 vector peak; the
    memory-model issue replaces this with cache-level traffic, instruction counts and
    occupancy. Returns (seconds, breakdown).

    >>> from gpusim.devices import get_spec
    >>> t, why = kernel_estimate(get_spec("mi300x"), threads=1 << 20, bytes_moved=12 << 20)
    >>> why["bound"]
    'memory'
    """
    memory = bytes_moved / (spec.memory_bandwidth_gbs * GB)
    compute = max(2 * threads, flops) / (spec.fp32_tflops * 1e12)
    parts = {"launch": KERNEL_LAUNCH_S, "memory": memory, "compute": compute}
    bound = "memory" if memory >= compute else "compute"
    return KERNEL_LAUNCH_S + max(memory, compute), {**parts, "bound": bound}
