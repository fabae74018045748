"""``from gpusim import hipcc``: run HIP C++ on the emulator.

``hipcc.compile(source)`` parses HIP C++ with libclang against gpusim's own small HIP
headers (no ROCm needed), translates each ``__global__``/``__device__`` function into a
readable ``@hip.jit`` Python function and ``main`` and host functions into Python over
gpusim's HIP runtime, and imports the result. Everything downstream (fast engine,
sanitizer, tracing, occupancy, AMDGPU ISA, views) sees ordinary kernels.

    mod = hipcc.compile(src); mod.get_kernel("saxpy")[grid, block](n, 2.0, d_x, d_y)
    mod.run()               # int main(): printf output, returns the exit status
    print(mod.python_source)

In a notebook: ``%load_ext gpusim`` then a ``%%hip`` cell.
"""

from gpusim.hipcc.clangast import ClangError
from gpusim.hipcc.emit import UnsupportedCpp
from gpusim.hipcc.module import Module, compile  # noqa: A004 - hipcc.compile, as documented

__all__ = ["compile", "Module", "ClangError", "UnsupportedCpp"]
