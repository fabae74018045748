"""What the trace variant of a kernel calls: record one lane's memory access.

The trace variant (``trace/instrument.py``) wraps every global and LDS index of the kernel in
``trace_ix1`` .. ``trace_ix4``: each returns the index unchanged, so the access itself is
the fast path's, and appends one *event* to the launch's trace buffers on the way:

=============  ===================================================================
``tr[0]``      int64 [capacity]: the byte address (device address of the array's
               element 0 + the element's byte offset; for LDS, the offset into the
               workgroup's LDS)
``tr[1]``      int64 [capacity]: the key ``region instance << 26 | (site * 4 + kind)
               << 10 | thread``, from which ``trace/rows.py`` rebuilds wavefront
               instructions
``tr[2]``      int64 [4]: ``[0]`` events so far (it keeps counting past the capacity,
               so the engine sees an overflow), ``[1]`` the region instance counter,
               ``[2]`` 1 + the work-group being traced (0: none yet)
``tr[3]``      int64 [6, threads + 1]: per-thread instruction counters (VALU, branch,
               FLOPs, SALU, SMEM, FMA; the last column: once per workgroup)
``tr[4]``      int64 [arguments]: device address of each array argument
``tr[5]``      int64 [work-groups + 1]: the first event of each traced work-group
``tr[6]``      int64 [work-groups, 6]: each work-group's instruction counts, summed over
               its waves (``trace_workgroup`` folds the per-thread counters in)
=============  ===================================================================

``kind`` is 0 load, 1 store, 2 atomic; 3 means ``a[i] += v``: a load and a store.
``trace_ix1`` .. ``trace_ix4`` are numba intrinsics (inline machine code, like ``_ix``);
``trace_ix_python`` is their meaning in plain Python.

>>> import numpy as np
>>> tr = buffers(4, threads=8, n_args=1)
>>> trace_ix_python(tr, 5 * 4 + 3, 7, 4096, (4,), (10,))    # thread 7: a[10] += ..., site 5
10
>>> tr[0][:2].tolist(), (tr[1][:2] & 1023).tolist(), (tr[1][:2] >> 10 & 3).tolist()
([4136, 4136], [7, 7], [0, 1])
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import literal_unroll
from numba.core import types
from numba.extending import intrinsic, overload, register_jitable

KIND_UPDATE = 3  # a read-modify-write by a plain `a[i] op= v`
THREAD_BITS, SITE_KIND_BITS = 10, 16  # a workgroup has at most 1024 threads
MAX_SITES = (1 << SITE_KIND_BITS) // 4
RI_SHIFT = THREAD_BITS + SITE_KIND_BITS
# rows of tr[3]; mfma: matrix instructions, mfma_cycles: the matrix core's busy cycles,
# mfma_flops: their FLOPs, a 64th of an instruction's per lane (count_mfma)
COUNTERS = ("valu", "branch", "flops", "salu", "smem", "fma", "mfma", "mfma_cycles",
            "mfma_flops")
PER_LANE = (2, 5, 8)  # FLOPs, FMAs and MFMA FLOPs count every lane; the others a wave's
# busiest lane


def record_python(tr: tuple, sk: int, t: int, addr: int) -> None:
    """Append lane ``t``'s access of ``addr`` (what the intrinsics below emit inline)."""
    key = (int(tr[2][1]) << RI_SHIFT) | ((sk & ~3) << THREAD_BITS) | t
    kinds = (0, 1) if sk & 3 == KIND_UPDATE else (sk & 3,)  # `a[i] += v`: read, write
    for kind in kinds:
        n = int(tr[2][0])
        if n < tr[0].shape[0]:
            tr[0][n], tr[1][n] = addr, key | (kind << THREAD_BITS)
        tr[2][0] = n + 1  # past the capacity it still counts: the engine sees the overflow


def trace_ix_python(tr: tuple, sk: int, t: int, base: int, strides: tuple, index: tuple):
    """The reference meaning of ``trace_ixN``: record, then return the index."""
    record_python(tr, sk, t, base + sum(int(i) * s for i, s in zip(index, strides, strict=True)))
    return index[0] if len(index) == 1 else index


