"""numba.cuda.cg: cooperative groups -- the grid group.

``g = cuda.cg.this_grid()`` in a kernel, then ``g.sync()``: a barrier across every thread
of the launch. gpusim runs cooperative launches of one work-group (see
``gpusim.compile.passes.grid_group`` for why), so ``g.sync()`` is the block barrier and a
larger launch of such a kernel stops with an assertion at ``this_grid()``;
``kernel.overloads[sig].max_cooperative_grid_blocks(blockdim)`` says 1.

>>> import numpy as np
>>> from gpusim import cuda
>>> @cuda.jit
... def shift(a):
...     i = cuda.grid(1)
...     g = cuda.cg.this_grid()
...     v = a[(i + 1) % a.size]
...     g.sync()
...     a[i] = v
>>> a = np.arange(4)
>>> shift[1, 4](a)
>>> a.tolist()
[1, 2, 3, 0]
"""

from gpusim.compile.passes.grid_group import this_grid

__all__ = ["this_grid"]
