"""MT19937 as rocRAND's host generator runs it (``library/src/rng/mt19937.hpp``,
``mt19937_octo_engine.hpp``; rocRAND 3.2.0).

The engine is Matsumoto and Nishimura's mt19937ar: ``init_genrand`` seeding, the twist of
624 words, the tempering. rocRAND runs G = 256 x 256 / 8 = 8192 of them (its default
config; MT19937 has no dynamic ordering), each seeded with the low 32 bits of
``seed ^ (seed >> 32)`` and jumped ahead by g x 2^1000 steps (generator g), and eight
threads share one generator: thread lane L holds 78 of the 624 words of each twisted block
(``PERM[L]``: the word 0, 113, 170, ... it owns first, then seven-word runs of eleven
regions). A generate call writes group ``r = j S + t`` of a block (S = 65536 threads,
j < 78 // input_width) from thread t's values ``j w .. j w + w - 1``; a new block (a
twist of every generator) starts when a call begins at position 0. The position carries
over between calls, rounded up to whole values per thread when the input width changes,
as ``m_start_input`` does. Offsets are not supported (ROCRAND_STATUS_TYPE_ERROR), nor
orderings but default, best and legacy (OUT_OF_RANGE), nor 64-bit outputs (TYPE_ERROR).

>>> [int(v) for v in genrand(5489, 3)]   # mt19937ar's reference output
[3499211612, 581869302, 3890346734]
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path

import numba
import numpy as np

from gpusim.config import config
from gpusim.libs.rocrand import gf2poly

N, M, MEXP = 624, 397, 19937
MATRIX_A, UPPER, LOWER = np.uint32(0x9908B0DF), np.uint32(0x80000000), np.uint32(0x7FFFFFFF)
DEFAULT_SEED = 0            # mt19937_generator_template(seed = 0)
GENERATORS = 256 * 256 // 8  # config_defaults.hpp: 256 threads x 256 blocks, 8 per generator
STRIDE = 256 * 256
JUMP_LOG2 = 1000            # generators are 2^1000 steps apart
PER_THREAD = N // 8
_SPECIAL = (0, 113, 170, 283, 340, 397, 510, 567)
_REGIONS = (1, 57, 114, 171, 227, 284, 341, 398, 454, 511, 568)
PERM = np.array([[_SPECIAL[lane]] + [r + 7 * lane + j for r in _REGIONS for j in range(7)]
                 for lane in range(8)], np.intp)


@numba.njit(cache=True, nogil=True)
def init_genrand(seed):
    """mt19937ar's ``init_genrand``: the 624-word state of a 32-bit seed."""
    mt = np.empty(N, np.uint32)
    mt[0] = seed
    for i in range(1, N):
        mt[i] = np.uint32(1812433253) * (mt[i - 1] ^ (mt[i - 1] >> np.uint32(30))) + np.uint32(i)
    return mt


@numba.njit(cache=True, nogil=True, inline="always")
def _next(a, b, c):
    """The word after ``a`` from a (upper bit), b (lower bits) and c = the word M later."""
    y = (a & UPPER) | (b & LOWER)
    return c ^ (y >> np.uint32(1)) ^ (MATRIX_A if y & np.uint32(1) else np.uint32(0))


@numba.njit(cache=True, nogil=True)
def twist(mt):
    """The next 624 words, in place."""
    for i in range(N):
        mt[i] = _next(mt[i], mt[(i + 1) % N], mt[(i + M) % N])


@numba.njit(cache=True, nogil=True)
def temper(y):
    """mt19937ar's output tempering (of a word or, elementwise, an array; not in place)."""
    y = y ^ (y >> np.uint32(11))
    y = y ^ ((y << np.uint32(7)) & np.uint32(0x9D2C5680))
    y = y ^ ((y << np.uint32(15)) & np.uint32(0xEFC60000))
    return y ^ (y >> np.uint32(18))


