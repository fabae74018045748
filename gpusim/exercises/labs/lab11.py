"""Lab 11 (HIP C++): a block reduction and a conflict-free transpose, written in C++."""

from __future__ import annotations

import re

import numpy as np

from gpusim import hip
from gpusim.exercises.expect import expect_array, expect_true, expect_value
from gpusim.exercises.measure import lds_conflict_degree, profiled, sanitizer
from gpusim.exercises.registry import NotYet, exercise
from gpusim.errors import SanitizerError

_TAG = re.compile(r"#\s*line\s+(\d+)\s*$")


def _sanitized(launch) -> None:
    """Run ``launch()`` on the checked path; a race or an uninitialised LDS read becomes a
    sentence with the C++ lines of both accesses (the generated Python tags each line
    with ``# line N``, the student's C++ line), never the generated file's."""
    try:
        with sanitizer():
            launch()
            hip.hipDeviceSynchronize()
    except SanitizerError as err:
        if not err.findings:
            raise
        f = err.findings[0]
        accesses = [a for a in (f.first, f.second) if a is not None]
        where = " and ".join(f"the {a.what} at C++ line {_cpp_line(a)}" for a in accesses)
        if f.second is None:
            raise NotYet(f"The sanitizer found an uninitialised read of {f.array}: {where} "
                         "reads an element no thread of the block had written.") from None
        fix = ("nothing orders the two blocks' accesses" if "global" in f.kind.lower() else
               "no __syncthreads() between them: every thread must reach a barrier before "
               "another thread reads what it wrote")
        raise NotYet(f"The sanitizer found {'an' if f.kind[0] in 'LAEIOU' else 'a'} "
                     f"{f.kind} on {f.array}: {where}, {fix}.") from None


def _cpp_line(access) -> str:
    tag = _TAG.search(access.text)
    return tag.group(1) if tag else f"{access.line} (of the translated kernel)"


@exercise("11.1", "block reduction in C++", hints=[
    "Each step halves the number of active threads: s = blockDim.x / 2, then s / 2, ... "
    "down to 1.",
    "In each step, threads below s add part[tid + s] into part[tid]; every thread must "
    "reach a __syncthreads() before the next step reads.",
    "After the loop part[0] holds the block's sum: one thread adds it to *total with "
    "atomicAdd.",
])
def block_sum(kernel) -> str:
    """Runs ``kernel[4, 256](in, total, 1000)`` on the checked path; sum against NumPy."""
    v = np.random.default_rng(11).random(1000, dtype=np.float32)
    total = hip.to_device(np.zeros(1, np.float32))
    _sanitized(lambda: kernel[4, 256](hip.to_device(v), total, v.size))
    want = float(v.sum(dtype=np.float64))
    expect_value("*total", float(total.copy_to_host()[0]), want, rtol=1e-5,
                 why="It should be the sum of all 1000 inputs (the last block is partly "
                 "empty).")
    return "The sum of 1000 inputs over 4 blocks is right, and the sanitizer found no race."


@exercise("11.2", "conflict-free transpose in C++", hints=[
    "LDS word w is in bank w % 32; with rows of 32 floats a column's elements share a bank.",
    "Make each row of the __shared__ tile one float longer than the data it holds.",
    "Only the declaration changes: __shared__ float tile[32][33];",
])
def transpose(kernel) -> str:
    """Runs ``kernel[(4, 4), (32, 32)](a, out, 128)`` traced; NumPy and LDS conflicts."""
    n = 128
    a = np.arange(n * n, dtype=np.float32).reshape(n, n)
    out = hip.to_device(np.full(n * n, np.nan, np.float32))
    _sanitized(lambda: kernel[(n // 32, n // 32), (32, 32)](hip.to_device(a).ravel(), out, n))
    (k,) = profiled(lambda: kernel[(n // 32, n // 32), (32, 32)](hip.to_device(a).ravel(),
                                                                 out, n))
    got = out.copy_to_host().reshape(n, n)
    tiles_moved = a.reshape(n // 32, 32, n // 32, 32).transpose(2, 1, 0, 3).reshape(n, n)
    if np.array_equal(got, tiles_moved):
        raise NotYet("Each 32 x 32 tile lands in its transposed place, but is not itself "
                     "transposed: the write must read the tile across, tile[tx][ty].")
    expect_array("out", got, a.T, unset=np.nan)
    degree = lds_conflict_degree(k)
    expect_true(degree <= 1, f"The transpose is right, but its LDS reads still have "
                f"{degree}-way bank conflicts.")
    return "The C++ transpose is right and its LDS accesses are conflict-free."
