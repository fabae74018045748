"""``Profile.summary()``: time per operation, each kernel's counters, memory traffic.

Three tables, as text (consoles, nbval) or HTML (notebooks), built from records only:

- time: per operation name, calls and modeled time (rocprofv3 ``--stats``);
- kernels: per dispatch, the bound, occupancy, instruction counters and, for traced
  kernels (``profile(memory=True)``), coalescing, hit rates and HBM bytes;
- memory: copies per direction (bytes, time, achieved GB/s), memsets and migrations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpusim.profiler.format import format_bytes, format_ns, html_table, percent, text_table

if TYPE_CHECKING:
    from gpusim.profiler.session import Profile

TIME_HEADER = ("kind", "name", "calls", "total", "average", "%")
KERNEL_HEADER = ("kernel", "time", "bound", "occupancy", "VALU", "VMEM rd/wr", "LDS",
                 "req/instr", "vL1D hit", "L2 hit", "HBM bytes")
MEMORY_HEADER = ("operation", "count", "bytes", "time", "GB/s")


def time_rows(prof: Profile) -> list[tuple[Any, ...]]:
    return [(r["kind"], r["name"], r["calls"], format_ns(r["total_ns"]),
             format_ns(r["average_ns"]), f"{r['percent']:.1f}") for r in prof.stats()]


def kernel_rows(prof: Profile) -> list[tuple[Any, ...]]:
    rows = []
    for k in prof.kernels:
        c, m = k.counters, k.memory
        levels = m.get("levels", {})
        rows.append((
            k.name, format_ns(k.duration_ns), k.breakdown.get("bound", "-"),
            percent(k.occupancy), c.get("SQ_INSTS_VALU", "-"),
            f"{c['SQ_INSTS_VMEM_RD']}/{c['SQ_INSTS_VMEM_WR']}" if c else "-",
            c.get("SQ_INSTS_LDS", "-"),
            f"{m['requests_per_instruction']:.3g}" if m else "-",
            percent(levels["vL1D"]["hit_rate"]) if "vL1D" in levels else "-",
            percent(levels["L2"]["hit_rate"]) if "L2" in levels else "-",
            format_bytes(m["hbm_read_bytes"] + m["hbm_write_bytes"]) if m else "-",
        ))  # fmt: skip
    return rows


def memory_rows(prof: Profile) -> list[tuple[Any, ...]]:
    groups: dict[str, list[Any]] = {}
    for r in prof.copies:
        groups.setdefault(f"copy {r.direction}" + (" pinned" if r.pinned else ""), []).append(r)
    for r in prof.memsets:
        groups.setdefault("memset", []).append(r)
    for r in prof.migrations:
        groups.setdefault(f"migration ({r.reason})", []).append(r)
    rows = []
    for name, rs in groups.items():
        nbytes, ns = sum(r.nbytes for r in rs), sum(r.duration_ns for r in rs)
        rate = f"{nbytes / ns:.1f}" if ns else "-"  # bytes per ns = GB/s
        rows.append((name, len(rs), format_bytes(nbytes), format_ns(ns), rate))
    return rows


def _sections(prof: Profile) -> list[tuple[str, tuple[str, ...], list[tuple[Any, ...]]]]:
    found = [("Time per operation", TIME_HEADER, time_rows(prof)),
             ("Kernels", KERNEL_HEADER, kernel_rows(prof)),
             ("Memory traffic", MEMORY_HEADER, memory_rows(prof))]
    return [s for s in found if s[2]]


def summary_text(prof: Profile) -> str:
    """The three tables as fixed-width text (empty sections left out).

    >>> from gpusim.profiler import Profile
    >>> summary_text(Profile())
    'no records'"""
    parts = [f"{title}\n{text_table(rows, header, left=2 if header is TIME_HEADER else 1)}"
             for title, header, rows in _sections(prof)]
    return "\n\n".join(parts) or "no records"


def summary_html(prof: Profile) -> str:
    """The three tables as HTML."""
    return "".join(html_table(rows, header, caption=title)
                   for title, header, rows in _sections(prof)) or "<p>no records</p>"
