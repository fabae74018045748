"""Lab 06 (memory): pad an LDS tile so a transpose's column reads are conflict-free."""

from __future__ import annotations

import numpy as np

from gpusim import hip
from gpusim.exercises.expect import expect_array, expect_true
from gpusim.exercises.measure import checked, lds_conflict_degree, profiled
from gpusim.exercises.registry import NotYet, exercise

TILE = 32


@exercise("06.1", "conflict-free transpose", hints=[
    "Word w of LDS is in bank w % 32. With rows of 32 words, a column's elements are 32 "
    "words apart: all in one bank.",
    "Make each row a little longer than the data it holds, so that going down a column "
    "moves to the next bank.",
    "Only the tile's shape changes; the indexing stays as it is.",
])
def transpose_padded(kernel) -> str:
    """Runs ``kernel[(4, 4), (32, 32)](a, out)`` on a 128 x 128 matrix checked (races,
    uninitialised LDS), then traced to read the conflict degree of each LDS access."""
    m = 4 * TILE
    host = np.arange(m * m, dtype=np.float32).reshape(m, m)
    grid, block = (m // TILE, m // TILE), (TILE, TILE)
    out = hip.to_device(np.full((m, m), np.nan, np.float32))
    checked(lambda: kernel[grid, block](hip.to_device(host), out))
    got = out.copy_to_host()
    if np.array_equal(got, host):
        raise NotYet("out is a copy of a, not its transpose: element [r, c] of a belongs "
                     "at [c, r].")
    in_place = host.reshape(4, TILE, 4, TILE).transpose(0, 3, 2, 1).reshape(m, m)
    if np.array_equal(got, in_place):
        raise NotYet("Each 32 x 32 tile is transposed, but the tiles stay where they were: "
                     "the tile of block (x, y) belongs at tile (y, x) of out.")
    expect_array("out", got, host.T, unset=np.nan)
    (k,) = profiled(lambda: kernel[grid, block](hip.to_device(host), out), kernel)
    degree = lds_conflict_degree(k)
    worst = max((site for site in k.memory.get("sites", []) if site["space"] == "lds"),
                key=lambda site: int(site.get("max_degree", 1)), default=None)
    where = f" (the {worst['kind']} at line {worst['line']})" if worst else ""
    expect_true(degree <= 1, f"The transpose is right, but an LDS access{where} still has "
                f"{degree}-way bank conflicts (SQ_LDS_BANK_CONFLICT = "
                f"{k.counters['SQ_LDS_BANK_CONFLICT']:,.0f} cycles).")
    return "The transpose is right and every LDS access is conflict-free (1-way)."
