"""Lab 02 (wavefronts and LDS): 02.1 the student's ``wave_sums(x, sums)`` (a shuffle
reduction per wavefront, launched [2, 256]); 02.2 ``compact(x, out, count)`` (keep the
positive values, one atomic per wavefront, launched [16, 256]). The checks also run them on
the wave32 RX 7900 XTX: the lab asks for code that works for any wavefront size."""

from __future__ import annotations

import numpy as np

from answers import right, wrong
from gpusim import hip

# ---- 02.1 wavefront sums


@hip.jit
def sums_shift(x, sums):  # halving by shifts, lane from the thread index
    i = hip.blockIdx.x * hip.blockDim.x + hip.threadIdx.x
    v = x[i]
    offset = hip.warpsize >> 1
    while offset >= 1:
        v = v + hip.shfl_down(v, offset)
        offset = offset >> 1
    if hip.threadIdx.x % hip.warpsize == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def sums_xor(x, sums):  # a butterfly: every lane ends with the sum
    i = hip.grid(1)
    v = x[i]
    mask = 1
    while mask < hip.warpsize:
        v += hip.shfl_xor(v, mask)
        mask *= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def sums_rising(x, sums):  # offsets counted up: 1, 2, 4, ... (lane 0 collects all)
    i = hip.grid(1)
    v = x[i]
    steps = 0
    w = hip.warpsize
    while w > 1:
        w //= 2
        steps += 1
    for s in range(steps - 1, -1, -1):
        v += hip.shfl_down(v, 1 << s)
    if hip.laneid == 0:
        sums[hip.blockIdx.x * (hip.blockDim.x // hip.warpsize)
             + hip.threadIdx.x // hip.warpsize] = v


@hip.jit
def sums_starter(x, sums):  # the starter: offset 16, CUDA's warp
    i = hip.grid(1)
    v = x[i]
    offset = 16
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def sums_typed_32(x, sums):  # 32 typed in: right on wave64 only
    i = hip.grid(1)
    v = x[i]
    offset = 32
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


@hip.jit
def sums_typed_64(x, sums):  # 64 typed in, for the offset and for the sum's index
    i = hip.grid(1)
    v = x[i]
    offset = 64 // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    if i % 64 == 0:
        sums[i // 64] = v


@hip.jit
def sums_every_lane(x, sums):  # every lane stores: the last one's partial sum wins
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2
    sums[i // hip.warpsize] = v


@hip.jit
def sums_no_store(x, sums):
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_down(v, offset)
        offset //= 2


@hip.jit
def sums_shfl_up(x, sums):  # shfl_up gathers towards the last lane, not lane 0
    i = hip.grid(1)
    v = x[i]
    offset = hip.warpsize // 2
    while offset > 0:
        v += hip.shfl_up(v, offset)
        offset //= 2
    if hip.laneid == 0:
        sums[i // hip.warpsize] = v


# ---- 02.2 stream compaction


@hip.jit
def compact_last_lane(x, out, count):  # the last lane reserves, everyone reads its base
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    votes = hip.ballot(keep)
    lane = hip.threadIdx.x % hip.warpsize
    last = hip.warpsize - 1
    base = 0
    if lane == last:
        base = hip.atomic.add(count, 0, hip.popc(votes))
    base = hip.shfl(base, last)
    if keep:
        mask = (np.uint64(1) << np.uint64(lane)) - np.uint64(1)
        out[base + hip.popc(votes & mask)] = x[i]


@hip.jit
def compact_scan(x, out, count):  # a shuffle scan of the flags, no ballot
    i = hip.grid(1)
    flag = 1 if i < x.size and x[i] > 0 else 0
    incl = flag
    d = 1
    while d < hip.warpsize:
        up = hip.shfl_up(incl, d)
        if hip.laneid >= d:
            incl += up
        d *= 2
    total = hip.shfl(incl, hip.warpsize - 1)
    base = 0
    if hip.laneid == 0:
        base = hip.atomic.add(count, 0, total)
    base = hip.shfl(base, 0)
    if flag == 1:
        out[base + incl - 1] = x[i]


@hip.jit
def compact_bits_below(x, out, count):  # slot: the set bits of the ballot under the lane
    i = hip.grid(1)
    keep = False
    if i < x.size:
        keep = x[i] > 0
    votes = hip.ballot(keep)
    n_keep = hip.popc(votes)
    base = np.int32(0)
    if hip.laneid == 0 and n_keep > 0:
        base = hip.atomic.add(count, 0, n_keep)
    base = hip.shfl(base, 0)
    lower = votes & ~(~np.uint64(0) << np.uint64(hip.laneid))
    if keep:
        out[base + hip.popc(lower)] = x[i]


@hip.jit
def compact_starter(x, out, count):  # the starter: an atomic per kept value
    i = hip.grid(1)
    if i < x.size and x[i] > 0:
        out[hip.atomic.add(count, 0, 1)] = x[i]


@hip.jit
def compact_no_shfl(x, out, count):  # only lane 0 knows the base
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    votes = hip.ballot(keep)
    lane = hip.laneid
    below = votes & ((np.uint64(1) << np.uint64(lane)) - np.uint64(1))
    base = 0
    if lane == 0:
        base = hip.atomic.add(count, 0, hip.popc(votes))
    if keep:
        out[base + hip.popc(below)] = x[i]


@hip.jit
def compact_every_lane_adds(x, out, count):  # no `if lane == 0`: 64 atomics a wavefront
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    votes = hip.ballot(keep)
    below = votes & ((np.uint64(1) << np.uint64(hip.laneid)) - np.uint64(1))
    base = hip.atomic.add(count, 0, hip.popc(votes))
    base = hip.shfl(base, 0)
    if keep:
        out[base + hip.popc(below)] = x[i]


@hip.jit
def compact_slot_is_lane(x, out, count):  # slot = lane: gaps where lanes do not keep
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    votes = hip.ballot(keep)
    base = 0
    if hip.laneid == 0:
        base = hip.atomic.add(count, 0, hip.popc(votes))
    base = hip.shfl(base, 0)
    if keep:
        out[base + hip.laneid] = x[i]


@hip.jit
def compact_lane_mod_64(x, out, count):  # lane from threadIdx % 64: wave64 only
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    votes = hip.ballot(keep)
    lane = hip.threadIdx.x % 64
    below = votes & ((np.uint64(1) << np.uint64(lane)) - np.uint64(1))
    base = 0
    if hip.laneid == 0:
        base = hip.atomic.add(count, 0, hip.popc(votes))
    base = hip.shfl(base, 0)
    if keep:
        out[base + hip.popc(below)] = x[i]


@hip.jit
def compact_all_bits(x, out, count):  # slot = popc of the whole ballot: one slot for all
    i = hip.grid(1)
    keep = i < x.size and x[i] > 0
    votes = hip.ballot(keep)
    base = 0
    if hip.laneid == 0:
        base = hip.atomic.add(count, 0, hip.popc(votes))
    base = hip.shfl(base, 0)
    if keep:
        out[base + hip.popc(votes) - 1] = x[i]


ANSWERS = [
    right("02.1", "shifts and threadIdx % warpsize", lambda: (sums_shift,)),
    right("02.1", "xor butterfly", lambda: (sums_xor,)),
    right("02.1", "offsets from a step count", lambda: (sums_rising,)),
    wrong("02.1", "starter: offset 16", ["lanes 0-31", "64 lanes"], lambda: (sums_starter,)),
    wrong("02.1", "offset 32 typed in", ["wave32", "assumes a 64-wide wavefront"],
          lambda: (sums_typed_32,)),
    wrong("02.1", "64 typed in everywhere", ["wave32", "assumes a 64-wide wavefront"],
          lambda: (sums_typed_64,)),
    wrong("02.1", "every lane stores", ["stored by about 64 lanes", "only lane 0"],
          lambda: (sums_every_lane,)),
    wrong("02.1", "no store", ["never written"], lambda: (sums_no_store,)),
    wrong("02.1", "shfl_up", ["sums[0] is", "shfl_up", "lane 0 has none"],
          lambda: (sums_shfl_up,)),
    right("02.2", "last lane reserves", lambda: (compact_last_lane,)),
    right("02.2", "shuffle scan", lambda: (compact_scan,)),
    right("02.2", "bits below by complement", lambda: (compact_bits_below,)),
    wrong("02.2", "starter: atomic per value", ["atomic per kept value", "only one"],
          lambda: (compact_starter,)),
    wrong("02.2", "no shfl of the base", ["race on out"], lambda: (compact_no_shfl,)),
    wrong("02.2", "every lane adds", ["out-of-bounds", "every lane added"],
          lambda: (compact_every_lane_adds,)),
    wrong("02.2", "slot is the lane", ["race on out"], lambda: (compact_slot_is_lane,)),
    wrong("02.2", "lane from threadIdx % 64", ["wave32", "assumes a 64-wide wavefront"],
          lambda: (compact_lane_mod_64,)),
    wrong("02.2", "whole ballot as slot", ["never written", "same slot"],
          lambda: (compact_all_bits,)),
]
