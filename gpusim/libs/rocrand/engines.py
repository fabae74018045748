"""The host generators' engines: how each rocRAND generator turns (seed, offset,
ordering) into the words its kernels draw, one call after another.

Two shapes (see philox.py and pool.py for the layouts):

- ``StreamEngine``: counter-based generators (Philox4x32-10, ThreeFry) are one stream
  from (seed, subsequence 0, offset); a call draws the next words in order.
- ``PoolEngine``: XORWOW, MRG32k3a, MRG31k3p and LFSR113 keep E engines on consecutive
  subsequences; group k of a call comes from engine (k mod E + start) mod E.
- MTGP32 and MT19937 have engines of their own (mtgp32.py, mt19937.py): one parameter
  set per block, and 8192 generators 2^1000 steps apart shared by eight threads each.

``KINDS`` maps every ``rocrand_rng_type`` to its engine factory, its distribution family
(``std32``: words are uniform 32-bit numbers; ``mrg``: words are in [1, m1] and go
through the MRG maps; ``std64``: pairs of words are 64-bit numbers), the seed a new
generator starts with, and the name of its kernel as rocRAND spells it.

>>> eng = KINDS[404].make(0, 0, 101, "gfx942")
>>> [f"{w:08x}" for w in eng.draw(1, 4)]
['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gpusim.libs.rocrand import lfsr113, mrg, mt19937, mtgp32, philox, pool, threefry, xorwow


class StreamEngine:
    """One stream; ``words(seed, position, n)`` gives n words from ``position``."""

    def __init__(self, words: Callable[[int, int, int], np.ndarray], seed: int, offset: int,
                 scale: int = 1):
        self.words, self.seed, self.position, self.scale = words, seed, offset * scale, scale

    def draw(self, ngroups: int, width: int) -> np.ndarray:
        n = ngroups * width
        out = self.words(self.seed, self.position, n)
        self.position += n
        return out


class PoolEngine:
    """E engines (rows of ``states``) used round-robin from ``start``."""

    def __init__(self, states: np.ndarray, start: int, step):
        self.states, self.start, self.step = states, start, step

    def draw(self, ngroups: int, width: int) -> np.ndarray:
        out = np.empty(ngroups * width, np.uint32)
        pool.draw(self.step, self.states, self.start, ngroups, width, out)
        self.start = (self.start + ngroups) % self.states.shape[0]
        return out


@dataclass(frozen=True)
class Kind:
    """What ``rocrand_create_generator(rng_type)`` makes."""

    rng_type: int
    name: str                 # as in rocRAND's kernel names: generate_<name>
    family: str               # "std32", "mrg", "std64"
    default_seed: int | None  # the seed of a new generator (None: LFSR113's four words)
    make: Callable[[int, int, int, str], object]  # (seed, offset, ordering, arch) -> engine
    pool: bool = False
    mrg: mrg.Family | None = None


def _philox(seed: int, offset: int, ordering: int, arch: str) -> StreamEngine:
    return StreamEngine(philox.stream_words, seed, offset)


def _xorwow(seed: int, offset: int, ordering: int, arch: str) -> PoolEngine:
    states, start = xorwow.pool(seed, offset, pool.engines(401, ordering, arch))
    return PoolEngine(states, start, xorwow.step_one)


def _mrg(fam: mrg.Family):
    def make(seed: int, offset: int, ordering: int, arch: str) -> PoolEngine:
        states, start = mrg.pool(fam, seed, offset, pool.engines(fam.rng_type, ordering, arch))
        return PoolEngine(states, start, mrg.step_function(fam))
    return make


def _lfsr113(seed: int | tuple | None, offset: int, ordering: int, arch: str) -> PoolEngine:
    if seed is None or isinstance(seed, tuple):  # the default, or rocrand_set_seed_uint4
        seeds = seed or lfsr113.DEFAULT_SEEDS
    else:
        seeds = lfsr113.seeds_of(seed)
    states, start = lfsr113.pool(seeds, offset, pool.engines(406, ordering, arch))
    return PoolEngine(states, start, lfsr113.step)


def _mtgp32(seed: int, offset: int, ordering: int, arch: str) -> mtgp32.MTGP32Engine:
    return mtgp32.MTGP32Engine(seed, mtgp32.blocks(ordering, arch))


def _mt19937(seed: int, offset: int, ordering: int, arch: str) -> mt19937.MT19937Engine:
    return mt19937.MT19937Engine(seed)


def _threefry(n: int, bits: int):
    def make(seed: int, offset: int, ordering: int, arch: str) -> StreamEngine:
        return StreamEngine(threefry.words(n, bits), seed, offset, scale=bits // 32)
    return make


KINDS: dict[int, Kind] = {
    404: Kind(404, "philox", "std32", 0, _philox),
    401: Kind(401, "xorwow", "std32", xorwow.DEFAULT_SEED, _xorwow, pool=True),
    402: Kind(402, "mrg32k3a", "mrg", mrg.DEFAULT_SEED, _mrg(mrg.MRG32K3A), pool=True,
              mrg=mrg.MRG32K3A),
    405: Kind(405, "mrg31k3p", "mrg", mrg.DEFAULT_SEED, _mrg(mrg.MRG31K3P), pool=True,
              mrg=mrg.MRG31K3P),
    403: Kind(403, "mtgp32", "std32", mtgp32.DEFAULT_SEED, _mtgp32),
    407: Kind(407, "mt19937", "std32", mt19937.DEFAULT_SEED, _mt19937),
    406: Kind(406, "lfsr113", "std32", None, _lfsr113, pool=True),  # seeds (2, 8, 16, 128)
    408: Kind(408, "threefry2x32_20", "std32", 0, _threefry(2, 32)),
    409: Kind(409, "threefry2x64_20", "std64", 0, _threefry(2, 64)),
    410: Kind(410, "threefry4x32_20", "std32", 0, _threefry(4, 32)),
    411: Kind(411, "threefry4x64_20", "std64", 0, _threefry(4, 64)),
}
KINDS[400] = KINDS[401]  # ROCRAND_RNG_PSEUDO_DEFAULT is XORWOW (rocrand.cpp)
