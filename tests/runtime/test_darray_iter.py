"""Iterating over a device array on the host (issue 19: numba's doc example
cpu_gpu_compat): items are synchronous element reads, ordered after queued kernels."""

import numpy as np

from gpusim import cuda


def test_iteration_sees_the_kernel_before_it_and_matches_numpy():
    @cuda.jit
    def square(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * a[i]

    host = np.array([1.5, -2.0, 3.0])
    d = cuda.to_device(host)
    square[1, 4](d)
    assert [float(v) for v in d] == (host * host).tolist()
    assert [x + y for x, y in zip(d, d, strict=True)] == (2 * host * host).tolist()


def test_rows_of_a_2d_array_are_device_views():
    host = np.arange(6, dtype=np.int32).reshape(2, 3)
    rows = list(cuda.to_device(host))
    assert len(rows) == 2 and all(isinstance(r, cuda.DeviceArray) for r in rows)
    np.testing.assert_array_equal(np.stack([r.copy_to_host() for r in rows]), host)
