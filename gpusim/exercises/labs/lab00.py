"""Lab 00 (a tour of the emulated MI300X): resident work-items, bytes for hipMalloc.

>>> from gpusim.exercises import check
>>> check("00.2", 1000, __import__("numpy").zeros(1000, "float32")).status
'not yet'
"""

from __future__ import annotations

from itertools import combinations
from math import prod

import numpy as np

from gpusim.exercises.expect import expect_value
from gpusim.exercises.registry import NotYet, exercise
from gpusim.devices import get_spec

_FACTORS = ("cu_count", "simds_per_cu", "max_waves_per_simd", "wave_size")


def _left_out(resident: object, s) -> list[str]:
    """The fields of the profile a product of the others leaves out (none: [])."""
    values = {f: getattr(s, f) for f in _FACTORS}
    for size in (3, 2):
        for kept in combinations(_FACTORS, size):
            if resident == prod(values[f] for f in kept):
                return [f for f in _FACTORS if f not in kept]
    return []


@exercise("00.1", "resident work-items", hints=[
    "A CU has simds_per_cu SIMDs; each SIMD keeps up to max_waves_per_simd wavefronts.",
    "Each wavefront is wave_size work-items, and the GPU has cu_count CUs.",
    "The answer is a product of four fields of spec: read them in the table above.",
])
def resident_work_items(resident: object) -> str:
    s = get_spec("mi300x")
    want = s.cu_count * s.simds_per_cu * s.max_waves_per_simd * s.wave_size
    if isinstance(resident, (int, float, np.integer, np.floating)) \
            and not isinstance(resident, bool):
        if resident == want * s.xcd_count or resident == want * 8:
            raise NotYet(f"resident is {resident:,}: that is {resident // want} times too "
                         "large. cu_count already counts the CUs of all XCDs of one GPU, "
                         "and the exercise asks about one GPU, not the node.")
        missing = _left_out(resident, s)
        if missing == ["wave_size"]:
            raise NotYet(f"resident is {resident:,}: that counts wavefronts. How many "
                         "work-items does each wavefront hold (wave_size)?")
        if missing:
            raise NotYet(f"resident is {resident:,}: that is too small; the product leaves "
                         f"out {' and '.join(missing)}.")
    expect_value("resident", resident, want,
                 why="Multiply all four numbers of the device profile.")
    return (f"{int(resident):,} work-items: {s.cu_count} CUs x {s.simds_per_cu} SIMDs x "
            f"{s.max_waves_per_simd} wavefronts x {s.wave_size} lanes.")


@exercise("00.2", "bytes for hipMalloc", hints=[
    "hipMalloc takes a size in bytes, like C's malloc.",
    "A float32 element is 4 bytes; NumPy can tell you an array's size in bytes.",
])
def bytes_for_hipmalloc(nbytes: object, x: np.ndarray) -> str:
    number = isinstance(nbytes, (int, float, np.integer, np.floating)) \
        and not isinstance(nbytes, bool)
    if number and nbytes == x.size and x.itemsize > 1:
        raise NotYet(f"nbytes is {x.size:,}, the number of elements of x; hipMalloc counts "
                     f"bytes, and each {x.dtype} element takes more than one.")
    if number and nbytes == x.nbytes * 8:
        raise NotYet(f"nbytes is {int(nbytes):,}: that counts bits. hipMalloc counts bytes "
                     "(8 bits each).")
    if number and nbytes != x.nbytes and nbytes % x.size == 0 \
            and nbytes // x.size in (1, 2, 4, 8, 16):
        side = "too small" if nbytes < x.nbytes else "too large"
        raise NotYet(f"nbytes is {int(nbytes):,}: that is {side}, {int(nbytes) // x.size} "
                     f"bytes per element, but x is {x.dtype}: {x.itemsize} bytes per "
                     "element.")
    if number and not float(nbytes).is_integer():
        raise NotYet(f"nbytes is {nbytes}: a size in bytes is a whole number.")
    if isinstance(nbytes, (float, np.floating)):
        raise NotYet(f"nbytes is the float {nbytes!r}: hipMalloc wants an integer number of "
                     "bytes, and refuses a float. Integer arithmetic (// or an int) "
                     "keeps it an integer.")
    expect_value("nbytes", nbytes, x.nbytes, why="It should be the size of x in bytes.")
    return f"{int(nbytes):,} bytes: room for all {x.size:,} elements of x."
