"""rocRAND's enums with their C values, and ``RocrandError``.

Values from rocRAND 3.2.0 ``library/include/rocrand/rocrand.h`` (github.com/ROCm/rocRAND):
``rocrand_status`` (success 0, then 100-108), ``rocrand_rng_type`` (pseudo 400-411, quasi
500-505; 503 is not used), ``rocrand_ordering`` (pseudo 100-104, quasi 201) and
``rocrand_direction_vector_set`` (101-104).

Where each status comes from here: NOT_CREATED (a destroyed or foreign generator),
TYPE_ERROR (bad rng type, 64-bit output from a 32-bit generator, offsets of MTGP32 and
MT19937, seeds and dimensions of the wrong kind), OUT_OF_RANGE (orderings, dimensions,
lambda), LENGTH_NOT_MULTIPLE (quasi-random lengths), LAUNCH_FAILURE (an output that is
not device memory, a stream of another device than the generator's), ALLOCATION_FAILED
(no device memory for MT19937's or MTGP32's engines; states.py). rocRAND 3.2.0 never
returns VERSION_MISMATCH or DOUBLE_PRECISION_REQUIRED (declared for cuRAND compatibility:
``git grep`` finds them only in ``rocrand.h`` and the Fortran module), and returns
INTERNAL_ERROR only when a HIP call inside it fails (``hipGetDevice`` for the config, a
memcpy), which the emulated runtime does not do.

>>> rocrand_rng_type.ROCRAND_RNG_PSEUDO_PHILOX4_32_10.value
404
>>> err = RocrandError(105, "rocrand_generate", "n=7 is not a multiple of 2 dimensions")
>>> err.status
<rocrand_status.ROCRAND_STATUS_LENGTH_NOT_MULTIPLE: 105>
"""

from __future__ import annotations

import enum

from gpusim.libs.common import LibraryError


class rocrand_status(enum.IntEnum):  # noqa: N801 - C name
    """Status codes of every rocRAND call (``rocrand.h``)."""

    ROCRAND_STATUS_SUCCESS = 0
    ROCRAND_STATUS_VERSION_MISMATCH = 100
    ROCRAND_STATUS_NOT_CREATED = 101
    ROCRAND_STATUS_ALLOCATION_FAILED = 102
    ROCRAND_STATUS_TYPE_ERROR = 103
    ROCRAND_STATUS_OUT_OF_RANGE = 104
    ROCRAND_STATUS_LENGTH_NOT_MULTIPLE = 105
    ROCRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106
    ROCRAND_STATUS_LAUNCH_FAILURE = 107
    ROCRAND_STATUS_INTERNAL_ERROR = 108


class rocrand_rng_type(enum.IntEnum):  # noqa: N801 - C name
    """Generator types (``rocrand.h``)."""

    ROCRAND_RNG_PSEUDO_DEFAULT = 400
    ROCRAND_RNG_PSEUDO_XORWOW = 401
    ROCRAND_RNG_PSEUDO_MRG32K3A = 402
    ROCRAND_RNG_PSEUDO_MTGP32 = 403
    ROCRAND_RNG_PSEUDO_PHILOX4_32_10 = 404
    ROCRAND_RNG_PSEUDO_MRG31K3P = 405
    ROCRAND_RNG_PSEUDO_LFSR113 = 406
    ROCRAND_RNG_PSEUDO_MT19937 = 407
    ROCRAND_RNG_PSEUDO_THREEFRY2_32_20 = 408
    ROCRAND_RNG_PSEUDO_THREEFRY2_64_20 = 409
    ROCRAND_RNG_PSEUDO_THREEFRY4_32_20 = 410
    ROCRAND_RNG_PSEUDO_THREEFRY4_64_20 = 411
    ROCRAND_RNG_QUASI_DEFAULT = 500
    ROCRAND_RNG_QUASI_SOBOL32 = 501
    ROCRAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 502
    ROCRAND_RNG_QUASI_SOBOL64 = 504
    ROCRAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 505


class rocrand_ordering(enum.IntEnum):  # noqa: N801 - C name
    """How a host generator lays its engines' outputs out in memory (``rocrand.h``)."""

    ROCRAND_ORDERING_PSEUDO_BEST = 100
    ROCRAND_ORDERING_PSEUDO_DEFAULT = 101
    ROCRAND_ORDERING_PSEUDO_SEEDED = 102
    ROCRAND_ORDERING_PSEUDO_LEGACY = 103
    ROCRAND_ORDERING_PSEUDO_DYNAMIC = 104
    ROCRAND_ORDERING_QUASI_DEFAULT = 201


class rocrand_direction_vector_set(enum.IntEnum):  # noqa: N801 - C name
    """Sobol direction-vector tables (``rocrand.h``)."""

    ROCRAND_DIRECTION_VECTORS_32_JOEKUO6 = 101
    ROCRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102
    ROCRAND_DIRECTION_VECTORS_64_JOEKUO6 = 103
    ROCRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104


class RocrandError(LibraryError):
    """A rocRAND call returned a non-success status; ``.status`` is a ``rocrand_status``."""

    status_enum = rocrand_status
    pointer_status = rocrand_status.ROCRAND_STATUS_LAUNCH_FAILURE  # a kernel would fault
    value_status = rocrand_status.ROCRAND_STATUS_TYPE_ERROR
    # A stream of another device than the generator's: its kernels could not be launched
    # there (rocRAND reports a failed hipLaunchKernelGGL as LAUNCH_FAILURE).
    stream_status = rocrand_status.ROCRAND_STATUS_LAUNCH_FAILURE
