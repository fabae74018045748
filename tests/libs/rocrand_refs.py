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
