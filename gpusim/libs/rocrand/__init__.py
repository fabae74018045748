"""Emulated rocRAND: the host API (generators filling device memory on a stream) and the
device API (generator states inside ``@hip.jit`` kernels), bit-exact with rocRAND 3.2.0.

    status.py          rocrand_status / rng_type / ordering enums (C values), RocrandError
    generator.py       create/destroy/set_* (a generator is a libs.common LibraryHandle:
                       device, stream) and the queued generation
    generate.py        the rocrand_generate* functions, one per output type and distribution
    engines.py         rng_type -> engine (stream or pool), default seeds, kernel names
    states.py          device memory a device generator's engines occupy
    pool.py            engine pools: how XORWOW/MRG/LFSR113 host output is laid out
    sampling.py        which distribution and group widths a generate call uses
    distributions.py   words -> uniform / normal / log-normal / Poisson (numba)
    discrete.py        rocrand_create_discrete/poisson_distribution: alias and CDF tables
    half.py            float16 outputs (uniform / normal / log-normal _half)
    philox.py          Philox4x32-10 blocks and streams (Random123 known answers)
    threefry.py        ThreeFry 2x32/4x32/2x64/4x64-20 (Random123)
    xorwow.py          XORWOW: rocRAND's seeding, GF(2) jump matrices
    mrg.py             MRG32k3a and MRG31k3p: seeding, modular jump matrices
    lfsr113.py         LFSR113: four Tausworthe components, rocRAND's seeding
    gf2.py             linear maps over GF(2) on a few-word state (jump matrices)
    mt19937.py         MT19937: 8192 generators 2^1000 apart
    gf2poly.py         GF(2) polynomials for MT19937's jump ahead
    mtgp32.py          MTGP32: 512 parameter sets (data/mtgp32_11213.npz), one per block
    quasi.py           Sobol32/64 quasi-random generators
    sobol_vectors.py   Joe-Kuo direction vectors
    tables.py          rocrand_get_direction_vectors32/64, _scramble_constants32/64
    device.py          the device API: rocrand_state_*, rocrand_init, rocrand, ...
    device_wide.py     the rest of it: 2/4-wide draws, double normals, Poisson
    device_poisson.py  rocrand_poisson(state, lambda) inside kernels
    device_philox.py   Philox4x32-10 engine inside kernels
    device_threefry.py ThreeFry engines inside kernels
    device_xorwow.py   XORWOW engine inside kernels
    device_mrg.py      MRG32k3a engine inside kernels
    device_mrg31k3p.py MRG31k3p engine inside kernels
    device_lfsr113.py  LFSR113 engine inside kernels
    device_sobol.py    Sobol32/64 and scrambled Sobol inside kernels
    device_mtgp32.py   MTGP32 inside kernels (a block shares the state)
    device_gf2.py      GF(2) jumps inside kernels (XORWOW, LFSR113 states)
    device_bits.py     IEEE-754 bit patterns inside kernels (Box-Muller caches)
    data/make_mtgp32_params.py  builds data/mtgp32_11213.npz (MTGP32's parameter sets)

Data flow of a host call::

    rocrand_generate_normal(gen, d_out, n, mean, sd)
      -> checks (status codes as rocrand.cpp returns them)
      -> queued on gen's stream as "rocrand_impl::host::generate_philox" (modeled time)
      -> when it runs: engine.draw(groups, words per group) -> distribution -> d_out

How each generator is held to the real thing is listed in tests/libs/data/README.md.
"""

