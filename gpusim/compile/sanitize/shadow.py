"""The sanitizer's device library: shadow memory that checked code updates at each access.

Generated code on the checked path (``sanitize/instrument.py``) wraps every LDS index and
every index of a global array the kernel writes::

    tile[_ix(t, 256, ...)]   ->  tile[_lds1(_ix(t, 256, ...), READ, site, _b, _t, ...)]

The wrappers (``sanitize/ops.py``) return the index unchanged, so semantics do not change,
after ``lds_access`` / ``global_access`` here updated the element's shadow and recorded
any finding. These work compiled and as plain Python (the reference path).

Speed matters (the target is a checked path under 20x the fast path), which shapes the
code: the access functions take the shadow, counters and findings as raw addresses and
view them with ``numba.carray`` (a numba call passing arrays pays reference counting,
more than the check itself), and compiled they are inlined into the kernel (``ops.py``);
their race tests are written out, not looped over the groups of a row (a third of
the cost), and use no closures or ``inline="always"`` helpers (numba's inliner dropped
stores there; ``tests/check/test_shadow.py`` holds the compiled code to the Python).

State, one tuple ``_chk = (cst, fnd, lsh, loff, gsh, goff)`` per launch (see
``gpusim.engine.sanitizer``):

- ``cst``: counters: block generation, barrier epoch, wave-sync count, wave size, ...;
- ``fnd``: the findings table, one row per distinct (kind, site, site), with a count;
- ``lsh``: LDS shadow, one row per element, ``LDS_COLS`` columns: the work-group
  generation that wrote it (negative: read before any write, decided later), then
  (epoch, wave-sync, thread, site) of the last write, of two reads by different threads,
  of the last atomic and of a pending uninitialised read;
- ``gsh``: shadow of written global arrays, one row per element: (block, thread, site)
  of the last write, of reads by two different blocks and of the last atomic.

Ordering (what is *not* a race): two LDS accesses are ordered if a barrier lies between
them (different epoch), if one thread made both, or if both threads are lanes of one
wavefront and a wavefront collective (``syncwarp``, a shuffle, a vote) lies between them.
Lanes of a wavefront are *not* assumed to run in lockstep. Two atomics never race.
Global memory: accesses by different work-groups of one launch are never ordered
(threadfence + atomic flag protocols are not understood and are reported).

Not checked (simplifications): races on global memory *within* one work-group (LDS is
checked there); two array arguments that alias the same memory (each has its own
shadow); dynamic LDS arrays of different element types (they share shadow rows by
element index); arrays of more than 3 dimensions (bounds-checked, not race-checked).

Uninitialised LDS: a read of an element no thread of the work-group has written is held
as *pending*. A later write by another thread, unordered with the read, makes it a race
(reported as one); otherwise (a write after a barrier, or none before the work-group
ends: ``_lds_flush``) it is reported as an uninitialised read.

>>> import numpy as np
>>> cst, fnd = np.array([1, 1, 0, 64, 0, 0, 0, 0]), np.zeros((MAX_FINDINGS, FIND_COLS), np.int64)
>>> lsh = np.full((4, LDS_COLS), -1, np.int32); lsh[:, L_GEN] = 0   # as the engine makes it
>>> at = (lsh.ctypes.data, 4, 0, cst.ctypes.data, fnd.ctypes.data)
>>> _ = lds_access(2, WRITE, 7, 0, 5, *at)   # thread 5 writes element 2
>>> _ = lds_access(2, READ, 8, 0, 70, *at)   # thread 70 reads it: no barrier between
>>> int(cst[NFOUND]), fnd[0, :4].tolist()    # one finding: (kind, sites, count)
(1, [1, 7, 8, 1])
"""

from __future__ import annotations

import ctypes

import numba
from numba.core import types
from numba.extending import intrinsic, overload, register_jitable

READ, WRITE, UPDATE, ATOMIC = 0, 1, 2, 3
ACCESS_KIND = {"read": READ, "write": WRITE, "update": UPDATE, "atomic": ATOMIC}
LDS_RACE, GLOBAL_RACE, UNINIT_LDS = 1, 2, 3

# cst slots
GEN, EPOCH, WSYNC, WAVE, NFOUND, DROPPED, LASTBLOCK, NPENDING = 0, 1, 2, 3, 4, 5, 6, 7
# findings table: kind, first site, second site, count, then the first example
MAX_FINDINGS, FIND_COLS = 64, 10
F_KIND, F_SITE_A, F_SITE_B, F_COUNT, F_BLOCK_A, F_THREAD_A, F_BLOCK_B, F_THREAD_B, F_INDEX = (
    0, 1, 2, 3, 4, 5, 6, 7, 8)
