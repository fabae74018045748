"""Reading the rocRAND reference data of tests/libs/data (see its README.md)."""

import functools
import gzip
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data"


@functools.cache
def curand_rows() -> dict:
    """{(generator, seed, subsequence, offset, kind): uint32 words} from cuRAND."""
    rows = {}
    with gzip.open(DATA / "curand_streams.txt.gz", "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            gen, seed, sub, off, kind, *words = line.split()
            rows[(gen, int(seed), int(sub), int(off), kind)] = np.array(
                [int(w, 16) for w in words], np.uint32)
    return rows


def cases(gen: str) -> list[tuple[int, int, int]]:
    """Every (seed, subsequence, offset) recorded for ``gen``."""
    return sorted({k[1:4] for k in curand_rows() if k[0] == gen})


@functools.cache
def curand_mt_rows() -> dict:
    """{(kind, seed, index): uint32 words} of curand_mt_streams.txt.gz (see README.md)."""
    rows = {}
    with gzip.open(DATA / "curand_mt_streams.txt.gz", "rt") as f:
        for line in f:
            kind, seed, index, *words = line.split()
            rows[(kind, int(seed), int(index))] = np.array([int(w, 16) for w in words],
                                                            np.uint32)
    return rows


@functools.cache
def mt_refs() -> dict:
    """rocrand_mt_refs.npz: rocRAND's and cuRAND's table slices for MT19937, MTGP32 and
    the scrambled Sobol constants (see README.md)."""
    with np.load(DATA / "rocrand_mt_refs.npz") as z:
        return {k: z[k] for k in z.files}
