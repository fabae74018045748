"""Modeled time of a collective, RCCL's algorithm choice, and nccl-tests' bus bandwidth.

Rings and trees are built on the node topology (gpusim.runtime.topology): on a fully
connected node each channel gets a ring with its own stride (r -> r + s, s coprime with
n), so different channels use different Infinity Fabric links, as RCCL's multiple ring
orders do; otherwise a ring through the xGMI links is searched. Trees are NCCL's
double binary tree (ncclGetBtree / ncclGetDtree: tree 1 is tree 0 shifted by one rank
for an even count, mirrored for an odd one).

Time = LAUNCH_S + sum over steps of (HOP_S + the step's busiest link: bytes / GB/s).
The algorithm with the smaller modeled time is chosen, unless NCCL_ALGO names one.

>>> ring_strides(8)
[1, 3, 5, 7]
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

# Model assumptions: RCCL kernel launch + setup per collective (a few microseconds, as
# NCCL's tuner's base latency for the Simple protocol), and the per-step latency of
# one hop (flag handshake over xGMI + step synchronisation, about a microsecond).
LAUNCH_S = 5e-6
HOP_S = 1e-6
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
    """Parent of each rank in NCCL's binary tree (ncclGetBtree), -1 for the root."""
    parent = [-1] * n
    for rank in range(1, n):
        bit = 1
        while bit < n and not bit & rank:
            bit <<= 1
        up = (rank ^ bit) | (bit << 1)
        parent[rank] = up if up < n else rank ^ bit
    return parent


def dtrees(n: int) -> list[list[int]]:
    """NCCL's two complementary trees (ncclGetDtree)."""
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


def schedule(transfers: list[tuple[int, int, int, int]], devices: list[int]
             ) -> tuple[float, list[dict]]:
    """(seconds, steps): time every step by its busiest directed link.

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
        longest = max(nb / (link_between(devices[s], devices[d]).gbs * 1e9)
                      for (s, d), nb in load.items())
        end = t + HOP_S + longest
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


def bus_factor(collective: str, n: int) -> float:
    """nccl-tests' busbw / algbw (doc/PERFORMANCE.md): AllReduce 2(n-1)/n;
    ReduceScatter, AllGather, AllToAll (n-1)/n; Broadcast, Reduce, SendRecv 1."""
    if collective == "AllReduce":
        return 2 * (n - 1) / n
    if collective in ("ReduceScatter", "AllGather", "AllToAll", "Gather", "Scatter"):
        return (n - 1) / n
    return 1.0