# LDS shadow: written-generation (0 at first), then 5 groups of (epoch, wave-sync, thread,
# site), -1 at first
LDS_COLS = 21
L_GEN, L_W, L_R, L_Q, L_A, L_P = 0, 1, 5, 9, 13, 17
# global shadow: 4 groups of (block, thread, site)
GLOBAL_COLS = 12
G_W, G_R, G_Q, G_A = 0, 3, 6, 9


@register_jitable
def _record(fnd, cst, kind, site_a, site_b, block_a, thread_a, block_b, thread_b, index):
    """Count a finding under (kind, site_a, site_b); keep the first example of each."""
    n = cst[NFOUND]
    for r in range(n):
        if fnd[r, F_KIND] == kind and fnd[r, F_SITE_A] == site_a and fnd[r, F_SITE_B] == site_b:
            fnd[r, F_COUNT] += 1
            return
    if n >= fnd.shape[0]:
        cst[DROPPED] += 1
        return
    fnd[n, F_KIND], fnd[n, F_SITE_A], fnd[n, F_SITE_B], fnd[n, F_COUNT] = kind, site_a, site_b, 1
    fnd[n, F_BLOCK_A], fnd[n, F_THREAD_A] = block_a, thread_a
    fnd[n, F_BLOCK_B], fnd[n, F_THREAD_B], fnd[n, F_INDEX] = block_b, thread_b, index
    cst[NFOUND] = n + 1


@register_jitable
def _unordered(epoch0, wsync0, t0, epoch, wsync, t, wave):
    """Was thread ``t0``'s access (at epoch0, wsync0) unordered with thread ``t``'s now?"""
    if epoch0 != epoch or t0 == t or t0 < 0:
        return False  # a barrier in between, the same thread, or never accessed
    return wsync0 == wsync or t0 // wave != t // wave


@register_jitable
def _conflicts(kind, group, w, a):
    """Does an access of ``kind`` conflict with the earlier access in ``group``?

    Reads conflict with writes (``w``) and atomics (``a``); writes and updates with
    everything; atomics with everything but atomics.
    """
    if group == w:
        return True
    if group == a:
        return kind != ATOMIC
    return kind != READ


def _pointer_to(ctype, nbtype):
    def as_pointer(addr):
        """An address as a pointer ``numba.carray`` can view (Python: a ctypes pointer)."""
        return ctypes.cast(addr, ctypes.POINTER(ctype))

    @intrinsic
    def _raw(typingctx, addr):
        def codegen(context, builder, sig, args):
            return builder.inttoptr(args[0], context.get_value_type(sig.return_type))
        return types.CPointer(nbtype)(addr), codegen

    overload(as_pointer)(lambda addr: lambda addr: _raw(addr))
    return as_pointer


_i32_at = _pointer_to(ctypes.c_int32, types.int32)
_i64_at = _pointer_to(ctypes.c_int64, types.int64)


