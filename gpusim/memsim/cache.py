"""One set-associative LRU cache level: ``Cache`` (Spec) and ``CacheState`` (arrays).

The split follows the hardware-model rule of the code base (STYLE point 7):

- ``Cache`` is the immutable description: name, capacity, ways, line size and write
  policy. It holds no data, so one ``Cache`` can describe every CU's vL1D.
- ``CacheState`` holds the numpy arrays that change: per set, the lines held in
  recency order (most recently used first), their dirty bits, and the event counters.
- ``lru.py`` has the pure numba functions over (Spec numbers, State arrays, a batch of
  requests); ``hierarchy.py`` chains levels through the request streams they emit.

Semantics of one request ``(addr, size, is_store)``: it touches every line that the byte
range ``[addr, addr + size)`` covers, as pycachesim does; hits and misses are counted per
line touched, loads and stores (requests) per request.

=================  ===========================================================
policy             store to a line that is ...
=================  ===========================================================
write-back,        present: mark dirty. Absent: fetch the line from below, fill,
write-allocate     mark dirty. A dirty line evicted later is written back.
write-through,     present: forward the store below (the line stays clean).
no-write-allocate  Absent: forward the store below, no fill.
write-back,        present: mark dirty. Absent: forward below, no fill.
no-write-allocate
write-through,     present: forward. Absent: fetch + fill (clean), then forward.
write-allocate
=================  ===========================================================

Replacement is true LRU within a set: the least recently used line goes first, and
empty ways fill before anything is evicted. Set index = line number modulo the number
of sets, as in pycachesim; real GPUs hash addresses across L2 channels (not modelled).

>>> c = Cache("L1", size=256, ways=2, line=64)        # 2 sets x 2 ways
>>> st = CacheState.empty(c)
>>> st.tags.reshape(c.sets, c.ways).tolist()           # -1: an empty way
[[-1, -1], [-1, -1]]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# ---- counters: one int64 slot each, in this order ----------------------------------
COUNTER_NAMES: tuple[str, ...] = (
    "loads",  # load requests that arrived at this level
    "stores",  # store requests that arrived at this level
    "load_bytes",  # bytes those load requests asked for
    "store_bytes",  # bytes those store requests wrote
    "load_hits",  # lines touched by loads and found
    "load_misses",  # lines touched by loads and not found (each is fetched from below)
    "store_hits",  # lines touched by stores and found
    "store_misses",  # lines touched by stores and not found
    "evictions",  # valid lines replaced to make room (clean or dirty)
    "writebacks",  # dirty lines written to the next level (on eviction or flush)
    "write_throughs",  # stores passed on to the next level (write-through or no-allocate)
    "write_through_bytes",  # bytes of those stores
)
(
    LOADS,
    STORES,
    LOAD_BYTES,
    STORE_BYTES,
    LOAD_HITS,
    LOAD_MISSES,
    STORE_HITS,
    STORE_MISSES,
    EVICTIONS,
    WRITEBACKS,
    WRITE_THROUGHS,
    WRITE_THROUGH_BYTES,
) = range(len(COUNTER_NAMES))

_EMPTY = -1  # tag of an empty way; line numbers are >= 0 because addresses are


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


@dataclass(frozen=True)
class Cache:
    """Immutable description of one cache level (the Spec).

    ``size``, ``line`` in bytes; ``ways`` = associativity (``ways == size // line`` is
    fully associative, ``ways == 1`` direct mapped). Default policy write-back +
    write-allocate. ``store_updates_lru=False`` reproduces pycachesim 0.3, whose store
    hits leave the LRU order unchanged; true LRU (the default) refreshes on every access.

    >>> c = Cache("L1", size=32 * 1024, ways=4, line=64)
    >>> c.sets, c.policy
    (128, 'write-back/write-allocate')
    >>> Cache("L1", size=1000, ways=4, line=64)
    Traceback (most recent call last):
    ...
    ValueError: Cache 'L1': size=1000 is not a multiple of ways * line = 256 bytes
    """

    name: str
    size: int
    ways: int
    line: int
    write_back: bool = True
    write_allocate: bool = True
    store_updates_lru: bool = True
    sets: int = field(init=False)

    def __post_init__(self) -> None:
        for attr in ("size", "ways", "line"):
            value = getattr(self, attr)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
                raise ValueError(f"Cache {self.name!r}: {attr}={value!r} must be a positive int")
        if not _is_pow2(int(self.line)):
            raise ValueError(f"Cache {self.name!r}: line={self.line} must be a power of two")
        if self.size % (self.ways * self.line):
            raise ValueError(
                f"Cache {self.name!r}: size={self.size} is not a multiple of "
                f"ways * line = {self.ways * self.line} bytes"
            )
        object.__setattr__(self, "sets", int(self.size) // (int(self.ways) * int(self.line)))

    @property
    def line_bits(self) -> int:
        """log2(line): a byte address >> line_bits is its line number."""
        return int(self.line).bit_length() - 1

    @property
    def policy(self) -> str:
        """The write policy in words, e.g. ``'write-through/no-write-allocate'``."""
        write = "write-back" if self.write_back else "write-through"
        alloc = "write-allocate" if self.write_allocate else "no-write-allocate"
        return f"{write}/{alloc}"


@dataclass
class CacheState:
    """The mutable part of a cache level: numpy arrays the kernels update in place.

    Set ``s`` owns ``tags[s * ways:(s + 1) * ways]``: its lines **in recency order, most
    recently used first**, then ``-1`` for empty ways. Each entry is
    ``line_number << 1 | dirty``. The position is the LRU state (pycachesim keeps the same
    queue): a hit moves the line to the front, a fill shifts the set down and drops the
    last way. Why not per-way time stamps and a separate dirty array, the textbook
    layout: finding the oldest stamp is a data-dependent search whose branch
    mispredictions, plus moving a second array, made a miss 2-3x slower (measured);
    here the victim is simply the last way and a lookup shifts while it scans.
    ``counters`` are the event counts in ``COUNTER_NAMES`` order.
    """

    tags: np.ndarray
    counters: np.ndarray

    @classmethod
    def empty(cls, spec: Cache) -> CacheState:
        """A cold cache: every way empty, counters zero."""
        return cls(
            tags=np.full(spec.sets * spec.ways, _EMPTY, dtype=np.int64),
            counters=np.zeros(len(COUNTER_NAMES), dtype=np.int64),
        )

    def reset(self) -> None:
        """Empty the cache (no write-backs) and zero the counters."""
        self.tags[:] = _EMPTY
        self.counters[:] = 0


def counters_dict(counters: np.ndarray) -> dict[str, int]:
    """Counter array -> ``{name: int}`` plus ``hits``, ``misses`` (loads + stores)."""
    d = dict(zip(COUNTER_NAMES, np.asarray(counters).tolist(), strict=True))
    d["hits"] = d["load_hits"] + d["store_hits"]
    d["misses"] = d["load_misses"] + d["store_misses"]
    return d


def contents(spec: Cache, state: CacheState) -> list[list[tuple[int, bool]]]:
    """Per set, the held lines as ``(line byte address, dirty)``, most recently used first.

    >>> c = Cache("L1", size=128, ways=2, line=64)
    >>> st = CacheState.empty(c)
    >>> st.tags[:] = [5 << 1 | 1, _EMPTY]               # line 5, dirty; one empty way
    >>> contents(c, st)
    [[(320, True)]]
    """
    shift = spec.line_bits
    rows = state.tags.reshape(spec.sets, spec.ways)
    return [[(int(t >> 1) << shift, bool(t & 1)) for t in row if t != _EMPTY] for row in rows]
