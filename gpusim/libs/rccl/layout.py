"""How RCCL cuts a buffer into channels, loops and chunks (which fixes the order of sums).

Ring collectives walk the buffer in loops of ``nchannels x nranks x chunk`` elements;
in each loop channel ``b`` takes ``nranks`` consecutive chunks of ``real`` elements,
``real = min(chunk, ceil(left / (nchannels x nranks)))`` rounded up to the vector
alignment, as NCCL's ring kernels do (NCCL/RCCL src/device/all_reduce.h, runRing).
Trees walk it in loops of ``nchannels x chunk``, one chunk per channel (runTreeUpDown).
The alignment is NCCL's ``(nthreads - warpSize) * sizeof(uint64_t) / sizeof(T)`` with
256 threads and RCCL's 64-lane wavefronts.

>>> [(r.channel, r.chunk, r.start, r.stop) for r in ring_runs(1000, 2, 1, 4096, 4)]
[(0, 0, 0, 768), (0, 1, 768, 1000)]
"""

from __future__ import annotations

from dataclasses import dataclass

NTHREADS, WAVE = 256, 64


@dataclass(frozen=True)
class Run:
    """A contiguous run of elements one channel handles as one chunk in one loop."""

    loop: int
    channel: int
    chunk: int  # ring position of the chunk (0 for trees)
    start: int
    stop: int


def alignment(itemsize: int) -> int:
    """Elements a chunk is rounded up to (NCCL's vector alignment)."""
    return max(1, (NTHREADS - WAVE) * 8 // itemsize)


def ring_runs(count: int, nranks: int, nchannels: int, chunk_elems: int,
              itemsize: int) -> list[Run]:
    """The runs of a ring collective over ``count`` elements (per rank block)."""
    runs, loop, offset = [], 0, 0
    align = alignment(itemsize)
    while offset < count:
        left = count - offset
        real = min(chunk_elems, -(-left // (nchannels * nranks)))
        real = -(-real // align) * align
        for channel in range(nchannels):
            base = offset + channel * nranks * real
            for chunk in range(nranks):
                start = base + chunk * real
                if start < count:
                    runs.append(Run(loop, channel, chunk, start, min(start + real, count)))
        offset += nchannels * nranks * chunk_elems
        loop += 1
    return runs


def tree_runs(count: int, nchannels: int, chunk_elems: int, itemsize: int) -> list[Run]:
    """The runs of a tree collective: one chunk per channel per loop.

    >>> [(r.loop, r.channel, r.start, r.stop) for r in tree_runs(10, 2, 3, 2048)]
    [(0, 0, 0, 3), (0, 1, 3, 6), (1, 0, 6, 8), (1, 1, 8, 10)]
    """
    runs, loop, offset = [], 0, 0
    align = alignment(itemsize)
    while offset < count:
        left = count - offset
        real = -(-min(chunk_elems, -(-left // nchannels)) // align) * align
        for channel in range(nchannels):
            start = offset + channel * real
            if start < count:
                runs.append(Run(loop, channel, 0, start, min(start + real, count)))
        offset += nchannels * chunk_elems
        loop += 1
    return runs
