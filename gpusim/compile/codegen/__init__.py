"""Code generation: the schedule -> a Python module numba compiles (and the disk cache).

See README.md in this folder for the data flow.

>>> from gpusim.compile.codegen import generate, compile_module, source_key
"""

from gpusim.compile.codegen.build import (
    cache_dir,
    compile_module,
    load_module,
    reference_module,
    source_key,
)
from gpusim.compile.codegen.generate import generate
from gpusim.compile.codegen.instrument import Instrument, instrument_for
from gpusim.compile.codegen.listing import listing

__all__ = ["generate", "compile_module", "reference_module", "load_module", "source_key",
           "cache_dir", "Instrument", "instrument_for", "listing"]
