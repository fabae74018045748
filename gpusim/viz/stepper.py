"""``viz.stepper``: step a recorded work-group wavefront by wavefront (``gpusim.debug``).

Controls: the wave, and the step (a slider, with buttons one step back or forward, to
the next step where lanes are switched off, to the next barrier, and to the next step
of a chosen line). Figures: the kernel's source with the step's line marked; the EXEC
mask as one cell per lane; a table of every lane's variables after the step, and the
element each lane last read or wrote (* at this step); the LDS, one cell per word
coloured by the wave whose thread last wrote it. When the sanitizer found races or
uninitialised reads in the launch (``gpusim.debug`` runs it first), a dropdown picks
one: its two lines are marked and the view jumps to the step where its first access
runs. The summary (what a console and nbval see) says which line ran, on how many
lanes, and at a barrier which waves have arrived. Data: a ``Recording`` (``gpusim.debugger.steps``).
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets
from bokeh.models import ColumnDataSource
from bokeh.plotting import figure

from gpusim.viz.base import Summary, View, ViewError, dropdown, int_slider

ON, OFF, MARK, RACE = "#1f77b4", "#eeeeee", "#ffe08a", "#f4a582"
WAVES = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
         "#7f7f7f"]  # a colour per wave (Bokeh's Category10)


def stepper(recording: Any, wave: int = 0) -> View:
    """A view of ``recording`` (what ``gpusim.debug`` records), starting at ``wave``.

    >>> from gpusim.debugger.steps import Recording, Step
    >>> import numpy as np
    >>> steps = [Step(0, 0, 2, "stmt", np.ones(4, bool), {k: {"x": k} for k in range(4)}),
    ...          Step(1, 0, 3, "stmt", np.array([1, 0, 1, 0], bool), {0: {"y": 1}})]
    >>> rec = Recording("k", (0, 0, 0), 4, 4, steps, ["def k():", "  x = 1", "  y = 2"], 1, {})
    >>> v = stepper(rec)
    >>> v.controls["step"].value = 1
    >>> dict(v.summary)["line"], dict(v.summary)["EXEC"]
    ('3: y = 2', '2 of 4 lanes (lanes switched off)')
    """
    if not hasattr(recording, "steps") or not recording.steps:
        raise ViewError("stepper: pass what gpusim.debug(kernel[grid, block], *args) "
                        "recorded (a Recording with at least one step)")
    rec = recording
    waves = sorted({s.wave for s in rec.steps})
    pick = dropdown("wave", waves, wave if wave in waves else None)
    step = int_slider("step", 0, 0, max(0, len(rec.wave_steps(pick.value)) - 1))
    found = dropdown("sanitizer", [("-", -1)] + [(_finding_label(f), k)
                                                  for k, f in enumerate(rec.findings)])
    # the user's variables (the compiler's temporaries start with "_")
    names = sorted({n for s in rec.steps for v in s.values.values() for n in v
                    if not n.startswith("_")})
    src = ColumnDataSource({"y": [], "text": [], "color": []})
    code = figure(title=f"kernel {rec.kernel}, work-group {rec.block}", height=24 * len(
        rec.source) + 60, width=560, toolbar_location=None, x_range=(0, 1),
        y_range=(len(rec.source) - 0.5, -0.5))
    code.rect(0.5, "y", 1, 1, source=src, color="color")
    code.text(0.01, "y", "text", source=src, text_font="monospace", text_font_size="12px",
              text_baseline="middle")
    code.axis.visible = code.grid.visible = False
    lanes = ColumnDataSource({"lane": [], "color": []})
    mask = figure(title="EXEC mask (lanes that run this step)", height=110, width=560,
                  toolbar_location=None, tooltips=[("lane", "@lane")])
    mask.rect("lane", 0, 0.9, 0.9, source=lanes, color="color")
    mask.yaxis.visible = mask.grid.visible = False
    # an HTML table beside the figures: Bokeh's DataTable needs a JS bundle (bokeh-tables)
    # that the views' inline loader does not bring
    table = widgets.HTML(layout=widgets.Layout(max_height="320px", overflow="auto"))
    words = ColumnDataSource({"x": [], "y": [], "color": [], "writer": [], "word": []})
    rows = max(1, -(-sum(rec.lds.values()) // 32))
    lds = figure(title="LDS: the thread that last wrote each word (32 banks a row)",
                 height=60 + 14 * min(rows, 64), width=560, toolbar_location=None,
                 tooltips=[("word", "@word"), ("last writer", "@writer")])
    lds.rect("x", "y", 0.9, 0.9, source=words, color="color")
    lds.y_range.flipped = True

    def current() -> Any:
        mine = rec.wave_steps(pick.value)
        step.max = max(0, len(mine) - 1)
        return mine[min(step.value, len(mine) - 1)]

    def update() -> Summary:
        s = current()
        f = rec.findings[found.value] if found.value >= 0 else None
        race = {} if f is None else {a.line: RACE for a in (f.first, f.second) if a}
        src.data = {"y": list(range(len(rec.source))),
                    "text": [f"{rec.first_line + k:4d}  {t.rstrip()}"
                             for k, t in enumerate(rec.source)],
                    "color": [MARK if rec.first_line + k == s.line else
                              race.get(rec.first_line + k, "white")
                              for k in range(len(rec.source))]}
        lanes.data = {"lane": list(range(rec.wave_size)),
                      "color": [ON if on else OFF for on in s.exec]}
        table.value = _lanes_table(rec, s, names)
        words.data = _lds_cells(rec, s.index)
        on = int(s.exec.sum())
        text = rec.source[s.line - rec.first_line].strip() if 0 <= s.line - rec.first_line < len(
            rec.source) else ""
        out = [("step", f"{step.value + 1} of {step.max + 1} of wave {pick.value} "
                        f"({len(rec.steps)} recorded, budget {rec.budget:,})"),
               ("line", f"{s.line}: {text}"),
               ("EXEC", f"{on} of {rec.wave_size} lanes" + (
                   " (lanes switched off)" if on < rec.wave_size else ""))]
        if f is not None:
            out.append(("sanitizer", f.summary().splitlines()[0]))
        if s.kind == "barrier":
            arrived = [t.wave for t in rec.steps if t.kind == "barrier" and
                       t.instance == s.instance and t.index <= s.index]
            out.append(("barrier", f"waves arrived: {arrived} of {waves}"))
        return out

    figures = {"code": code, "mask": mask, "lds": lds}
    layout = [["code"], ["mask"]] + ([["lds"]] if rec.lds else [])
    view = View(f"Stepping kernel {rec.kernel}", figures,
                {"code": src, "lanes": lanes, "lds": words},
                {"wave": pick, "step": step, "sanitizer": found}, update, layout=layout)
    view.recording = rec

    def jump(_change: Any) -> None:  # to the step of the finding's first access
        at = rec.finding_step(rec.findings[found.value]) if found.value >= 0 else None
        if at is not None:
            pick.value = rec.steps[at].wave
            step.value = [t.index for t in rec.wave_steps(pick.value)].index(at)

    found.observe(jump, names="value")
    view.table = table
    view.children = (*view.children[:2], _buttons(rec, pick, step), view.children[2], table,
                     *view.children[3:])
    return view


def _finding_label(f: Any) -> str:
    """``LDS race on s[65]: lines 8/9``: a sanitizer finding in the dropdown."""
    element = f"{f.array}[{', '.join(map(str, f.index))}]"
    return f"{f.kind} on {element}: line{'s' if len(f.lines) > 1 else ''} " + "/".join(
        map(str, f.lines))


def _lds_cells(rec: Any, step: int) -> dict[str, list]:
    """One cell per LDS word (all LDS arrays one after another, 32 to a row), coloured
    by the wave of the thread that last wrote it (grey: not written yet)."""
    cells: dict[str, list] = {"x": [], "y": [], "color": [], "writer": [], "word": []}
    at = 0
    for name, writers in rec.lds_writers(step).items():
        for k, t in enumerate(writers[:64 * 32]):  # the first 64 rows at most
            cells["x"].append((at + k) % 32)
            cells["y"].append((at + k) // 32)
            cells["color"].append(OFF if t < 0 else WAVES[(t // rec.wave_size) % len(WAVES)])
            cells["writer"].append("-" if t < 0 else f"thread {t} (wave {t // rec.wave_size})")
            cells["word"].append(f"{name}[{k}]")
        at += len(writers)
    return cells


def _buttons(rec: Any, pick: widgets.Dropdown, step: widgets.IntSlider) -> widgets.HBox:
    """Back, forward, next divergence, next barrier, run to a line: each moves the step
    slider to the next step of this wave that matches."""

    def go(find: Any) -> Any:
        def click(_button: Any) -> None:
            mine = rec.wave_steps(pick.value)
            later = [k for k in range(step.value + 1, len(mine)) if find(mine[k])]
            if later:
                step.value = later[0]
        return click

    back = widgets.Button(description="◀ step")
    back.on_click(lambda _b: setattr(step, "value", max(0, step.value - 1)))
    lines = sorted({s.line for s in rec.steps})
    line = widgets.Dropdown(options=lines, value=lines[0], layout=widgets.Layout(width="80px"))
    moves = [back]
    for label, find in (("step ▶", lambda s: True),
                        ("next divergence", lambda s: not s.exec.all()),
                        ("next barrier", lambda s: s.kind == "barrier"),
                        ("run to line", lambda s: s.line == line.value)):
        button = widgets.Button(description=label)
        button.on_click(go(find))
        moves.append(button)
    return widgets.HBox([*moves, line])


def _lanes_table(rec: Any, s: Any, names: list[str]) -> str:
    """Every lane of the step's wave: its variables after the step (blank before the lane
    assigns one), the element it last read or wrote (marked * when at this step); lanes
    with EXEC off greyed."""
    held, last = rec.lanes(s.index), rec.last_access(s.index)
    head = "".join(f"<th>{html.escape(n)}</th>" for n in ["#", *names, "last read / wrote"])
    rows = []
    for k in range(rec.wave_size):
        now = "*" if k in s.access else ""
        cells = [str(k), *("" if (v := held.get(n, [None] * rec.wave_size)[k]) is None
                           else str(v) for n in names), _element(rec, last.get(k)) + now]
        style = "" if s.exec[k] else ' style="color:#aaa"'
        rows.append(f"<tr{style}>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells)
                    + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _element(rec: Any, access: tuple | None) -> str:
    """``a[3] read`` for a lane's access at this step."""
    if access is None:
        return ""
    site, kind, index = access
    what = ("read", "wrote", "updated", "atomic")[kind]
    return f"{rec.sites.get(site, ('?', ''))[0]}[{', '.join(map(str, index))}] {what}"
