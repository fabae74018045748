"""Modeled time of a collective, RCCL's algorithm choice, and nccl-tests' bus bandwidth.

Rings and trees are built on the node topology (gpusim.runtime.topology): on a fully
connected node each channel gets a ring with its own stride (r -> r + s, s coprime with
n), so different channels use different Infinity Fabric links, as RCCL's multiple ring
orders do; otherwise a ring through the xGMI links is searched. Trees: inside one node
RCCL's tree is a chain through the node's GPUs (src/graph/connect.cc, ncclTopoPreset:
tree.up = treeIntra[i-1], tree.down[0] = treeIntra[i+1]); NCCL's double binary tree
(ncclGetBtree / ncclGetDtree, ``btree`` / ``dtrees`` here) joins *nodes*, and every
communicator of the emulator sits on one node, so each channel's tree is the chain of
its ring's order (``chain``): 2(n-1) hops up and down, as many as the ring's steps.

Time = LAUNCH_S + sum over steps of (the protocol's hop latency + the step's busiest
link: bytes x the protocol's wire factor / GB/s), for the protocols LL and Simple. The
(algorithm, protocol) with the smaller modeled time is chosen, as RCCL's tuner does,
unless NCCL_ALGO / NCCL_PROTO name them.

>>> ring_strides(8)
[1, 3, 5, 7]
>>> chain([0, 3, 6, 1, 4, 7, 2, 5])
[-1, 6, 7, 0, 1, 2, 3, 4]
>>> btree(5)
[-1, 2, 4, 2, 0]
>>> bus_factor("AllReduce", 8)
1.75
"""

from __future__ import annotations

import math
import os

from gpusim.libs.rccl.enums import NcclError, ncclResult_t
from gpusim.runtime.topology import link_between

# Model assumptions: RCCL kernel launch + setup per collective (a few microseconds: the
# GPU's kernel dispatch, gpusim.timing.costs.KERNEL_LAUNCH_S = 3 us, and the kernel
# reading its work from host memory), and the per-step latency of one Simple hop (flag
# handshake over xGMI + step synchronisation, about a microsecond).
# LAUNCH_S is the device part of a call's fixed cost: a HIP graph keeps it. The host part
# is each rank's kernel being queued (the scheduler's ISSUE_SECONDS, timeline.py), which a
# graph launch replaces by GRAPH_NODE_S per node. The ROCm blog's graph run (8 x MI300X,
# 6-7.6 us per small captured all-reduce against 16.6 us) puts ~10 us on the host and
# ~6 us on the GPU; this model's device part is 16.2 us at 8 B (docs/graphs.md says why
# it is kept).
LAUNCH_S = 5e-6
HOP_S = 1e-6
# Protocols (RCCL src/include/device.h). Simple moves a step's data at the link's full
# rate and then hands it over with a flag written after a memory fence (HOP_S). LL (low
# latency) writes 16-byte lines holding 8 data bytes and two 4-byte flags (union
# ncclLLFifoLine) that the receiver polls directly: no fence, no separate flag, a
# shorter hop, but every data byte costs two on the link (LL_WIRE). LL's hop is RCCL's
# own per-step latency for LL over xGMI (RCCL files xGMI links as LINK_NVL, so its
# NCCL_HW_NVLINK row: Ring 0.8 us, Tree 0.9 us) in tuning_model_5, the table its
# 8 x MI300X platform models select ("tuning=5": rome_model_79, rome_model_84), ROCm/rccl
# src/graph/tuning.cc and src/graph/rome_models.cc at commit
# 0cbce2a7571c907554199fad7e905f16ec0a565c: taken from the source, not fitted. The same
# table's Simple hops (2.1 / 2.3 us) and base latencies (baseLat 12 us LL, 17 us Simple)
# are not taken: RCCL uses them to rank its choices, and from 512 KiB to 16 MiB RCCL on
# 8 MI300X runs MSCCL's all-pairs all-reduce instead (tools/msccl-algorithms), which the
# emulator does not model; it keeps LAUNCH_S and HOP_S. LL's steps are really smaller
# (16 KiB of data per channel); LL is timed with Simple's chunks, as it wins only below
# about 128 KiB, where a rank's chunk fits in one LL step anyway.
LL_HOP_S = {"RING": 0.8e-6, "TREE": 0.9e-6}
LL_WIRE = 2.0
PROTOCOLS = ("LL", "SIMPLE")
# NCCL defaults: NCCL_BUFFSIZE 4 MiB split into NCCL_STEPS = 8 steps of 512 KiB; ring
# all-reduce chunks are ALLREDUCE_CHUNKSTEPS = NCCL_STEPS/2 = 4 steps (2 MiB), trees
# move one step (512 KiB) at a time (NCCL src/include/collectives.h, device.h).
RING_CHUNK_BYTES = 4 * (512 << 10)
TREE_CHUNK_BYTES = 512 << 10
# Model assumption: at most 16 channels, and one per 64 KiB each rank moves, so small
# messages use few channels (NCCL also trims channels for small sizes).
MAX_CHANNELS = 16
BYTES_PER_CHANNEL = 64 << 10


