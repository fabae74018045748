"""What a translation produced: the HIP text, what it converted, and what it could not.

The statistics block is hipify-perl's (``printStats`` in bin/hipify-perl of the HIPIFY
commit recorded in data/cuda2hip.json)::

    [HIPIFY] info: file 'saxpy.cu' statistics:
      CONVERTED refs count: 3
      TOTAL lines of code: 20
      WARNINGS: 1
    [HIPIFY] info: CONVERTED refs by names:
      cudaMalloc => hipMalloc: 2

with, because hipify-perl has no counts by kind nor of what it left unconverted,
hipify-clang's lines for them (src/Statistics.cpp, same commit): ``UNCONVERTED refs
count`` after the converted count, then ``CONVERTED refs by type:``, ``UNCONVERTED refs
by type:`` and ``UNCONVERTED refs by names:``. One difference: hipify-perl counts a
name under its HIP spelling, so two CUDA names with one HIP name share a count; here
each CUDA => HIP pair has its own.

>>> r = Result("x", "x", [Conversion(1, "cudaFree", "hipFree", "memory")], [], lines=1)
>>> print(r.statistics("a.cu").splitlines()[2])
  CONVERTED refs count: 1
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# Why a literal 32 is a porting bug; printed once under the warp-size warnings.
# Sources: HIP docs "HIP C++ language extensions" (warpSize, warp cross-lane functions);
# ROCm 7.0 made warpSize a non-constexpr variable (e.g. https://github.com/ROCm/apex/pull/231:
# "In ROCm 7.0, the warpSize variable is no longer constexpr").
WAVE64 = (
    "note: AMD Instinct GPUs (CDNA: MI100, MI250X, MI300X) run wavefronts of 64 lanes, not "
    "warps of 32; RDNA GPUs run 32 or 64 (wave32/wave64). A literal 32 (or 31, 16, 5 as "
    "its mask, half and log2) next to a wave intrinsic, a 32-bit lane mask like "
    "0xffffffff, or a ballot stored in 32 bits silently drops lanes 32-63: reductions "
    "miss half the wavefront and per-warp arrays are sized wrong. Use warpSize (a "
    "run-time value since ROCm 7.0, so not in array bounds or templates), "
    "hipDeviceProp_t::warpSize on the host, 64-bit masks (unsigned long long, "
    "__activemask()) and __popcll for ballots (HIP docs, 'Warp cross-lane functions': "
    "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions"
    ".html).")


@dataclass(frozen=True)
class Conversion:
    """One rewritten reference: where, the CUDA name, the HIP name, HIPIFY's kind."""

    line: int
    cuda: str
    hip: str
    kind: str


@dataclass(frozen=True)
class Finding:
    """Something the translation could not do, or a wave64 hazard it saw.

    ``category``: "unsupported" (HIPIFY says HIP has no equivalent), "unknown" (looks
    like CUDA, not in HIPIFY's table), "deprecated"/"removed" (CUDA's own status),
    "dropped" (an argument the HIP call does not take was removed, and it was not null),
    or "warp" (a warp-size-32 assumption). ``kind`` is HIPIFY's conversion kind.
    """

    line: int
    category: str
    name: str
    message: str
    kind: str = ""

    def format(self, filename: str) -> str:
        """One stderr line in hipify-perl's style: ``  file:line: warning: ...``."""
        return f"  {filename}:{self.line}: warning: {self.message}"

    @property
    def unmapped(self) -> bool:
        """True when the name was left untranslated."""
        return self.category in ("unsupported", "unknown")


@dataclass
class Result:
    """A translated source: ``text`` plus ``conversions`` and ``findings``."""

    source: str
    text: str
    conversions: list[Conversion]
    findings: list[Finding]
    lines: int = 0
    extra_converted: Counter = field(default_factory=Counter)  # counted, not renamed

    @property
    def unmapped(self) -> list[Finding]:
        """The names left as they were because HIP has no (known) equivalent."""
        return [f for f in self.findings if f.unmapped]

    @property
    def warp_warnings(self) -> list[Finding]:
        """The wave64 hazards."""
        return [f for f in self.findings if f.category == "warp"]

    def report(self, filename: str = "<input>") -> str:
        """Every finding as one line, in line order, and the wave64 note if needed."""
        lines = [f.format(filename) for f in sorted(self.findings, key=lambda f: f.line)]
        if self.warp_warnings:
            lines.append("  " + WAVE64)
        return "\n".join(lines)

    def statistics(self, filename: str = "<input>") -> str:
        """hipify-perl's statistics block, then hipify-clang's counts by kind."""
        by_kind = Counter(c.kind for c in self.conversions) + self.extra_converted
        names = Counter((c.cuda, c.hip) for c in self.conversions)
        unconverted = [f for f in self.findings if f.unmapped]
        out = [
            "",
            f"[HIPIFY] info: file '{filename}' statistics:",
            f"  CONVERTED refs count: {sum(by_kind.values())}",
            f"  UNCONVERTED refs count: {len(unconverted)}",
            f"  TOTAL lines of code: {self.lines}",
            f"  WARNINGS: {len(self.findings)}",
            "[HIPIFY] info: CONVERTED refs by names:",
            *(f"  {cuda} => {hip}: {n}" for (cuda, hip), n in sorted(names.items())),
        ]
        for prefix, counts in (("CONVERTED", by_kind),
                               ("UNCONVERTED", Counter(f.kind for f in unconverted))):
            if counts:
                out.append(f"[HIPIFY] info: {prefix} refs by type:")
                out += [f"  {kind}: {n}" for kind, n in sorted(counts.items())]
        if unconverted:
            out.append("[HIPIFY] info: UNCONVERTED refs by names:")
            out += [f"  {name}: {n}" for name, n in
                    sorted(Counter(f.name for f in unconverted).items())]
        return "\n".join(out)
