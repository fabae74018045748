"""Memory traces: one row per wavefront memory instruction, as numpy arrays.

The engine's trace path records, for every memory instruction every wavefront issues, a
row of this table; the memory model (``dispatch.py`` -> ``gpu.py``) replays it.

===================  =================  ================================================
field                dtype, shape       meaning
===================  =================  ================================================
``addr``             int64 [n, lanes]   byte address per lane: a device virtual address
                                        for global memory, the byte offset into the
                                        workgroup's LDS allocation for LDS
``active``           bool  [n, lanes]   exec mask: lanes that took part
``bytes_per_lane``   int32 [n]          access width (1, 2, 4, 8, 12, 16)
``kind``             int8  [n]          ``LOAD`` 0, ``STORE`` 1, ``ATOMIC`` 2
``space``            int8  [n]          ``GLOBAL`` 0, ``LDS`` 1
``site``             int32 [n]          static instruction id; ``sites[site]`` gives the
                                        source line (``Site``)
``wave``             int64 [n]          wave id in the launch: workgroup * waves per
                                        workgroup + wave index in the workgroup
``workgroup``        int64 [n]          linear workgroup id (x fastest, then y, z)
===================  =================  ================================================

Rows of one wave are in that wave's program order; rows of different waves may come in
any order (the dispatch model decides the device order). ``launch`` (``LaunchInfo``)
holds grid, block, wave size and, when the engine traced only some workgroups of a big
launch, ``sampled=True`` and which ones.

>>> import numpy as np
>>> def saxpy(t):                                   # y[i] = a * x[i] + y[i], 256 threads
...     i = t.gid
...     yield Access(4096 + 4 * i, site=0)          # load x[i]
...     yield Access(8192 + 4 * i, site=1)          # load y[i]
...     yield Access(8192 + 4 * i, kind=STORE, site=1)
>>> tr = Trace.from_lane_addresses(grid=2, block=128, program=saxpy)
>>> len(tr), tr.launch.total_waves, tr.addr.shape
(12, 4, (12, 64))
>>> tr.wave.tolist()[:4], tr.kind.tolist()[:3]
([0, 0, 0, 1], [0, 0, 1])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

LOAD, STORE, ATOMIC = 0, 1, 2
GLOBAL, LDS = 0, 1
KIND_NAMES = {"load": LOAD, "store": STORE, "atomic": ATOMIC}
SPACE_NAMES = {"global": GLOBAL, "lds": LDS}


def _dim3(v: Any) -> tuple[int, int, int]:
    t = (int(v),) if np.isscalar(v) else tuple(int(x) for x in v)
    if not 1 <= len(t) <= 3 or min(t) < 1:
        raise ValueError(f"a launch dimension must be 1-3 positive ints, got {v!r}")
    return t + (1,) * (3 - len(t))  # type: ignore[return-value]


@dataclass(frozen=True)
class Site:
    """Where a static memory instruction comes from (for per-line views)."""

    line: int
    text: str = ""


@dataclass(frozen=True)
class LaunchInfo:
    """Launch metadata: grid (workgroups) and block (work-items) per dimension.

    ``sampled_workgroups``: linear ids the engine traced when ``sampled`` (else None).

    >>> info = LaunchInfo(grid=(4, 2, 1), block=(96, 1, 1), wave_size=64)
    >>> info.total_workgroups, info.waves_per_workgroup, info.total_waves, info.scale
    (8, 2, 16, 1.0)
    """

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    wave_size: int = 64
    sampled: bool = False
    sampled_workgroups: np.ndarray | None = field(default=None, compare=False)
    kernel: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "grid", _dim3(self.grid))
        object.__setattr__(self, "block", _dim3(self.block))
        if self.sampled and self.sampled_workgroups is None:
            raise ValueError("a sampled trace must say which workgroups it holds")

    @property
    def total_workgroups(self) -> int:
        return math.prod(self.grid)

    @property
    def threads_per_workgroup(self) -> int:
        return math.prod(self.block)

    @property
    def waves_per_workgroup(self) -> int:
        return -(-self.threads_per_workgroup // self.wave_size)

    @property
    def total_waves(self) -> int:
        return self.total_workgroups * self.waves_per_workgroup

    @property
    def scale(self) -> float:
        """Factor from traced to whole-launch totals (1.0 unless sampled)."""
        if not self.sampled:
            return 1.0
        return self.total_workgroups / max(1, len(self.sampled_workgroups))


@dataclass(frozen=True)
class Trace:
    """The trace table (see the module docstring); validated on construction."""

    addr: np.ndarray
    active: np.ndarray
    bytes_per_lane: np.ndarray
    kind: np.ndarray
    space: np.ndarray
    site: np.ndarray
    wave: np.ndarray
    workgroup: np.ndarray
    launch: LaunchInfo
    sites: Mapping[int, Site] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        n, lanes = np.shape(self.addr) if np.ndim(self.addr) == 2 else (-1, -1)
        if n < 0 or lanes != self.launch.wave_size:
            raise ValueError(
                f"addr must be [n, {self.launch.wave_size}], got {np.shape(self.addr)}"
            )
        if np.shape(self.active) != (n, lanes):
            raise ValueError(f"active has shape {np.shape(self.active)}, addr {(n, lanes)}")
        for name in ("bytes_per_lane", "kind", "space", "site", "wave", "workgroup"):
            if np.shape(getattr(self, name)) != (n,):
                raise ValueError(f"{name} must have one entry per row ({n})")
        if n and (self.kind.min() < LOAD or self.kind.max() > ATOMIC):
            raise ValueError("kind must be 0 (load), 1 (store) or 2 (atomic)")
        if n and (self.space.min() < GLOBAL or self.space.max() > LDS):
            raise ValueError("space must be 0 (global) or 1 (LDS)")

    def __len__(self) -> int:
        return int(self.addr.shape[0])

    def take(self, rows: np.ndarray) -> Trace:
        """A trace of the given rows (same launch and sites)."""
        return Trace(*(getattr(self, f)[rows] for f in _ROW_FIELDS), self.launch, self.sites)

    @classmethod
    def from_lane_addresses(
        cls,
        grid: Any,
        block: Any,
        program: Callable[[Threads], Iterable[Access]] | Iterable[Access],
        *,
        wave_size: int = 64,
        sites: Mapping[int, Site] | None = None,
    ) -> Trace:
        """Build a trace from NumPy formulas over all threads (tests, labs, oracles).

        ``program(t)`` yields ``Access`` objects in program order; each gives one
        address per thread (an array over ``t``'s thread arrays, see ``Threads``). Every
        wave executes every access (uniform control flow); an access's ``active`` mask
        switches lanes off (``if i < n``). Padding lanes of a partial last wave are
        inactive. Rows come out wave by wave, each wave in program order.
        """
        info = LaunchInfo(_dim3(grid), _dim3(block), wave_size)
        t = Threads.of(info)
        steps = list(program(t) if callable(program) else program)
        n, waves = len(steps), info.total_waves
        n_wg, tpg = info.total_workgroups, info.threads_per_workgroup
        shape = (n, n_wg, info.waves_per_workgroup * wave_size)
        addr, active = np.zeros(shape, np.int64), np.zeros(shape, bool)
        for k, s in enumerate(steps):  # thread arrays are workgroup-major
            addr[k, :, :tpg] = np.broadcast_to(np.asarray(s.addr, np.int64), (n_wg * tpg,)).reshape(
                n_wg, tpg
            )
            on = np.asarray(True if s.active is None else s.active, bool)
            active[k, :, :tpg] = np.broadcast_to(on, (n_wg * tpg,)).reshape(n_wg, tpg)

        def wave_major(a: np.ndarray) -> np.ndarray:  # (steps, waves, lanes) -> rows
            return a.reshape(n, waves, wave_size).transpose(1, 0, 2).reshape(-1, wave_size)

        def per_row(values: list[int], dtype: Any) -> np.ndarray:
            return np.tile(np.asarray(values, dtype), waves)

        wave = np.repeat(np.arange(waves, dtype=np.int64), n)
        return cls(
            wave_major(addr),
            wave_major(active),
            per_row([s.bytes for s in steps], np.int32),
            per_row([s.kind for s in steps], np.int8),
            per_row([s.space for s in steps], np.int8),
            per_row([s.site for s in steps], np.int32),
            wave,
            wave // info.waves_per_workgroup,
            info,
            dict(sites or {}),
        )


_ROW_FIELDS = ("addr", "active", "bytes_per_lane", "kind", "space", "site", "wave", "workgroup")


@dataclass(frozen=True)
class Access:
    """One memory instruction in a NumPy-formula program (``Trace.from_lane_addresses``).

    ``kind``/``space`` take the constants or their names ("store", "lds").
    """

    addr: Any
    kind: int | str = LOAD
    space: int | str = GLOBAL
    bytes: int = 4
    site: int = 0
    active: Any = None

    def __post_init__(self) -> None:
        if isinstance(self.kind, str):
            object.__setattr__(self, "kind", KIND_NAMES[self.kind])
        if isinstance(self.space, str):
            object.__setattr__(self, "space", SPACE_NAMES[self.space])


@dataclass(frozen=True)
class Threads:
    """Index arrays over every thread of a launch, workgroup-major, x fastest inside.

    ``tx ty tz`` (threadIdx), ``bx by bz`` (blockIdx), ``bdx bdy bdz`` (blockDim),
    ``gdx gdy gdz`` (gridDim), ``gid`` = ``bx * bdx + tx`` (``hip.grid(1)`` in 1-D launches),
    ``gx gy`` = ``hip.grid(2)``, ``local`` = linear thread id in the workgroup.
    """

    tx: np.ndarray
    ty: np.ndarray
    tz: np.ndarray
    bx: np.ndarray
    by: np.ndarray
    bz: np.ndarray
    bdx: int
    bdy: int
    bdz: int
    gdx: int
    gdy: int
    gdz: int
    local: np.ndarray

    @classmethod
    def of(cls, info: LaunchInfo) -> Threads:
        (gdx, gdy, gdz), (bdx, bdy, bdz) = info.grid, info.block
        bz, by, bx, tz, ty, tx = (
            a.reshape(-1) for a in np.indices((gdz, gdy, gdx, bdz, bdy, bdx), dtype=np.int64)
        )
        local = (tz * bdy + ty) * bdx + tx
        return cls(tx, ty, tz, bx, by, bz, bdx, bdy, bdz, gdx, gdy, gdz, local)

    @property
    def gid(self) -> np.ndarray:
        return self.bx * self.bdx + self.tx

    @property
    def gx(self) -> np.ndarray:
        return self.bx * self.bdx + self.tx

    @property
    def gy(self) -> np.ndarray:
        return self.by * self.bdy + self.ty


class TraceBuilder:
    """Collects per-wave chunks of rows into growing buffers; ``build()`` makes the Trace.

    Buffers double when full (amortised O(1) per row), so the engine can append each
    wave's rows as it finishes without quadratic copying.

    >>> b = TraceBuilder(LaunchInfo(grid=1, block=64))
    >>> lanes = np.arange(64)
    >>> b.append(addr=[4 * lanes, 256 + 4 * lanes], kind=[LOAD, STORE], site=[0, 1], wave=0,
    ...          workgroup=0)
    >>> b.build().kind.tolist(), len(b)
    ([0, 1], 2)
    """

    def __init__(
        self, launch: LaunchInfo, sites: Mapping[int, Site] | None = None, capacity: int = 1024
    ) -> None:
        self.launch = launch
        self.sites = dict(sites or {})
        self._n = 0
        lanes = launch.wave_size
        self._buf = {
            "addr": np.empty((capacity, lanes), np.int64),
            "active": np.empty((capacity, lanes), bool),
            "bytes_per_lane": np.empty(capacity, np.int32),
            "kind": np.empty(capacity, np.int8),
            "space": np.empty(capacity, np.int8),
            "site": np.empty(capacity, np.int32),
            "wave": np.empty(capacity, np.int64),
            "workgroup": np.empty(capacity, np.int64),
        }

    def __len__(self) -> int:
        return self._n

    @property
    def nbytes(self) -> int:
        """Bytes held so far (what a sampling policy bounds)."""
        return self._n * sum(a[:1].nbytes for a in self._buf.values())

    def append(
        self,
        addr: Any,
        *,
        active: Any = True,
        bytes_per_lane: Any = 4,
        kind: Any = LOAD,
        space: Any = GLOBAL,
        site: Any = 0,
        wave: Any,
        workgroup: Any,
    ) -> None:
        """Append ``m`` rows; per-row fields broadcast (scalars give every row)."""
        a = np.atleast_2d(np.asarray(addr, np.int64))
        m = a.shape[0]
        if self._n + m > self._buf["kind"].shape[0]:
            self._grow(self._n + m)
        lo, hi = self._n, self._n + m
        self._buf["addr"][lo:hi] = a
        self._buf["active"][lo:hi] = np.broadcast_to(np.asarray(active, bool), a.shape)
        for name, value in (
            ("bytes_per_lane", bytes_per_lane),
            ("kind", kind),
            ("space", space),
            ("site", site),
            ("wave", wave),
            ("workgroup", workgroup),
        ):
            self._buf[name][lo:hi] = np.broadcast_to(np.asarray(value), (m,))
        self._n = hi

    def _grow(self, need: int) -> None:
        cap = self._buf["kind"].shape[0]
        while cap < need:
            cap *= 2
        for name, old in self._buf.items():
            new = np.empty((cap,) + old.shape[1:], old.dtype)
            new[: self._n] = old[: self._n]
            self._buf[name] = new

    def build(self) -> Trace:
        return Trace(
            *(self._buf[f][: self._n].copy() for f in _ROW_FIELDS), self.launch, self.sites
        )