@register_jitable
def lds_access(i, kind, site, b, t, sh_at, rows, base, cst_at, fnd_at):
    """Thread ``t``'s access to element ``i`` of an LDS array, in its shadow; returns ``i``.

    ``sh_at``, ``cst_at``, ``fnd_at``: addresses of the LDS shadow (``rows`` rows), the
    counters and the findings table; ``base``: the array's first shadow row.
    """
    sh = numba.carray(_i32_at(sh_at), (rows, LDS_COLS))
    cst = numba.carray(_i64_at(cst_at), 8)
    e = base + i
    gen, epoch, wsync, wave = cst[GEN], cst[EPOCH], cst[WSYNC], cst[WAVE]
    if kind != WRITE and sh[e, L_GEN] != gen and sh[e, L_GEN] != -gen:
        sh[e, L_GEN] = -gen  # read before any write: uninitialised, or a race (see above)
        sh[e, L_P], sh[e, L_P + 1], sh[e, L_P + 2], sh[e, L_P + 3] = epoch, wsync, t, site
        cst[NPENDING] += 1
    # Written out, not as a loop over the groups (a loop costs a third of the check).
    # (No closures or inlined helpers taking arrays here: numba's inliner drops stores.)
    clash = _unordered(sh[e, L_W], sh[e, L_W + 1], sh[e, L_W + 2], epoch, wsync, t, wave)
    if kind != ATOMIC:
        clash = clash or _unordered(sh[e, L_A], sh[e, L_A + 1], sh[e, L_A + 2], epoch, wsync,
                                    t, wave)
    if kind != READ:
        clash = clash or _unordered(sh[e, L_R], sh[e, L_R + 1], sh[e, L_R + 2], epoch, wsync,
                                    t, wave)
        clash = clash or _unordered(sh[e, L_Q], sh[e, L_Q + 1], sh[e, L_Q + 2], epoch, wsync,
                                    t, wave)
    if clash:  # a race: record each conflicting access (rare, so a loop is fine)
        fnd = numba.carray(_i64_at(fnd_at), (MAX_FINDINGS, FIND_COLS))
        for g in (L_W, L_A, L_R, L_Q):
            if _conflicts(kind, g, L_W, L_A) and _unordered(
                    sh[e, g], sh[e, g + 1], sh[e, g + 2], epoch, wsync, t, wave):
                _record(fnd, cst, LDS_RACE, sh[e, g + 3], site, b, sh[e, g + 2], b, t, i)
    if kind == READ or kind == UPDATE:  # remember two readers (different threads)
        g = L_R if sh[e, L_R] != epoch or sh[e, L_R + 2] == t else L_Q
        sh[e, g], sh[e, g + 1], sh[e, g + 2], sh[e, g + 3] = epoch, wsync, t, site
    if kind != READ:
        g = L_A if kind == ATOMIC else L_W
        sh[e, g], sh[e, g + 1], sh[e, g + 2], sh[e, g + 3] = epoch, wsync, t, site
        pending = sh[e, L_GEN] == -gen
        sh[e, L_GEN] = gen
        cst[NPENDING] -= pending
        if pending and not _unordered(sh[e, L_P], sh[e, L_P + 1], sh[e, L_P + 2], epoch,
                                      wsync, t, wave):  # (else: reported as a race above)
            _uninit(sh, e, cst, numba.carray(_i64_at(fnd_at), (MAX_FINDINGS, FIND_COLS)), b)
    return i


@register_jitable
def _uninit(sh, e, cst, fnd, b):
    """Report the pending read of row ``e`` (``F_INDEX`` holds the row, not the index)."""
    site, t = sh[e, L_P + 3], sh[e, L_P + 2]
    _record(fnd, cst, UNINIT_LDS, site, site, b, t, b, t, e)


@register_jitable
def _lds_flush(sh, cst, fnd):
    """End of a work-group: its reads of elements nobody wrote were uninitialised."""
    gen = cst[GEN]
    if cst[NPENDING] == 0:
        return  # (the usual case: no scan)
    for e in range(sh.shape[0]):
        if gen > 0 and sh[e, L_GEN] == -gen:
            _uninit(sh, e, cst, fnd, cst[LASTBLOCK])
            sh[e, L_GEN] = 0  # reported: not again
    cst[NPENDING] = 0


@register_jitable
def global_access(i, kind, site, b, t, sh_at, rows, base, cst_at, fnd_at):
    """An access to element ``i`` of a written global array, in its shadow; returns ``i``.

    (Arguments as for ``lds_access``.)
    """
    sh = numba.carray(_i32_at(sh_at), (rows, GLOBAL_COLS))
    e = base + i
    w, a, r, q = sh[e, G_W], sh[e, G_A], sh[e, G_R], sh[e, G_Q]  # blocks of earlier accesses
    clash = (w >= 0 and w != b) or (kind != ATOMIC and a >= 0 and a != b) or (
        kind != READ and ((r >= 0 and r != b) or (q >= 0 and q != b)))
    if clash:  # a race: record each conflicting access (rare, so a loop is fine)
        cst = numba.carray(_i64_at(cst_at), 8)
        fnd = numba.carray(_i64_at(fnd_at), (MAX_FINDINGS, FIND_COLS))
        for g in (G_W, G_A, G_R, G_Q):
            other = sh[e, g]
            if other >= 0 and other != b and _conflicts(kind, g, G_W, G_A):
                _record(fnd, cst, GLOBAL_RACE, sh[e, g + 2], site, other, sh[e, g + 1], b, t,
                        i)
    if kind == READ or kind == UPDATE:  # remember readers from two different blocks
        if sh[e, G_R] < 0 or sh[e, G_R] == b:
            sh[e, G_R], sh[e, G_R + 1], sh[e, G_R + 2] = b, t, site
        elif sh[e, G_Q] < 0 or sh[e, G_Q] == b:
            sh[e, G_Q], sh[e, G_Q + 1], sh[e, G_Q + 2] = b, t, site
    if kind != READ:
        g = G_A if kind == ATOMIC else G_W
        sh[e, g], sh[e, g + 1], sh[e, g + 2] = b, t, site
    return i
