"""Lab 06 (memory): pad an LDS tile so a transpose's column reads are conflict-free."""

from __future__ import annotations

import numpy as np

from gpusim import hip
from gpusim.course.expect import expect_array, expect_true
from gpusim.course.measure import lds_conflict_degree, profiled
from gpusim.course.registry import exercise

TILE = 32


@exercise("06.1", "conflict-free transpose", hints=[
    "Word w of LDS is in bank w % 32. With rows of 32 words, a column's elements are 32 "
    "words apart: all in one bank.",
    "Make each row a little longer than the data it holds, so that going down a column "
    "moves to the next bank.",
    "Only the tile's shape changes; the indexing stays as it is.",
])
def transpose_padded(kernel) -> str:
    """Runs ``kernel[(4, 4), (32, 32)](a, out)`` on a 128 x 128 matrix, traced."""
    m = 4 * TILE
    host = np.arange(m * m, dtype=np.float32).reshape(m, m)
    out = hip.to_device(np.full((m, m), np.nan, np.float32))
    (k,) = profiled(lambda: kernel[(m // TILE, m // TILE), (TILE, TILE)](hip.to_device(host),
                                                                         out))
    expect_array("out", out.copy_to_host(), host.T, unset=np.nan)
    degree = lds_conflict_degree(k)
    expect_true(degree <= 1, f"The transpose is right, but an LDS access still has "
                f"{degree}-way bank conflicts (SQ_LDS_BANK_CONFLICT = "
                f"{k.counters['SQ_LDS_BANK_CONFLICT']:,.0f} cycles).")
    return "The transpose is right and every LDS access is conflict-free (1-way)."
