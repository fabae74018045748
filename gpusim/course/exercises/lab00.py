"""Lab 00 (a tour of the emulated MI300X): resident work-items, bytes for hipMalloc.

>>> from gpusim.course import check
>>> check("00.2", 1000, __import__("numpy").zeros(1000, "float32")).status
'not yet'
"""

from __future__ import annotations

import numpy as np

from gpusim.course.expect import expect_value
from gpusim.course.registry import NotYet, exercise
from gpusim.devices import get_spec


@exercise("00.1", "resident work-items", hints=[
    "A CU has simds_per_cu SIMDs; each SIMD keeps up to max_waves_per_simd wavefronts.",
    "Each wavefront is wave_size work-items, and the GPU has cu_count CUs.",
    "The answer is a product of four fields of spec: read them in the table above.",
])
def resident_work_items(resident: object) -> str:
    s = get_spec("mi300x")
    waves = s.cu_count * s.simds_per_cu * s.max_waves_per_simd
    if resident == waves:
        raise NotYet(f"resident is {waves:,}: that counts wavefronts. How many work-items "
                     "does each wavefront hold?")
    expect_value("resident", resident, waves * s.wave_size,
                 why="Multiply all four numbers of the device profile.")
    return (f"{resident:,} work-items: {s.cu_count} CUs x {s.simds_per_cu} SIMDs x "
            f"{s.max_waves_per_simd} wavefronts x {s.wave_size} lanes.")


@exercise("00.2", "bytes for hipMalloc", hints=[
    "hipMalloc takes a size in bytes, like C's malloc.",
    "A float32 element is 4 bytes; NumPy can tell you an array's size in bytes.",
])
def bytes_for_hipmalloc(nbytes: object, x: np.ndarray) -> str:
    if nbytes == x.size and x.itemsize > 1:
        raise NotYet(f"nbytes is {x.size:,}, the number of elements of x; hipMalloc counts "
                     f"bytes, and each {x.dtype} element takes more than one.")
    expect_value("nbytes", nbytes, x.nbytes, why="It should be the size of x in bytes.")
    return f"{nbytes:,} bytes: room for all {x.size:,} elements of x."
