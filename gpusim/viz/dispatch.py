"""``viz.dispatch``: where a launch's workgroups ran: XCDs, CUs, and when.

Left: one cell per CU (rows = XCDs, columns = the XCD's CUs), coloured by how many
workgroups are resident at the chosen time step, with the waves per SIMD that gives.
Right: each workgroup as a bar over the steps it was resident, on its CU (the CUs that
got work), coloured by XCD: MI300X deals workgroups round-robin over its 8 XCDs. The
step slider moves through the launch. Data: the memory model's dispatch
(``record.memory["dispatch"]``, ``gpusim.memsim.dispatch``), traced workgroups only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from bokeh.models import ColumnDataSource, LinearColorMapper, Span
from bokeh.palettes import Blues256, Category10_10
from bokeh.plotting import figure

from gpusim.viz.base import Summary, View, dropdown, int_slider
from gpusim.viz.inputs import kernel_label, spec_of, traced_kernels


def resident(d: dict[str, Any], step: int) -> np.ndarray:
    """Workgroups resident on each CU (global CU id) at ``step``.

    >>> d = {"cu": [0, 0, 1], "start": [0, 2, 0], "end": [2, 4, 4], "xcd_count": 1,
    ...      "cus_per_xcd": 2}
    >>> resident(d, 0).tolist(), resident(d, 3).tolist()
    ([1, 1], [1, 1])
    """
    cu, start, end = (np.asarray(d[k]) for k in ("cu", "start", "end"))
    on = (start <= step) & (step < end)
    return np.bincount(cu[on], minlength=d["xcd_count"] * d["cus_per_xcd"])


def dispatch(records: Any, kernel: int = 0) -> View:
    """Workgroups over XCDs and CUs of a traced launch (module docstring);
    ``kernel``: which traced kernel of ``records`` to show first.

    >>> import numpy as np, gpusim
    >>> from gpusim import hip
    >>> @hip.jit
    ... def fill(out):
    ...     out[hip.grid(1)] = hip.blockIdx.x
    >>> with gpusim.profile(memory=True) as prof:
    ...     fill[32, 64](hip.device_array(2048, np.int32))
    >>> dict(dispatch(prof).summary)["workgroups per XCD"]
    '4 4 4 4 4 4 4 4'
    """
    kernels = traced_kernels(records, "dispatch")
    pick = dropdown("kernel", [(kernel_label(i, k), i) for i, k in enumerate(kernels)], kernel)
    last = max(k.memory["dispatch"]["end"][-1] if k.memory["dispatch"]["end"] else 1
               for k in kernels)
    step = int_slider("time step", 0, 0, max(1, last), 1)
    grid = ColumnDataSource({"cu": [], "xcd": [], "n": []})
    mapper = LinearColorMapper(palette=Blues256[::-1], low=0, high=1)
    f = figure(title="resident workgroups per CU", height=300, width=520,
               toolbar_location=None, tooltips=[("XCD", "@xcd"), ("CU", "@cu"),
                                                ("workgroups", "@n")])
    f.rect("cu", "xcd", 0.95, 0.95, source=grid, fill_color={"field": "n", "transform": mapper},
           line_color="#cccccc")
    f.y_range.flipped = True
    f.xaxis.axis_label, f.yaxis.axis_label = "CU within the XCD", "XCD"
    bars = ColumnDataSource({"row": [], "start": [], "end": [], "color": [], "wg": []})
    g = figure(title="workgroups over time on their CU", height=300, width=420,
               toolbar_location=None, tooltips=[("workgroup", "@wg"), ("steps", "@start-@end")])
    g.hbar(y="row", left="start", right="end", height=0.8, color="color", source=bars)
    now = Span(dimension="height", line_color="#d62728", line_dash="dashed", location=0)
    g.add_layout(now)
    g.xaxis.axis_label, g.yaxis.axis_label = "time step", "CU (those with work)"

    def update() -> Summary:
        k = kernels[pick.value]
        d, spec = k.memory["dispatch"], spec_of(k)
        counts = resident(d, step.value)
        per = d["cus_per_xcd"]
        grid.data = {"cu": [c % per for c in range(len(counts))],
                     "xcd": [c // per for c in range(len(counts))], "n": counts.tolist()}
        mapper.high = max(1, d["workgroups_per_cu"])
        used = sorted(set(d["cu"]))
        row = {cu: i for i, cu in enumerate(used)}
        bars.data = {"row": [row[c] for c in d["cu"]], "start": d["start"], "end": d["end"],
                     "color": [Category10_10[x % 10] for x in d["xcd"]], "wg": d["workgroup"]}
        now.location = step.value
        waves = int(counts.max(initial=0)) * d["waves_per_workgroup"]
        per_simd = -(-waves // spec.simds_per_cu)
        by_xcd = np.bincount(d["xcd"], minlength=d["xcd_count"]).tolist()
        return [("kernel", f"{k.name}: {len(d['workgroup'])} workgroups traced on "
                           f"{len(used)} CUs"),
                ("workgroups per XCD", " ".join(str(n) for n in by_xcd)),
                ("resident limit", f"{d['workgroups_per_cu']} workgroups per CU "
                                   f"(occupancy), {d['waves_per_workgroup']} waves each"),
                (f"at step {step.value}", f"{int(counts.sum())} workgroups resident, busiest "
                                          f"CU {per_simd} waves per SIMD")]

    return View("Workgroup dispatch", {"cus": f, "time": g}, {"cus": grid, "time": bars},
                {"kernel": pick, "step": step}, update)
