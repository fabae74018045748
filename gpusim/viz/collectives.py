"""``viz.collectives``: a collective's steps as bytes moving between GPUs, and link use.

Left: the ranks on a circle; for the chosen step, an arrow per (src -> dst) transfer with
its bytes, coloured by the link it takes (Infinity Fabric or PCIe). Right: bytes each
link has carried up to that step. A slider walks the steps; a dropdown picks the call.
Data: the ``steps`` (``CollectiveStep``) of the ``CollectiveRecord`` that RCCL emits.
"""

from __future__ import annotations

import math
from typing import Any

from bokeh.models import Arrow, ColumnDataSource, LinearColorMapper, NormalHead
from bokeh.palettes import Oranges256
from bokeh.plotting import figure

from gpusim.profiler import CollectiveRecord
from gpusim.profiler.format import format_bytes, format_ns
from gpusim.viz.base import Summary, View, ViewError, dropdown, int_slider
from gpusim.viz.inputs import records_of

LINK_COLORS = {"xGMI": "#d62728", "PCIe": "#1f77b4"}  # by the link name's stem


def step_count(record: CollectiveRecord) -> int:
    """How many steps the collective's algorithm took."""
    return 1 + max((t.step for t in record.steps), default=-1)


def link_bytes(record: CollectiveRecord, up_to_step: int | None = None
               ) -> dict[tuple[int, int], int]:
    """Bytes sent over each (src, dst) rank pair, through ``up_to_step`` if given."""
    out: dict[tuple[int, int], int] = {}
    for t in record.steps:
        if up_to_step is None or t.step <= up_to_step:
            out[(t.src, t.dst)] = out.get((t.src, t.dst), 0) + t.nbytes
    return out


def positions(n: int) -> list[tuple[float, float]]:
    """Rank ``i`` on a unit circle, rank 0 at the top, clockwise."""
    return [(math.sin(2 * math.pi * i / n), math.cos(2 * math.pi * i / n)) for i in range(n)]


def step_arrows(record: CollectiveRecord, step: int) -> dict[str, list]:
    """Arrows (shortened so heads stay outside the rank markers) of one step."""
    pos = positions(record.nranks)
    out: dict[str, list] = {k: [] for k in ("x0", "y0", "x1", "y1", "xm", "ym", "label",
                                            "color")}
    for t in record.steps:
        if t.step != step:
            continue
        (ax, ay), (bx, by) = pos[t.src], pos[t.dst]
        out["x0"].append(ax + 0.15 * (bx - ax))
        out["y0"].append(ay + 0.15 * (by - ay))
        out["x1"].append(bx - 0.15 * (bx - ax))
        out["y1"].append(by - 0.15 * (by - ay))
        out["xm"].append((ax + bx) / 2)
        out["ym"].append((ay + by) / 2)
        out["label"].append(format_bytes(t.nbytes))
        out["color"].append(next((c for stem, c in LINK_COLORS.items()
                                  if t.link.startswith(stem)), "#7f7f7f"))
    return out


def collectives(records: Any) -> View:
    """Steps and link use of collective calls (module docstring).

    >>> from gpusim.profiler import CollectiveRecord, CollectiveStep
    >>> ring = [CollectiveStep(0, r, (r + 1) % 2, 8, "xGMIx1", 0, 100) for r in (0, 1)]
    >>> call = CollectiveRecord(name="ncclAllGather", device=0, stream=0,
    ...                         collective="AllGather", algorithm="RING", nranks=2,
    ...                         devices=[0, 1], nbytes=16, steps=ring, end_ns=100, done=True)
    >>> dict(collectives([call]).summary)["steps"]
    '1; step 0: 2 transfers of 16 B'
    """
    calls = [r for r in records_of(records) if isinstance(r, CollectiveRecord)]
    if not calls:
        raise ViewError("collectives: no CollectiveRecord in these records; profile an RCCL "
                        "call (rccl.ncclAllReduce ...) inside `with gpusim.profile() as prof:`")
    pick = dropdown("call", [(f"{i}: {c.what()}", i) for i, c in enumerate(calls)])
    step = int_slider("step", 0, 0, max(1, max(step_count(c) for c in calls) - 1), 1)
    ranks = ColumnDataSource({"x": [], "y": [], "label": []})
    arrows = ColumnDataSource({k: [] for k in ("x0", "y0", "x1", "y1", "xm", "ym", "label",
                                               "color")})
    f = figure(title="transfers in this step", x_range=(-1.4, 1.4), y_range=(-1.4, 1.4),
               width=440, height=440, toolbar_location=None)
    f.axis.visible = f.grid.visible = False
    f.scatter("x", "y", source=ranks, size=34, color="#dddddd", line_color="#333333")
    f.text("x", "y", text="label", source=ranks, text_align="center", text_baseline="middle")
    f.add_layout(Arrow(end=NormalHead(size=10), source=arrows, x_start="x0", y_start="y0",
                       x_end="x1", y_end="y1", line_color="color", line_width=2))
    f.text("xm", "ym", text="label", source=arrows, text_font_size="8pt", text_align="center")
    links = ColumnDataSource({"src": [], "dst": [], "bytes": [], "text": []})
    mapper = LinearColorMapper(palette=Oranges256[::-1], low=0, high=1)
    g = figure(title="bytes per link so far", width=440, height=440, toolbar_location=None,
               tooltips=[("link", "@src -> @dst"), ("bytes", "@text")])
    g.rect("dst", "src", 0.95, 0.95, source=links,
           fill_color={"field": "bytes", "transform": mapper}, line_color="#cccccc")
    g.y_range.flipped = True
    g.xaxis.axis_label, g.yaxis.axis_label = "to rank", "from rank"

    def update() -> Summary:
        c = calls[pick.value]
        s = min(step.value, step_count(c) - 1)
        n = c.nranks
        pos = positions(n)
        ranks.data = {"x": [p[0] for p in pos], "y": [p[1] for p in pos],
                      "label": [f"{i} (GPU {d})" for i, d in enumerate(c.devices)]}
        arrows.data = step_arrows(c, s)
        used = link_bytes(c, s)
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
        links.data = {"src": [a for a, _ in pairs], "dst": [b for _, b in pairs],
                      "bytes": [used.get(p, 0) for p in pairs],
                      "text": [format_bytes(used.get(p, 0)) for p in pairs]}
        mapper.high = max(link_bytes(c).values(), default=1)
        here = [t for t in c.steps if t.step == s]
        return [("call", c.what()),
                ("steps", f"{step_count(c)}; step {s}: {len(here)} transfers of "
                          f"{format_bytes(sum(t.nbytes for t in here))}"),
                ("time", f"{format_ns(c.duration_ns)}, bus bandwidth "
                         f"{c.busbw_gbs:,.1f} GB/s"),
                ("busiest link", format_bytes(max(link_bytes(c).values(), default=0)))]

    return View("Collectives", {"steps": f, "links": g}, {"ranks": ranks, "arrows": arrows,
                                                          "links": links},
                {"call": pick, "step": step}, update)
