"""What the debug variant of a kernel reports while one work-group runs (``_dbg``).

The generated code (``instrument.py``) calls these methods; each thread's events go to
its own list, in the order the thread ran them. An event is ``(instance, place, sid,
values, access)``: the region instance, the statement's place with loop iterations
filled in (``DebugPoint.path``), what the statement assigned, and the element it last
read or wrote. A statement of a region that runs once for the whole block (thread -1)
counts for every thread.

Bounded: past ``budget`` events the recorder stops the kernel with ``RecordingBudgetError``,
which says how to narrow the recording.

>>> r = Recorder(points={1: None}, threads=2, budget=10)
>>> r.region(1); r.step(1, 0, x=3); r.step(1, -1, y=5)
>>> [e[3] for e in r.events[0]], [e[3] for e in r.events[1]]
([{'x': 3}, {'y': 5}], [{'y': 5}])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.errors import GpusimError


class RecordingBudgetError(GpusimError):
    """A recording passed its event budget."""


class Recorder:
    """Per-thread event lists of one work-group (see the module docstring)."""

    def __init__(self, points: dict[int, Any], threads: int, budget: int = 200_000,
                 lines: tuple[int, int] | None = None):
        self.points, self.threads, self.budget = points, threads, budget
        self.lines = lines  # record only the statements of these lines (inclusive)
        self.events: list[list[tuple]] = [[] for _ in range(threads)]
        self.instance = -1  # the region instance running now
        self.regions: list[int] = []  # the region index of each instance
        self.wave_ops: list[tuple[int, int]] = []  # (instance it follows, sid)
        self.count = 0
        self._iters: list[dict[int, int]] = [{} for _ in range(threads)]
        self._access: list[tuple | None] = [None] * threads

    def region(self, index: int) -> None:
        """A region instance starts: its threads' places restart."""
        self.instance += 1
        self.regions.append(index)

    def loop(self, sid: int, t: int) -> None:
        """Thread ``t`` reaches loop ``sid`` (a step of its own; iterations restart)."""
        for k in self._threads(t):
            self._iters[k][sid] = -1
        self.step(sid, t)

    def iter(self, sid: int, t: int, /, **values: Any) -> None:
        """Thread ``t`` starts the next iteration of loop ``sid`` (a step of the loop's
        line, with the loop variable's new value), before that iteration's body."""
        for k in self._threads(t):
            self._iters[k][sid] = self._iters[k].get(sid, -1) + 1
        self.step(sid, t, _iteration=True, **values)

    def at(self, site: int, kind: int, t: int, *index: int) -> Any:
        """Thread ``t`` accesses element ``index`` at memory site ``site``; returns the
        index (one number, or a tuple for more dimensions)."""
        self._access[t] = (site, kind, tuple(int(i) for i in index))
        return index[0] if len(index) == 1 else index

    def step(self, sid: int, t: int, /, **values: Any) -> None:
        """Statement ``sid`` ran in thread ``t`` (-1: every thread) and assigned ``values``."""
        point = self.points[sid]
        header = values.pop("_iteration", False)  # a loop's line, once per iteration
        if self.lines and point is not None and not (
                self.lines[0] <= point.line <= self.lines[1]):
            for k in self._threads(t):  # not recorded; its access is not the next one's
                self._access[k] = None
            return
        path = point.path if point is not None else ()
        values = {name: _kept(v) for name, v in values.items()}
        for k in self._threads(t):
            place = tuple(self._iters[k].get(int(c.split()[1]), 0) if isinstance(c, str)
                          else c for c in path)
            if header:  # after the previous iteration's body, before this one's
                place += (self._iters[k][sid], -1)
            self.events[k].append((self.instance, place, sid, values, self._access[k]))
            self._access[k] = None
        self.count += 1
        if self.count > self.budget:
            raise RecordingBudgetError(
                f"the recording passed its budget of {self.budget:,} steps: record a "
                "smaller work-group (a smaller block), fewer loop iterations (a smaller "
                "problem), only some lines (lines=(first, last)), or raise budget= if "
                "you mean it")

    def wave_op(self, sid: int, mask: Any = None) -> None:
        """A barrier or wave collective ran after the current region instance, in the
        threads ``mask`` holds (a bool per thread; None: all of them)."""
        self.wave_ops.append((self.instance, sid,
                              None if mask is None else np.array(mask[:self.threads], bool)))

    def _threads(self, t: int) -> range:
        return range(self.threads) if t < 0 else range(t, t + 1)


def _kept(value: Any) -> Any:
    """A value as it was at this step: NumPy scalars as Python numbers, arrays copied
    (a thread's private array changes in place later)."""
    if isinstance(value, np.generic):
        return value.item()
    return value.copy() if isinstance(value, np.ndarray) else value
