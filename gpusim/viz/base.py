"""``View``: one live view = controls + Bokeh figures + a text summary, as a widget.

Every view in this package is a ``View``: an ipywidgets ``VBox`` holding its controls
(sliders, dropdowns) and one jupyter_bokeh ``BokehModel`` with its Bokeh figures. The
figures draw from ``ColumnDataSource`` objects; moving a control calls the view's
``update`` function, which assigns new ``.data`` to those sources and rewrites the
summary. Nothing is re-created, so the front end only receives the changed columns.

BokehJS itself must be in the page before a ``BokehModel`` renders (jupyter_bokeh's
extension calls ``window.Bokeh``). Views bring it without a network: before each view
is displayed in a notebook, one shared ``ipywidgets.Output`` holding Bokeh's inline
loader (``bokehjs_load`` output, run by the jupyter_bokeh extension) is displayed. Its
1.3 MB of BokehJS travel over the kernel's widget channel once per kernel, not into the
notebook file (nor to nbval, which skips widget views); re-displaying the same widget
sends only its id, and a reloaded page runs it again from the kernel's copy.

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
    """A view was given something it cannot draw (says what to pass instead).

    >>> issubclass(ViewError, ValueError)
    True"""


class View(widgets.VBox):
    """A live view (module docstring). ``sources``/``figures``/``controls`` by name.

    >>> from bokeh.plotting import figure
    >>> fig, src = figure(), ColumnDataSource({"x": [], "y": []})
    >>> fig.line("x", "y", source=src)  # doctest: +ELLIPSIS
    GlyphRenderer(...)
    >>> n = int_slider("n", 2, 1, 9)
    >>> def update():
    ...     src.data = {"x": [0, 1], "y": [0, n.value]}
    ...     return [("slope", str(n.value))]
    >>> v = View("Line", {"line": fig}, {"line": src}, {"n": n}, update)
    >>> n.value = 5
    >>> print(v)
    Line
      slope  5
    >>> src.data["y"]
    [0, 5]"""

    def __init__(self, title: str, figures: dict[str, Any], sources: dict[str, ColumnDataSource],
                 controls: dict[str, widgets.Widget], update: Callable[[], Summary],
                 layout: Sequence[Sequence[str]] | None = None) -> None:
        self.title, self.figures, self.sources, self.controls = title, figures, sources, controls
        self._update = update
        self._refreshing = False
        rows = layout or [list(figures)]
        plots = column([row([figures[name] for name in r]) for r in rows])
        self._summary_html = widgets.HTML()
        self.summary: Summary = []
        self.refresh()  # first data before the BokehModel: it ships the document as it is
        self.plot = BokehModel(plots)
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
        _load_bokehjs()
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self.text()  # ipywidgets would cut it at 110 characters
        bundle["text/html"] = f"<b>{html.escape(self.title)}</b>" + summary_html(self.summary)
        return bundle


class _Loader(widgets.Output):
    """The BokehJS loader (module docstring); shows as nothing, prints as nothing."""

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = ""
        return bundle


_loader: _Loader | None = None


def _load_bokehjs() -> None:
    """Display the shared BokehJS loader, when running in a Jupyter kernel."""
    global _loader
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # no IPython: nothing renders widgets anyway
        return
    shell = get_ipython()
    if shell is None or type(shell).__name__ != "ZMQInteractiveShell":
        return  # a console or a script: text only
    if _loader is None:
        from bokeh.embed.bundle import bundle_for_objs_and_resources
        from bokeh.io.notebook import _loading_js  # bokeh's own loader (pinned version)
        from bokeh.resources import Resources

        bundle = bundle_for_objs_and_resources(None, Resources("inline", components=["bokeh"]))
        js = _loading_js(bundle, None, 5000, register_mime=False)
        _loader = _Loader()
        _loader.outputs = ({"output_type": "display_data", "metadata": {},
                            "data": {"application/vnd.bokehjs_load.v0+json": js}},)
    display(_loader)


def summary_html(summary: Summary) -> str:
    """A view's summary rows as an HTML table.

    >>> summary_html([("limiter", "vgpr")])
    '<table><tr><td>limiter</td><td>vgpr</td></tr></table>'
    """
    cells = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>"
                    for k, v in summary)
    return f"<table>{cells}</table>"


def dropdown(description: str, options: Sequence[Any], value: Any = None) -> widgets.Dropdown:
    """A labelled dropdown; ``options`` as (label, value) pairs or plain values.

    >>> dropdown("level", ["vL1D", "L2"]).value
    'vL1D'
    >>> dropdown("level", ["vL1D"], "L3")
    Traceback (most recent call last):
    ...
    gpusim.viz.base.ViewError: level 'L3' is not one of ['vL1D']"""
    opts = list(options)
    values = [o[1] if isinstance(o, tuple) else o for o in opts]
    if value is not None and value not in values:
        raise ViewError(f"{description} {value!r} is not one of {values}")
    return widgets.Dropdown(description=description, options=opts,
                            value=values[0] if value is None and values else value,
                            style={"description_width": "initial"})


def int_slider(description: str, value: int, lo: int, hi: int, step: int = 1) -> widgets.IntSlider:
    """A labelled integer slider that updates while dragging (views are fast enough).

    >>> int_slider("VGPRs", 64, 1, 512).max
    512"""
    return widgets.IntSlider(description=description, value=value, min=lo, max=hi, step=step,
                             continuous_update=True, style={"description_width": "initial"},
                             layout=widgets.Layout(width="320px"))
