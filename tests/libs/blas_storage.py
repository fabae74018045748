"""BLAS storage built independently of the library under test (explicit index
arithmetic): column-major matrices with a leading dimension, strided vectors with
BLAS's negative-increment rule, random data and rounding tolerances."""

import numpy as np

from gpusim import hip


def rand(rng, shape, dtype):
    """Random values of ``dtype`` (complex gets a random imaginary part)."""
    dtype = np.dtype(dtype)
    x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def store_matrix(M, ld, fill=np.nan):
    """Column-major storage of M with leading dimension ld (padding rows = ``fill``)."""
    rows, cols = M.shape
    buf = np.full(max(ld * cols, 1), fill if M.dtype.kind in "fc" else 0, dtype=M.dtype)
    for j in range(cols):
        buf[j * ld:j * ld + rows] = M[:, j]
    return buf


def load_matrix(buf, rows, cols, ld):
    """The rows x cols matrix stored column-major in ``buf`` with leading dimension ld."""
    return np.array([[buf[i + j * ld] for j in range(cols)] for i in range(rows)],
                    dtype=buf.dtype).reshape(rows, cols)


def store_vector(v, inc, fill=np.nan):
    """BLAS storage of v with increment inc (inc < 0: element i at (n-1-i)*|inc|)."""
    n, step = len(v), abs(inc)
    buf = np.full(max(1 + (n - 1) * step, 1), fill, dtype=v.dtype)
    for i in range(n):
        buf[(i if inc > 0 else n - 1 - i) * step] = v[i]
    return buf


def load_vector(buf, n, inc):
    step = abs(inc)
    return np.array([buf[(i if inc > 0 else n - 1 - i) * step] for i in range(n)],
                    dtype=buf.dtype)


def dev(host):
    return hip.to_device(np.ascontiguousarray(host))


def tol(dtype, k=1):
    """A rounding tolerance for sums of k products in ``dtype``."""
    eps = np.finfo(np.dtype(dtype)).eps
    return float(8 * max(k, 1) * eps)
