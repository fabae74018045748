"""What ``kernel.inspect_generated()`` shows: the generated code a learner reads.

The module numba compiles starts with imports and the switch to the pure-Python
reference path; a learner wants the kernel. ``listing`` keeps the header (now naming the
device and the launch shape), the kernel's constants and its two functions, and drops
the scaffolding. The module itself (``CompiledKernel.source``) is unchanged.

>>> src = '''# gpusim: generated from kernel 'k' (k.py, line 1)
... # specialized for: out: array(float32, 1d, C); wave size 64
... import numpy as np  # noqa: F401
...
... _jit = _kernel_jit(False)
... N = 4
...
...
... @_jit
... def k__run(_b0, _b1, out, _lp, _ctl):
...     pass
... '''
>>> print(listing(src, device="mi300x", grid=(4, 1, 1), block=(64, 1, 1)))
# gpusim: generated from kernel 'k' (k.py, line 1)
# for mi300x, launched as grid (4, 1, 1) x block (64, 1, 1) = 256 threads
# specialized for: out: array(float32, 1d, C); wave size 64
<BLANKLINE>
N = 4
<BLANKLINE>
<BLANKLINE>
@_jit
def k__run(_b0, _b1, out, _lp, _ctl):
    pass
"""

from __future__ import annotations

import math
import re

_CONSTANT = re.compile(r"^[A-Za-z]\w* = ")  # a kernel constant (not _jit, not an import)


def listing(source: str, *, device: str | None = None, grid: tuple | None = None,
            block: tuple | None = None) -> str:
    """``source`` from its kernel function on, under its header comments (with a line
    naming ``device`` and the launch shape, when known)."""
    lines = source.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith("@_jit")), 0)
    header = []
    for ln in lines:
        if not ln.startswith("#"):
            break
        header.append(ln)
    where = []
    if device:
        where.append(f"for {device}")
    if grid and block:
        where.append(f"launched as grid {tuple(grid)} x block {tuple(block)} = "
                     f"{math.prod(grid) * math.prod(block)} threads")
    if where:
        header.insert(1, "# " + ", ".join(where))
    constants = [ln for ln in lines[len(header):start] if _CONSTANT.match(ln)]
    body = lines[start:]
    return "\n".join(header + [""] + constants + ([""] if constants else []) + [""] + body
                     ).rstrip("\n")
