"""``from gpusim import rocsolver``: rocSOLVER (dense LAPACK on the GPU) under its C names.

rocSOLVER works on a rocBLAS handle (``rocblas.rocblas_create_handle()``) and returns
rocBLAS statuses, so a failure raises ``RocblasError`` (also reachable here). Matrices
are column-major with leading dimensions; ``ipiv`` and ``info`` are device arrays of
``rocblas_int`` (np.int32), with 1-based pivots as in C. Results come from SciPy's
LAPACK (same algorithms; rocSOLVER's order of operations differs, so results agree to
rounding). Every call queues the kernels it would launch on the handle's stream.

>>> import numpy as np
>>> from gpusim import hip, rocblas, rocsolver
>>> h = rocblas.rocblas_create_handle()
>>> A = hip.to_device(np.array([2, 1, 1, 3], np.float64))        # [[2, 1], [1, 3]]
>>> info = hip.device_array(1, np.int32)
>>> rocsolver.rocsolver_dpotrf(h, rocblas.rocblas_fill_lower, 2, A, 2, info)
>>> B = hip.to_device(np.array([3, 4], np.float64))
>>> rocsolver.rocsolver_dpotrs(h, rocblas.rocblas_fill_lower, 2, 1, A, 2, B, 2)
>>> B.copy_to_host(), info.copy_to_host()
(array([1., 1.]), array([0], dtype=int32))
"""

from gpusim.libs.rocsolver import *  # noqa: F403
from gpusim.libs.rocsolver import __all__  # noqa: F401