def _trace_ix_codegen(nd: int):
    """LLVM for ``trace_ix{nd}``: inline, no call, so no reference counting per access
    (a call taking the buffers costs ~3x; numba-level inlining costs compile time)."""

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)

        def as_i64(k):
            return context.cast(builder, args[k], sig.args[k], types.int64)

        addr = as_i64(3)
        for k in range(nd):
            addr = builder.add(addr, builder.mul(as_i64(4 + nd + k), as_i64(4 + k)))
        tr = args[0]
        events, keys, meta = (context.make_array(sig.args[0].types[i])(
            context, builder, builder.extract_value(tr, i)) for i in range(3))
        count = meta.data  # &meta[0]
        ri = builder.load(builder.gep(meta.data, [ir.Constant(i64, 1)]))
        sk = as_i64(1)
        kind = builder.and_(sk, ir.Constant(i64, 3))
        key = builder.or_(builder.shl(ri, ir.Constant(i64, RI_SHIFT)), builder.or_(
            builder.shl(builder.and_(sk, ir.Constant(i64, ~3)), ir.Constant(i64, THREAD_BITS)),
            as_i64(2)))
        capacity = builder.extract_value(events.shape, 0)
        update = builder.icmp_signed("==", kind, ir.Constant(i64, KIND_UPDATE))

        def put(k):
            n = builder.load(count)
            with builder.if_then(builder.icmp_signed("<", n, capacity), likely=True):
                builder.store(addr, builder.gep(events.data, [n]))
                builder.store(builder.or_(key, builder.shl(k, ir.Constant(i64, THREAD_BITS))),
                              builder.gep(keys.data, [n]))
            builder.store(builder.add(n, ir.Constant(i64, 1)), count)

        put(builder.select(update, ir.Constant(i64, 0), kind))  # a load first for `+=`
        with builder.if_then(update, likely=False):
            put(ir.Constant(i64, 1))
        index = args[4 + nd:]
        return index[0] if nd == 1 else context.make_tuple(builder, sig.return_type, index)

    return codegen


def _trace_typing(args: tuple, nd: int):
    tr, scalars, index = args[0], args[1:], args[4 + nd:]
    if not isinstance(tr, types.BaseTuple) or not all(
            isinstance(x, (types.Integer, types.Boolean)) for x in scalars):
        return None
    ret = index[0] if nd == 1 else types.BaseTuple.from_types(index)
    return ret(*args)


@intrinsic
def trace_ix1(typingctx, tr, sk, t, base, s0, i0):
    """``i0``, after recording the access ``base + i0 * s0`` (``sk`` = site * 4 + kind)."""
    return _trace_typing((tr, sk, t, base, s0, i0), 1), _trace_ix_codegen(1)


@intrinsic
def trace_ix2(typingctx, tr, sk, t, base, s0, s1, i0, i1):
    return _trace_typing((tr, sk, t, base, s0, s1, i0, i1), 2), _trace_ix_codegen(2)


@intrinsic
def trace_ix3(typingctx, tr, sk, t, base, s0, s1, s2, i0, i1, i2):
    args = (tr, sk, t, base, s0, s1, s2, i0, i1, i2)
    return _trace_typing(args, 3), _trace_ix_codegen(3)


@intrinsic
def trace_ix4(typingctx, tr, sk, t, base, s0, s1, s2, s3, i0, i1, i2, i3):
    args = (tr, sk, t, base, s0, s1, s2, s3, i0, i1, i2, i3)
    return _trace_typing(args, 4), _trace_ix_codegen(4)


def span(p, n: int) -> tuple[int, int, int]:
    """(start, stop, step) of one index of a subscript: an integer or a slice of a
    dimension of ``n`` elements (``slice.indices``, as NumPy clamps slice bounds).

    >>> span(3, 10), span(slice(None, None, -2), 5)
    ((3, 4, 1), (4, -1, -2))
    """
    return p.indices(n) if isinstance(p, slice) else (p, p + 1, 1)


