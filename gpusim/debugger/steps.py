"""A work-group's recorded events, replayed as a SIMT machine steps its wavefronts.

The debug variant runs the threads of a region one after another; a GPU runs the 64
lanes of a wavefront together, one instruction at a time, with the EXEC mask switching
off the lanes that are elsewhere. ``simt_steps`` rebuilds that order per wave: at each
step, the lanes whose next statement comes first in the region's structure (its place:
statement indices, the ``if`` or ``else`` side, loop iterations) run it and the others
wait. So both sides of a divergent ``if`` run one after the other (the ``if`` side
first, as AMD's compiler lays them out), a loop runs iteration by iteration until its
last lane leaves, and the lanes meet again after the ``if`` or the loop.

Steps go region instance by region instance (a barrier or a wave collective ends one),
and within one, wave by wave: a valid order, since no lane sees another's writes until
the barrier. A barrier is a step of each wave ("arrives").

>>> from gpusim.debugger.recorder import Recorder
>>> from gpusim.debugger.instrument import DebugPoint
>>> points = {1: DebugPoint(1, 2, (0,), kind="if"), 2: DebugPoint(2, 3, (0, 0, 0), ("x",)),
...           3: DebugPoint(3, 5, (0, 1, 0), ("x",))}
>>> r = Recorder(points, threads=4)
>>> r.region(1)
>>> for t in range(4):
...     r.step(1, t); r.step(2 if t % 2 == 0 else 3, t, x=t)
>>> [(s.line, s.exec.astype(int).tolist()) for s in simt_steps(r, wave_size=4)]
[(2, [1, 1, 1, 1]), (3, [1, 0, 1, 0]), (5, [0, 1, 0, 1])]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np


@dataclass
class Step:
    """One instruction of one wavefront: which line, which lanes ran it (EXEC), what
    each of them assigned and which element each read or wrote."""

    index: int
    wave: int
    line: int
    kind: str  # "stmt", "if", "loop", "barrier", or a wave collective's op
    exec: np.ndarray  # bool per lane of the wave
    values: dict[int, dict[str, Any]] = field(default_factory=dict)  # lane -> assigned
    access: dict[int, tuple] = field(default_factory=dict)  # lane -> (site, kind, index)
    instance: int = 0  # the region instance (barriers and collectives end one)


def simt_steps(rec: Any, wave_size: int) -> list[Step]:
    """Every wave's steps, region instance by instance (module docstring)."""
    per_thread = [_by_instance(events) for events in rec.events]
    waves = -(-rec.threads // wave_size)
    after: dict[int, list] = {}
    for inst, sid, mask in rec.wave_ops:
        after.setdefault(inst, []).append((sid, mask))
    steps: list[Step] = []
    for inst in range(rec.instance + 1):
        for w in range(waves):
            lanes = range(w * wave_size, min((w + 1) * wave_size, rec.threads))
            seqs = {t - w * wave_size: per_thread[t].get(inst, []) for t in lanes}
            steps += _wave_steps(seqs, rec.points, w, wave_size, inst, len(steps))
        for sid, mask in after.get(inst, []):
            point = rec.points[sid]
            for w in range(waves):
                live = np.zeros(wave_size, bool)
                lanes = slice(w * wave_size, min((w + 1) * wave_size, rec.threads))
                live[:lanes.stop - lanes.start] = True if mask is None else mask[lanes]
                if live.any():  # a wave with no lane there does not run it
                    steps.append(Step(len(steps), w, point.line, point.kind, live,
                                      instance=inst))
    return steps


def _by_instance(events: list[tuple]) -> dict[int, list[tuple]]:
    out: dict[int, list[tuple]] = {}
    for e in events:
        out.setdefault(e[0], []).append(e)
    return out


def _wave_steps(seqs: dict[int, list[tuple]], points: dict, wave: int, wave_size: int,
                inst: int, first: int) -> list[Step]:
    """One wave's steps in one region instance: the earliest place runs next."""
    heads = dict.fromkeys(seqs, 0)
    out: list[Step] = []
    while True:
        ready = [(seqs[lane][heads[lane]][1], lane) for lane in seqs
                 if heads[lane] < len(seqs[lane])]
        if not ready:
            return out
        place = min(p for p, _ in ready)
        exec_ = np.zeros(wave_size, bool)
        step = None
        for p, lane in ready:
            if p != place:
                continue
            _, _, sid, values, access = seqs[lane][heads[lane]]
            heads[lane] += 1
            if step is None:
                point = points[sid]
                step = Step(first + len(out), wave, point.line, point.kind, exec_,
                            instance=inst)
            exec_[lane] = True
            if values:
                step.values[lane] = values
            if access is not None:
                step.access[lane] = access
        out.append(step)


@dataclass
class Recording:
    """A recorded work-group: its steps and what a view needs to show them."""

    kernel: str
    block: tuple[int, int, int]  # the recorded work-group's blockIdx
    wave_size: int
    threads: int
    steps: list[Step]
    source: list[str]  # the kernel's source lines, ``first_line`` first
    first_line: int
    sites: dict[int, tuple[str, str]]  # memory site -> (array, space: "global", "shared")
    lds: dict[str, int] = field(default_factory=dict)  # LDS array -> elements
    budget: int = 0  # the most steps the recorder would take
    blockdim: tuple[int, int, int] = (1, 1, 1)  # the work-group's shape (threads)
    findings: list = field(default_factory=list)  # the sanitizer's (engine.findings.Finding)

    def finding_step(self, finding: Any) -> int | None:
        """The first step where ``finding``'s first access runs: its line, in its thread's
        wave, with that thread's lane on (None: not in this work-group, or not reached)."""
        a = finding.first
        if tuple(a.block) != tuple(self.block):
            return None
        bx, by, _ = self.blockdim
        t = a.thread[0] + bx * (a.thread[1] + by * a.thread[2])
        wave, lane = divmod(t, self.wave_size)
        return next((s.index for s in self.steps if s.wave == wave and s.line == a.line
                     and s.exec[lane]), None)

    def lds_writers(self, step: int) -> dict[str, np.ndarray]:
        """For each LDS array, the thread that last wrote each element up to ``step`` (in
        the recording's order over all waves); -1 where no thread has written yet."""
        out = {name: np.full(n, -1, np.int64) for name, n in self.lds.items()}
        for s in self.steps[:step + 1]:
            for lane, (site, kind, index) in s.access.items():
                array, space = self.sites.get(site, ("", ""))
                if space == "shared" and kind and array in out and len(index) == 1 and (
                        0 <= index[0] < len(out[array])):
                    out[array][index[0]] = s.wave * self.wave_size + lane
        return out

    def lanes(self, step: int) -> dict[str, list[Any]]:
        """Every variable of the step's wave as each lane holds it after ``step`` (None
        where a lane has not assigned it yet)."""
        target = self.steps[step]
        out: dict[str, list[Any]] = {}
        for s in self.steps[:step + 1]:
            if s.wave != target.wave:
                continue
            for lane, values in s.values.items():
                for name, value in values.items():
                    out.setdefault(name, [None] * self.wave_size)[lane] = value
        return out

    def last_access(self, step: int) -> dict[int, tuple]:
        """The element each lane of the step's wave last read or wrote, up to ``step``:
        lane -> (site, kind, index)."""
        wave, out = self.steps[step].wave, {}
        for s in self.steps[:step + 1]:
            if s.wave == wave:
                out.update(s.access)
        return out

    def on_lines(self, line_of: Any, source: list[str], first_line: int = 1) -> Recording:
        """The same recording shown on other source lines (a HIP C++ kernel's):
        ``line_of`` maps each step's line to the line of ``source`` it came from."""
        steps = [replace(s, line=line_of(s.line)) for s in self.steps]
        return replace(self, steps=steps, source=source, first_line=first_line)

    def wave_steps(self, wave: int) -> list[Step]:
        """The steps of one wave, in order."""
        return [s for s in self.steps if s.wave == wave]
