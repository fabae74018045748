"""Emulated ROCm libraries (rocBLAS, rocSOLVER, rocRAND, rocFFT, rocSPARSE, RCCL).

They keep their C names and conventions.

Each library is a package here (``gpusim/libs/rocblas``, ``gpusim/libs/rocsolver``, ...)
re-exported by a thin top-level module (``from gpusim import rocblas``). They sit above
the runtime: a library call checks its arguments in the real library's order, resolves
its pointers to emulated memory and queues the kernels the library would launch on the
handle's stream, with a modeled duration. ``common`` holds what every library shares:
the handle's device and stream (a stream of another device is refused the same way in
every library), the error base and the one enum check, pointer views, the kernel launch
and the modeled time.

    common/     handle device and stream, error base, enum check, pointers -> NumPy
                views, queuing library kernels, modeled time from peak rates
    rocblas/    BLAS levels 1-3, batched GEMM, gemm_ex (NumPy BLAS underneath)
    rocsolver/  LU, Cholesky, QR, SVD, eigenvalues, least squares (NumPy/SciPy LAPACK)
    rocrand/    every rocRAND engine bit-exact, distributions, the in-kernel device API
    rocfft/     FFT plans, descriptions and execution (scipy.fft underneath)
    rocsparse/  sparse formats, SpMV/SpMM, triangular solves, conversions (scipy.sparse)
    rccl/       communicators and collectives over the node's links, step by step
    rocwmma.py  rocWMMA's fragment API inside kernels (one module, no handle or stream)
"""