@overload(span)
def _span_jit(p, n):
    if isinstance(p, types.SliceType):
        return lambda p, n: p.indices(n)
    return lambda p, n: (p, p + 1, 1)


@register_jitable
def trace_slice(tr, sk, t, base, strides, shape, parts):
    """``parts`` (the index: integers and slices), after recording every element it
    touches: ``a[0:2, 1] = v`` stores each element of the slice, one event apiece."""
    nd = len(strides)
    lo, step, count = np.empty(nd, np.int64), np.empty(nd, np.int64), np.empty(nd, np.int64)
    k = 0
    for p in literal_unroll(parts):
        a, b, c = span(p, shape[k])
        lo[k], step[k] = a, c
        count[k] = max(0, (b - a + c - (1 if c > 0 else -1)) // c)
        k += 1
    for flat in range(count.prod()):
        addr, rest = base, flat
        for d in range(nd - 1, -1, -1):
            addr += (lo[d] + rest % count[d] * step[d]) * strides[d]
            rest //= count[d]
        trace_ix1(tr, sk, t, addr, 1, 0)
    return parts


@register_jitable
def _fold(tr, wg, wave_size):
    """Work-group ``wg``'s per-thread counters -> its totals ``tr[6][wg]``; then zero them.

    A wave issues an instruction when any lane needs it: VALU, branch, SALU and SMEM
    counts are the busiest lane's; FLOPs and FMAs count every lane; the last column
    (scalar work done once per work-group) is issued by every wave.
    """
    c = tr[3]
    nt = c.shape[1] - 1
    waves = (nt + wave_size - 1) // wave_size
    for k in range(c.shape[0]):
        total = 0
        if k == 2 or k == 5 or k == 8:  # FLOPs, FMAs, MFMA FLOPs (PER_LANE)
            for t in range(nt):
                total += c[k, t]
        else:
            for w in range(waves):
                most = 0
                for t in range(w * wave_size, min(nt, (w + 1) * wave_size)):
                    most = max(most, c[k, t])
                total += most
        tr[6][wg, k] = total + c[k, nt] * waves
        c[k, :] = 0


@register_jitable
def trace_workgroup(tr, b, wave_size):
    """At the start of work-group ``b``: fold the previous one's counters, mark ``b``'s
    first event (``b`` counts from 0 in the traced prefix)."""
    meta = tr[2]
    if meta[2] > 0:
        _fold(tr, meta[2] - 1, wave_size)
    tr[5][b] = meta[0]
    meta[2] = b + 1


@numba.njit(cache=True)  # called from Python: _fold interpreted costs ~0.5 ms a call
def finish(tr: tuple, wave_size: int) -> None:
    """After the traced work-groups: fold the last one's counters, close its events."""
    meta = tr[2]
    if meta[2] > 0:
        _fold(tr, meta[2] - 1, wave_size)
        tr[5][meta[2]] = meta[0]
        meta[2] = 0


def buffers(capacity: int, threads: int, n_args: int, workgroups: int = 1
            ) -> tuple[np.ndarray, ...]:
    """Fresh trace buffers (the ``tr`` tuple above) for ``capacity`` events.

    >>> [a.shape for a in buffers(1024, 256, 3, workgroups=8)]
    [(1024,), (1024,), (4,), (9, 257), (3,), (9,), (8, 9)]
    """
    return (np.empty(capacity, np.int64), np.empty(capacity, np.int64), np.zeros(4, np.int64),
            np.zeros((len(COUNTERS), threads + 1), np.int64), np.zeros(n_args, np.int64),
            np.zeros(workgroups + 1, np.int64), np.zeros((workgroups, len(COUNTERS)), np.int64))


@register_jitable
def count_mfma(tr, mask, nt, cycles, flops_per_lane):
    """An MFMA statement ran: each active lane counts the instruction, the matrix core's
    cycles (a wave's count is its busiest lane's) and its share of the FLOPs."""
    for t in range(nt):
        if mask[t]:
            tr[3][6, t] += 1
            tr[3][7, t] += cycles
            tr[3][8, t] += flops_per_lane
