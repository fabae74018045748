"""The cache hierarchy of a device profile: vL1D -> L2 -> Infinity Cache (MALL) -> HBM.

``levels_for(spec)`` gives the level descriptions (``Cache`` specs) from a
``DeviceSpec``; ``hierarchy_for(spec)`` wraps them in a ``Hierarchy`` that sees the
traffic of **one CU** (its vL1D) through **one XCD's L2** and the Infinity Cache.

Policies, and where they come from:

==========  ======================  ================================================
level       policy                  source / reason
==========  ======================  ================================================
vL1D (TCP)  write-through,          ROCm Compute Profiler docs, *Vector L1 cache*:
            no-write-allocate       writes are "sent through the vL1D to the L2";
                                    not allocating on a store miss is our assumption
L2 (TCC)    write-back,             same docs, *L2 cache*: L2 "Writebacks" of lines
            write-allocate          to memory; allocate-on-store-miss assumed
MALL        write-back,             model assumption: a memory-side cache in front
            write-allocate          of HBM; ways (default 16) not published
==========  ======================  ================================================

Simplifications to keep in mind when reading numbers from this view:

- one vL1D and one L2: other CUs sharing the L2 (38 per XCD on MI300X) and other XCDs
  sharing the MALL are not simulated here; the engine, which knows the workgroup
  dispatch, instantiates one vL1D state per CU and one L2 state per XCD from
  ``levels_for``;
- set index = line number mod sets: the L2's channel hashing (16 channels, 256 B
  interleave on MI300X) and the MALL's placement per HBM stack are not modelled;
- hits are counted at lookup, so a request to a line whose fill is still in flight
  counts as a hit, as the hardware's "hit-on-miss" counting does;
- atomics (which bypass L2 to the MALL on MI300X), non-temporal hints, coherence
  actions (fences, invalidations) and fine-grained memory are not modelled.

>>> from gpusim.devices import get_spec
>>> for c in levels_for(get_spec("mi250x")):
...     print(c.name, c.size, c.ways, c.line, c.policy)
vL1D 16384 4 64 write-through/no-write-allocate
L2 8388608 16 128 write-back/write-allocate
>>> hierarchy_for("mi300x").levels[-1].name
'MALL'
"""

from __future__ import annotations

from gpusim.devices import DeviceSpec, get_spec
from gpusim.memsim.cache import Cache
from gpusim.memsim.hierarchy import Hierarchy

MALL_WAYS = 16  # model assumption: AMD publishes no Infinity Cache associativity


def levels_for(
    spec: DeviceSpec | str,
    *,
    infinity_cache: bool = True,
    mall_ways: int = MALL_WAYS,
) -> list[Cache]:
    """The device's cache levels, first to last, as ``Cache`` specs.

    ``infinity_cache=False`` leaves the MALL out (e.g. to show the L2 alone);
    devices without one (MI250X, MI100) never have it.
    """
    spec = get_spec(spec) if isinstance(spec, str) else spec
    levels = [
        Cache("vL1D", size=spec.l1_bytes, ways=spec.l1_ways, line=spec.l1_line_bytes,
              write_back=False, write_allocate=False),
        Cache("L2", size=spec.l2_bytes, ways=spec.l2_ways, line=spec.l2_line_bytes),
    ]  # fmt: skip
    if infinity_cache and spec.has_infinity_cache:
        levels.append(
            Cache("MALL", size=spec.infinity_cache_bytes, ways=mall_ways,
                  line=spec.infinity_cache_line_bytes)
        )  # fmt: skip
    return levels


def hierarchy_for(
    spec: DeviceSpec | str = "mi300x",
    *,
    infinity_cache: bool = True,
    mall_ways: int = MALL_WAYS,
) -> Hierarchy:
    """A ``Hierarchy`` for one CU's view of the device (see the module docstring).

    >>> import numpy as np
    >>> h = hierarchy_for("mi100")
    >>> s = h.run(np.arange(0, 4096, 4))           # 4 KiB read once: 64 B lines
    >>> s["vL1D"]["misses"], s["L2"]["misses"], s["memory"]["load_bytes"]
    (64, 64, 4096)
    """
    return Hierarchy(levels_for(spec, infinity_cache=infinity_cache, mall_ways=mall_ways))
