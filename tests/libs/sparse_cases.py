"""Random sparse matrices for the rocSPARSE tests (hypothesis strategies) and their
upload in rocSPARSE's layouts, built here independently of the library."""

import numpy as np
import scipy.sparse as sp
from hypothesis import strategies as st

from gpusim import hip

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
PREFIX = {np.float32: "s", np.float64: "d", np.complex64: "c", np.complex128: "z"}
TOL = {np.float32: 1e-4, np.float64: 1e-11, np.complex64: 1e-4, np.complex128: 1e-11}


def random_matrix(m, n, density, seed, dtype, empty_rows=0):
    """An m x n scipy CSR matrix; the first ``empty_rows`` rows (shuffled) are empty."""
    rng = np.random.default_rng(seed)
    a = sp.random(m, n, density=density, format="csr", random_state=rng,
                  dtype=np.float64)
    if np.iscomplexobj(np.empty(0, dtype)):
        a = a + 1j * sp.random(m, n, density=density, format="csr", random_state=rng)
    dense = a.toarray()
    dense[rng.permutation(m)[:empty_rows]] = 0
    return sp.csr_matrix(dense.astype(dtype))


@st.composite
def matrices(draw, dtypes=DTYPES, max_side=24):
    m, n = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    dtype = draw(st.sampled_from(dtypes))
    a = random_matrix(m, n, draw(st.floats(0.0, 0.6)), draw(st.integers(0, 2**31)), dtype,
                      empty_rows=draw(st.integers(0, m)))
    return a, draw(st.sampled_from([0, 1]))


def upload_csr(a, base):
    """(row_ptr, col_ind, val) device arrays of a scipy CSR matrix, with index base."""
    a = sp.csr_matrix(a)
    return (hip.to_device((a.indptr + base).astype(np.int32)),
            hip.to_device((a.indices + base).astype(np.int32)), hip.to_device(a.data))


def upload_coo(a, base):
    c = sp.csr_matrix(a).tocoo()  # row-sorted
    return (hip.to_device((c.row + base).astype(np.int32)),
            hip.to_device((c.col + base).astype(np.int32)), hip.to_device(c.data))


def ell_arrays(a, base):
    """rocSPARSE ELL: width = longest row, entry p of row i at p * m + i, padding -1."""
    a = sp.csr_matrix(a)
    m = a.shape[0]
    counts = np.diff(a.indptr)
    width = int(counts.max()) if m else 0
    col = np.full((width, m), -1, np.int32)
    val = np.zeros((width, m), a.dtype)
    for i in range(m):
        row = slice(a.indptr[i], a.indptr[i + 1])
        col[:counts[i], i] = a.indices[row] + base
        val[:counts[i], i] = a.data[row]
    return col.ravel(), val.ravel(), width


def bsr_arrays(a, block_dim, base, column_blocks=False):
    """rocSPARSE BSR (zero-padded to whole blocks): row_ptr, col_ind, val (blocks by rows,
    or by columns), mb, nb and the padded dense matrix."""
    m, n = a.shape
    mb, nb = -(-m // block_dim), -(-n // block_dim)
    padded = np.zeros((mb * block_dim, nb * block_dim), a.dtype)
    padded[:m, :n] = a.toarray()
    b = sp.bsr_matrix(padded, blocksize=(block_dim, block_dim))
    blocks = b.data.transpose(0, 2, 1) if column_blocks else b.data
    return ((b.indptr + base).astype(np.int32), (b.indices + base).astype(np.int32),
            np.ascontiguousarray(blocks).ravel(), mb, nb, padded)
