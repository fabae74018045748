"""Collective records (RCCL): one record per call, each step's chunk moves listed.

The format the RCCL emulation emits and ``viz.collectives`` draws. A ring all-reduce
over ``n`` ranks is ``2 (n - 1)`` steps (reduce-scatter, then all-gather); in each step
every rank sends one chunk (1/n of the buffer) to the next rank. A ``Transfer`` is one
such chunk on one link: which step, from which rank to which, which chunk, how many
bytes, when (modeled), and whether the receiver reduces it into its buffer or copies.

>>> t = [Transfer(step=0, src=0, dst=1, chunk=0, nbytes=512, op="reduce"),
...      Transfer(step=0, src=1, dst=0, chunk=1, nbytes=512, op="reduce")]
>>> r = CollectiveRecord(name="ncclAllReduce", device=0, stream=0, op="allreduce",
...                      algorithm="ring", ranks=(0, 1), nbytes=1024, transfers=t,
...                      start_ns=0, end_ns=1000, done=True)
>>> r
<CollectiveRecord ncclAllReduce allreduce ring over 2 ranks, 1.0 KiB, device 0 stream 0, 1 us>
>>> r.steps, r.link_bytes(), round(r.bus_bandwidth_gbs, 3)
(1, {(0, 1): 512, (1, 0): 512}, 1.024)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpusim.profiler.format import format_bytes
from gpusim.profiler.records import Record

# nccl-tests bus bandwidth = algorithm bandwidth x this (n ranks), so numbers compare
# with link speeds whatever the algorithm (nccl-tests doc/PERFORMANCE.md).
BUS_FACTOR = {"allreduce": lambda n: 2 * (n - 1) / n, "allgather": lambda n: (n - 1) / n,
              "reducescatter": lambda n: (n - 1) / n, "alltoall": lambda n: (n - 1) / n,
              "broadcast": lambda n: 1.0, "reduce": lambda n: 1.0}


@dataclass(frozen=True)
class Transfer:
    """One chunk over one link in one step of a collective."""

    step: int
    src: int  # rank
    dst: int  # rank
    chunk: int
    nbytes: int
    start_ns: int = 0
    end_ns: int = 0
    op: str = "copy"  # "copy", or "reduce": the receiver combines it with its data


@dataclass(repr=False)
class CollectiveRecord(Record):
    """One collective call (``ncclAllReduce`` ...) over a communicator's ranks."""

    op: str = "allreduce"  # allreduce, allgather, reducescatter, broadcast, reduce, alltoall
    algorithm: str = "ring"  # ring, tree
    ranks: tuple[int, ...] = ()  # device of each rank
    count: int = 0
    dtype: str = "float32"
    nbytes: int = 0  # bytes of each rank's buffer
    transfers: list[Transfer] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "Collective"

    @property
    def steps(self) -> int:
        return 1 + max((t.step for t in self.transfers), default=-1)

    def what(self) -> str:
        return (f"{self.name} {self.op} {self.algorithm} over {len(self.ranks)} ranks, "
                f"{format_bytes(self.nbytes)}")

    def link_bytes(self, up_to_step: int | None = None) -> dict[tuple[int, int], int]:
        """Bytes sent over each (src, dst) rank pair, through ``up_to_step`` if given."""
        out: dict[tuple[int, int], int] = {}
        for t in self.transfers:
            if up_to_step is None or t.step <= up_to_step:
                out[(t.src, t.dst)] = out.get((t.src, t.dst), 0) + t.nbytes
        return out

    @property
    def bus_bandwidth_gbs(self) -> float:
        """nccl-tests' bus bandwidth: nbytes / time x the op's factor (GB/s)."""
        if not self.duration_ns:
            return 0.0
        return self.nbytes / self.duration_ns * BUS_FACTOR[self.op](len(self.ranks))
