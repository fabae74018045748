"""Lab 04 (streams), exercise 04.1: students' pipelines over 8 chunks, as in the lab;
exercise 04.2: students' ``run_steps(stream, nsteps)``, the lab's three-kernel time step
run as a HIP graph.

Each 04.1 answer is the lab's ``pipeline(streams)`` with the student's own choice of
stream per chunk and order of calls; ``_lab`` builds the buffers the notebook has. Each
04.2 answer is a ``run_steps`` written against the lab's ``step``, ``pos`` and ``vel``
(``_sim`` builds them).
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


@hip.jit
def kick(x, v, dt):
    i = hip.grid(1)
    if i < x.size:
        v[i] -= dt * x[i]


@hip.jit
def drift(x, v, dt):
    i = hip.grid(1)
    if i < x.size:
        x[i] += dt * v[i]


@hip.jit
def damp(v, keep):
    i = hip.grid(1)
    if i < v.size:
        v[i] *= keep


PARTICLES, DT, KEEP = 4096, np.float32(0.05), np.float32(0.995)  # the lab's
BLOCKS = PARTICLES // 256


def _sim(body):
    """The lab's particles and ``step(stream)``, and the student's ``run_steps`` made by
    ``body(step, pos, vel)``."""
    def build():
        pos = hip.to_device(np.linspace(-1, 1, PARTICLES, dtype=np.float32))
        vel = hip.to_device(np.zeros(PARTICLES, np.float32))

        def step(stream):
            kick[BLOCKS, 256, stream](pos, vel, DT)
            drift[BLOCKS, 256, stream](pos, vel, DT)
            damp[BLOCKS, 256, stream](vel, KEEP)
        return body(step, pos, vel), step, pos, vel
    return build


def _capture(step, pos, vel):
    """The solution: stream capture, one graph, launched nsteps times."""
    def run_steps(stream, nsteps):
        hip.hipStreamBeginCapture(stream, hip.hipStreamCaptureModeGlobal)
        step(stream)
        graph = hip.hipStreamEndCapture(stream)
        exe = hip.hipGraphInstantiate(graph)
        for _ in range(nsteps):
            hip.hipGraphLaunch(exe, stream)
    return run_steps


def _with_capture(step, pos, vel):
    """The ``with hip.capture`` helper, ``exe.launch``, and a synchronise at the end."""
    def run_steps(stream, nsteps):
        with hip.capture(stream) as c:
            step(stream)
        exe = c.instantiate()
        for _ in range(nsteps):
            exe.launch(stream)
        hip.hipStreamSynchronize(stream)
    return run_steps


def _kernel_nodes(step, pos, vel):
    """The graph built node by node, each kernel depending on the one before."""
    def run_steps(stream, nsteps):
        graph = hip.hipGraphCreate()
        a = hip.hipGraphAddKernelNode(graph, [], hip.hipKernelNodeParams(
            kick, BLOCKS, 256, (pos, vel, DT)))
        b = hip.hipGraphAddKernelNode(graph, [a], hip.hipKernelNodeParams(
            drift, (BLOCKS, 1, 1), (256, 1, 1), (pos, vel, DT)))
        hip.hipGraphAddKernelNode(graph, [b], hip.hipKernelNodeParams(
            damp, BLOCKS, 256, (vel, KEEP)))
        exe = hip.hipGraphInstantiate(graph)
        step_count = 0
        while step_count < nsteps:
            hip.hipGraphLaunch(exe, stream)
            step_count += 1
    return run_steps


def _own_stream_relaxed(step, pos, vel):
    """Captured on a stream of its own in relaxed mode, launched on the null stream."""
    def run_steps(stream, nsteps):
        mine = hip.hipStreamCreate()
        hip.hipStreamBeginCapture(mine, hip.hipStreamCaptureModeRelaxed)
        step(mine)
        exe = hip.hipGraphInstantiateWithFlags(hip.hipStreamEndCapture(mine), 0)
        for _ in range(nsteps):
            hip.hipGraphLaunch(exe, 0)
        hip.hipDeviceSynchronize()
        hip.hipStreamDestroy(mine)
    return run_steps


def _five_per_graph(step, pos, vel):
    """Five steps per graph, and a one-step graph for what is left."""
    def graph_of(stream, count):
        with hip.capture(stream) as c:
            for _ in range(count):
                step(stream)
        return c.instantiate()

    def run_steps(stream, nsteps):
        five, one = graph_of(stream, 5), graph_of(stream, 1)
        for _ in range(nsteps // 5):
            hip.hipGraphLaunch(five, stream)
        for _ in range(nsteps % 5):
            hip.hipGraphLaunch(one, stream)
    return run_steps


def _starter(step, pos, vel):
    def run_steps(stream, nsteps):
        for _ in range(nsteps):
            step(stream)
    return run_steps


def _sync_in_capture(step, pos, vel):
    """Waits for the step before ending the capture."""
    def run_steps(stream, nsteps):
        hip.hipStreamBeginCapture(stream, hip.hipStreamCaptureModeGlobal)
        step(stream)
        hip.hipStreamSynchronize(stream)
        exe = hip.hipGraphInstantiate(hip.hipStreamEndCapture(stream))
        for _ in range(nsteps):
            hip.hipGraphLaunch(exe, stream)
    return run_steps


def _device_sync_in_capture(step, pos, vel):
    def run_steps(stream, nsteps):
        with hip.capture(stream) as c:
            step(stream)
            hip.hipDeviceSynchronize()
        for _ in range(nsteps):
            c.instantiate().launch(stream)
    return run_steps


def _never_ended(step, pos, vel):
    """Begins a capture and launches the steps, thinking the capture records and runs."""
    def run_steps(stream, nsteps):
        hip.hipStreamBeginCapture(stream, hip.hipStreamCaptureModeGlobal)
        for _ in range(nsteps):
            step(stream)
    return run_steps


def _never_launched(step, pos, vel):
    def run_steps(stream, nsteps):
        hip.hipStreamBeginCapture(stream, hip.hipStreamCaptureModeGlobal)
        step(stream)
        graph = hip.hipStreamEndCapture(stream)
        hip.hipGraphInstantiate(graph)
        hip.hipStreamSynchronize(stream)
    return run_steps


def _graph_once_then_stream(step, pos, vel):
    def run_steps(stream, nsteps):
        with hip.capture(stream) as c:
            step(stream)
        hip.hipGraphLaunch(c.instantiate(), stream)
        for _ in range(nsteps - 1):
            step(stream)
    return run_steps


def _sync_every_launch(step, pos, vel):
    def run_steps(stream, nsteps):
        with hip.capture(stream) as c:
            step(stream)
        exe = c.instantiate()
        for _ in range(nsteps):
            hip.hipGraphLaunch(exe, stream)
            hip.hipStreamSynchronize(stream)
    return run_steps


def _other_stream(step, pos, vel):
    """Captures a new stream but launches the step on the one it was given."""
    def run_steps(stream, nsteps):
        capturing = hip.hipStreamCreate()
        hip.hipStreamBeginCapture(capturing, hip.hipStreamCaptureModeGlobal)
        step(stream)
        exe = hip.hipGraphInstantiate(hip.hipStreamEndCapture(capturing))
        for _ in range(nsteps):
            hip.hipGraphLaunch(exe, stream)
    return run_steps


def _null_stream(step, pos, vel):
    """Captures the stream it was given but launches the step on the null stream."""
    def run_steps(stream, nsteps):
        with hip.capture(stream) as c:
            step(0)
        exe = c.instantiate()
        for _ in range(nsteps):
            hip.hipGraphLaunch(exe, stream)
    return run_steps


def _graph_per_step(step, pos, vel):
    """Captures and instantiates inside the loop."""
    def run_steps(stream, nsteps):
        for _ in range(nsteps):
            with hip.capture(stream) as c:
                step(stream)
            hip.hipGraphLaunch(c.instantiate(), stream)
    return run_steps


def _graph_per_kernel(step, pos, vel):
    """One graph per kernel, three launches per step."""
    def run_steps(stream, nsteps):
        exes = []
        for kernel, args in ((kick, (pos, vel, DT)), (drift, (pos, vel, DT)),
                             (damp, (vel, KEEP))):
            g = hip.hipGraphCreate()
            hip.hipGraphAddKernelNode(g, [], hip.hipKernelNodeParams(kernel, BLOCKS, 256, args))
            exes.append(hip.hipGraphInstantiate(g))
        for _ in range(nsteps):
            for exe in exes:
                hip.hipGraphLaunch(exe, stream)
    return run_steps


def _nodes_without_deps(step, pos, vel):
    """Kernel nodes all added as roots: no order between them."""
    def run_steps(stream, nsteps):
        graph = hip.hipGraphCreate()
        hip.hipGraphAddKernelNode(graph, [], hip.hipKernelNodeParams(
            kick, BLOCKS, 256, (pos, vel, DT)))
        hip.hipGraphAddKernelNode(graph, [], hip.hipKernelNodeParams(
            drift, BLOCKS, 256, (pos, vel, DT)))
        hip.hipGraphAddKernelNode(graph, [], hip.hipKernelNodeParams(
            damp, BLOCKS, 256, (vel, KEEP)))
        exe = hip.hipGraphInstantiate(graph)
        for _ in range(nsteps):
            hip.hipGraphLaunch(exe, stream)
    return run_steps


def _one_launch_short(step, pos, vel):
    def run_steps(stream, nsteps):
        with hip.capture(stream) as c:
            step(stream)
        exe = c.instantiate()
        for _ in range(1, nsteps):
            hip.hipGraphLaunch(exe, stream)
    return run_steps


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
    right("04.2", "hipStreamBeginCapture / EndCapture, launched in a loop", _sim(_capture)),
    right("04.2", "with hip.capture, exe.launch, synchronises at the end",
          _sim(_with_capture)),
    right("04.2", "kernel nodes chained with hipGraphAddKernelNode", _sim(_kernel_nodes)),
    right("04.2", "own stream, relaxed mode, launched on the null stream",
          _sim(_own_stream_relaxed)),
    right("04.2", "five steps per graph and a one-step graph for the rest",
          _sim(_five_per_graph)),
    wrong("04.2", "starter: kernels issued on the stream", ["no graph", "one by one"],
          _sim(_starter)),
    wrong("04.2", "hipStreamSynchronize inside the capture",
          ["hipStreamSynchronize inside the capture", "after hipStreamEndCapture"],
          _sim(_sync_in_capture)),
    wrong("04.2", "hipDeviceSynchronize inside hip.capture",
          ["hipDeviceSynchronize inside the capture"], _sim(_device_sync_in_capture)),
    wrong("04.2", "never ends the capture", ["never ended", "hipStreamEndCapture"],
          _sim(_never_ended)),
    wrong("04.2", "instantiates but never launches", ["no kernel ran", "hipGraphLaunch"],
          _sim(_never_launched)),
    wrong("04.2", "one graph launch, then the kernels on the stream",
          ["only 1 of the 50 steps ran from the graph", "one by one"],
          _sim(_graph_once_then_stream)),
    wrong("04.2", "synchronises after every graph launch",
          ["waits for each launch to finish", "synchronise once"],
          _sim(_sync_every_launch)),
    wrong("04.2", "captures another stream than the kernels run on",
          ["not captured", "graph is empty", "stream being captured"], _sim(_other_stream)),
    wrong("04.2", "kernels on the null stream during the capture",
          ["null stream", "launch the kernels on the stream you capture"],
          _sim(_null_stream)),
    wrong("04.2", "a new graph captured and instantiated every step",
          ["new graph for every launch", "before the loop"], _sim(_graph_per_step)),
    wrong("04.2", "one graph per kernel", ["only 1 kernel", "whole step"],
          _sim(_graph_per_kernel)),
    wrong("04.2", "kernel nodes without dependencies", ["without dependencies", "3 streams"],
          _sim(_nodes_without_deps)),
    wrong("04.2", "launches the graph nsteps - 1 times", ["49 steps", "not 50"],
          _sim(_one_launch_short)),
]
