"""Sobol32 and Sobol64 quasi-random generators (``library/src/rng/sobol.hpp``).

Point i of dimension d is the XOR of the direction vectors v_k of d for the set bits k of
the Gray code ``i ^ (i >> 1)`` (point 0 is 0). A call for n = D x m numbers writes
dimension d's points ``offset .. offset + m - 1`` to ``out[d m : (d + 1) m]`` and moves the
offset on by m; n not a multiple of D is ROCRAND_STATUS_LENGTH_NOT_MULTIPLE. Outputs map
one number each: bits (64-bit: the high 32 bits for 32-bit outputs), uniform
``2^-32 + v 2^-32`` (64-bit: from ``v >> 32``; double ``2^-53 + (v >> 11) 2^-53``), normal by
rocRAND's inverse-CDF approximation ``sqrt2 erfinv(2u - 1)``, log-normal its exp, Poisson
by binary search in the CDF.

Scrambled Sobol32/64 use rocRAND's scrambled direction vectors and XOR each dimension's
points with its scramble constant (``rocrand_scrambled_sobol{32,64}.h``). rocRAND's tools
make both from fixed rules, which gpusim follows: the vectors are the Sobol vectors plus
640000 (32-bit) or 1280000 (64-bit), wrapping (``tools/scrambled_sobol*_direction_vector_
generator.cpp``: ``write_matrix_with_offset``), and the constants are the outputs of a
default-seeded ``std::mt19937`` (``tools/scrambled_sobol*_constants_generator.cpp``;
64-bit ones take two outputs, the first as the high word). The tests hold both against
slices of rocRAND's shipped tables.

>>> eng = QuasiEngine(QUASI[501], 1, 0)
>>> [hex(int(v)) for v in eng.points(4)[0]]
['0x0', '0x80000000', '0xc0000000', '0x40000000']
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from gpusim.libs.rocrand import distributions as dist
from gpusim.libs.rocrand import half, sobol_vectors
from gpusim.libs.rocrand.mt19937 import genrand


@dataclass(frozen=True)
class QuasiKind:
    rng_type: int
    name: str
    bits: int
    max_dimensions: int = sobol_vectors.MAX_DIMENSIONS
    default_seed: int = 0
    scrambled: bool = False


QUASI = {501: QuasiKind(501, "sobol32", 32), 504: QuasiKind(504, "sobol64", 64),
         502: QuasiKind(502, "scrambled_sobol32", 32, scrambled=True),
         505: QuasiKind(505, "scrambled_sobol64", 64, scrambled=True)}
SCRAMBLE_OFFSET = {32: 640000, 64: 1280000}  # added to every direction vector


def scramble_constants(bits: int, dimensions: int) -> np.ndarray:
    """The first ``dimensions`` constants of ``h_scrambled_sobol{32,64}_constants``."""
    if bits == 32:
        return genrand(5489, dimensions)
    w = genrand(5489, 2 * dimensions).astype(np.uint64)
    return (w[0::2] << np.uint64(32)) | w[1::2]
QUASI[500] = QUASI[501]  # ROCRAND_RNG_QUASI_DEFAULT is Sobol32 (rocrand.cpp)


@numba.njit(cache=True, nogil=True)
def _points(vectors, first, m, out):
    """out[d, j] = Sobol point first + j of dimension d."""
    for d in range(vectors.shape[0]):
        g = first ^ (first >> 1)
        x = vectors[d, 0] ^ vectors[d, 0]  # zero of the vectors' type
        k = 0
        while g:
            if g & 1:
                x ^= vectors[d, k]
            g >>= 1
            k += 1
        for j in range(m):
            out[d, j] = x
            i = first + j
            z = 0  # lowest zero bit of i: the Gray code of i + 1 flips it
            while (i >> z) & 1:
                z += 1
            x ^= vectors[d, z]


class QuasiEngine:
    """The Sobol generator's running offset over its D dimensions."""

    def __init__(self, kind: QuasiKind, dimensions: int, offset: int):
        self.kind, self.offset = kind, offset
        self.constants = None
        self.vectors = (sobol_vectors.vectors32 if kind.bits == 32
                        else sobol_vectors.vectors64)(dimensions)
        if kind.scrambled:
            self.vectors = self.vectors + self.vectors.dtype.type(SCRAMBLE_OFFSET[kind.bits])
            self.constants = scramble_constants(kind.bits, dimensions).reshape(-1, 1)

    def points(self, m: int) -> np.ndarray:
        """(D, m) points from the current offset; moves the offset on by m."""
        out = np.empty((self.vectors.shape[0], m), self.vectors.dtype)
        _points(self.vectors, self.offset, m, out)
        if self.constants is not None:
            out ^= self.constants
        self.offset += m
        return out


def fill(kind: QuasiKind, points: np.ndarray, what: str, out: np.ndarray, *,
         mean: float = 0.0, stddev: float = 1.0, table: tuple | None = None,
         half_math: bool = False) -> None:
    """Map the (D, m) ``points`` into ``out`` (dimension-major) as ``what``."""
    if out.dtype == np.float16:
        half.quasi(points, kind.bits, what, out, mean=mean, stddev=stddev, half_math=half_math)
        return
    v = points.reshape(-1)
    hi32 = (v >> np.uint64(32)).astype(np.uint32) if kind.bits == 64 else v
    if what == "bits":
        out[:] = v if out.dtype.itemsize == 8 else hi32.astype(out.dtype, copy=False)
        return
    if what in ("uniform", "normal", "log_normal"):
        if out.dtype == np.float32:
            u = dist.INV32 + hi32.astype(np.float32) * dist.INV32
        elif kind.bits == 64:
            u = dist.INV53_D + (v >> np.uint64(11)).astype(np.float64) * dist.INV53_D
        else:
            u = dist.INV32_D + v.astype(np.float64) * dist.INV32_D
        if what == "uniform":
            out[:] = u
        elif out.dtype == np.float32:
            dist.inverse_normal_float(u, out, mean, stddev, what == "log_normal")
        else:
            dist.inverse_normal_double(u, out, mean, stddev, what == "log_normal")
    else:  # poisson: discrete_cdf on x = v 2^-32 (v 2^-64 for 64 bits)
        offset, cdf = table
        x = (v.astype(np.float64) * (2.0 ** -kind.bits))
        idx = np.minimum(np.searchsorted(cdf, x, side="left"), cdf.size - 1)
        out[:] = offset + idx
