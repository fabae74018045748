"""``viz.timeline``: what ran on each device and stream, on modeled time.

One row per (device, stream); every record (kernel, copy, memset, migration, host
function, and collectives or library calls as their records appear) is a bar from its
modeled start to end, coloured by kind; hovering shows the record's one-line summary.
The work of a HIP graph's nodes is outlined in black and its summary names the node
("graph 1 #2 node 3": node 3 of launch 2 of graph 1); a graph's parallel branches run on
streams of their own, so they show as rows too. A dropdown keeps one device. Times are
the model's, not the host's.
"""

from __future__ import annotations

from typing import Any

from bokeh.models import ColumnDataSource
from bokeh.plotting import figure

from gpusim.profiler.format import format_ns
from gpusim.viz.base import Summary, View, ViewError, dropdown
from gpusim.viz.inputs import records_of

COLORS = {"Kernel": "#1f77b4", "Copy": "#ff7f0e", "Memset": "#2ca02c", "Migration": "#d62728",
          "Host": "#9467bd", "Collective": "#8c564b"}


def lanes(records: list[Any]) -> list[str]:
    """Row labels, one per (device, stream), in order."""
    return [f"device {d} stream {s}" for d, s in sorted({(r.device, r.stream) for r in records})]


def timeline(profile: Any) -> View:
    """Records on modeled time per device and stream (module docstring).

    >>> import numpy as np, gpusim
    >>> from gpusim import hip
    >>> with gpusim.profile() as prof:
    ...     d = hip.to_device(np.zeros(1 << 20, np.float32))
    >>> dict(timeline(prof).summary)["Copy time"]
    '176 us'
    """
    records = [r for r in records_of(profile) if r.done]
    if not records:
        raise ViewError("timeline: no completed records; profile some work first")
    devices = sorted({r.device for r in records})
    pick = dropdown("device", [("all", -1)] + [(str(d), d) for d in devices], -1)
    bars = ColumnDataSource({"row": [], "start": [], "end": [], "color": [], "kind": [],
                             "what": [], "outline": []})
    f = figure(title="modeled timeline", height=80 + 40 * len(lanes(records)), width=900,
               y_range=lanes(records), tooltips=[("", "@what")])
    f.hbar(y="row", left="start", right="end", height=0.7, fill_color="color",
           line_color="outline", legend_field="kind", source=bars)
    f.xaxis.axis_label = "modeled time (us)"
    f.legend.location = "top_right"

    def update() -> Summary:
        keep = [r for r in records if pick.value in (-1, r.device)]
        t0 = min(r.start_ns for r in records)
        f.y_range.factors = lanes(keep)
        bars.data = {"row": [f"device {r.device} stream {r.stream}" for r in keep],
                     "start": [(r.start_ns - t0) / 1e3 for r in keep],
                     "end": [(r.end_ns - t0) / 1e3 for r in keep],
                     "color": [COLORS.get(r.kind, "#7f7f7f") for r in keep],
                     "kind": [r.kind for r in keep], "what": [repr(r) for r in keep],
                     "outline": ["black" if getattr(r, "graph", None)
                                 else COLORS.get(r.kind, "#7f7f7f") for r in keep]}
        span = max(r.end_ns for r in keep) - min(r.start_ns for r in keep)
        busy: dict[str, int] = {}
        for r in keep:
            busy[r.kind] = busy.get(r.kind, 0) + r.duration_ns
        nodes = sum(1 for r in keep if getattr(r, "graph", None))
        return [("records", f"{len(keep)} on {len(lanes(keep))} streams over "
                            f"{format_ns(span)}"),
                *[(f"{kind} time", format_ns(ns)) for kind, ns in busy.items()],
                *([("graph node records", str(nodes))] if nodes else [])]

    return View("Timeline", {"timeline": f}, {"bars": bars}, {"device": pick}, update)
