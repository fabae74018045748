"""Emulated ROCm libraries: rocBLAS, rocSOLVER, ... under their C names and conventions.

Each library is a package here (``gpusim/libs/rocblas``, ``gpusim/libs/rocsolver``, ...)
re-exported by a thin top-level module (``from gpusim import rocblas``). They sit above
the runtime: a library call checks its arguments in the real library's order, resolves
its pointers to emulated memory and queues the kernels the library would launch on the
handle's stream, with a modeled duration. ``common`` holds what every library needs.

    common      error base class, pointers -> NumPy views, queuing library kernels,
                modeled time from peak rates with an efficiency curve
"""
