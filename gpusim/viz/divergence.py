"""``viz.divergence``: the EXEC mask (active lanes) of a wavefront along a kernel.

For a wave picked from the record's first waves, one row per memory instruction it
executed, in program order, labelled with its source line; a cell per lane, filled
when the lane was active. Lanes switched off by an ``if`` show as gaps, and the rows of
the other side of a branch show the complement. Beside it, the average active lanes of
each source line over all traced waves. The trace records EXEC where a wave touches
memory, so a branch with no memory access inside shows only through the accesses
around it. Data: ``record.memory["exec"]`` (``gpusim.trace.views``).
"""

from __future__ import annotations

from typing import Any

from bokeh.models import ColumnDataSource
from bokeh.plotting import figure

from gpusim.viz.base import Summary, View, ViewError, dropdown
from gpusim.viz.inputs import kernel_label, traced_kernels

ON, OFF = "#1f77b4", "#eeeeee"


def mask_cells(masks: list[int], wave_size: int) -> dict[str, list]:
    """Cells (row, lane, active) of a list of EXEC masks (bit k = lane k).

    >>> d = mask_cells([0b101], 4)
    >>> d["lane"], d["active"]
    ([0, 1, 2, 3], [True, False, True, False])
    """
    rows, lanes, active = [], [], []
    for r, m in enumerate(masks):
        for lane in range(wave_size):
            rows.append(r)
            lanes.append(lane)
            active.append(bool(m >> lane & 1))
    return {"row": rows, "lane": lanes, "active": active}


def divergence(records: Any, kernel: int = 0) -> View:
    """EXEC masks of a traced kernel's waves (module docstring);
    ``kernel``: which traced kernel of ``records`` to show first.

    >>> import numpy as np, gpusim
    >>> from gpusim import hip
    >>> @hip.jit
    ... def odd(out):
    ...     if hip.laneid % 2 == 1:
    ...         out[hip.grid(1)] = 1.0
    >>> with gpusim.profile(memory=True) as prof:
    ...     odd[1, 64](hip.device_array(64, np.float32))
    >>> dict(divergence(prof).summary)["wave"]
    '0: 1 memory instructions, 1 with lanes switched off'
    """
    if hasattr(records, "py_func"):
        raise ViewError("divergence: pass the record of a launch, not the kernel: run it "
                        "inside `with gpusim.profile(memory=True) as prof:` and pass prof")
    kernels = traced_kernels(records, "divergence")
    pick = dropdown("kernel", [(kernel_label(i, k), i) for i, k in enumerate(kernels)], kernel)
    wave = dropdown("wave", list(kernels[pick.value].memory["exec"]["waves"]))
    cells = ColumnDataSource({"row": [], "lane": [], "color": [], "label": []})
    f = figure(title="EXEC mask per memory instruction", height=420, width=640,
               toolbar_location=None, tooltips=[("instruction", "@label"), ("lane", "@lane")])
    f.rect("lane", "row", 0.9, 0.9, source=cells, color="color")
    f.y_range.flipped = True
    f.xaxis.axis_label, f.yaxis.axis_label = "lane", "instruction (program order)"
    lines = ColumnDataSource({"label": [], "lanes": []})
    g = figure(title="average active lanes per source line", height=420, width=420,
               toolbar_location=None, y_range=[""])
    g.hbar(y="label", right="lanes", height=0.7, source=lines)

    def update() -> Summary:
        k = kernels[pick.value]
        ex = k.memory["exec"]
        if wave.value not in ex["waves"]:
            wave.options = list(ex["waves"])
        sites = {s["site"]: s for s in k.memory["sites"]}
        w = ex["waves"][wave.value]
        labels = [f"line {sites[s]['line']}: {sites[s]['text']}" for s in w["site"]]
        d = mask_cells(w["mask"], ex["wave_size"])
        cells.data = {"row": d["row"], "lane": d["lane"],
                      "color": [ON if a else OFF for a in d["active"]],
                      "label": [labels[r] for r in d["row"]]}
        per_line = {f"line {sites[s]['line']}: {sites[s]['array']} {sites[s]['kind']}": n
                    for s, n in sorted(ex["active_lanes"].items())}
        g.y_range.factors = list(per_line)
        lines.data = {"label": list(per_line), "lanes": list(per_line.values())}
        partial = sum(1 for m in w["mask"] if m != (1 << ex["wave_size"]) - 1)
        return [("kernel", k.name),
                ("wave", f"{wave.value}: {len(w['mask'])} memory instructions, {partial} "
                         f"with lanes switched off"),
                *[(name, f"{n:.1f} of {ex['wave_size']} lanes active on average")
                  for name, n in per_line.items()]]

    return View("Divergence (EXEC masks)", {"masks": f, "lines": g},
                {"cells": cells, "lines": lines}, {"kernel": pick, "wave": wave}, update)
