"""What LLVM made of the benchmark kernels' thread loops on this CPU.

    python tools/hot_loop_asm.py            # the six kernels of benchmarks/engine_bench.py
    python tools/hot_loop_asm.py vadd saxpy

For each kernel, the fast path's machine code (``<kernel>__run`` as numba compiled it for
this CPU) is searched for floating-point arithmetic: *packed* instructions work on a
whole ``ymm``/``zmm`` register of floats at once (the loop over threads was vectorised),
*scalar* ones on one float; moves, compares and integer work are not counted. Compiled
in a fresh temporary cache: numba shows no assembly for code loaded from its disk cache.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

ARITH = r"^\s*v(?:add|sub|mul|div|fn?m(?:add|sub)\d*|max|min)"  # the float arithmetic
PACKED = re.compile(ARITH + r"p[sd]\s+.*[yz]mm", re.M)  # vaddps %zmm1, ...: 8 or 16 floats
SCALAR = re.compile(ARITH + r"s[sd]\s", re.M)  # vaddss: one float


def counts(asm: str) -> tuple[int, int]:
    """(packed, scalar) floating-point instructions in ``asm``.

    >>> counts("  vaddps %zmm1, %zmm2, %zmm3\\n  vaddss %xmm0, %xmm1, %xmm1\\n")
    (1, 1)
    """
    return len(PACKED.findall(asm)), len(SCALAR.findall(asm))


def main(names: list[str]) -> None:
    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import engine_bench

    from gpusim import cuda

    print("| kernel | packed float instructions (ymm/zmm) | scalar float instructions |")
    print("|---|---|---|")
    for case in engine_bench.cases():
        if names and case.kernel.__name__ not in names:
            continue
        small = tuple(np.ascontiguousarray(a[(slice(0, 64),) * a.ndim])
                      if isinstance(a, np.ndarray) else a for a in case.args)
        ck = cuda.jit(case.kernel).specialize(*small).compiled
        ck.finish_compile()
        asm = "\n".join(ck.run.inspect_asm().values())
        packed, scalar = counts(asm)
        print(f"| {case.kernel.__name__} | {packed} | {scalar} |")


if __name__ == "__main__":
    cache = tempfile.mkdtemp(prefix="gpusim-asm-")
    os.environ["GPUSIM_CACHE_DIR"] = cache  # before numba is imported: it reads them once
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(cache, "numba")
    main(sys.argv[1:])
