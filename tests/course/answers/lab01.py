"""Lab 01 (first kernels), exercise 01.1: the student's ``scale(a, x, out)``, launched by the
check with 64 blocks of 256 threads (as in the lab), which must cover every element once."""

from __future__ import annotations

from answers import right, wrong
from gpusim import hip


@hip.jit
def scale_for_range(a, x, out):  # a for loop over range(start, stop, step)
    for j in range(hip.grid(1), out.size, hip.gridsize(1)):
        out[j] = a * x[j]


@hip.jit
def scale_spelled_out(a, x, out):  # the indices written out, HIP C++ style
    stride = hip.blockDim.x * hip.gridDim.x
    i = hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x
    n = x.shape[0]
    while i < n:
        out[i] = x[i] * a
        i = i + stride


@hip.jit(device=True)
def scaled(a, v):
    return a * v


@hip.jit
def scale_helper(a, x, out):  # a device function, and a count of steps
    i = hip.grid(1)
    stride = hip.gridsize(1)
    steps = (out.size - i + stride - 1) // stride
    for s in range(steps):
        out[i + s * stride] = scaled(a, x[i + s * stride])


@hip.jit
def scale_whole_blocks(a, x, out):  # a block-stride loop: each block takes whole tiles
    tile = hip.blockIdx.x
    while tile * hip.blockDim.x < out.size:
        i = tile * hip.blockDim.x + hip.threadIdx.x
        if i < out.size:
            out[i] = a * x[i]
        tile += hip.gridDim.x


@hip.jit
def scale_starter(a, x, out):  # the starter: one element per thread
    i = hip.grid(1)
    if i < out.size:
        out[i] = a * x[i]


@hip.jit
def scale_block_stride(a, x, out):  # steps by the block, not the grid
    i = hip.grid(1)
    while i < out.size:
        out[i] = a * x[i]
        i += hip.blockDim.x


@hip.jit
def scale_two_grids(a, x, out):  # steps two grids at a time
    i = hip.grid(1)
    while i < out.size:
        out[i] = a * x[i]
        i += 2 * hip.gridsize(1)


@hip.jit
def scale_le(a, x, out):  # <= goes one past the end
    i = hip.grid(1)
    while i <= out.size:
        out[i] = a * x[i]
        i += hip.gridsize(1)


@hip.jit
def scale_typed_factor(a, x, out):  # the lab's 3.0 typed in instead of a
    i = hip.grid(1)
    while i < out.size:
        out[i] = 3.0 * x[i]
        i += hip.gridsize(1)


@hip.jit
def scale_typed_stride(a, x, out):  # 64 * 256 typed in: right for the lab's launch only
    i = hip.grid(1)
    while i < out.size:
        out[i] = a * x[i]
        i += 16384


@hip.jit
def scale_typed_n(a, x, out):  # the lab's n typed in
    i = hip.grid(1)
    while i < 1_000_000:
        out[i] = a * x[i]
        i += hip.gridsize(1)


@hip.jit
def scale_step_first(a, x, out):  # moves on before doing its first element
    i = hip.grid(1)
    while i < out.size:
        i += hip.gridsize(1)
        if i < out.size:
            out[i] = a * x[i]


ANSWERS = [
    right("01.1", "for over range with a step", lambda: (scale_for_range,)),
    right("01.1", "indices spelled out", lambda: (scale_spelled_out,)),
    right("01.1", "device function and step count", lambda: (scale_helper,)),
    right("01.1", "block-stride over whole tiles", lambda: (scale_whole_blocks,)),
    wrong("01.1", "starter: no loop", ["never written"], lambda: (scale_starter,)),
    wrong("01.1", "steps by the block", ["written about", "repeating each other's work"],
          lambda: (scale_block_stride,)),
    wrong("01.1", "steps two grids", ["never written"], lambda: (scale_two_grids,)),
    wrong("01.1", "<= past the end", ["hipErrorIllegalAddress", "out-of-bounds"],
          lambda: (scale_le,)),
    wrong("01.1", "factor typed in", ["typed in", "not by its argument a"],
          lambda: (scale_typed_factor,)),
    wrong("01.1", "stride typed in", ["never written", "24 blocks", "not be typed in"],
          lambda: (scale_typed_stride,)),
    wrong("01.1", "n typed in", ["out-of-bounds"], lambda: (scale_typed_n,)),
    wrong("01.1", "steps before the first element", ["out[0] was never written"],
          lambda: (scale_step_first,)),
]
