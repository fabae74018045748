"""``viz.memory_chart``: the ROCm Compute Profiler memory chart of one kernel.

Boxes for the instruction mix, waves, LDS, vL1D, L2, the Infinity Fabric with the
Infinity Cache (MALL: the box rocprofiler-compute's chart lacks) and HBM, with the
requests, bytes and hit rates of each and arrows carrying the request counts between
them, all from the record's rocprof-named counters (``record.counters``; launch totals,
scaled when the trace was sampled) and hit rates from the memory model
(``record.memory["levels"]``). A dropdown picks the kernel when given several.
"""

from __future__ import annotations

from typing import Any

from bokeh.models import Arrow, ColumnDataSource, NormalHead
from bokeh.plotting import figure

from gpusim.profiler import KernelRecord
from gpusim.profiler.format import format_bytes, percent
from gpusim.viz.base import Summary, View, dropdown
from gpusim.viz.inputs import kernel_label, traced_kernels

# Box name -> (x centre, y centre, width, height) on a 100 x 60 canvas.
BOXES = {"Instructions": (12, 40, 20, 30), "Waves": (12, 10, 20, 16), "LDS": (40, 48, 20, 16),
         "vL1D": (40, 22, 20, 20), "L2": (63, 22, 18, 20),
         "Fabric / MALL": (83, 40, 16, 18), "HBM": (83, 10, 16, 14)}
ARROWS = [("Instructions", "LDS"), ("Instructions", "vL1D"), ("vL1D", "L2"),
          ("L2", "Fabric / MALL"), ("Fabric / MALL", "HBM")]


def _get(c: dict[str, float], *names: str) -> float:
    """The first counter present among architecture variants (TCC_ vs GL2C_ names)."""
    return next((c[n] for n in names if n in c), 0)


