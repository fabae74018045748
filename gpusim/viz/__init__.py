"""Live views of what the hardware does with a kernel: ipywidgets + Bokeh.

Data flow (views read records, device profiles and the occupancy rules; never the
engine)::

    gpusim.profile(memory=True) --> KernelRecord.counters / .memory (model results)
    device profiles (gpusim.devices)                |
    occupancy rules (gpusim.occupancy_model)        v
                         --> view function --> View (ipywidgets VBox)
                                                 controls --> update() --> ColumnDataSource
                                                 BokehModel(figures)  <-- drawn from them
                                                 text summary (console, nbval)

One view per file, each a function of ``gpusim.viz`` returning a ``View`` (base.py);
inputs.py turns what a view is given (a record, a list, a ``Profile``) into records::

    occupancy.py     the occupancy calculator as sliders and curves
    timeline.py      what ran on each device and stream, on modeled time
    dispatch.py      where a launch's workgroups ran: XCDs, CUs, and when
    divergence.py    the EXEC mask (active lanes) of a wavefront along a kernel
    coalescing.py    which cache lines the lanes of one memory instruction touch
    lds_banks.py     lanes x banks of one LDS instruction, conflicts highlighted
    cache_heatmap.py when and where a kernel hit and missed in each cache level
    memory_chart.py  the ROCm Compute Profiler memory chart of one kernel
    roofline.py      each kernel at its arithmetic intensity under the device's roofs
    mfma.py          which lane holds which element of an MFMA's A, B and C/D
    collectives.py   a collective's steps as bytes moving between GPUs, and link use
    stepper.py       a recorded work-group stepped wave by wave (gpusim.debug)

>>> from gpusim import viz
>>> print(viz.occupancy(block_size=1024, lds_bytes=65536).summary[0][1])
4 of 8 waves per SIMD (50%)
"""

from gpusim.viz.base import View, ViewError
from gpusim.viz.cache_heatmap import cache_heatmap
from gpusim.viz.coalescing import coalescing
from gpusim.viz.collectives import collectives
from gpusim.viz.dispatch import dispatch
from gpusim.viz.divergence import divergence
from gpusim.viz.lds_banks import lds_banks
from gpusim.viz.memory_chart import memory_chart
from gpusim.viz.mfma import mfma
from gpusim.viz.occupancy import occupancy
from gpusim.viz.roofline import roofline
from gpusim.viz.stepper import stepper
from gpusim.viz.timeline import timeline

__all__ = ["View", "ViewError", "cache_heatmap", "coalescing", "collectives", "dispatch",
           "divergence", "lds_banks", "memory_chart", "mfma", "occupancy", "roofline",
           "stepper", "timeline"]
