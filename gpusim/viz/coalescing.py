"""``viz.coalescing``: which cache lines the 64 lanes of one memory instruction touch.

For a global load or store (picked by source line), the lanes of the record's example
wavefront are mapped to the vL1D lines their bytes fall in, numbered in order of the
first lane touching each: the coalescer's requests (``gpusim.memsim.coalescer``). A
second plot shows how many bytes of each line the instruction uses. The model's
requests per instruction over all waves of that line are in the summary.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from bokeh.models import ColumnDataSource
from bokeh.palettes import Category10_10
from bokeh.plotting import figure

from gpusim.viz.base import Summary, View
from gpusim.viz.inputs import KernelSite, spec_of, traced_kernels


def lanes_to_lines(addr: Any, active: Any, bytes_per_lane: int, line: int) -> dict[str, list]:
    """Per touched (lane, line): ``lane``, ``line`` (request number, first touch first),
    ``offset`` (line address); per line: ``used`` bytes of it.

    >>> d = lanes_to_lines(np.arange(64) * 8, [True] * 64, 4, 128)   # stride-2 floats
    >>> len(d["used"]), d["used"]
    (4, [64, 64, 64, 64])
    """
    addr, active = np.asarray(addr, np.int64), np.asarray(active, bool)
    lanes, lines, used = [], [], {}
    for lane in np.flatnonzero(active):
        a = int(addr[lane])
        for ln in range(a // line, (a + bytes_per_lane - 1) // line + 1):
            lanes.append(int(lane))
            lines.append(ln)
            lo, hi = max(a, ln * line), min(a + bytes_per_lane, (ln + 1) * line)
            used.setdefault(ln, set()).update(range(lo, hi))
    order = {ln: i for i, ln in enumerate(dict.fromkeys(lines))}
    return {"lane": lanes, "line": [order[ln] for ln in lines],
            "offset": [ln * line for ln in lines], "used": [len(used[ln]) for ln in order]}


def coalescing(records: Any, line: int | None = None, *, array: str | None = None,
               kernel: int = 0) -> View:
    """Lanes to cache lines for a global memory instruction (module docstring):
    ``line`` / ``array``: its source line and the array it accesses (default: the first
    global access), ``kernel``: which traced kernel of ``records`` to show first.

    >>> import numpy as np, gpusim
    >>> from gpusim import hip
    >>> @hip.jit
    ... def copy2(a, b):
    ...     i = hip.grid(1)
    ...     b[i] = a[2 * i % a.size]
    >>> a = hip.to_device(np.ones(4096, np.float32)); b = hip.device_array_like(a)
    >>> with gpusim.profile(memory=True) as prof:
    ...     copy2[16, 256](a, b)
    >>> v = coalescing(prof, array="a")                # the load of a[2 * i % a.size]
    >>> dict(v.summary)["example wave"]
    'wave 0: 64 active lanes -> 4 line requests'
    """
    choice = KernelSite(traced_kernels(records, "coalescing"), "global", line, "coalescing",
                        kernel, array)
    touch = ColumnDataSource({"lane": [], "line": [], "offset": [], "color": []})
    per_line = ColumnDataSource({"line": [], "used": []})
    f = figure(title="lanes -> cache lines", height=320, width=620, toolbar_location=None,
               tooltips=[("lane", "@lane"), ("line", "@line"), ("address", "@offset{0x}")])
    f.rect("lane", "line", 0.9, 0.9, source=touch, color="color")
    f.xaxis.axis_label, f.yaxis.axis_label = "lane", "request (line, first touch first)"
    g = figure(title="bytes used of each line", height=320, width=320,
               toolbar_location=None)
    g.vbar("line", top="used", width=0.8, source=per_line)
    g.xaxis.axis_label, g.yaxis.axis_label = "request", "bytes used"

    def update() -> Summary:
        k, site = choice.current()
        spec, ex = spec_of(k), site["example"]
        g.title.text = f"bytes used of each {spec.l1_line_bytes} B line"
        d = lanes_to_lines(ex["addr"], ex["active"], site["bytes_per_lane"], spec.l1_line_bytes)
        colors = [Category10_10[i % 10] for i in d["line"]]
        touch.data = {"lane": d["lane"], "line": d["line"], "offset": d["offset"],
                      "color": colors}
        per_line.data = {"line": list(range(len(d["used"]))), "used": d["used"]}
        moved = len(d["used"]) * spec.l1_line_bytes
        return [("kernel", k.name),
                ("instruction", f"line {site['line']}: {site['text']} ({site['array']} "
                                f"{site['kind']}, {site['bytes_per_lane']} B per lane)"),
                ("example wave", f"wave {ex['wave']}: {sum(ex['active'])} active lanes -> "
                                 f"{len(d['used'])} line requests"),
                ("bytes used / moved", f"{sum(d['used'])} / {moved}"),
                ("all waves (model)", f"{site['requests_per_instruction']:.3g} requests per "
                                      f"instruction, efficiency {site['efficiency']:.0%}")]

    return View("Coalescing", {"lanes": f, "lines": g}, {"touch": touch, "per_line": per_line},
                {"kernel": choice.kernel, "instruction": choice.site}, update)
