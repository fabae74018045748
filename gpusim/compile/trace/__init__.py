"""Trace mode's compile side: code generation that records each lane's memory address
and per-thread instruction counts for the memory model.

See README.md in this folder for the data flow.

>>> from gpusim.compile.trace import buffers, finish
"""

from gpusim.compile.trace.events import COUNTERS, SITE_KIND_BITS, THREAD_BITS, buffers, finish
from gpusim.compile.trace.instrument import TraceInstrument, TraceSite

__all__ = ["COUNTERS", "TraceInstrument", "TraceSite", "buffers", "finish", "SITE_KIND_BITS",
           "THREAD_BITS"]
