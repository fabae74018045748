"""What the sanitizer found, as plain records, and the short text report a notebook prints.

A ``Finding`` is one bug pattern: its kind, the array and element of its first example,
the two accesses involved (line, thread, block), and how often it happened. The
report lists each finding once: findings with the same kind and the same pair of source
lines are merged and their counts added.

>>> a = Access(8, 5, "write", "s[t] = x[i]", thread=(65, 0, 0), block=(0, 0, 0), wave=1)
>>> b = Access(9, 9, "read", "y = s[t - 1]", thread=(66, 0, 0), block=(0, 0, 0), wave=1)
>>> print(report([Finding("LDS race", "k", "s", "shared", (65,), a, b, count=3)]))
gpusim sanitizer: kernel 'k': 1 finding
[1] LDS race on s[65] in blockIdx=(0, 0, 0), 3 times: no barrier between
    write at line 8 by threadIdx=(65, 0, 0):  s[t] = x[i]
    read at line 9 by threadIdx=(66, 0, 0):  y = s[t - 1]
    fix: both threads are lanes of wavefront 1, and lanes are not guaranteed to run in
         lockstep: put hip.syncwarp() (or hip.syncthreads()) between the two accesses
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace

from gpusim.compile.sanitize import FINDING_KINDS

LDS_RACE, GLOBAL_RACE, UNINIT = FINDING_KINDS  # as the sanitizer's table names them


@dataclass(frozen=True)
class Access:
    """One memory access of a finding: where in the source, and which thread made it."""

    line: int
    col: int
    what: str  # "read", "write", "update" (``a[i] += v``), "atomic"
    text: str  # the source line, stripped
    thread: tuple[int, int, int]  # threadIdx
    block: tuple[int, int, int]  # blockIdx
    func: str = ""  # the device function, when not the kernel itself
    wave: int = 0  # the thread's wavefront within its block


@dataclass(frozen=True)
class Finding:
    """A bug pattern the checked path saw, with its first example and a count."""

    kind: str  # LDS_RACE, GLOBAL_RACE or UNINIT
    kernel: str
    array: str  # the user's name of the array
    space: str  # "shared" or "global"
    index: tuple[int, ...]  # the element of the first example
    first: Access  # the earlier access (for UNINIT: the read itself)
    second: Access | None  # the later, conflicting access (None for UNINIT)
    count: int = 1

    @property
    def lines(self) -> tuple[int, ...]:
        return (self.first.line,) if self.second is None else (self.first.line, self.second.line)

    def key(self) -> tuple:
        """What makes two findings "the same" in a report: kind, array and source lines."""
        return (self.kind, self.array, tuple(sorted(self.lines)))

    @property
    def same_wave(self) -> bool:
        s = self.second
        return s is not None and s.block == self.first.block and s.wave == self.first.wave

    def summary(self) -> str:
        """A few lines: what, where, which threads (with their source lines), and a fix."""
        element = f"{self.array}[{', '.join(map(str, self.index))}]"
        times = f", {self.count} times" if self.count > 1 else ""
        a, b = self.first, self.second
        if b is None:
            return (f"{self.kind} of {element} in blockIdx={a.block}{times}: no thread of the "
                    f"block had written it\n{_access(a, False)}\n" + _fix(
                        "write every LDS element before reading it, then hip.syncthreads() "
                        "(LDS starts with whatever the previous block left: garbage on a GPU)"))
        if self.kind == GLOBAL_RACE:
            head = (f"{self.kind} on {element}{times}: two blocks of one launch, nothing "
                    "orders their accesses")
            fix = ("blocks of one launch run in any order (and at once); use an atomic, or "
                   "split the work into two kernel launches")
        else:
            head = f"{self.kind} on {element} in blockIdx={a.block}{times}: no barrier between"
            fix = ("put hip.syncthreads() between the two accesses (a barrier every thread "
                   "of the block reaches)")
            if self.same_wave:
                fix = (f"both threads are lanes of wavefront {a.wave}, and lanes are not "
                       "guaranteed to run in lockstep: put hip.syncwarp() (or "
                       "hip.syncthreads()) between the two accesses")
        blocks = self.kind == GLOBAL_RACE
        return f"{head}\n{_access(a, blocks)}\n{_access(b, blocks)}\n{_fix(fix)}"

    def __str__(self) -> str:
        return self.summary()


def merge(findings: list[Finding]) -> list[Finding]:
    """One finding per (kind, array, lines), first example kept, counts added."""
    merged: dict[tuple, Finding] = {}
    for f in findings:
        k = f.key()
        merged[k] = replace(merged[k], count=merged[k].count + f.count) if k in merged else f
    return list(merged.values())


class Findings(list):
    """The findings of one launch; ``print(findings)`` shows the text report."""

    def __str__(self) -> str:
        return report(self)

    __repr__ = __str__

    def _repr_pretty_(self, p, cycle) -> None:  # IPython
        p.text(report(self))


def report(findings: list[Finding], dropped: int = 0, limit: int = 4,
           header: bool = True) -> str:
    """The short text view: a header, then each finding once (the first ``limit``)."""
    findings = merge(list(findings))
    if not findings:
        return "gpusim sanitizer: no findings"
    kernels = sorted({f.kernel for f in findings})
    n = len(findings)
    lines = [f"gpusim sanitizer: kernel {', '.join(repr(k) for k in kernels)}: {n} finding"
             + ("s" if n > 1 else "")] if header else []
    for k, f in enumerate(findings[:limit], 1):
        lines.append(f"[{k}] {f.summary()}")
    rest = findings[limit:]
    if rest:
        at = sorted({line for f in rest for line in f.lines})
        lines.append(f"... and {len(rest)} more like these, on lines "
                     f"{', '.join(map(str, at))} (all of them: the error's .findings)")
    if dropped:
        lines.append(f"(and {dropped} more accesses in other pairs of lines, beyond what "
                     "the sanitizer keeps)")
    return "\n".join(lines)


def _fix(text: str) -> str:
    return textwrap.fill(text, 88, initial_indent="    fix: ", subsequent_indent="         ")


def _access(a: Access, block: bool) -> str:
    """``    write at line 8 by threadIdx=(1, 0, 0): s[t] = x[i]``"""
    who = f"threadIdx={a.thread}" + (f" of blockIdx={a.block}" if block else "")
    where = f"line {a.line}" + (f" (device function {a.func})" if a.func else "")
    return f"    {a.what} at {where} by {who}" + (f":  {a.text}" if a.text else "")
