"""Canonical kernels as NumPy address formulas (``Trace.from_lane_addresses``), shared by
the memory-model and timing tests, and checks that the formulas are the kernels."""

from __future__ import annotations

import numpy as np
import pytest

from gpusim.memsim import Access, InstructionCounts, Trace
from gpusim.trace.record import ATOMIC, LDS, STORE

X, Y, OUT = 0, 1 << 26, 2 << 26  # 64 MiB apart: buffers never share a line or set pattern


def copy_kernel(n: int, pattern: str):
    """out[i] = x[f(i)]: f = i (coalesced), a stride-32 float gather, or a permutation."""
    perm = np.random.default_rng(1).permutation(n)

    def program(t):
        i = t.gid
        src = {"coalesced": i, "strided": (i * 32) % n + (i * 32) // n, "random": perm[i]}
        yield Access(X + 4 * src[pattern], site=0)
        yield Access(OUT + 4 * i, kind=STORE, site=1)

    return program


def naive_matmul(n: int, b: int = 16):
    """C = A @ B, one thread per C element, A and B read from global memory every k."""

    def program(t):
        row, col = t.by * b + t.ty, t.bx * b + t.tx
        for k in range(n):
            yield Access(X + 4 * (row * n + k), site=0)
            yield Access(Y + 4 * (k * n + col), site=1)
        yield Access(OUT + 4 * (row * n + col), kind=STORE, site=2)

    return program


def tiled_matmul(n: int, b: int = 16, pad: int = 0):
    """The LDS-tiled version: each b x b tile of A and B is loaded once per workgroup."""
    w = b + pad  # row pitch of the LDS tiles, in floats

    def program(t):
        row, col = t.by * b + t.ty, t.bx * b + t.tx
        for kt in range(n // b):
            yield Access(X + 4 * (row * n + kt * b + t.tx), site=0)
            yield Access(Y + 4 * ((kt * b + t.ty) * n + col), site=1)
            yield Access(4 * (t.ty * w + t.tx), kind=STORE, space=LDS, site=3)
            yield Access(4 * (b * w + t.ty * w + t.tx), kind=STORE, space=LDS, site=4)
            for k in range(b):
                yield Access(4 * (t.ty * w + k), space=LDS, site=5)
                yield Access(4 * (b * w + k * w + t.tx), space=LDS, site=6)
        yield Access(OUT + 4 * (row * n + col), kind=STORE, site=2)

    return program


def matmul_counts(kind: str, n: int, waves: int, b: int = 16) -> InstructionCounts:
    """Plausible per-launch instruction counts (per wave: FMAs + address arithmetic)."""
    if kind == "naive":
        return InstructionCounts(
            waves=waves,
            valu=waves * (3 * n + 10),
            salu=waves * 2 * n,
            vmem_read=waves * 2 * n,
            vmem_write=waves,
        )
    tiles = n // b
    return InstructionCounts(
        waves=waves,
        valu=waves * (3 * n + 6 * tiles),
        salu=waves * 6 * tiles,
        vmem_read=waves * 2 * tiles,
        vmem_write=waves,
        lds=waves * tiles * (2 + 2 * b),
    )


def histogram_kernel(n: int, bins: int):
    """bins[x[i] % bins] += 1 with global atomics (x read coalesced)."""

    def program(t):
        yield Access(X + 4 * t.gid, site=0)
        yield Access(OUT + 4 * (t.gid % bins), kind=ATOMIC, site=1)

    return program


def test_matmul_formulas_touch_each_matrix_element():
    n = 32
    for program in (naive_matmul(n), tiled_matmul(n)):
        tr = Trace.from_lane_addresses((2, 2), (16, 16), program)
        glob = tr.space == 0
        a = np.unique(tr.addr[glob & (tr.site == 0)][tr.active[glob & (tr.site == 0)]])
        c = np.unique(tr.addr[tr.site == 2][tr.active[tr.site == 2]])
        assert a.tolist() == (X + 4 * np.arange(n * n)).tolist()
        assert c.tolist() == (OUT + 4 * np.arange(n * n)).tolist()


@pytest.mark.parametrize("pattern", ["coalesced", "strided", "random"])
def test_copy_sources_are_a_permutation(pattern):
    n = 1 << 12
    tr = Trace.from_lane_addresses(n // 256, 256, copy_kernel(n, pattern))
    src = np.sort(tr.addr[tr.site == 0].ravel())
    assert src.tolist() == (X + 4 * np.arange(n)).tolist()
