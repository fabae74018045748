"""``viz.cache_heatmap``: when and where a kernel hit and missed in each cache level.

A time x address heat map for the level picked (vL1D, L2, Infinity Cache): time is the
dispatch model's step (each resident wave issues one memory instruction per step), the
address axis is the lines the level saw, in address order, in bins; a cell's colour is
the requests of the chosen outcome (hits, misses, writes) or the miss ratio. Beside it
the reuse-distance histogram: how many distinct lines the level saw between two uses of
a line (per CU for vL1D, per XCD for L2), with the level's capacity marked; uses left of
the mark would hit in a fully associative cache of that size. Data: ``record.memory``'s
``heatmap`` and ``reuse`` (``gpusim.trace.views``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from bokeh.models import ColumnDataSource, LinearColorMapper, Span
from bokeh.palettes import Viridis256
from bokeh.plotting import figure

from gpusim.viz.base import Summary, View, dropdown
from gpusim.viz.inputs import kernel_label, traced_kernels

SHOW = ("miss ratio", "miss", "hit", "write")


def heat_cells(level: dict[str, Any], show: str) -> dict[str, list]:
    """Cells (time bin, line bin, value) of one level's heat map; ``show`` in ``SHOW``."""
    hit, miss, write = (np.asarray(level[k], float) for k in ("hit", "miss", "write"))
    if show == "miss ratio":
        loads = hit + miss
        value = np.divide(miss, loads, out=np.full_like(miss, np.nan), where=loads > 0)
    else:
        value = {"hit": hit, "miss": miss, "write": write}[show]
    t, a = np.nonzero(~np.isnan(value) & ((hit + miss + write) > 0))
    return {"t": t.tolist(), "a": a.tolist(), "value": value[t, a].tolist(),
            "address": [hex(level["first_line"][i]) for i in a]}


def reuse_bars(reuse: dict[str, Any]) -> dict[str, list]:
    """Bars of a reuse histogram on a log2 axis: bin ``[lo, hi)`` drawn at log2(lo+1)."""
    edges, counts = reuse["edges"], reuse["counts"]
    return {"x": [float(np.log2(lo + 1)) for lo in edges[:-1]], "count": counts,
            "range": [f"{lo}-{hi - 1}" for lo, hi in zip(edges[:-1], edges[1:], strict=True)]}


def cache_heatmap(records: Any, kernel: int = 0) -> View:
    """Heat map and reuse histogram of a traced kernel (module docstring);
    ``kernel``: which traced kernel of ``records`` to show first.

    >>> import numpy as np, gpusim
    >>> from gpusim import hip
    >>> @hip.jit
    ... def pairs(a, b):                       # neighbours share lines: the 2nd read hits
    ...     i = hip.grid(1)
    ...     b[i] = a[i] + a[i ^ 1]
    >>> a = hip.to_device(np.ones(2048, np.float32)); b = hip.device_array_like(a)
    >>> with gpusim.profile(memory=True) as prof:
    ...     pairs[8, 256](a, b)
    >>> dict(cache_heatmap(prof).summary)["requests"]
    '64 hit, 64 miss, 64 write'
    """
    kernels = traced_kernels(records, "cache_heatmap")
    pick = dropdown("kernel", [(kernel_label(i, k), i) for i, k in enumerate(kernels)], kernel)
    level = dropdown("level", list(kernels[pick.value].memory["heatmap"]))
    show = dropdown("show", SHOW)
    cells = ColumnDataSource({"t": [], "a": [], "value": [], "address": []})
    mapper = LinearColorMapper(palette=Viridis256, low=0, high=1, nan_color="white")
    f = figure(title="requests over time and address", height=360, width=560,
               toolbar_location=None, tooltips=[("step bin", "@t"), ("lines from", "@address"),
                                                ("value", "@value")])
    f.rect("t", "a", 1, 1, source=cells, fill_color={"field": "value", "transform": mapper},
           line_color=None)
    f.xaxis.axis_label, f.yaxis.axis_label = "time (dispatch steps, binned)", \
        "touched lines, address order (binned)"
    bars = ColumnDataSource({"x": [], "count": [], "range": []})
    g = figure(title="reuse distance (distinct lines between uses)", height=360, width=420,
               toolbar_location=None, tooltips=[("distance", "@range"), ("uses", "@count")])
    g.vbar("x", top="count", width=0.8, source=bars)
    capacity = Span(dimension="height", line_color="#d62728", line_dash="dashed", location=0)
    g.add_layout(capacity)
    g.xaxis.axis_label, g.yaxis.axis_label = "log2(distance + 1)", "uses"

    def update() -> Summary:
        k = kernels[pick.value]
        heat = k.memory["heatmap"]
        if level.value not in heat:
            level.options = list(heat)
        lv = heat[level.value]
        cells.data = heat_cells(lv, show.value)
        values = [v for v in cells.data["value"] if v == v]
        mapper.high = max(values, default=1) or 1
        totals = {o: int(np.sum(lv[o])) for o in ("hit", "miss", "write")}
        rows = [("kernel", k.name), ("level", f"{level.value}: {lv['lines']} lines touched "
                                              f"over {lv['steps']} steps"),
                ("requests", ", ".join(f"{n} {o}" for o, n in totals.items()))]
        reuse = k.memory["reuse"].get(level.value)
        if reuse is None:
            bars.data = {"x": [], "count": [], "range": []}
            rows.append(("reuse distance", f"not measured for {level.value}"))
            return rows
        bars.data = reuse_bars(reuse)
        capacity.location = float(np.log2(reuse["capacity_lines"] + 1))
        near = sum(c for lo, c in zip(reuse["edges"], reuse["counts"], strict=False)
                   if lo < reuse["capacity_lines"])
        rows.append(("reuse distance", f"{reuse['cold']} first uses, {sum(reuse['counts'])} "
                                       f"reuses, {near} in bins below the capacity "
                                       f"({reuse['capacity_lines']} lines)"))
        return rows

    return View("Cache heat map", {"heat": f, "reuse": g}, {"cells": cells, "reuse": bars},
                {"kernel": pick, "level": level, "show": show}, update)
