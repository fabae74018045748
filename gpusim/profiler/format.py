"""How records read: short one-line summaries, HTML tables, times in ns/us/ms/s.

A record prints as what a person scans for (what ran, where, how long, what bound it),
never as its raw fields: a traced kernel holds 64 addresses per example access and
dozens of counters, which belong in ``record.counters`` / ``record.memory`` and views.

>>> format_ns(850), format_ns(12_345), format_ns(4_560_000), format_bytes(3 << 20)
('850 ns', '12.3 us', '4.56 ms', '3.0 MiB')
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any


def format_ns(ns: float) -> str:
    """A duration in the unit that keeps 3 significant digits readable.

    >>> format_ns(1_234), format_ns(250_000_000)
    ('1.23 us', '250 ms')"""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale:
            v = ns / scale
            return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"
    return f"{ns:.0f} ns"


def format_bytes(n: float) -> str:
    """Bytes as B, KiB, MiB or GiB (binary units, as HIP reports memory sizes).

    >>> format_bytes(512), format_bytes(64 << 30)
    ('512 B', '64.0 GiB')"""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(n) >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n:.0f} B"


def dim3(t: Sequence[int]) -> str:
    """(64, 1, 1) -> '64'; (8, 8, 1) -> '8x8': the launch shape as people write it.

    >>> dim3((8, 8, 1))
    '8x8'"""
    t = list(t)
    while len(t) > 1 and t[-1] == 1:
        t.pop()
    return "x".join(str(v) for v in t)


def percent(x: float | None) -> str:
    """A fraction as a whole percentage; None (not known) as '-'.

    >>> percent(0.5), percent(None)
    ('50%', '-')
    """
    return "-" if x is None else f"{x:.0%}"


def html_table(rows: Iterable[Sequence[Any]], header: Sequence[str] | None = None,
               caption: str | None = None) -> str:
    """A small HTML table (escaped), the ``_repr_html_`` of records and profiles.

    >>> html_table([("a", "<1>")])
    '<table><tr><td>a</td><td>&lt;1&gt;</td></tr></table>'"""
    out = ["<table>"]
    if caption:
        out.append(f"<caption style='text-align:left'><b>{html.escape(caption)}</b></caption>")
    if header:
        out.append("<tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in header) + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def text_table(rows: Sequence[Sequence[Any]], header: Sequence[str], left: int = 1) -> str:
    """A fixed-width text table: the first ``left`` columns left-aligned, the rest right.

    >>> print(text_table([("copy", 3)], ["name", "calls"]))
    name calls
    copy     3"""
    cells = [[str(h) for h in header]] + [[str(v) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = [
        " ".join(c.ljust(w) if i < left else c.rjust(w)
                 for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        for r in cells
    ]
    return "\n".join(line.rstrip() for line in lines)