def ring_strides(n: int) -> list[int]:
    """Strides s giving rings r -> r+s that visit every rank (s coprime with n)."""
    return [s for s in range(1, n) if math.gcd(s, n) == 1] or [1]


def _search_ring(devices: list[int]) -> list[int]:
    """A ring through xGMI links if one exists (depth-first), else rank order."""
    n = len(devices)

    def linked(a: int, b: int) -> bool:
        return link_between(devices[a], devices[b]).kind == "xGMI"

    def extend(path: list[int]) -> list[int] | None:
        if len(path) == n:
            return path if linked(path[-1], path[0]) else None
        for nxt in range(n):
            if nxt not in path and linked(path[-1], nxt):
                found = extend(path + [nxt])
                if found:
                    return found
        return None

    return (extend([0]) if n > 2 else None) or list(range(n))


def rings_for(devices: list[int]) -> list[list[int]]:
    """Ring orders (of ranks) for a communicator on these devices."""
    n = len(devices)
    direct = all(link_between(a, b).kind == "xGMI" for a in devices for b in devices
                 if a != b)
    if direct:
        return [[(i * s) % n for i in range(n)] for s in ring_strides(n)]
    ring = _search_ring(devices)
    return [ring, [ring[0]] + ring[1:][::-1]]


def btree(n: int) -> list[int]:
    """Parent of each of ``n`` nodes in NCCL's binary tree (ncclGetBtree), -1 for the
    root; NCCL builds it over nodes, not over the GPUs of one node."""
    parent = [-1] * n
    for rank in range(1, n):
        bit = 1
        while bit < n and not bit & rank:
            bit <<= 1
        up = (rank ^ bit) | (bit << 1)
        parent[rank] = up if up < n else rank ^ bit
    return parent


def chain(ring: list[int]) -> list[int]:
    """Parent of each rank in RCCL's tree inside one node: a chain in the ring's order,
    rooted at ``ring[0]`` (src/graph/connect.cc, ncclTopoPreset)."""
    parent = [-1] * len(ring)
    for up, rank in zip(ring[:-1], ring[1:], strict=True):
        parent[rank] = up
    return parent


def dtrees(n: int) -> list[list[int]]:
    """NCCL's two complementary trees (ncclGetDtree), over nodes (not used: every
    communicator of the emulator is on one node, where the tree is a ``chain``)."""
    t0 = btree(n)
    if n % 2 == 0:  # shift: rank r plays rank (r - 1) of tree 0
        def m(r: int) -> int:
            return (r - 1) % n
        inv = {m(r): r for r in range(n)}
    else:  # mirror: rank r plays rank n - 1 - r
        def m(r: int) -> int:
            return n - 1 - r
        inv = {m(r): r for r in range(n)}
    t1 = [inv[t0[m(r)]] if t0[m(r)] >= 0 else -1 for r in range(n)]
    return [t0, t1]


