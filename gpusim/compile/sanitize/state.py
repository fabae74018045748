"""The host side of the sanitizer's shadow state: made before a checked launch, read after.

The engine (``gpusim.engine.sanitizer``) sizes the shadow from ``check_layout`` and asks
this module for the ``_chk`` tuple the generated code updates (``shadow.py`` holds its
layout) and for the findings table as plain records; it never indexes the table itself.

>>> import numpy as np
>>> chk = new_state(64, lds_rows=4, lds_offsets=[0], global_shadow=new_global_shadow(1),
...                 global_offsets=[])
>>> read_findings(chk), dropped_findings(chk)
([], 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpusim.compile.sanitize import shadow as sh

# What each kind of finding is called in reports (the table stores small ints).
FINDING_KINDS = ("LDS race", "global race", "uninitialised LDS read")
_NAMES = dict(zip((sh.LDS_RACE, sh.GLOBAL_RACE, sh.UNINIT_LDS), FINDING_KINDS, strict=True))
LDS_ROW_BYTES = sh.LDS_COLS * 4  # shadow bytes per LDS element
GLOBAL_ROW_BYTES = sh.GLOBAL_COLS * 4  # shadow bytes per element of a written global array


@dataclass(frozen=True)
class RawFinding:
    """One row of the findings table: flat work-group/thread numbers and site numbers
    (``CompiledKernel.sites``); ``index`` is the element (an LDS shadow row for an
    uninitialised read)."""

    kind: str
    site_a: int
    block_a: int
    thread_a: int
    site_b: int
    block_b: int
    thread_b: int
    index: int
    count: int


def new_global_shadow(rows: int, reuse: np.ndarray | None = None) -> np.ndarray:
    """``rows`` rows of global shadow, all "never accessed"; ``reuse`` (a buffer at least
    that big) saves fresh pages' faults."""
    if reuse is None or reuse.shape[0] < rows:
        return np.full((rows, sh.GLOBAL_COLS), -1, np.int32)
    view = reuse[:rows]
    view.fill(-1)
    return view


def new_state(wave_size: int, *, lds_rows: int, lds_offsets: list[int],
              global_shadow: np.ndarray, global_offsets: list[int]) -> tuple:
    """The ``_chk`` tuple of one checked launch: counters, findings table, LDS shadow
    (``lds_rows`` rows; each LDS array's first row in ``lds_offsets``) and the global
    shadow with each written array's first row."""
    cst = np.zeros(8, np.int64)
    cst[sh.WAVE] = wave_size
    lsh = np.full((lds_rows + 1, sh.LDS_COLS), -1, np.int32)
    lsh[:, sh.L_GEN] = 0  # no work-group has touched it
    return (cst, np.zeros((sh.MAX_FINDINGS, sh.FIND_COLS), np.int64), lsh,
            np.array(list(lds_offsets) + [0], np.int64), global_shadow,
            np.array(list(global_offsets) + [0], np.int64))


def read_findings(chk: tuple) -> list[RawFinding]:
    """The findings of a finished launch, in the order first seen (the last work-group's
    reads of LDS elements nobody wrote are settled first)."""
    cst, fnd, lsh = chk[:3]
    sh._lds_flush(lsh, cst, fnd)
    return [RawFinding(_NAMES[int(r[sh.F_KIND])], int(r[sh.F_SITE_A]), int(r[sh.F_BLOCK_A]),
                       int(r[sh.F_THREAD_A]), int(r[sh.F_SITE_B]), int(r[sh.F_BLOCK_B]),
                       int(r[sh.F_THREAD_B]), int(r[sh.F_INDEX]), int(r[sh.F_COUNT]))
            for r in fnd[:int(cst[sh.NFOUND])]]


def dropped_findings(chk: tuple) -> int:
    """Findings that did not fit the table (``shadow.MAX_FINDINGS`` distinct ones)."""
    return int(chk[0][sh.DROPPED])
