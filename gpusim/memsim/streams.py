"""What each cache level saw, request by request: line, time step, instance, outcome.

``GpuMemoryModel.run`` fills ``GpuMemoryResult.streams`` with one ``LevelStream`` per
level (vL1D, L2, MALL), in the order that level saw its requests. Views bin them into a
time x address heat map and measure reuse distances (``reuse.py``). The outcome of a
request is ``HIT`` (a load served by the level), ``MISS`` (a load that made the level
fetch its line from below) or ``WRITE`` (a store or atomic: written into or through
the level; whether it allocated is in the level's counters).

>>> import numpy as np
>>> outcomes(np.array([0, 0, 1], np.uint8), out_src=np.array([1, 2]),
...          out_store=np.array([0, 1], np.uint8)).tolist()   # hit, miss (a fill), write
[0, 1, 2]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HIT, MISS, WRITE = 0, 1, 2
OUTCOME_NAMES = ("hit", "miss", "write")


@dataclass(frozen=True)
class LevelStream:
    """Requests one cache level saw: ``line`` (byte address of the line), ``step`` (the
    dispatch step the wave issued it, see ``dispatch.py``), ``instance`` (which CU's
    vL1D / XCD's L2; -1 for a request that bypassed the level), ``outcome``."""

    line: np.ndarray
    step: np.ndarray
    instance: np.ndarray
    outcome: np.ndarray

    def __len__(self) -> int:
        return len(self.line)


def outcomes(store: np.ndarray, out_src: np.ndarray, out_store: np.ndarray) -> np.ndarray:
    """Outcome per incoming request from what the level sent down: a load (``store`` 0)
    that caused a line read (``out_store`` 0 with ``out_src`` = its index) missed."""
    fetched = np.zeros(len(store), bool)
    fetched[out_src[out_store == 0]] = True
    return np.where(store != 0, WRITE, np.where(fetched, MISS, HIT)).astype(np.int8)
