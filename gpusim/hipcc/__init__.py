"""``from gpusim import hipcc``: run HIP C++ programs on the emulator.

``hipcc.compile(source)`` (or ``filename=``) parses the program with libclang as HIP;
each ``__global__``/``__device__`` function becomes a readable ``@hip.jit`` kernel for
gpusim's engine, and the host half, the user's own C++ with kernel bodies made stubs, is
compiled by a real C++ compiler (zig's clang 18, the ``ziglang`` wheel) and loaded in this
process with a HIP runtime shim over gpusim (``docs/hipcc.md``). Everything downstream
(engine, sanitizer, tracing, occupancy, AMDGPU ISA, views) sees ordinary kernels.

    mod = hipcc.compile(src); mod.get_kernel("saxpy")[grid, block](n, 2.0, d_x, d_y)
    mod.run(["-n", "64"])   # main(argc, argv): its output in sys.stdout; the exit status
    print(mod.python_source)

In a notebook: ``%load_ext gpusim`` then a ``%%hip`` cell; in a terminal:
``gpusim-hipcc main.hip -o app && ./app``.

README.md in this folder maps its files (parse, translate, build, run); docs/hipcc.md
tells why each is done the way it is.
"""

from gpusim.hipcc.clangast import ClangError
from gpusim.hipcc.emit import UnsupportedCpp
from gpusim.hipcc.module import Module, compile  # noqa: A004 - hipcc.compile, as documented

__all__ = ["compile", "Module", "ClangError", "UnsupportedCpp"]