from gpusim.libs.rocrand.device import (
    rocrand,
    rocrand_init,
    rocrand_log_normal,
    rocrand_normal,
    rocrand_normal2,
    rocrand_state_lfsr113,
    rocrand_state_mrg31k3p,
    rocrand_state_mrg32k3a,
    rocrand_state_mtgp32,
    rocrand_state_philox4x32_10,
    rocrand_state_scrambled_sobol32,
    rocrand_state_scrambled_sobol64,
    rocrand_state_sobol32,
    rocrand_state_sobol64,
    rocrand_state_threefry2x32_20,
    rocrand_state_threefry2x64_20,
    rocrand_state_threefry4x32_20,
    rocrand_state_threefry4x64_20,
    rocrand_state_xorwow,
    rocrand_uniform,
    rocrand_uniform_double,
    skipahead,
    skipahead_sequence,
    skipahead_subsequence,
)
from gpusim.libs.rocrand.device_mtgp32 import block_copy as rocrand_mtgp32_block_copy
from gpusim.libs.rocrand.device_mtgp32 import (
    mtgp32dc_params_fast_11213,
    rocrand_make_state_mtgp32,
)
from gpusim.libs.rocrand.device_wide import (
    rocrand4,
    rocrand_normal4,
    rocrand_normal_double,
    rocrand_normal_double2,
    rocrand_normal_double4,
    rocrand_poisson,
    rocrand_poisson4,
    rocrand_uniform2,
    rocrand_uniform4,
    rocrand_uniform_double2,
    rocrand_uniform_double4,
)
from gpusim.libs.rocrand.discrete import (
    rocrand_create_discrete_distribution,
    rocrand_create_poisson_distribution,
    rocrand_destroy_discrete_distribution,
    rocrand_discrete_distribution,
)
from gpusim.libs.rocrand.generate import (
    rocrand_generate,
    rocrand_generate_char,
    rocrand_generate_log_normal,
    rocrand_generate_log_normal_double,
    rocrand_generate_log_normal_half,
    rocrand_generate_long_long,
    rocrand_generate_normal,
    rocrand_generate_normal_double,
    rocrand_generate_normal_half,
    rocrand_generate_poisson,
    rocrand_generate_short,
    rocrand_generate_uniform,
    rocrand_generate_uniform_double,
    rocrand_generate_uniform_half,
)
from gpusim.libs.rocrand.generator import (
    rocrand_create_generator,
    rocrand_create_generator_host,
    rocrand_destroy_generator,
    rocrand_generator,
    rocrand_get_version,
    rocrand_initialize_generator,
    rocrand_set_offset,
    rocrand_set_ordering,
    rocrand_set_quasi_random_generator_dimensions,
    rocrand_set_seed,
    rocrand_set_seed_uint4,
    rocrand_set_stream,
)
from gpusim.libs.rocrand.status import (
    RocrandError,
    rocrand_direction_vector_set,
    rocrand_ordering,
    rocrand_rng_type,
    rocrand_status,
)
from gpusim.libs.rocrand.tables import (
    rocrand_get_direction_vectors32,
    rocrand_get_direction_vectors64,
    rocrand_get_scramble_constants32,
    rocrand_get_scramble_constants64,
)

# C enum members as module-level names, as rocrand.h declares them.
globals().update({m.name: m for e in (rocrand_status, rocrand_rng_type, rocrand_ordering,
                                      rocrand_direction_vector_set) for m in e})

__all__ = [
    "RocrandError", "rocrand_create_generator", "rocrand_create_generator_host",
    "rocrand_destroy_generator", "rocrand_direction_vector_set", "rocrand_generate",
    "rocrand_generate_char", "rocrand_generate_log_normal",
    "rocrand_generate_log_normal_double", "rocrand_generate_long_long",
    "rocrand_generate_normal", "rocrand_generate_normal_double", "rocrand_generate_poisson",
    "rocrand_generate_short", "rocrand_generate_uniform", "rocrand_generate_uniform_double",
    "rocrand_generator", "rocrand_get_version", "rocrand_initialize_generator",
    "rocrand_ordering", "rocrand_rng_type", "rocrand_set_offset", "rocrand_set_ordering",
    "rocrand_set_quasi_random_generator_dimensions", "rocrand_set_seed",
    "rocrand_set_seed_uint4", "rocrand_set_stream", "rocrand_status",
    "rocrand_generate_uniform_half", "rocrand_generate_normal_half",
    "rocrand_generate_log_normal_half",
    "rocrand_create_discrete_distribution", "rocrand_create_poisson_distribution",
    "rocrand_destroy_discrete_distribution", "rocrand_discrete_distribution",
    "rocrand_get_direction_vectors32", "rocrand_get_direction_vectors64",
    "rocrand_get_scramble_constants32", "rocrand_get_scramble_constants64",
    # device API (inside kernels)
    "rocrand", "rocrand_init", "rocrand_log_normal", "rocrand_normal", "rocrand_normal2",
    "rocrand_state_mrg32k3a", "rocrand_state_philox4x32_10", "rocrand_state_xorwow",
    "rocrand_uniform", "rocrand_uniform_double", "skipahead", "skipahead_subsequence",
    "rocrand_state_mrg31k3p", "rocrand_state_lfsr113", "rocrand_state_threefry2x32_20",
    "rocrand_state_threefry2x64_20", "rocrand_state_threefry4x32_20",
    "rocrand_state_threefry4x64_20", "rocrand_state_sobol32", "rocrand_state_sobol64",
    "rocrand_state_scrambled_sobol32", "rocrand_state_scrambled_sobol64", "skipahead_sequence",
    "rocrand_state_mtgp32", "rocrand_mtgp32_block_copy", "rocrand_make_state_mtgp32",
    "mtgp32dc_params_fast_11213", "rocrand4", "rocrand_uniform2", "rocrand_uniform4",
    "rocrand_uniform_double2", "rocrand_uniform_double4", "rocrand_normal4",
    "rocrand_normal_double", "rocrand_normal_double2", "rocrand_normal_double4",
    "rocrand_poisson", "rocrand_poisson4",
] + [m.name for e in (rocrand_status, rocrand_rng_type, rocrand_ordering,
                      rocrand_direction_vector_set) for m in e]
