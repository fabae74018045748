"""rocRAND's host API: generators that fill device memory on their stream.

``rocrand_create_generator(rng_type)`` returns a generator; ``rocrand_generate_*`` check
their arguments at the call (as rocrand.cpp does) and queue the generation kernel on the
generator's stream, named as rocRAND's kernels are, with a modeled duration (a stream of
writes: bytes / HBM bandwidth, plus launch). The engine is built at the first generation
(or ``rocrand_initialize_generator``, which also queues rocRAND's init kernel) and rebuilt
after a change of seed, offset, ordering or dimensions; each queued call holds the
engine it was made with, so later settings never reach work already queued. A generator
(a libs.common LibraryHandle) belongs to the device current at its creation:
``rocrand_set_stream`` refuses a stream of another device, as every library does.

>>> import numpy as np
>>> from gpusim import hip
>>> from gpusim.libs.rocrand.generate import rocrand_generate
>>> g = rocrand_create_generator(404)
>>> rocrand_set_seed(g, 0)
>>> d = hip.device_array(4, np.uint32)
>>> rocrand_generate(g, d, 4)
>>> [f"{w:08x}" for w in d.copy_to_host()]
['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.libs.common import LibraryHandle, check_enum, device_view, host_view, launch_roofline
from gpusim.libs.rocrand import distributions as dist
from gpusim.libs.rocrand import sampling, states
from gpusim.libs.rocrand.engines import KINDS
from gpusim.libs.rocrand.quasi import QUASI, QuasiEngine
from gpusim.libs.rocrand.status import (
    RocrandError,
    rocrand_ordering,
    rocrand_rng_type,
    rocrand_status,
)

S = rocrand_status
ROCRAND_VERSION = 300200  # rocRAND 3.2.0: major * 100000 + minor * 100 + patch
PSEUDO_ORDERINGS = (100, 101, 102, 103, 104)
NO_OFFSET = (403, 407)  # mtgp32.hpp, mt19937.hpp: set_offset returns TYPE_ERROR


class rocrand_generator(LibraryHandle):  # noqa: N801 - C name
    """A generator (``rocrand_generator`` handle). Fields are read-only for users."""

    owner = "the generator"

    def __init__(self, rng_type: int, host: bool):
        super().__init__()
        self.rng_type = rocrand_rng_type(rng_type)
        self.host = host
        self.quasi = int(rng_type) >= 500
        self.kind = QUASI[int(rng_type)] if self.quasi else KINDS[int(rng_type)]
        self.seed = self.kind.default_seed
        self.offset = 0
        self.ordering = rocrand_ordering(201 if self.quasi else 101)
        self.dimensions = 1
        self.engine: Any = None
        self.device_states: Any = None  # device memory of the engines (states.py)
        self.poisson: dict[float, tuple] = {}
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<rocrand_generator {self.rng_type.name} seed={self.seed}>"


def _gen(generator: Any, function: str) -> rocrand_generator:
    if not isinstance(generator, rocrand_generator) or generator.destroyed:
        raise RocrandError(S.ROCRAND_STATUS_NOT_CREATED, function,
                           f"{generator!r} is not a live generator; create one with "
                           "rocrand_create_generator(rng_type)")
    return generator


def _create(rng_type: Any, host: bool, function: str) -> rocrand_generator:
    kind = check_enum(rng_type, rocrand_rng_type, function=function, arg="rng_type",
                      error=RocrandError)
    return rocrand_generator(int(kind), host)


def rocrand_create_generator(rng_type: Any) -> rocrand_generator:
    """A device generator of ``rng_type`` (a ``rocrand_rng_type``)."""
    return _create(rng_type, False, "rocrand_create_generator")


def rocrand_create_generator_host(rng_type: Any) -> rocrand_generator:
    """A host generator: same numbers, written into host (NumPy) arrays at the call."""
    return _create(rng_type, True, "rocrand_create_generator_host")


def rocrand_destroy_generator(generator: Any) -> None:
    """Release a generator; using it afterwards is ROCRAND_STATUS_NOT_CREATED."""
    g = _gen(generator, "rocrand_destroy_generator")
    states.release(g.device_states)
    g.device_states, g.destroyed = None, True


def rocrand_set_stream(generator: Any, stream: Any) -> None:
    """Queue this generator's kernels on ``stream`` (None/0: the null stream)."""
    name = "rocrand_set_stream"
    _gen(generator, name).set_stream(stream, function=name, error=RocrandError)


def rocrand_set_seed(generator: Any, seed: int) -> None:
    """Set the seed (a 64-bit number); quasi-random generators ignore it, as rocRAND does."""
    g = _gen(generator, "rocrand_set_seed")
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    if g.kind.rng_type in (402, 405) and seed == 0:
        seed = g.kind.default_seed  # mrg.hpp: seed 0 means the default seed
    g.seed, g.engine = seed, None


