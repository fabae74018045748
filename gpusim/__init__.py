"""gpusim: an emulator of AMD GPUs for learning ROCm/HIP without a GPU.

Data flow (one package per stage, imports only point down this list):

    errors, config      status codes, settings
    devices             device profiles (data files with sources) -> DeviceSpec
    profiler            plain records of what ran (consumed by tables and views)
    memsim              caches, coalescing, LDS banks: the memory model on address traces
    occupancy_model     AMD's occupancy rules; LLVM AMDGPU as the oracle
    timing              modeled cost of copies, memsets, migrations, kernels
    compile             kernel source -> checked IR -> generated numba code
    engine              runs a compiled kernel over a grid of workgroups
    runtime             devices, memory, arrays, streams, the HIP API, kernel launch
    hip, cuda           the public faces: HIP names and numba.cuda names
    hipify              CUDA / numba.cuda text -> HIP text (imports no emulator stage)
    libs                emulated ROCm libraries (faces: gpusim.rocblas, gpusim.rocsolver,
                        gpusim.rocfft, gpusim.rocsparse)

>>> import gpusim
>>> gpusim.list_devices()
['mi300x', 'mi250x', 'mi100', 'rx7900xtx']
"""

from gpusim.config import config
from gpusim.devices import list_devices
from gpusim.errors import GpusimError, HipError, hipError_t
from gpusim.occupancy_model import occupancy, occupancy_table
from gpusim.profiler import profile
from gpusim.runtime import streams as _streams  # noqa: F401 - lets profiles flush work
from gpusim.runtime.system import set_system

__version__ = "0.1.0"


def load_ipython_extension(ipython) -> None:
    """``%load_ext gpusim``: the ``%%hip`` cell magic (HIP C++ in a notebook cell).
    Imported only here, so ``import gpusim`` does not load libclang."""
    from gpusim.hipcc.magic import load

    load(ipython)

__all__ = ["config", "list_devices", "occupancy", "occupancy_table", "profile", "set_system",
           "GpusimError", "HipError", "hipError_t"]