def genrand(seed: int, n: int) -> np.ndarray:
    """The first n outputs of mt19937ar (``std::mt19937``) seeded with ``seed``."""
    mt = init_genrand(np.uint32(seed & 0xFFFFFFFF))
    out = np.empty(-(-n // N) * N, np.uint32)
    for b in range(out.size // N):
        twist(mt)
        out[b * N:(b + 1) * N] = temper(mt)
    return out[:n]


@numba.njit(cache=True, nogil=True)
def sequence(state, length):
    """x_0 .. x_{length-1} of the sequence whose first 624 words are ``state``."""
    x = np.empty(length, np.uint32)
    x[:N] = state
    for k in range(N, length):
        x[k] = _next(x[k - N], x[k - N + 1], x[k - N + M])
    return x


@numba.njit(cache=True, nogil=True)
def jump(state, coefficients):
    """q(A) state, q given by its coefficient bits (a multiple of 8 of them), by Horner's
    rule on bytes of q: R <- A^8 R + T[byte], where T[v] = v(A) state is the XOR of the
    windows of the state's sequence starting at the set bits of v. The windows live in
    one growing array, so a step of A is one new word. (The low 31 bits of word 0 are not
    part of the state and come out different from rocRAND's.)"""
    x = sequence(state, N + 8)
    table = np.zeros((256, N), np.uint32)
    for v in range(1, 256):
        low = 0
        while not (v >> low) & 1:
            low += 1
        table[v] = table[v & (v - 1)] ^ x[low:low + N]
    chunks = coefficients.size // 8
    y = np.zeros(N + 8 * chunks, np.uint32)
    p = 0
    for c in range(chunks - 1, -1, -1):
        if p:  # R <- A^8 R: eight more words of R's sequence
            for k in range(p - 8 + N, p + N):
                y[k] = _next(y[k - N], y[k - N + 1], y[k - N + M])
        v = 0
        for t in range(8):
            v |= coefficients[8 * c + t] << t
        if v:
            row = table[v]
            for j in range(N):
                y[p + j] ^= row[j]
        p += 8
    return y[p - 8:p - 8 + N].copy()


@functools.cache
def minimal_polynomial() -> np.ndarray:
    """MT19937's minimal (= characteristic) polynomial, degree 19937, from the top bits."""
    x = sequence(init_genrand(np.uint32(5489)), 2 * MEXP + 64)
    return gf2poly.minimal_polynomial((x >> np.uint32(31)).astype(np.uint8))


def jump_coefficients(log2: int = JUMP_LOG2, exponent: int | None = None) -> np.ndarray:
    """Coefficient bits (padded to 19944) of x^(2^log2) (or x^exponent) mod MT19937's
    polynomial, computed once and kept in the cache directory."""
    e = (1 << log2) if exponent is None else exponent
    key = hashlib.sha1(str(e).encode()).hexdigest()[:16]
    path = Path(config.cache_dir or tempfile.gettempdir()) / "rocrand" / f"mt19937_jump_{key}.npy"
    try:
        return np.load(path)
    except (OSError, ValueError):
        pass
    q = gf2poly.x_power_mod(e, minimal_polynomial())
    bits = np.unpackbits(q.view(np.uint8), bitorder="little")[:-(-MEXP // 8) * 8].copy()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.npy")
        np.save(tmp, bits)
        os.replace(tmp, path)  # atomic: a reader never sees half a file
    except OSError:  # a read-only cache: compute again next time
        pass
    return bits


_JUMPED: dict[int, np.ndarray] = {}  # seed -> generators' start states found so far
_JUMPED_SEEDS = 4                     # how many seeds to keep (20 MiB each at most)


def start_states(seed32: int, count: int) -> np.ndarray:
    """The first ``count`` generators' states before any twist: init_genrand(seed32)
    jumped by g 2^1000 steps. Kept for a few seeds, since jumping all 8192 takes seconds
    (rocRAND's init kernel does the same work on every initialization)."""
    have = _JUMPED.pop(seed32, None)
    if have is None:
        have = init_genrand(np.uint32(seed32))[None]
    if have.shape[0] < count:
        more = np.empty((count, N), np.uint32)
        more[:have.shape[0]] = have
        coefficients = jump_coefficients()
        for g in range(have.shape[0], count):
            more[g] = jump(more[g - 1], coefficients)
        have = more
    _JUMPED[seed32] = have  # most recent last
    while len(_JUMPED) > _JUMPED_SEEDS:
        del _JUMPED[next(iter(_JUMPED))]
    return have[:count]


class MT19937Engine:
    """rocRAND's 8192 MT19937 generators and its running position ``start`` (groups into
    the current block). Generators are jumped to lazily: a call that reaches threads
    < t needs generators < t / 8 only; one that reaches all 65536 threads jumps all 8192
    (about 0.7 ms each on one idle core, so seconds; kept for the next generator of
    the same seed by ``start_states``)."""

    def __init__(self, seed: int):
        self.seed32 = ((seed >> 32) ^ seed) & 0xFFFFFFFF
        self.raw = np.empty((GENERATORS, N), np.uint32)
        self.ready = 0          # generators started so far
        self.twists = 0         # blocks made so far (every generator twisted as often)
        self.lanes = np.empty((STRIDE, PER_THREAD), np.uint32)  # tempered, per thread
        self.start, self.prev_width = 0, 0
        self._materialize(1)

    def _materialize(self, count: int) -> None:
        if count <= self.ready:
            return
        self.raw[self.ready:count] = start_states(self.seed32, count)[self.ready:]
        for g in range(self.ready, count):
            for _ in range(self.twists):
                twist(self.raw[g])
        if self.twists:
            self._temper(self.ready, count)
        self.ready = count

    def _temper(self, lo: int, hi: int) -> None:
        self.lanes[8 * lo:8 * hi] = temper(self.raw[lo:hi][:, PERM]).reshape(-1, PER_THREAD)

    def _twist(self) -> None:
        for g in range(self.ready):
            twist(self.raw[g])
        self.twists += 1
        self._temper(0, self.ready)

    def draw(self, ngroups: int, width: int) -> np.ndarray:
        """The words of the next ``ngroups`` groups of ``width`` words."""
        full = STRIDE * (PER_THREAD // width)
        if self.prev_width != width and self.start > 0:  # whole values per thread
            used = -(-self.start // STRIDE) * self.prev_width
            self.start = -(-used // width) * STRIDE
            if self.start >= full:
                self.start = 0
        out = np.empty((ngroups, width), np.uint32)
        done = 0
        while done < ngroups:
            if self.start == 0:
                self._twist()
            take = min(ngroups - done, full - self.start)
            last = self.start + take - 1
            same_row = self.start // STRIDE == last // STRIDE
            self._materialize(last % STRIDE // 8 + 1 if same_row else GENERATORS)
            while take:  # row j of the block: threads t0.. give values j w .. j w + w - 1
                j, t0 = divmod(self.start, STRIDE)
                step = min(take, STRIDE - t0)
                out[done:done + step] = self.lanes[t0:t0 + step, j * width:(j + 1) * width]
                done, take = done + step, take - step
                self.start = (self.start + step) % full
        self.prev_width = width
        return out.reshape(-1)