def rocrand_set_seed_uint4(generator: Any, seed: Any) -> None:
    """Four seed words; only LFSR113 takes them (each lifted to at least 2, 8, 16, 128 as
    lfsr113.hpp does), other generators: ROCRAND_STATUS_TYPE_ERROR."""
    g = _gen(generator, "rocrand_set_seed_uint4")
    if g.kind.rng_type != 406:
        raise RocrandError(S.ROCRAND_STATUS_TYPE_ERROR, "rocrand_set_seed_uint4",
                           f"{g.rng_type.name} takes a 64-bit seed; use rocrand_set_seed "
                           "(four-word seeds are for LFSR113)")
    words = [int(w) & 0xFFFFFFFF for w in seed]
    g.seed = tuple(w + m if w < m else w for w, m in zip(words, (2, 8, 16, 128), strict=True))
    g.engine = None


def rocrand_set_offset(generator: Any, offset: int) -> None:
    """Start at number ``offset`` of the generator's sequence (absolute, not relative);
    MTGP32 and MT19937 have no offsets (ROCRAND_STATUS_TYPE_ERROR)."""
    g = _gen(generator, "rocrand_set_offset")
    if g.kind.rng_type in NO_OFFSET and not g.quasi:
        raise RocrandError(S.ROCRAND_STATUS_TYPE_ERROR, "rocrand_set_offset",
                           f"{g.rng_type.name} cannot start at an offset; use a different "
                           "seed, or a generator with offsets (e.g. PHILOX4_32_10)")
    g.offset, g.engine = int(offset) & 0xFFFFFFFFFFFFFFFF, None


def rocrand_set_ordering(generator: Any, order: Any) -> None:
    """Choose the layout of results (``rocrand_ordering``); quasi generators take only
    QUASI_DEFAULT and pseudo generators only the PSEUDO_* orderings (OUT_OF_RANGE)."""
    g = _gen(generator, "rocrand_set_ordering")
    allowed = (201,) if g.quasi else PSEUDO_ORDERINGS
    if g.kind.rng_type == 404 and not g.quasi:
        allowed = (100, 101, 103, 104)  # philox4x32_10.hpp: no SEEDED ordering
    if g.kind.rng_type == 407 and not g.quasi:
        allowed = (100, 101, 103)  # mt19937.hpp: default, best, legacy
    if g.kind.rng_type == 403 and not g.quasi:  # mtgp32.hpp: dynamic on the device only
        allowed = (100, 101, 103) if g.host else (100, 101, 103, 104)
    if int(order) not in allowed:
        raise RocrandError(S.ROCRAND_STATUS_OUT_OF_RANGE, "rocrand_set_ordering",
                           f"order={int(order)} is not supported by {g.rng_type.name}; "
                           f"use one of {[rocrand_ordering(o).name for o in allowed]}")
    g.ordering, g.engine = rocrand_ordering(int(order)), None


def rocrand_set_quasi_random_generator_dimensions(generator: Any, dimensions: int) -> None:
    """Number of dimensions of a Sobol generator (1..20000); TYPE_ERROR for pseudo ones."""
    g = _gen(generator, "rocrand_set_quasi_random_generator_dimensions")
    if not g.quasi:
        raise RocrandError(S.ROCRAND_STATUS_TYPE_ERROR,
                           "rocrand_set_quasi_random_generator_dimensions",
                           f"{g.rng_type.name} is a pseudo-random generator; dimensions "
                           "apply to quasi-random (Sobol) generators")
    if not 1 <= int(dimensions) <= g.kind.max_dimensions:
        raise RocrandError(S.ROCRAND_STATUS_OUT_OF_RANGE,
                           "rocrand_set_quasi_random_generator_dimensions",
                           f"dimensions={dimensions}; use 1..{g.kind.max_dimensions}")
    g.dimensions, g.engine = int(dimensions), None


def rocrand_get_version() -> int:
    """ROCRAND_VERSION of the emulated rocRAND (3.2.0 -> 300200)."""
    return ROCRAND_VERSION


def _arch(g: rocrand_generator) -> str:
    return g.spec.gcn_arch_name


def _engine(g: rocrand_generator, function: str = "rocrand_initialize_generator") -> Any:
    if g.engine is None:
        if g.quasi:
            g.engine = QuasiEngine(g.kind, g.dimensions, g.offset)
        else:
            if not g.host:  # rocRAND's init() frees and allocates its engines again
                states.release(g.device_states)
                g.device_states = None
                g.device_states = states.hold(g.kind.rng_type, int(g.ordering), _arch(g),
                                              function)
            g.engine = g.kind.make(g.seed, g.offset, int(g.ordering), _arch(g))
    return g.engine


def rocrand_initialize_generator(generator: Any) -> None:
    """Build the engines now (otherwise the first generation does)."""
    g = _gen(generator, "rocrand_initialize_generator")
    _engine(g)
    _queue(g, f"rocrand_impl::host::init_{g.kind.name}_engines", 0, lambda: None)


