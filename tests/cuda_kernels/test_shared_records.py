"""Shared arrays of a structured (record) dtype (issue 19: numba's test_sm
test_shared_recarray): records staged through LDS come back unchanged; against NumPy."""

import numpy as np
from numba.np import numpy_support

from gpusim import cuda

REC = np.dtype([("i", np.int32), ("j", np.float32, (3, 2)), ("s", "S5")])
REC_T = numpy_support.from_dtype(REC)


@cuda.jit
def reverse_in_blocks(x, y):
    sm = cuda.shared.array(16, dtype=REC_T)
    tx = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + tx
    sm[tx] = x[i]
    cuda.syncthreads()
    y[i] = sm[cuda.blockDim.x - 1 - tx]


def test_records_through_a_shared_array():
    x = np.zeros(64, REC)
    x["i"] = np.arange(64)
    x["j"] = np.arange(64 * 6, dtype=np.float32).reshape(64, 3, 2)
    x["s"] = [f"r{k}".encode() for k in range(64)]
    y = np.zeros_like(x)
    reverse_in_blocks[4, 16](x, y)
    np.testing.assert_array_equal(y, x.reshape(4, 16)[:, ::-1].reshape(64))
