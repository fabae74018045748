"""The compile pass: on-disk cache shared between processes, and the reference path."""

import os
import subprocess
import sys
import textwrap

import kernels as G
import numba

from gpusim.compile.pipeline import compile_kernel

SCRIPT = textwrap.dedent("""
    import sys, numba
    sys.path.insert(0, {here!r})
    import kernels as G
    from gpusim.compile.pipeline import compile_kernel
    f32 = numba.types.float32[::1]
    ck = compile_kernel(G.block_sum, (f32, f32), wave_size=64)
    stats = ck.run.stats
    print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), ck.module_path)
""")


def test_a_new_process_loads_the_compiled_kernel_from_disk(tmp_path):
    env = dict(os.environ, GPUSIM_CACHE_DIR=str(tmp_path))
    script = SCRIPT.format(here=os.path.dirname(os.path.dirname(__file__)))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, check=True).stdout.split() for _ in range(2)]
    (hits1, misses1, path1), (hits2, misses2, path2) = runs
    assert path1 == path2 and path1.startswith(str(tmp_path))
    assert int(misses1) == 1 and int(hits1) == 0  # compiled the first time
    assert int(hits2) == 1 and int(misses2) == 0  # loaded the second time


def test_reference_path_runs_the_same_source_as_python():
    f32 = numba.types.float32[::1]
    fast = compile_kernel(G.block_sum, (f32, f32), wave_size=64)
    ref = compile_kernel(G.block_sum, (f32, f32), wave_size=64, reference=True)
    assert ref.source == fast.source and ref.reference
    assert not hasattr(ref.run, "overloads")  # a plain Python function


NOTEBOOK_SCRIPT = textwrap.dedent("""
    import linecache, os, sys, numba
    # What ipykernel does with a cell: compile it under /tmp/ipykernel_<PID>/<hash>.py,
    # a path that changes with every kernel process.
    cell = {cell!r}
    filename = os.path.join({base!r}, f"ipykernel_{{os.getpid()}}", "3002312983.py")
    linecache.cache[filename] = (len(cell), None, cell.splitlines(True), filename)
    ns = {{}}
    exec(compile(cell, filename, "exec"), ns)
    from gpusim.compile.pipeline import compile_kernel
    f32 = numba.types.float32[::1]
    ck = compile_kernel(ns["scale"].py_func, (numba.types.float32, f32), wave_size=64)
    stats = ck.run.stats
    print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), ck.module_path)
""")

CELL = """\
from gpusim import hip

@hip.jit
def scale(a, out):
    i = hip.grid(1)
    if i < out.size:
        out[i] = a * out[i]
"""


def test_a_notebook_kernel_is_a_cache_hit_in_a_new_kernel_process(tmp_path):
    """The cell's temporary file path differs between processes; the cache key must not."""
    env = dict(os.environ, GPUSIM_CACHE_DIR=str(tmp_path / "cache"))
    script = NOTEBOOK_SCRIPT.format(cell=CELL, base=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, check=True).stdout.split() for _ in range(2)]
    (hits1, misses1, path1), (hits2, misses2, path2) = runs
    assert path1 == path2
    assert (int(hits1), int(misses1)) == (0, 1)  # compiled in the first process
    assert (int(hits2), int(misses2)) == (1, 0)  # loaded from disk in the second
    assert len(list((tmp_path / "cache" / "kernels").glob("scale_*.py"))) == 1
