"""numba.cuda.cg: cooperative groups -- the grid group.

``g = cuda.cg.this_grid()`` in a kernel, then ``g.sync()``: a barrier across every thread
of the launch. As in numba.cuda, a kernel that syncs its grid is launched cooperatively:
all its work-groups must be resident on the device at once, so a launch may have at most
``kernel.overloads[sig].max_cooperative_grid_blocks(blockdim)`` blocks (work-groups per
CU from the occupancy model, times the CUs); a larger one fails with
``hipErrorCooperativeLaunchTooLarge``. gpusim runs such a kernel phase by phase, every
work-group up to a grid sync before any goes past it
(``gpusim/compile/codegen/cooperative.py``).

What it refuses, with a compile error naming the line: a grid sync under a branch or loop
whose condition differs between threads (a value read from memory counts as such, so a
"persistent kernel" loop ``while flag[0] == 0: ... g.sync()`` is refused), inside a loop
with ``break``/``continue``, or a view of LDS kept across one. A grid-level condition that
differs between blocks stops the launch with hipErrorLaunchFailure naming both blocks.
Cooperative launches are timed from the roofline plus a modeled cost per grid sync, not
from a sampled trace (a traced work-group cannot pass a grid sync on its own).

>>> import numpy as np
>>> from gpusim import cuda
>>> @cuda.jit
... def shift(a):
...     i = cuda.grid(1)
...     g = cuda.cg.this_grid()
...     v = a[(i + 4) % a.size]      # a value of the next block
...     g.sync()
...     a[i] = v
>>> a = np.arange(12)
>>> shift[3, 4](a)
>>> a.tolist()
[4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3]
"""

from gpusim.compile.lang_cg import this_grid

__all__ = ["this_grid"]
