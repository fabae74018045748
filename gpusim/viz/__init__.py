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
from gpusim.viz.timeline import timeline

__all__ = ["View", "ViewError", "cache_heatmap", "coalescing", "collectives", "dispatch",
           "divergence", "lds_banks", "memory_chart", "mfma", "occupancy", "roofline",
           "timeline"]
