"""``numba.cuda.random``: xoroshiro128+ generators, one state per thread, bit-exact with
numba.cuda's (same seeding, same jumps, same float conversions).

The generator is Blackman and Vigna's xoroshiro128+ (2016 constants a=55, b=14, c=36;
jump polynomial 0xbeac0467eba5facb, 0xd86b048b86aa9922; https://prng.di.unimi.it/
xoroshiro128plus.c). numba.cuda's conventions, kept here so results match it number for
number: the first state is SplitMix64 of the seed stored in *both* words; state i is
state i-1 jumped 2**64 steps ahead; ``subsequence_start`` jumps the first state that many
times; a uniform float is ``(x >> 11) * 2**-53`` (float32: that float64 rounded); the
normal draws are Box-Muller on two float32 uniforms (also for ``normal_float64``).

The states are initialised on the host (numba-compiled, as numba.cuda does) and copied
to the device; the draws are device functions for kernels.

>>> states = create_xoroshiro128p_states(4, seed=1)
>>> host = states.copy_to_host()
>>> host.dtype.names, len(set(host["s0"].tolist()))
(('s0', 's1'), 4)
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
from numba import float32, float64, int64, uint32, uint64

from gpusim.compile.lang import DeviceFunction
from gpusim.runtime.darray import DeviceArray, device_array

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)

_JUMP = (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922)
TWO_PI_FLOAT32 = np.float32(2 * math.pi)
TWO_PI_FLOAT64 = np.float64(2 * math.pi)


# host: seeding and jumping ---------------------------------------------------------------
@numba.njit(cache=False)
def _splitmix64(seed: int) -> int:
    z = uint64(seed) + uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@numba.njit(cache=False)
def _step(s0: int, s1: int) -> tuple[int, int]:
    """One xoroshiro128+ state transition (the output s0 + s1 is not needed here)."""
    s1 ^= s0
    new0 = ((s0 << uint64(55)) | (s0 >> uint64(9))) ^ s1 ^ (s1 << uint64(14))
    return new0, (s1 << uint64(36)) | (s1 >> uint64(28))


@numba.njit(cache=False)
def _jump(s0: int, s1: int) -> tuple[int, int]:
    """The state 2**64 steps ahead (the reference's jump())."""
    j0, j1 = uint64(0), uint64(0)
    for word in (uint64(_JUMP[0]), uint64(_JUMP[1])):
        for bit in range(64):
            if word & (uint64(1) << uint64(bit)):
                j0 ^= s0
                j1 ^= s1
            s0, s1 = _step(s0, s1)
    return j0, j1


@numba.njit(cache=False)
def _fill(out: np.ndarray, seed: int, subsequence_start: int) -> None:
    """out[i] = (s0, s1) of generator i (out: n x 2 uint64)."""
    if out.shape[0] == 0:
        return
    s0 = s1 = _splitmix64(seed)
    for _ in range(subsequence_start):
        s0, s1 = _jump(s0, s1)
    for i in range(out.shape[0]):
        if i:
            s0, s1 = _jump(s0, s1)
        out[i, 0], out[i, 1] = s0, s1


def init_xoroshiro128p_states(states: DeviceArray, seed: int, subsequence_start: int = 0,
                              stream: Any = 0) -> None:
    """Fill a device array of ``xoroshiro128p_dtype`` with independent generators
    (2**64 draws apart), seeded from ``seed``."""
    if states.dtype != xoroshiro128p_dtype or states.ndim != 1:
        raise TypeError("init_xoroshiro128p_states: states must be a 1-d device array of "
                        "xoroshiro128p_dtype (make one with create_xoroshiro128p_states)")
    words = np.empty((states.shape[0], 2), np.uint64)
    _fill(words, np.uint64(seed & (2**64 - 1)), int(subsequence_start))
    host = np.empty(states.shape, xoroshiro128p_dtype)
    host["s0"], host["s1"] = words[:, 0], words[:, 1]
    states.copy_to_device(host, stream=stream)


def create_xoroshiro128p_states(n: int, seed: int, subsequence_start: int = 0,
                                stream: Any = 0) -> DeviceArray:
    """A new device array of ``n`` generator states (one per thread that draws)."""
    states = device_array(n, dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


# device: the draws ----------------------------------------------------------------------
def _next(states, index):
    """The next uint64 of generator ``index``, advancing it."""
    index = int64(index)
    s0 = states[index]["s0"]
    s1 = states[index]["s1"]
    result = s0 + s1
    s1 ^= s0
    states[index]["s0"] = ((s0 << uint32(55)) | (s0 >> uint32(9))) ^ s1 ^ (s1 << uint32(14))
    states[index]["s1"] = (s1 << uint32(36)) | (s1 >> uint32(28))
    return result


xoroshiro128p_next = DeviceFunction(_next)


def _uniform64(states, index):
    """A float64 in [0, 1) from generator ``index``."""
    return float64(xoroshiro128p_next(states, index) >> uint32(11)) * float64(
        1.0 / 9007199254740992.0)  # 2**-53


xoroshiro128p_uniform_float64 = DeviceFunction(_uniform64)


def _uniform32(states, index):
    """A float32 in [0, 1): the float64 draw, rounded."""
    return float32(xoroshiro128p_uniform_float64(states, index))


xoroshiro128p_uniform_float32 = DeviceFunction(_uniform32)


def _normal32(states, index):
    """A standard normal float32 (Box-Muller; two draws)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float32(2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT32 * u2)


xoroshiro128p_normal_float32 = DeviceFunction(_normal32)


def _normal64(states, index):
    """A standard normal float64 (Box-Muller on two float32 draws, as numba.cuda)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float64(2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT64 * u2)


xoroshiro128p_normal_float64 = DeviceFunction(_normal64)

__all__ = ["xoroshiro128p_dtype", "create_xoroshiro128p_states", "init_xoroshiro128p_states",
           "xoroshiro128p_next", "xoroshiro128p_uniform_float32",
           "xoroshiro128p_uniform_float64", "xoroshiro128p_normal_float32",
           "xoroshiro128p_normal_float64"]
