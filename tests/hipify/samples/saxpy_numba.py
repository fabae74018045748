"""numba.cuda host and kernel code: saxpy over a 1D grid."""

import numpy as np
from numba import cuda


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def run():
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 3.0, dtype=np.float32)
    d_x = cuda.to_device(x)
    d_y = cuda.to_device(y)
    d_out = cuda.device_array_like(x)
    threads = 128
    saxpy[(n + threads - 1) // threads, threads](np.float32(2.0), d_x, d_y, d_out)
    cuda.synchronize()
    return [d_out.copy_to_host()]