def _config(g: rocrand_generator) -> tuple[int, int]:
    """(threads, blocks) of the generation kernel as rocRAND launches it."""
    if g.quasi:
        return 256, 4096 if g.kind.bits == 32 else 2048
    if g.kind.rng_type == 403:
        from gpusim.libs.rocrand import mtgp32
        return mtgp32.THREADS, mtgp32.blocks(int(g.ordering), _arch(g))
    if g.kind.rng_type == 407:
        return 256, 256  # config_defaults.hpp (mt19937 has no dynamic ordering)
    if g.kind.pool:
        from gpusim.libs.rocrand import pool
        n = pool.engines(g.kind.rng_type, int(g.ordering), _arch(g))
        return 256, n // 256
    return 256, 1024


def _queue(g: rocrand_generator, name: str, nbytes: int, fn: Any) -> None:
    """Run ``fn`` as rocRAND's kernel ``name`` on the generator's stream (host: now)."""
    if g.host:
        fn()
        return
    threads, blocks = _config(g)
    # A generation kernel streams its output: ~40 integer ops per 4 bytes written
    # (Philox: 10 rounds of 2 multiplies and xors per 4 words), bound by HBM writes.
    launch_roofline(g.queue(), fn, name=name, grid=(blocks, 1, 1), block=(threads, 1, 1),
                    flops=10 * nbytes, bytes_moved=nbytes)


def _output(g: rocrand_generator, out: Any, n: int, dtype: Any, function: str) -> np.ndarray:
    if int(n) < 0:
        raise RocrandError(S.ROCRAND_STATUS_OUT_OF_RANGE, function, f"n={n} must be >= 0")
    view = host_view if g.host else device_view
    return view(out, dtype, int(n), function=function, arg="output_data", error=RocrandError)


def _poisson_table(g: rocrand_generator, lam: float) -> tuple | None:
    """The alias table (pseudo) or CDF (quasi) rocRAND builds for ``lam`` (None: huge)."""
    if lam > dist.LAMBDA_HUGE:
        return None
    if lam not in g.poisson:
        p, offset = dist.poisson_probabilities(lam)
        p = dist.normalize(p)
        if g.quasi:
            g.poisson[lam] = (offset, np.cumsum(p))
        else:
            prob, alias = dist.alias_table(p)
            g.poisson[lam] = (offset, alias, prob)
    return g.poisson[lam]


def _generate(generator: Any, out: Any, n: int, dtype: Any, what: str, function: str,
              **params: Any) -> None:
    g = _gen(generator, function)
    dtype = np.dtype(dtype)
    if dtype.itemsize == 8 and dtype.kind == "u" and not (
            g.kind.rng_type in (409, 411) or (g.quasi and g.kind.bits == 64)):
        raise RocrandError(S.ROCRAND_STATUS_TYPE_ERROR, function,
                           f"{g.rng_type.name} makes 32-bit numbers; 64-bit outputs need "
                           "THREEFRY2_64_20, THREEFRY4_64_20 or SOBOL64")
    if g.quasi and int(n) % g.dimensions:
        raise RocrandError(S.ROCRAND_STATUS_LENGTH_NOT_MULTIPLE, function,
                           f"n={n} is not a multiple of the {g.dimensions} dimensions; "
                           "ask for dimensions x points numbers")
    view = _output(g, out, n, dtype, function)
    n = int(n)
    if what == "poisson":
        params["table"] = _poisson_table(g, params["lam"])
    if dtype == np.float16:  # rocrand_common.h: half math in device code only
        params["half_math"] = not g.host
    engine = _engine(g, function)  # bound now: later settings must not reach queued work
    if g.quasi:
        run = lambda: _run_quasi(g, engine, view, n, what, params)  # noqa: E731
    else:
        if g.kind.mrg is not None:
            params.update(norm=g.kind.mrg.norm_double, uint_norm=g.kind.mrg.uint_norm)
        params["narrow_double"] = g.kind.rng_type == 408  # threefry.hpp: input width 2
        width, per_group, fill = sampling.plan(g.kind.family, what, dtype, **params)
        run = lambda: _run_pseudo(engine, view, n, width, per_group, fill)  # noqa: E731
    _queue(g, f"rocrand_impl::host::generate_{g.kind.name}", n * dtype.itemsize, run)


def _run_pseudo(engine: Any, view: np.ndarray, n: int, width: int, per_group: int,
                fill: Any) -> None:
    ngroups = -(-n // per_group)
    if getattr(engine, "cut_tail", False):  # MTGP32 takes a cut last group from elsewhere
        words = engine.draw(ngroups, width, n // per_group)
    else:
        words = engine.draw(ngroups, width)
    if n:
        fill(words, view)


def _run_quasi(g: rocrand_generator, engine: Any, view: np.ndarray, n: int, what: str,
               params: dict) -> None:
    from gpusim.libs.rocrand.quasi import fill
    pts = engine.points(n // g.dimensions)
    if what == "poisson" and params["table"] is None:  # lambda > 4000: normal approximation
        u = np.empty(n)
        fill(g.kind, pts, "uniform", u)
        dist.poisson_huge(u, view, params["lam"])
        return
    fill(g.kind, pts, what, view, mean=params.get("mean", 0.0),
         stddev=params.get("stddev", 1.0), table=params.get("table"),
         half_math=params.get("half_math", False))
