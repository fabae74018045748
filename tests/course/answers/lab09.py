"""Lab 09 (porting): students' hipify options and wave-size-agnostic reductions."""

from __future__ import annotations

from answers import right, wrong
from gpusim import hip

# ---- 09.2: one sum per wavefront, kernel[4, 256](x, sums)


@hip.jit
def sums_solution(x, sums):
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def sums_butterfly(x, sums):
    i = hip.grid(1)
    v = x[i]
    d = hip.warpsize >> 1
    while d:
        v += hip.shfl_xor(v, d)
        d >>= 1
    if i % hip.warpsize == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def sums_doubling(x, sums):
    i = hip.grid(1)
    w = hip.warpsize
    v = x[i]
    step = 1
    while step < w:
        v += hip.shfl_xor(v, step)
        step *= 2
    if hip.laneid == w - 1:
        sums[i // w] = v


@hip.jit
def sums_starter(x, sums):
    i = hip.grid(1)
    v = x[i]
    offset = 16
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def sums_32(x, sums):  # 64 lanes typed in: half of 64
    i = hip.grid(1)
    v = x[i]
    offset = 32
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def sums_slot_64(x, sums):  # the tree follows warpsize, the slot does not
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // 64] = v


@hip.jit
def sums_last_step(x, sums):  # stops before offset 1
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 1:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


ANSWERS = [
    right("09.1", "the two options", lambda: (dict(hip_kernel_syntax=True, roc=True),)),
    right("09.1", "a dict literal, other order",
          lambda: ({"roc": True, "hip_kernel_syntax": True},)),
    right("09.1", "truthy ints", lambda: (dict(roc=1, hip_kernel_syntax=1),)),
    wrong("09.1", "starter: no options", ["hipLaunchKernelGGL"], lambda: (dict(),)),
    wrong("09.1", "launch syntax only", ["rocblas_snrm2", "hipBLAS"],
          lambda: (dict(hip_kernel_syntax=True),)),
    wrong("09.1", "library names only", ["hipLaunchKernelGGL"], lambda: (dict(roc=True),)),
    wrong("09.1", "misspelt option", ["unexpected keyword", "rocm"],
          lambda: (dict(hip_kernel_syntax=True, rocm=True),)),
    wrong("09.1", "a string", ["should be a dict"], lambda: ("roc",)),
    right("09.2", "the solution", lambda: (sums_solution,)),
    right("09.2", "xor butterfly, lane test by modulo", lambda: (sums_butterfly,)),
    right("09.2", "doubling distances, last lane writes", lambda: (sums_doubling,)),
    wrong("09.2", "starter: the tree starts at 16", ["lanes 0-31", "32-lane warp"],
          lambda: (sums_starter,)),
    wrong("09.2", "first distance 32 typed in", ["32-lane", "assumes a 64-wide wavefront"],
          lambda: (sums_32,)),
    wrong("09.2", "slot index by 64", ["32-lane", "assumes a 64-wide wavefront"],
          lambda: (sums_slot_64,)),
    wrong("09.2", "tree stops before distance 1", ["stops before distance 1"],
          lambda: (sums_last_step,)),
]
