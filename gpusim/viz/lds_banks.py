"""``viz.lds_banks``: lanes x banks of one LDS instruction, conflicts highlighted.

For an LDS load or store (picked by source line), each active lane of the record's
example wavefront is drawn at the banks its bytes fall in (dword ``a // 4`` lives in
bank ``(a // 4) % 32`` on CDNA). Lanes are served in phases (half a wavefront for
32-bit accesses; ``gpusim.memsim.lds`` gives each lane's phase, stored in the record);
lanes of one phase that need *different* dwords of one bank conflict (red), the same
dword is a broadcast. The degree is the most distinct dwords one bank must serve in a
phase. Given two kernels (or ``compare=``), e.g. a tile without and with padding, the
two are drawn side by side.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from bokeh.models import ColumnDataSource, Range1d
from bokeh.plotting import figure

from gpusim.viz.base import Summary, View
from gpusim.viz.inputs import KernelSite, site_options, spec_of, traced_kernels

OK, CONFLICT = "#2ca02c", "#d62728"


def lane_banks(addr: Any, active: Any, phase: Any, bytes_per_lane: int, banks: int = 32,
               bank_width: int = 4) -> dict[str, Any]:
    """Per (lane, dword) touched: ``lane``, ``bank``, ``phase``, ``conflict`` (its bank
    serves other dwords in that phase too); ``degree``: the worst bank's distinct dwords.

    >>> lanes = np.arange(64)
    >>> lane_banks(lanes * 32 * 4, [True] * 64, lanes // 32, 4)["degree"]  # column of [64][32]
    32
    >>> lane_banks(lanes * 33 * 4, [True] * 64, lanes // 32, 4)["degree"]  # padded to [64][33]
    1
    """
    lanes_out, bank_out, phase_out, dword_out = [], [], [], []
    for lane in np.flatnonzero(np.asarray(active, bool)):
        a = int(addr[lane])
        for dword in range(a // bank_width, (a + bytes_per_lane - 1) // bank_width + 1):
            lanes_out.append(int(lane))
            dword_out.append(dword)
            bank_out.append(dword % banks)
            phase_out.append(int(phase[lane]))
    served: dict[tuple[int, int], set[int]] = {}
    for p, b, d in zip(phase_out, bank_out, dword_out, strict=True):
        served.setdefault((p, b), set()).add(d)
    conflict = [len(served[(p, b)]) > 1 for p, b in zip(phase_out, bank_out, strict=True)]
    per_bank = [max((len(v) for (p, b), v in served.items() if b == bank), default=0)
                for bank in range(banks)]
    return {"lane": lanes_out, "bank": bank_out, "phase": phase_out, "conflict": conflict,
            "per_bank": per_bank, "degree": max(per_bank, default=0)}


def _panel(choice: KernelSite, name: str) -> tuple[dict, dict, Any]:
    cells = ColumnDataSource({"lane": [], "bank": [], "phase": [], "color": []})
    worst = ColumnDataSource({"bank": [], "dwords": [], "color": []})
    f = figure(title=name, height=420, width=420, toolbar_location=None,
               x_range=Range1d(-0.5, 31.5), y_range=Range1d(63.5, -0.5),  # lane 0 on top
               tooltips=[("lane", "@lane"), ("bank", "@bank"), ("phase", "@phase")])
    f.rect("bank", "lane", 0.9, 0.9, source=cells, color="color")
    f.xaxis.axis_label, f.yaxis.axis_label = "bank", "lane"
    g = figure(title="distinct dwords per bank (worst phase)", height=180, width=420,
               toolbar_location=None)
    g.vbar("bank", top="dwords", width=0.8, color="color", source=worst)

    def update() -> Summary:
        k, site = choice.current()
        spec, ex = spec_of(k), site["example"]
        d = lane_banks(ex["addr"], ex["active"], ex["phase"], site["bytes_per_lane"],
                       spec.lds_banks, spec.lds_bank_width_bytes)
        cells.data = {"lane": d["lane"], "bank": d["bank"], "phase": d["phase"],
                      "color": [CONFLICT if c else OK for c in d["conflict"]]}
        worst.data = {"bank": list(range(spec.lds_banks)), "dwords": d["per_bank"],
                      "color": [CONFLICT if n > 1 else OK for n in d["per_bank"]]}
        f.title.text = f"{name}: {k.name}, line {site['line']}"
        f.x_range.end, f.y_range.start = spec.lds_banks - 0.5, len(ex["addr"]) - 0.5
        return [(f"{name} instruction", f"{k.name} line {site['line']}: {site['text']} "
                                        f"({site['kind']})"),
                (f"{name} conflict degree", f"{d['degree']}-way (example wave "
                                            f"{ex['wave']})"),
                (f"{name} all waves (model)", f"max degree {site['max_degree']}, "
                                              f"{site['bank_conflict_cycles']} extra cycles")]

    controls = {f"{name} kernel": choice.kernel, f"{name} instruction": choice.site}
    return {f"{name} lanes": f, f"{name} banks": g}, {name: cells, f"{name} worst": worst}, \
        (controls, update)


def lds_banks(records: Any, line: int | None = None, *, compare: Any = None,
              compare_line: int | None = None, kernel: int = 0) -> View:
    """Lanes x banks of an LDS instruction (module docstring); ``line``: its source line,
    ``kernel``: which traced kernel of ``records`` to show first.
    A second kernel with LDS accesses in ``records`` (or ``compare``) is drawn beside.

    >>> import numpy as np, gpusim
    >>> from gpusim import hip
    >>> @hip.jit
    ... def column(out):
    ...     tile = hip.shared.array((64, 32), np.float32)
    ...     tile[hip.threadIdx.x, 0] = np.float32(1.0)     # a column: one bank
    ...     out[hip.threadIdx.x] = tile[hip.threadIdx.x, 0]
    >>> out = hip.device_array(64, np.float32)
    >>> with gpusim.profile(memory=True) as prof:
    ...     column[1, 64](out)
    >>> dict(lds_banks(prof).summary)["A conflict degree"]
    '32-way (example wave 0)'
    """
    kernels = traced_kernels(records, "lds_banks")
    panels = [KernelSite(kernels, "lds", line, "lds_banks", kernel)]
    others = (traced_kernels(compare, "lds_banks") if compare is not None else
              [k for k in kernels if k is not panels[0].kernels[panels[0].kernel.value]])
    others = [k for k in others if site_options(k, "lds")]
    if others:
        nth = [i for _, i in site_options(panels[0].kernels[panels[0].kernel.value], "lds")]
        second = KernelSite(others, "lds", compare_line, "lds_banks")
        opts = [i for _, i in site_options(others[0], "lds")]
        if compare_line is None and nth.index(panels[0].site.value) < len(opts):
            second.site.value = opts[nth.index(panels[0].site.value)]  # same n-th access
        panels.append(second)
    figures, sources, controls, updates = {}, {}, {}, []
    for name, choice in zip(("A", "B"), panels, strict=False):
        f, s, (c, u) = _panel(choice, name)
        figures.update(f)
        sources.update(s)
        controls.update(c)
        updates.append(u)

    def update() -> Summary:
        return [row for u in updates for row in u()]

    layout = [[n for n in figures if n.endswith("lanes")], [n for n in figures if
                                                             n.endswith("banks")]]
    return View("LDS bank conflicts", figures, sources, controls, update, layout=layout)