def chart_data(k: KernelRecord) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Box lines and arrow labels of one traced kernel (what the figure shows)."""
    c, m = k.counters, k.memory
    hit = {n: v["hit_rate"] for n, v in m["levels"].items()}
    l2_req = _get(c, "TCC_REQ_sum", "GL2C_HIT_sum")
    if "GL2C_HIT_sum" in c:
        l2_req = c["GL2C_HIT_sum"] + c["GL2C_MISS_sum"]
    ea_rd = _get(c, "TCC_EA0_RDREQ_sum", "TCC_EA_RDREQ_sum", "GL2C_EA_RDREQ_128B_sum")
    ea_wr = _get(c, "TCC_EA0_WRREQ_sum", "TCC_EA_WRREQ_sum", "GL2C_EA_WRREQ_sum")
    mall = (c.get("GPUSIM_MALL_HIT", 0), c.get("GPUSIM_MALL_MISS", 0))
    boxes = {
        "Instructions": [f"VALU {c['SQ_INSTS_VALU']:,}", f"SALU {c['SQ_INSTS_SALU']:,}",
                         f"SMEM {c['SQ_INSTS_SMEM']:,}", f"VMEM rd {c['SQ_INSTS_VMEM_RD']:,}",
                         f"VMEM wr {c['SQ_INSTS_VMEM_WR']:,}", f"LDS {c['SQ_INSTS_LDS']:,}",
                         f"FLOPs {c.get('GPUSIM_FLOPS', 0):,}"],
        "Waves": [f"waves {c['SQ_WAVES']:,}", f"occupancy {percent(k.occupancy)}",
                  f"workgroups {m['total_workgroups']:,}"],
        "LDS": [f"bank conflicts {c['SQ_LDS_BANK_CONFLICT']:,} cyc",
                f"active {c['SQ_LDS_IDX_ACTIVE']:,} cyc"],
        "vL1D": [f"requests {c['TCP_TOTAL_CACHE_ACCESSES_sum']:,}",
                 f"hit rate {percent(hit.get('vL1D'))}",
                 f"{m['requests_per_instruction']:.3g} req/instr",
                 f"coalescing {percent(c['GPUSIM_COALESCING_EFFICIENCY'])}"],
        "L2": [f"requests {l2_req:,}", f"hit rate {percent(hit.get('L2'))}",
               f"hits {_get(c, 'TCC_HIT_sum', 'GL2C_HIT_sum'):,}",
               f"misses {_get(c, 'TCC_MISS_sum', 'GL2C_MISS_sum'):,}"],
        "Fabric / MALL": [f"rd req {ea_rd:,}", f"wr req {ea_wr:,}",
                          f"MALL hit rate {percent(hit['MALL']) if 'MALL' in hit else 'none'}",
                          f"MALL hits {mall[0]:,}"],
        "HBM": [f"read {format_bytes(c['GPUSIM_HBM_READ_BYTES'])}",
                f"written {format_bytes(c['GPUSIM_HBM_WRITE_BYTES'])}"],
    }  # fmt: skip
    arrows = {
        ("Instructions", "LDS"): f"{c['SQ_INSTS_LDS']:,} instr",
        ("Instructions", "vL1D"): f"{c['SQ_INSTS_VMEM_RD'] + c['SQ_INSTS_VMEM_WR']:,} instr",
        ("vL1D", "L2"): f"{_get(c, 'TCP_TCC_READ_REQ_sum'):,} rd / "
                        f"{_get(c, 'TCP_TCC_WRITE_REQ_sum'):,} wr",
        ("L2", "Fabric / MALL"): f"{ea_rd:,} rd / {ea_wr:,} wr",
        ("Fabric / MALL", "HBM"): format_bytes(c["GPUSIM_HBM_READ_BYTES"]
                                               + c["GPUSIM_HBM_WRITE_BYTES"]),
    }
    return boxes, {f"{a} -> {b}": v for (a, b), v in arrows.items()}


def memory_chart(records: Any, kernel: int = 0) -> View:
    """The memory chart (module docstring) of a traced kernel, or of each of a profile's.

    >>> import numpy as np, gpusim
    >>> from gpusim import hip
    >>> @hip.jit
    ... def copy(a, b):
    ...     i = hip.grid(1)
    ...     b[i] = a[i]
    >>> a = hip.to_device(np.ones(4096, np.float32)); b = hip.device_array_like(a)
    >>> with gpusim.profile(memory=True) as prof:
    ...     copy[16, 256](a, b)
    >>> dict(memory_chart(prof).summary)["vL1D"]
    'requests 256, hit rate 0%, 2 req/instr, coalescing 100%'
    """
    kernels = traced_kernels(records, "memory_chart")
    pick = dropdown("kernel", [(kernel_label(i, k), i) for i, k in enumerate(kernels)], kernel)
    names = list(BOXES)
    box_src = ColumnDataSource({"x": [], "y": [], "top": [], "body_top": [], "w": [], "h": [],
                                "name": [], "body": []})
    arrow_src = ColumnDataSource({"x0": [], "y0": [], "x1": [], "y1": [], "xm": [], "ym": [],
                                  "label": []})
    f = figure(x_range=(0, 100), y_range=(0, 60), width=900, height=500,
               toolbar_location=None, title="memory chart")
    f.axis.visible = False
    f.grid.visible = False
    f.rect("x", "y", "w", "h", source=box_src, fill_color="#eef3fb", line_color="#1f4e9c")
    f.text("x", "top", text="name", source=box_src, text_font_style="bold",
           text_align="center", text_baseline="top", text_font_size="11pt")
    f.text("x", "body_top", text="body", source=box_src, text_align="center",
           text_baseline="top", text_font_size="9pt", text_line_height=1.3)
    f.add_layout(Arrow(end=NormalHead(size=8), source=arrow_src, x_start="x0", y_start="y0",
                       x_end="x1", y_end="y1", line_color="#555555"))
    f.text("xm", "ym", text="label", source=arrow_src, text_font_size="8pt",
           text_align="center", text_color="#333333")

    def _edge(a: str, b: str) -> tuple[float, float, float, float]:
        (ax, ay, aw, ah), (bx, by, bw, bh) = BOXES[a], BOXES[b]
        if abs(ax - bx) > 1:  # side to side
            return ax + aw / 2, ay, bx - bw / 2, by
        return ax, ay - ah / 2, bx, by + bh / 2 if by < ay else by - bh / 2

    def update() -> Summary:
        boxes, arrows = chart_data(kernels[pick.value])
        box_src.data = {
            "x": [BOXES[n][0] for n in names],
            "y": [BOXES[n][1] for n in names],
            "top": [BOXES[n][1] + BOXES[n][3] / 2 - 0.5 for n in names],
            "body_top": [BOXES[n][1] + BOXES[n][3] / 2 - 3.5 for n in names],
            "w": [BOXES[n][2] for n in names], "h": [BOXES[n][3] for n in names],
            "name": names, "body": ["\n".join(boxes[n]) for n in names]}
        edges = [_edge(a, b) for a, b in ARROWS]
        arrow_src.data = {"x0": [e[0] for e in edges], "y0": [e[1] for e in edges],
                          "x1": [e[2] for e in edges], "y1": [e[3] for e in edges],
                          "xm": [(e[0] + e[2]) / 2 for e in edges],
                          "ym": [(e[1] + e[3]) / 2 + 1 for e in edges],
                          "label": list(arrows.values())}
        return ([(n, ", ".join(boxes[n])) for n in names]
                + [(a, v) for a, v in arrows.items()])

    return View("Memory chart", {"chart": f}, {"boxes": box_src, "arrows": arrow_src},
                {"kernel": pick}, update)
