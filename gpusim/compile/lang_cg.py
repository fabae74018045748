"""``hip.cg``: HIP's cooperative groups in the kernel language.

HIP C++ names groups of threads with ``cooperative_groups::this_grid()``,
``this_thread_block()`` and ``tiled_partition<N>(block)``; a ``@hip.jit`` kernel writes
the same names under ``hip.cg``::

    g = hip.cg.this_grid()                  # every thread of a cooperative launch
    b = hip.cg.this_thread_block()          # the work-group
    t = hip.cg.tiled_partition(b, 16)       # 16 consecutive threads of one wavefront

and calls their methods: ``thread_rank()``, ``size()``, ``sync()``; a tile also has
``meta_group_rank()``, ``meta_group_size()``, ``shfl``/``shfl_up``/``shfl_down``/
``shfl_xor`` and ``ballot``/``any``/``all`` restricted to its own lanes. Groups are not
values at run time: ``passes/groups.py`` rewrites each use into the kernel language
(``t.shfl_down(v, 1)`` is ``hip.shfl_down(v, 1, 16)``, ``b.sync()`` is
``hip.syncthreads()``, ``g.sync()`` the grid barrier of a cooperative launch), so a
group is used only through its methods, in the kernel or device function that made it.

These three names are stubs: called outside a kernel they say so.

>>> this_thread_block()
Traceback (most recent call last):
  ...
RuntimeError: hip.cg.this_thread_block() can only be called inside a @hip.jit kernel
"""

from __future__ import annotations

from gpusim.compile.lang import Stub

this_grid = Stub("cg.this_grid", "this_grid(): the grid group; g.sync() is a barrier across "
                 "the whole (cooperative) launch.")
this_thread_block = Stub("cg.this_thread_block", "this_thread_block(): the work-group; "
                         "b.sync() is hip.syncthreads().")
tiled_partition = Stub("cg.tiled_partition", "tiled_partition(parent, n): the parent (a "
                       "block or a tile) cut into tiles of n consecutive threads; n a power "
                       "of two, at most the wavefront size, known when the kernel compiles.")

__all__ = ["this_grid", "this_thread_block", "tiled_partition"]
