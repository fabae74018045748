"""``from gpusim import rocblas``: rocBLAS under its C names, on the emulated GPU.

Column-major BLAS with leading dimensions and increments, enums with rocBLAS's numeric
values, a handle with a stream and a pointer mode. Out-parameters are returned
(``handle = rocblas_create_handle()``; ``rocblas_sdot`` returns the dot product in
pointer mode host); a status other than success raises ``RocblasError`` whose
``.status`` is the ``rocblas_status`` member. Device arrays, hipMalloc pointers and raw
device addresses are accepted wherever C takes a device pointer; ``None`` is nullptr.

Results are computed with NumPy / SciPy in the routine's precision (f32 accumulation
for f16/bf16 in gemm_ex): they agree with rocBLAS to rounding, not bit for bit, because
the order of the sums differs (tests use a tolerance of a few k * eps * |A| |B|).
Each call queues the kernels rocBLAS would launch on the handle's stream, with modeled
times (see gpusim/libs/rocblas/blas_time.py) that the profiler shows.

>>> import numpy as np
>>> from gpusim import hip, rocblas
>>> h = rocblas.rocblas_create_handle()
>>> A = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))   # 2 x 3
>>> x = np.ones(3, np.float32)
>>> d_A, d_x = hip.to_device(A.ravel(order="F")), hip.to_device(x)
>>> d_y = hip.device_array(2, np.float32)
>>> rocblas.rocblas_sgemv(h, rocblas.rocblas_operation_none, 2, 3, 1.0, d_A, 2, d_x, 1,
...                       0.0, d_y, 1)
>>> d_y.copy_to_host()
array([ 3., 12.], dtype=float32)
>>> try:
...     rocblas.rocblas_sgemv(h, rocblas.rocblas_operation_none, 2, 3, 1.0, d_A, 1, d_x, 1,
...                           0.0, d_y, 1)
... except rocblas.RocblasError as err:
...     print(err.status.name)
rocblas_status_invalid_size
"""

from gpusim.libs.rocblas import *  # noqa: F403
from gpusim.libs.rocblas import __all__  # noqa: F401
