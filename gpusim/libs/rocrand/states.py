"""Device memory that a device generator's engines occupy, allocated when rocRAND's
``init()`` runs (first generation or ``rocrand_initialize_generator``) and freed on
destroy: hipMemGetInfo shows it, and a device without room for it gives
ROCRAND_STATUS_ALLOCATION_FAILED, as rocRAND's ``system_type::alloc`` does.

Sizes from rocRAND 3.2.0's sources, for the generators whose engines are large:
MT19937 ``m_generator_count * mt19937_constants::n * sizeof(unsigned int)``
(``mt19937.hpp``: 8192 x 624 words) and MTGP32 one ``mtgp32_device_engine`` per block
(``mtgp32.hpp``; ``rocrand_mtgp32.h``: a 1024-word status ring, offset and id, and the
block's 52 parameter words: 4312 bytes).

>>> state_bytes(407, 101, "gfx942")
20447232
"""

from __future__ import annotations

from typing import Any

from gpusim.errors import HipError
from gpusim.libs.rocrand import mt19937, mtgp32
from gpusim.libs.rocrand.status import RocrandError, rocrand_status
from gpusim.runtime.api import hipFree, hipMalloc

MTGP32_ENGINE_BYTES = 4 * (2 + mtgp32.STATE) + 4 * (1 + 3 * 16 + 3)


def state_bytes(rng_type: int, ordering: int, arch: str) -> int:
    """Bytes of device memory the engines of ``rng_type`` take (0: not modeled)."""
    if rng_type == 407:
        return mt19937.GENERATORS * mt19937.N * 4
    if rng_type == 403:
        return mtgp32.blocks(ordering, arch) * MTGP32_ENGINE_BYTES
    return 0


def hold(rng_type: int, ordering: int, arch: str, function: str) -> Any:
    """Allocate the engines' memory; None where it is not modeled."""
    nbytes = state_bytes(rng_type, ordering, arch)
    if not nbytes:
        return None
    try:
        return hipMalloc(nbytes)
    except HipError as exc:
        raise RocrandError(rocrand_status.ROCRAND_STATUS_ALLOCATION_FAILED, function,
                           f"the generator's engines need {nbytes} bytes of device memory: "
                           f"{exc}") from None


def release(pointer: Any) -> None:
    if pointer is not None:
        hipFree(pointer)
