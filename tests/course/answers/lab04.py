"""Lab 04 (streams), exercise 04.1: students' pipelines over 8 chunks, as in the lab.

Each answer is the lab's ``pipeline(streams)`` with the student's own choice of stream
per chunk and order of calls; ``_lab`` builds the buffers the notebook has.
"""

from __future__ import annotations

import math

import numpy as np

from answers import right, wrong
from gpusim import hip

CHUNKS, CHUNK = 8, 1 << 20  # the lab's sizes: the speed-up depends on them


@hip.jit
def brighten(x, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = math.sqrt(x[i]) * 1.5 + 0.25


def _lab(body):
    """The lab's buffers and a ``pipeline(streams)`` calling ``body(streams, steps)``,
    where ``steps(c, s_in, s_kernel, s_out)`` queues chunk c's copy in, kernel and copy
    back on the streams given (the lab's loop body, with the streams the student chose)."""
    def build():
        h_in = hip.pinned_array(CHUNKS * CHUNK, np.float32)
        h_in[:] = 9.0
        h_out = hip.pinned_array(CHUNKS * CHUNK, np.float32)
        d_in = hip.device_array(CHUNKS * CHUNK, np.float32)
        d_res = hip.device_array(CHUNKS * CHUNK, np.float32)

        def copy_in(c, s):
            part = slice(c * CHUNK, (c + 1) * CHUNK)
            hip.hipMemcpyAsync(d_in[part], h_in[part], 4 * CHUNK, hip.hipMemcpyHostToDevice, s)

        def kernel(c, s):
            part = slice(c * CHUNK, (c + 1) * CHUNK)
            brighten[CHUNK // 256, 256, s](d_in[part], d_res[part])

        def copy_back(c, s):
            part = slice(c * CHUNK, (c + 1) * CHUNK)
            hip.hipMemcpyAsync(h_out[part], d_res[part], 4 * CHUNK,
                               hip.hipMemcpyDeviceToHost, s)

        def pipeline(streams):
            body(streams, (copy_in, kernel, copy_back))
        return pipeline, h_in, h_out
    return build


def _each_chunk(pick, skip_last_copy_back=False, sync=False):
    """Chunk by chunk (the lab's loop), chunk c on stream ``pick(c, streams)``."""
    def body(streams, steps):
        copy_in, kernel, copy_back = steps
        for c in range(CHUNKS):
            s = pick(c, streams)
            copy_in(c, s)
            kernel(c, s)
            if not (skip_last_copy_back and c == CHUNKS - 1):
                copy_back(c, s)
            if sync:
                hip.hipStreamSynchronize(s)
    return body


def _by_step(streams, steps):
    """Every copy in, then every kernel, then every copy back (chunk c on c % n)."""
    for step in steps:
        for c in range(CHUNKS):
            step(c, streams[c % len(streams)])


def _kernel_on_next_stream(events):
    """Chunk c copied on stream c % n and computed on the next stream; ``events``: the
    kernel waits for its copy in and the copy back for the kernel (valid), or not."""
    def body(streams, steps):
        copy_in, kernel, copy_back = steps
        n = len(streams)
        for c in range(CHUNKS):
            s_copy, s_kernel = streams[c % n], streams[(c + 1) % n]
            copy_in(c, s_copy)
            if events:
                copied = hip.hipEventCreate()
                hip.hipEventRecord(copied, s_copy)
                hip.hipStreamWaitEvent(s_kernel, copied)
            kernel(c, s_kernel)
            if events:
                done = hip.hipEventCreate()
                hip.hipEventRecord(done, s_kernel)
                hip.hipStreamWaitEvent(s_copy, done)
            copy_back(c, s_copy)
    return body


ANSWERS = [
    right("04.1", "round robin", _lab(_each_chunk(lambda c, ss: ss[c % len(ss)]))),
    right("04.1", "round robin from the last stream",
          _lab(_each_chunk(lambda c, ss: ss[-1 - c % len(ss)]))),
    right("04.1", "blocks of chunks per stream",
          _lab(_each_chunk(lambda c, ss: ss[c * len(ss) // CHUNKS]))),
    right("04.1", "itertools-style cycling",
          _lab(_each_chunk(lambda c, ss: (ss * CHUNKS)[c]))),
    right("04.1", "kernel on the next stream, ordered with events",
          _lab(_kernel_on_next_stream(events=True))),
    wrong("04.1", "starter: one stream", ["on one of them", "1.00x"],
          _lab(_each_chunk(lambda c, ss: ss[0]))),
    wrong("04.1", "two of four streams", ["ran on 2 of them", "every stream"],
          _lab(_each_chunk(lambda c, ss: ss[c % 2 % len(ss)]))),
    wrong("04.1", "forgot the last copy back", ["h_out", "never written"],
          _lab(_each_chunk(lambda c, ss: ss[c % len(ss)], skip_last_copy_back=True))),
    wrong("04.1", "synchronises after every chunk", ["only 1.00x faster", "target is 1.5x"],
          _lab(_each_chunk(lambda c, ss: ss[c % len(ss)], sync=True))),
    wrong("04.1", "every copy in first, then kernels, then copies back",
          ["issue order matters", "copy back waits"], _lab(_by_step)),
    wrong("04.1", "kernel on another stream than its copy, no events",
          ["chunk 0", "started before its copy in", "not ordered"],
          _lab(_kernel_on_next_stream(events=False))),
]
