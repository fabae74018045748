"""MTGP32 as rocRAND's host generator runs it (``library/src/rng/mtgp32.hpp``,
``rocrand_mtgp32.h``; rocRAND 3.2.0), the Mersenne Twister for Graphic Processors of
Saito and Matsumoto with period 2^11213 - 1.

One engine per block (512 blocks of 256 threads; the dynamic ordering of a device
generator uses the tuned count of ``config/mtgp32_config.hpp``), engine b with parameter
set b of ``mtgp32dc_params_fast_11213`` (``data/mtgp32_11213.npz``) and seeded by
``rocrand_mtgp32_init_state`` with ``(uint32)(seed ^ (seed >> 32)) + b + 1``. Its sequence:
x_{k+351} = para_rec(x_k, x_{k+1}, x_{k+pos}), output k = temper(x_{k+351}, x_{k+pos-1}).
A block makes 256 groups per step, group t's word i being output ``256 i + t`` of the
step, and group index ``b 256 + k S + t`` (S = 256 blocks) for its step k: every block
runs whole steps up to ``ceil(groups / 256) 256``, and when the last group is cut (n odd
for two-number groups) every block runs one more step, whose thread 1 of block
``(groups_up / 256) mod blocks`` gives the tail. Offsets are not supported
(ROCRAND_STATUS_TYPE_ERROR); orderings default, best, legacy, and dynamic for a device
generator (OUT_OF_RANGE otherwise).

>>> eng = MTGP32Engine(0, 512)
>>> [f"{w:08x}" for w in eng.draw(2, 1)]  # block 0, threads 0 and 1: its outputs 0, 1
['d38d8914', '38281a97']
"""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np

MEXP, N, STATE, MASK = 11213, 351, 1024, 1023
THREADS = 256
DEFAULT_SEED = 0  # mtgp32_generator_template(seed = 0)
BLOCKS = 512      # config_defaults.hpp
# Tuned blocks of the dynamic ordering (config/mtgp32_config.hpp; 256 threads each).
DYNAMIC_BLOCKS = {"gfx1102": 320, "gfx1101": 512, "gfx1100": 512, "gfx1030": 512,
                  "gfx942": 512, "gfx90a": 512, "gfx908": 480, "gfx906": 448}

with np.load(Path(__file__).parent / "data" / "mtgp32_11213.npz") as _z:
    PARAMS = {k: _z[k] for k in _z.files}


def blocks(ordering: int, arch: str) -> int:
    """Engines (blocks) of the generator for ``ordering`` (104: dynamic) on ``arch``."""
    return DYNAMIC_BLOCKS.get(arch.split(":")[0], BLOCKS) if ordering == 104 else BLOCKS


def init_state(tbl: np.ndarray, seed32: int) -> np.ndarray:
    """``rocrand_mtgp32_init_state``: the state for a parameter set's ``tbl``."""
    hidden = int(tbl[4]) ^ ((int(tbl[8]) << 16) & 0xFFFFFFFF)
    tmp = hidden
    tmp = (tmp + (tmp >> 16)) & 0xFFFFFFFF
    tmp = (tmp + (tmp >> 8)) & 0xFFFFFFFF
    a = [(tmp & 0xFF) * 0x01010101] * N
    a[0], a[1] = seed32 & 0xFFFFFFFF, hidden
    for i in range(1, N):
        a[i] ^= (1812433253 * (a[i - 1] ^ (a[i - 1] >> 30)) + i) & 0xFFFFFFFF
    state = np.zeros(STATE, np.uint32)
    state[:N] = a
    return state


@numba.njit(cache=True, nogil=True)
def _outputs(status, offset, count, pos, sh1, sh2, mask, tbl, tmp_tbl):
    """The next ``count`` outputs of one engine (its ``next()`` on the host); returns the
    new offset. ``status`` is the 1024-word ring indexed from ``offset``."""
    out = np.empty(count, np.uint32)
    for k in range(count):
        x1 = status[offset & MASK]
        x2 = status[(offset + 1) & MASK]
        y = status[(offset + pos) & MASK]
        x = (x1 & mask) ^ x2
        x ^= x << sh1
        y = x ^ (y >> sh2)
        r = y ^ tbl[y & np.uint32(0x0F)]
        status[(offset + N) & MASK] = r
        t = status[(offset + pos - 1) & MASK]
        t ^= t >> np.uint32(16)
        t ^= t >> np.uint32(8)
        out[k] = r ^ tmp_tbl[t & np.uint32(0x0F)]
        offset = (offset + 1) & MASK
    return out, offset


class MTGP32Engine:
    """The engines of one generator and their positions."""

    cut_tail = True  # draw() needs to know which groups are whole

    def __init__(self, seed: int, nblocks: int, params: dict | None = None):
        self.params = PARAMS if params is None else params
        seed32 = ((seed >> 32) ^ seed) & 0xFFFFFFFF
        self.status = np.stack([init_state(self.params["tbl"][b], (seed32 + b + 1) & 0xFFFFFFFF)
                                for b in range(nblocks)])
        self.offsets = [0] * nblocks

    def words(self, b: int, count: int) -> np.ndarray:
        """The next ``count`` outputs of engine b, in its sequence's order."""
        p = self.params
        out, self.offsets[b] = _outputs(
            self.status[b], self.offsets[b], count, p["pos"][b], np.uint32(p["sh1"][b]),
            np.uint32(p["sh2"][b]), p["mask"][0], p["tbl"][b], p["tmp_tbl"][b])
        return out

    def draw(self, ngroups: int, width: int, whole: int | None = None) -> np.ndarray:
        """Words of ``ngroups`` groups, of which the first ``whole`` are written in
        full (default all); a cut last group comes from the extra step's thread 1."""
        whole = ngroups if whole is None else whole
        nblocks = self.status.shape[0]
        stride = nblocks * THREADS
        up = -(-whole // THREADS) * THREADS
        steps = [max(0, -(-(up - b * THREADS) // stride)) for b in range(nblocks)]
        kmax = max(steps) + 1
        grid = np.zeros((kmax, nblocks, THREADS, width), np.uint32)
        extra = ngroups > whole
        for b in range(nblocks):
            k = steps[b] + extra
            if k:  # step k: 256 width words, word i of group t = output 256 i + t
                w = self.words(b, k * THREADS * width).reshape(k, width, THREADS)
                grid[:k, b] = w.transpose(0, 2, 1)
        words = grid.reshape(-1, width)[:whole]
        if extra:
            b0 = (up // THREADS) % nblocks
            tail = grid[steps[b0], b0, 1]
            words = np.concatenate([words, tail[None]])
        return words.reshape(-1)
