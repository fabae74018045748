"""The collective algorithms, run chunk by chunk on the ranks' buffers.

Each function walks the runs of ``layout.py`` and, for every run, does what the ring
(or tree) does to it, in the same order of operations, vectorised over the run with
NumPy. So a sum comes out bit for bit as that algorithm's order gives it:

- ring all-reduce / reduce-scatter: the chunk at ring position c is first sent by the
  rank at position c+1 and reduced at c+2, c+3, ... ending at c, which owns the result;
- ring reduce: the chain starts after the root and ends at it;
- tree all-reduce: each node reduces its own input with its children's partial
  results (first child first), up to the root, then the result goes back down; each
  channel uses its own tree (inside one node RCCL's tree is a chain:
  ``collective_time.chain``);
- broadcast / all-gather / gather / scatter / all-to-all move data only.

With ``job.inputs`` None nothing is computed: only the transfers are returned (collective_time.py
plans with them). A transfer is (step, src rank, dst rank, bytes).

>>> import numpy as np
>>> from gpusim.libs.rccl.enums import ncclRedOp_t
>>> from gpusim.libs.rccl.reduce import Reducer
>>> xs = [np.full(4, v, np.float32) for v in (1e8, 1.0, -1e8)]
>>> outs = [np.zeros(4, np.float32) for _ in xs]
>>> job = Job("AllReduce", 3, 4, 4, Reducer(ncclRedOp_t.ncclSum, np.dtype(np.float32), 3),
...           rings=[[0, 1, 2]], nchannels=1, chunk_elems=1024, inputs=xs, outputs=outs)
>>> _ = ring_allreduce(job); outs[0]      # order 1 + (-1e8) + 1e8: the 1 is lost
array([0., 0., 0., 0.], dtype=float32)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpusim.libs.rccl.layout import ring_runs, tree_runs
from gpusim.libs.rccl.reduce import Reducer

Transfer = tuple[int, int, int, int]  # (step, src, dst, nbytes)


@dataclass
class Job:
    """One collective on ``nranks`` ranks (rank r's buffers are inputs[r], outputs[r])."""

    collective: str
    nranks: int
    count: int  # the API's count (per rank block for AllGather / ReduceScatter / ...)
    itemsize: int
    reducer: Reducer | None = None
    root: int = 0
    rings: list[list[int]] = field(default_factory=list)
    trees: list[list[int]] = field(default_factory=list)  # parent of each rank (-1: root)
    nchannels: int = 1
    # LL or SIMPLE (collective_time.py): timing only, not the order of sums
    protocol: str = "SIMPLE"
    chunk_elems: int = 1 << 20
    inputs: list[np.ndarray] | None = None
    outputs: list[np.ndarray | None] | None = None

    def ring(self, channel: int) -> list[int]:
        return self.rings[channel % len(self.rings)]


def _chain_reduce(job: Job, order: list[int], lo: int, hi: int,
                  in_offset: int = 0) -> np.ndarray:
    """Reduce elements [lo, hi) of the ranks' inputs in ``order`` (first sender first)."""
    red = job.reducer
    acc = red.load(job.inputs[order[0]][in_offset + lo:in_offset + hi])
    for rank in order[1:]:
        acc = red.accumulate(acc, job.inputs[rank][in_offset + lo:in_offset + hi])
    return red.finish(acc)


def _ring_steps(job: Job, runs: list, nsteps: int, chunk_at: callable) -> list[Transfer]:
    """Per loop, ``nsteps`` ring steps; at step k the rank at ring position i sends the
    chunk at position chunk_at(i, k) to position i+1 (summed over channels)."""
    n, out = job.nranks, {}
    sizes = {(r.loop, r.channel, r.chunk): (r.stop - r.start) * job.itemsize for r in runs}
    loops = max((r.loop for r in runs), default=-1) + 1
    for loop in range(loops):
        for channel in range(job.nchannels):
            ring = job.ring(channel)
            for k in range(nsteps):
                for i in range(n):
                    nbytes = sizes.get((loop, channel, chunk_at(i, k) % n), 0)
                    if nbytes:
                        key = (loop * nsteps + k, ring[i], ring[(i + 1) % n])
                        out[key] = out.get(key, 0) + nbytes
    return [(s, a, b, v) for (s, a, b), v in out.items()]


def ring_allreduce(job: Job) -> list[Transfer]:
    n = job.nranks
    runs = ring_runs(job.count, n, job.nchannels, job.chunk_elems, job.itemsize)
    if job.inputs is not None:
        for r in runs:
            ring = job.ring(r.channel)
            order = [ring[(r.chunk + 1 + j) % n] for j in range(n)]
            result = _chain_reduce(job, order, r.start, r.stop)
            for out in job.outputs:
                out[r.start:r.stop] = result
    # reduce-scatter steps: position i sends chunk i-1-k; all-gather: chunk i-(k-n+1)
    return _ring_steps(job, runs, 2 * (n - 1),
                       lambda i, k: i - 1 - k if k < n - 1 else i - (k - n + 1))


def ring_reduce_scatter(job: Job) -> list[Transfer]:
    n, cnt = job.nranks, job.count
    runs = ring_runs(cnt, 1, job.nchannels, job.chunk_elems, job.itemsize)
    if job.inputs is not None:
        for r in runs:
            ring = job.ring(r.channel)
            for pos, block in enumerate(ring):
                order = [ring[(pos + 1 + j) % n] for j in range(n)]
                job.outputs[block][r.start:r.stop] = _chain_reduce(
                    job, order, r.start, r.stop, in_offset=block * cnt)
    blocks = [type(r)(r.loop, r.channel, c, r.start, r.stop) for r in runs for c in range(n)]
    return _ring_steps(job, blocks, n - 1, lambda i, k: i - 1 - k)


def ring_allgather(job: Job) -> list[Transfer]:
    n, cnt = job.nranks, job.count
    runs = ring_runs(cnt, 1, job.nchannels, job.chunk_elems, job.itemsize)
    if job.inputs is not None:
        blocks = [job.inputs[b][:cnt].copy() for b in range(n)]
        for out in job.outputs:
            for b in range(n):
                out[b * cnt:(b + 1) * cnt] = blocks[b]
    blocks = [type(r)(r.loop, r.channel, c, r.start, r.stop) for r in runs for c in range(n)]
    return _ring_steps(job, blocks, n - 1, lambda i, k: i - k)


def _chain_steps(job: Job, runs: list, first_pos: callable) -> list[Transfer]:
    """Pipelined chain along the ring (broadcast, reduce): chunk q of a channel crosses
    hop h at step q + h; first_pos(ring) is the position the chain starts at."""
    n, out = job.nranks, {}
    per_channel: dict[int, int] = {}
    for r in runs:
        q = per_channel.get(r.channel, 0)
        per_channel[r.channel] = q + 1
        ring = job.ring(r.channel)
        start = first_pos(ring)
        for h in range(n - 1):
            key = (q + h, ring[(start + h) % n], ring[(start + h + 1) % n])
            out[key] = out.get(key, 0) + (r.stop - r.start) * job.itemsize
    return [(s, a, b, v) for (s, a, b), v in out.items()]


def ring_broadcast(job: Job) -> list[Transfer]:
    runs = ring_runs(job.count, 1, job.nchannels, job.chunk_elems, job.itemsize)
    if job.inputs is not None:
        data = job.inputs[job.root][:job.count].copy()
        for out in job.outputs:
            out[:job.count] = data
    return _chain_steps(job, runs, lambda ring: ring.index(job.root))


def ring_reduce(job: Job) -> list[Transfer]:
    n = job.nranks
    runs = ring_runs(job.count, 1, job.nchannels, job.chunk_elems, job.itemsize)
    if job.inputs is not None:
        results = []
        for r in runs:
            ring = job.ring(r.channel)
            pos = ring.index(job.root)
            order = [ring[(pos + 1 + j) % n] for j in range(n)]
            results.append((r, _chain_reduce(job, order, r.start, r.stop)))
        for r, result in results:
            job.outputs[job.root][r.start:r.stop] = result
    return _chain_steps(job, runs, lambda ring: (ring.index(job.root) + 1) % len(ring))


def _depth(parent: list[int], rank: int) -> int:
    d = 0
    while parent[rank] >= 0:
        rank, d = parent[rank], d + 1
    return d


def _tree_up(job: Job, children: list[list[int]], node: int, lo: int, hi: int) -> np.ndarray:
    """Partial result of ``node``'s subtree: its own input, then each child's."""
    acc = job.reducer.load(job.inputs[node][lo:hi])
    for child in children[node]:
        acc = job.reducer.combine(acc, _tree_up(job, children, child, lo, hi))
    return acc


def tree_allreduce(job: Job) -> list[Transfer]:
    runs = tree_runs(job.count, job.nchannels, job.chunk_elems, job.itemsize)

    def tree_of(channel: int) -> list[int]:
        return job.trees[channel % len(job.trees)]

    if job.inputs is not None:
        for r in runs:
            parent = tree_of(r.channel)
            children = [[c for c in range(job.nranks) if parent[c] == p]
                        for p in range(job.nranks)]

            result = job.reducer.finish(
                _tree_up(job, children, parent.index(-1), r.start, r.stop))
            for out in job.outputs:
                out[r.start:r.stop] = result
    out: dict[tuple[int, int, int], int] = {}
    queued: dict[int, int] = {}
    for r in runs:
        parent = tree_of(r.channel)
        depth = [_depth(parent, x) for x in range(job.nranks)]
        top = max(depth)
        q = queued.get(r.channel, 0)
        queued[r.channel] = q + 1
        for child, p in enumerate(parent):
            if p < 0:
                continue
            nbytes = (r.stop - r.start) * job.itemsize
            for key in ((q + top - depth[child], child, p), (q + top + depth[p], p, child)):
                out[key] = out.get(key, 0) + nbytes
    return [(s, a, b, v) for (s, a, b), v in out.items()]


def p2p_collective(job: Job) -> list[Transfer]:
    """Gather, Scatter, AllToAll: RCCL runs them as grouped sends and receives."""
    n, cnt, root = job.nranks, job.count, job.root
    pairs = {"Gather": [(r, root, r, r) for r in range(n)],
             "Scatter": [(root, r, r, r) for r in range(n)],
             "AllToAll": [(a, b, b, a) for a in range(n) for b in range(n)]}[job.collective]
    # (src rank, dst rank, block read at src, block written at dst)
    if job.inputs is not None:
        blocks = [(dst, wblock, job.inputs[src][rblock * cnt:(rblock + 1) * cnt].copy())
                  for src, dst, rblock, wblock in pairs]
        if job.collective == "Gather":
            blocks = [(dst, w, job.inputs[src][:cnt].copy()) for src, dst, _, w in pairs]
        if job.collective == "Scatter":
            blocks = [(dst, 0, data) for dst, _, data in blocks]
        for dst, wblock, data in blocks:
            job.outputs[dst][wblock * cnt:(wblock + 1) * cnt] = data
    return [(0, s, d, cnt * job.itemsize) for s, d, _, _ in pairs if s != d]


ALGORITHMS = {
    ("AllReduce", "RING"): ring_allreduce, ("AllReduce", "TREE"): tree_allreduce,
    ("ReduceScatter", "RING"): ring_reduce_scatter, ("AllGather", "RING"): ring_allgather,
    ("Broadcast", "RING"): ring_broadcast, ("Reduce", "RING"): ring_reduce,
    ("Gather", "P2P"): p2p_collective, ("Scatter", "P2P"): p2p_collective,
    ("AllToAll", "P2P"): p2p_collective,
}
