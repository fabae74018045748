"""How long a HIP C++ program takes to compile and run on gpusim: first and cached.

    python benchmarks/hipcc_bench.py

Each program is compiled in a fresh process with an empty gpusim cache (first: libclang's
parse, the kernel translation and numba's first compile of the kernel, zig's build of the
host half; zig's own libc++ already built, as after set-up), then again in another fresh
process with the cache kept (cached: what re-running a cell or a ``./app`` costs). The
reference is zig c++ alone building the same program's host half (the rewritten C++ and
the shim): the part of the first compile that any C++ toolchain would take. Medians of 3.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "tests" / "hipcc" / "samples"
PROGRAMS = {
    "vector_add (test cell)": (ROOT / "tests" / "hipcc" / "vector_add.hip", [], []),
    "rocm-examples saxpy": (SAMPLES / "rocm-examples/HIP-Basic/saxpy/main.hip",
                            [SAMPLES / "rocm-examples/Common"], []),
    "rocm-examples matrix_multiplication": (
        SAMPLES / "rocm-examples/HIP-Basic/matrix_multiplication/main.hip",
        [SAMPLES / "rocm-examples/Common"], ["-A_rows", "64", "-A_cols", "64", "-B_cols", "64"]),
}
_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from gpusim import hipcc
from gpusim.hipcc import toolchain
t1 = time.perf_counter()
built = []
real_build = toolchain.build
def timed(*a, **k):
    s = time.perf_counter(); out = real_build(*a, **k); built.append(time.perf_counter() - s)
    return out
toolchain.build = timed
src, inc, args = json.loads(sys.argv[1])
mod = hipcc.compile(filename=src, include_dirs=inc)
t2 = time.perf_counter()
status = mod.run(args)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "compile": t2 - t1, "host_build": sum(built),
                  "run": t3 - t2, "status": status}))
"""


def child(src: Path, inc: list[Path], args: list[str], cache: str) -> dict:
    env = {**os.environ, "GPUSIM_CACHE_DIR": cache, "NUMBA_CACHE_DIR": cache + "/numba"}
    done = subprocess.run([sys.executable, "-c", _CHILD,
                           json.dumps([str(src), [str(i) for i in inc], args])],
                          capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    print("| program | first compile (host build) | cached compile | run | status |")
    print("| --- | --- | --- | --- | --- |")
    for name, (src, inc, args) in PROGRAMS.items():
        first, cached = [], []
        for _ in range(3):
            with tempfile.TemporaryDirectory() as cache:
                first.append(child(src, inc, args, cache))
                cached.append(child(src, inc, args, cache))
        med = lambda rows, key: statistics.median(r[key] for r in rows)  # noqa: E731
        print(f"| {name} | {med(first, 'compile'):.2f} s ({med(first, 'host_build'):.2f} s) "
              f"| {med(cached, 'compile'):.2f} s | {med(cached, 'run'):.2f} s "
              f"| {first[0]['status']} |")


if __name__ == "__main__":
    main()
