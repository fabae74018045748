"""Engine pools: how rocRAND's host API lays out XORWOW, MRG32k3a, MRG31k3p and LFSR113.

These generators cannot jump cheaply inside a kernel, so the host generator keeps one
engine per thread of its launch (``library/src/rng/xorwow.hpp``, ``mrg.hpp``,
``lfsr113.hpp``): engine ``e`` starts at subsequence ``e`` with offset
``offset // E + (e < start)``, where ``E = threads x blocks`` and ``start = offset % E``.
Output group ``k`` (``input_width`` words -> ``output_width`` numbers) comes from engine
``(k mod E + start) mod E``, each engine drawing its groups in order, and after a call
``start`` moves on by the number of groups written. So consecutive numbers come from
different subsequences, and the layout depends on E, which depends on the ordering.

E per ordering (rocRAND 3.2.0 ``library/src/rng/config/``): the default, legacy, best and
seeded orderings use ``config_defaults.hpp`` (256 threads x 512 blocks = 131072 engines);
the dynamic ordering uses the tuned size for the device's architecture.

>>> engines(401, 101, "gfx942"), engines(401, 104, "gfx942")
(131072, 524288)
"""

from __future__ import annotations

import numba

DEFAULT = (256, 512)  # config_defaults.hpp: XORWOW, MRG32k3a, MRG31k3p, LFSR113
# Tuned (threads, blocks) per architecture for the dynamic ordering (config/*_config.hpp).
DYNAMIC = {
    401: {"gfx942": (256, 2048), "gfx90a": (128, 2048), "gfx908": (256, 600),
          "gfx1100": (64, 1024)},
    402: {"gfx942": (256, 2048), "gfx90a": (256, 2048), "gfx908": (1024, 600),
          "gfx1100": (128, 2048)},
    405: {"gfx942": (512, 2048), "gfx90a": (512, 2048), "gfx908": (1024, 600),
          "gfx1100": (128, 2048)},
    406: {"gfx942": (512, 2048), "gfx90a": (64, 2048), "gfx908": (256, 1024),
          "gfx1100": (64, 1024)},
}
ORDERING_DYNAMIC = 104


def engines(rng_type: int, ordering: int, arch: str) -> int:
    """Number of engines E the host generator of ``rng_type`` uses for ``ordering``."""
    threads, blocks = DEFAULT
    if ordering == ORDERING_DYNAMIC:
        threads, blocks = DYNAMIC[rng_type].get(arch.split(":")[0], DEFAULT)
    return threads * blocks


@numba.njit(cache=True, nogil=True)
def draw(step, states, start, ngroups, width, out):
    """out[k*width + i] = i-th word engine (k mod E + start) mod E draws for group k."""
    n_engines = states.shape[0]
    for k in range(ngroups):
        e = (k % n_engines + start) % n_engines
        for i in range(width):
            out[k * width + i] = step(states, e)
