"""``View``: one live view = controls + Bokeh figures + a text summary, as a widget.

Every view in this package is a ``View``: an ipywidgets ``VBox`` holding its controls
(sliders, dropdowns) and one jupyter_bokeh ``BokehModel`` with its Bokeh figures. The
figures draw from ``ColumnDataSource`` objects; moving a control calls the view's
``update`` function, which assigns new ``.data`` to those sources and rewrites the
summary. Nothing is re-created, so the front end only receives the changed columns.

BokehJS comes from the jupyter_bokeh JupyterLab extension (installed with the Python
package), so views work offline and on Binder without a CDN.

Outside a notebook front end (a console, nbval, a test) a view is plain text:
``repr(view)`` and the ``text/plain`` of its display are the title and ``summary``,
deterministic for the same records, and ``text/html`` is the same summary as a table.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
from bokeh.layouts import column, row
from bokeh.models import ColumnDataSource
from jupyter_bokeh import BokehModel

from gpusim.errors import GpusimError

Summary = list[tuple[str, str]]


class ViewError(GpusimError, ValueError):
    """A view was given something it cannot draw (says what to pass instead)."""


class View(widgets.VBox):
    """A live view (module docstring). ``sources``/``figures``/``controls`` by name."""

    def __init__(self, title: str, figures: dict[str, Any], sources: dict[str, ColumnDataSource],
                 controls: dict[str, widgets.Widget], update: Callable[[], Summary],
                 layout: Sequence[Sequence[str]] | None = None) -> None:
        self.title, self.figures, self.sources, self.controls = title, figures, sources, controls
        self._update = update
        self._refreshing = False
        rows = layout or [list(figures)]
        plots = column([row([figures[name] for name in r]) for r in rows])
        self.plot = BokehModel(plots)
        self._summary_html = widgets.HTML()
        self.summary: Summary = []
        self.refresh()
        for control in controls.values():
            control.observe(lambda _change: self.refresh(), names="value")
        header = widgets.HTML(f"<b>{html.escape(title)}</b>")
        bar = widgets.HBox(list(controls.values()), layout=widgets.Layout(flex_flow="row wrap"))
        super().__init__([header, bar, self.plot, self._summary_html])

    def refresh(self) -> None:
        """Recompute the sources and the summary from the controls' current values.
        (An update may move controls itself, e.g. new slider ranges for another device;
        those moves do not start another refresh.)"""
        if self._refreshing:
            return
        self._refreshing = True
        try:
            self.summary = self._update()
            self._summary_html.value = summary_html(self.summary)
        finally:
            self._refreshing = False

    def text(self) -> str:
        """Title and summary as plain text (what a console shows)."""
        width = max((len(k) for k, _ in self.summary), default=0)
        return "\n".join([self.title] + [f"  {k:<{width}}  {v}" for k, v in self.summary])

    def __repr__(self) -> str:
        return self.text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self.text()  # ipywidgets would cut it at 110 characters
        bundle["text/html"] = f"<b>{html.escape(self.title)}</b>" + summary_html(self.summary)
        return bundle


def summary_html(summary: Summary) -> str:
    cells = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>"
                    for k, v in summary)
    return f"<table>{cells}</table>"


def dropdown(description: str, options: Sequence[Any], value: Any = None) -> widgets.Dropdown:
    """A labelled dropdown; ``options`` as (label, value) pairs or plain values."""
    opts = list(options)
    values = [o[1] if isinstance(o, tuple) else o for o in opts]
    if value is not None and value not in values:
        raise ViewError(f"{description} {value!r} is not one of {values}")
    return widgets.Dropdown(description=description, options=opts,
                            value=values[0] if value is None and values else value,
                            style={"description_width": "initial"})


def int_slider(description: str, value: int, lo: int, hi: int, step: int = 1) -> widgets.IntSlider:
    """A labelled integer slider that updates while dragging (views are fast enough)."""
    return widgets.IntSlider(description=description, value=value, min=lo, max=hi, step=step,
                             continuous_update=True, style={"description_width": "initial"},
                             layout=widgets.Layout(width="320px"))
