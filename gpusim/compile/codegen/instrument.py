"""Generation modes: the hooks an instrumented mode adds to the generated code.

The fast path and every instrumented path (``"check"``: the sanitizer in
``sanitize/instrument.py``; ``"trace"``: memory traces in ``trace/instrument.py``) share one code
generator. The generator calls an ``Instrument`` at a handful of places and writes
whatever lines or expressions it returns; the fast path's ``Instrument`` returns
nothing, so its code is exactly the uninstrumented one::

    codegen.Generator --imports()-----> module header lines
                      --prologue()----> start of <kernel>__run (unpack extra arguments)
                      --block_start()-> start of each work-group
                      --after(node)---> after each schedule node (barrier, collective...)
    region.RegionWriter --region()-----> before each region (thread loop)
                                --statements()-> top of each straight-line block
                                --before_statement()/after_statement()-> around each
                                                 user statement
    expr.ExprGen --index()----> rewrite of one bounds-checked array index

A mode that needs more ``run()`` arguments appends ``(name, numba type)`` pairs to
``kir.extra_args``; they come after ``_ctl`` and the engine passes them in that order.

>>> from gpusim.compile.ir import KernelIR
>>> type(instrument_for(KernelIR(name="k", pyfunc=None))).__name__
'Instrument'
"""

from __future__ import annotations

import ast
from typing import Any

from gpusim.compile.ir import KernelIR

# mode -> "module:Class" of its Instrument (imported on first use).
MODES: dict[str, str] = {
    "fast": "gpusim.compile.codegen.instrument:Instrument",
    "check": "gpusim.compile.sanitize.instrument:CheckInstrument",
    "trace": "gpusim.trace.instrument:TraceInstrument",
    "debug": "gpusim.debugger.instrument:DebugInstrument",
}


class Instrument:
    """The fast path: no extra code anywhere. Subclasses override what they need."""

    def __init__(self, kir: KernelIR):
        self.kir = kir

    def imports(self) -> list[str]:
        """Lines for the module header (imports of the mode's device library)."""
        return []

    def prologue(self, out: Any) -> None:
        """Write lines at the start of ``<kernel>__run`` (``out`` is a ``Lines``)."""

    def block_start(self, out: Any) -> None:
        """Write lines at the start of each work-group (after ``_bx, _by, _bz``)."""

    def region(self, region: Any, out: Any) -> None:
        """Write lines before a ``Region`` (its thread loop, or its once-per-block code)."""

    def statements(self, stmts: list[ast.stmt], out: Any) -> None:
        """Write lines at the top of a straight-line list of a region's statements."""

    def before_statement(self, s: ast.stmt, out: Any) -> None:
        """Write lines before a user statement (after its ``# line N`` comment)."""

    def after_statement(self, s: ast.stmt, out: Any) -> None:
        """Write lines after an assignment or expression statement."""

    def after(self, node: Any, out: Any) -> None:
        """Write lines after a schedule node (``Barrier``, ``Collective``, ...)."""

    def index(self, gen: Any, array: str, checked: list[ast.expr], bounds: list[ast.expr],
              site: int, space: str) -> ast.expr | None:
        """A replacement for the index of ``array[...]``, or None to keep ``checked``.

        ``checked`` holds one bounds-checked index expression per dimension, ``bounds``
        the extent of each dimension, ``site`` the access's fault site (``kir.sites``).
        """
        return None


def instrument_for(kir: KernelIR) -> Instrument:
    """The ``Instrument`` of ``kir.mode``; a clear error for an unknown mode."""
    import importlib

    if kir.mode not in MODES:
        raise ValueError(f"unknown generation mode {kir.mode!r}; the modes are "
                         f"{', '.join(sorted(MODES))}")
    module, _, cls = MODES[kir.mode].partition(":")
    return getattr(importlib.import_module(module), cls)(kir)