def channels_for(nbytes: int, nranks: int) -> int:
    """Channels for a message of ``nbytes`` per rank (model assumption, see above)."""
    return max(1, min(MAX_CHANNELS, nbytes // (max(nranks, 1) * BYTES_PER_CHANNEL)))


def protocol_costs(algo: str, protocol: str) -> tuple[float, float]:
    """(hop seconds, wire bytes per data byte) of a step of ``algo`` in ``protocol``.

    >>> protocol_costs("RING", "LL"), protocol_costs("TREE", "SIMPLE")
    ((8e-07, 2.0), (1e-06, 1.0))
    """
    if protocol == "LL" and algo in LL_HOP_S:
        return LL_HOP_S[algo], LL_WIRE
    return HOP_S, 1.0


def schedule(transfers: list[tuple[int, int, int, int]], devices: list[int],
             hop_s: float = HOP_S, wire: float = 1.0) -> tuple[float, list[dict]]:
    """(seconds, steps): time every step by its busiest directed link, each step paying
    ``hop_s`` and moving ``wire`` link bytes per data byte (``protocol_costs``).

    Each step entry: step, src, dst (ranks), bytes, link ('xGMIx1', 'PCIe', ...),
    start_s, end_s (from the collective's start).
    """
    by_step: dict[int, list[tuple[int, int, int]]] = {}
    for step, src, dst, nbytes in transfers:
        by_step.setdefault(step, []).append((src, dst, nbytes))
    t, entries = LAUNCH_S, []
    for step in sorted(by_step):
        load: dict[tuple[int, int], int] = {}
        for src, dst, nbytes in by_step[step]:
            load[(src, dst)] = load.get((src, dst), 0) + nbytes
        longest = max(wire * nb / (link_between(devices[s], devices[d]).gbs * 1e9)
                      for (s, d), nb in load.items())
        end = t + hop_s + longest
        for (src, dst), nbytes in sorted(load.items()):
            link = link_between(devices[src], devices[dst])
            name = f"xGMIx{link.links}" if link.kind == "xGMI" else link.kind
            entries.append({"step": step, "src": src, "dst": dst, "bytes": nbytes,
                            "link": name, "start_s": t, "end_s": end})
        t = end
    return t, entries


def forced_algorithm(collective: str) -> str | None:
    """The algorithm NCCL_ALGO asks for (Ring / Tree), if any applies."""
    wish = os.environ.get("NCCL_ALGO", "").strip()
    if not wish:
        return None
    names = {w.strip().upper() for w in wish.split(",")}
    unknown = names - {"RING", "TREE"}
    if unknown:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"NCCL_ALGO={wish!r}: the emulator knows Ring and Tree, not "
                        f"{', '.join(sorted(unknown))}")
    if collective != "AllReduce":
        return "RING"
    return "TREE" if names == {"TREE"} else "RING" if names == {"RING"} else None


def allowed_protocols() -> tuple[str, ...]:
    """The protocols NCCL_PROTO allows (a list of LL, LL128, Simple; a leading '^'
    excludes them), LL and Simple when it is unset."""
    wish = os.environ.get("NCCL_PROTO", "").strip()
    if not wish:
        return PROTOCOLS
    names = {w.strip().upper() for w in wish.lstrip("^").split(",") if w.strip()}
    unknown = names - {"LL", "LL128", "SIMPLE"}
    if unknown:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"NCCL_PROTO={wish!r}: RCCL's protocols are LL, LL128 and Simple, not "
                        f"{', '.join(sorted(unknown))}")
    chosen = tuple(p for p in PROTOCOLS if (p in names) != wish.startswith("^"))
    if not chosen:
        raise NcclError(ncclResult_t.ncclInvalidArgument,
                        f"NCCL_PROTO={wish!r} leaves no protocol the emulator models (LL and "
                        "Simple; LL128 is not modeled)")
    return chosen


def bus_factor(collective: str, n: int) -> float:
    """nccl-tests' busbw / algbw (doc/PERFORMANCE.md): AllReduce 2(n-1)/n;
    ReduceScatter, AllGather, AllToAll (n-1)/n; Broadcast, Reduce, SendRecv 1."""
    if collective == "AllReduce":
        return 2 * (n - 1) / n
    if collective in ("ReduceScatter", "AllGather", "AllToAll", "Gather", "Scatter"):
        return (n - 1) / n
    return 1.0
