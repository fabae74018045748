"""The compile pass: on-disk cache shared between processes, and the reference path."""

import os
import subprocess
import sys
import textwrap

import golden_kernels as G
import numba

from gpusim.compile.pipeline import compile_kernel

SCRIPT = textwrap.dedent("""
    import sys, numba
    sys.path.insert(0, {here!r})
    import golden_kernels as G
    from gpusim.compile.pipeline import compile_kernel
    f32 = numba.types.float32[::1]
    ck = compile_kernel(G.block_sum, (f32, f32), wave_size=64)
    stats = ck.run.stats
    print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), ck.module_path)
""")


def test_a_new_process_loads_the_compiled_kernel_from_disk(tmp_path):
    env = dict(os.environ, GPUSIM_CACHE_DIR=str(tmp_path))
    script = SCRIPT.format(here=os.path.dirname(__file__))
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
