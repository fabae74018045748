"""The device-side library that generated kernel code calls.

Everything here works both compiled (numba) and as plain Python (the reference path),
so one generated module serves both. The parts:

- ``KernelFaultError``: how generated code stops a kernel (bounds, divergent barrier, assert,
  watchdog); the engine turns it into a ``HipError`` naming thread, block and line;
- ``_ix``: bounds-checked indexing (a negative index is out of bounds, as on a GPU);
- wave collectives over a whole work-group at once (``_shfl``, ``_vote``) and barrier
  checks (``_barrier``, ``_sync_count``), following HIP's ``amd_warp_functions.h``;
- the watchdog poll (``_poll``), placed in every ``while`` loop and block-level loop, and
  every 2**16 iterations of a thread's ``for`` loops; its ``site`` names the loop.

Shuffle semantics (HIP on AMD, ``__shfl*`` via ``ds_bpermute``): the source lane is computed
within the ``width`` segment; shfl_up/down/xor sources outside the segment fall back to
the caller's own lane; reading an inactive (or non-existent) lane returns 0, as
``ds_bpermute`` does.

>>> import numpy as np
>>> out = np.zeros(4, np.float64); val = np.arange(4.0); on = np.ones(4, np.bool_)
>>> _shfl(out, val, 1, 4, on, 4, 4, SHFL_DOWN); out
array([1., 2., 3., 3.])
"""

from __future__ import annotations

import cmath  # noqa: F401 - generated code calls _cmath.sqrt(...)

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic, overload, register_jitable

from gpusim.compile.device.atomics import (  # noqa: F401 - names used by generated code
    PLAIN,
    atomic_add,
    atomic_and,
    atomic_cas,
    atomic_dec,
    atomic_exch,
    atomic_inc,
    atomic_max,
    atomic_min,
    atomic_nanmax,
    atomic_nanmin,
    atomic_or,
    atomic_sub,
    atomic_xor,
)
from gpusim.compile.device.bf16 import bf16_bits  # noqa: F401 - generated code: hip.bf16
from gpusim.compile.device.half import (  # noqa: F401 - names used by generated code
    f16_bits,
    f16_round,
    f16_value,
    habs,
    hadd,
    hdiv,
    heq,
    hfma,
    hge,
    hgt,
    hle,
    hlt,
    hmax,
    hmin,
    hmul,
    hne,
    hneg,
    hsub,
)
from gpusim.compile.device.machine_ops import (  # noqa: F401 - names used by generated code
    _load_raw,
    brev,
    clz,
    ffs,
    fma,
    load_relaxed,
    popc,
    threadfence,
)
from gpusim.compile.device.mathlib import (  # noqa: F401 - names used by generated code
    cmath_acosh,
    cmath_cosh,
    cmath_log10,
    cmath_phase,
    cmath_polar,
    cmath_rect,
    cmath_sinh,
    cmath_tanh,
    math_cbrt,
    math_fmod,
    math_modf,
    math_remainder,
    round_ndigits,
)
from gpusim.compile.device.printf import printf  # noqa: F401 - generated code: hip.printf
from gpusim.compile.lang_vectors import *  # noqa: F403 - cuda.float32x4 ... (generated code)

# Helpers compile once per machine, not once per process: cache=True keeps their machine
# code on disk (next to this file, or in numba's per-user cache if that is read-only).

FAULT_BOUNDS, FAULT_BARRIER, FAULT_ASSERT, FAULT_STOPPED = 1, 2, 3, 4
SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR = 0, 1, 2, 3
VOTE_BALLOT, VOTE_ANY, VOTE_ALL, VOTE_ACTIVE = 0, 1, 2, 3
SYNC_COUNT, SYNC_AND, SYNC_OR = 0, 1, 2

plain_add, plain_sub, plain_max, plain_min = PLAIN["add"], PLAIN["sub"], PLAIN["max"], PLAIN["min"]
plain_exch, plain_and, plain_or, plain_xor = PLAIN["exch"], PLAIN["and"], PLAIN["or"], PLAIN["xor"]
plain_inc, plain_dec, plain_cas = PLAIN["inc"], PLAIN["dec"], PLAIN["cas"]
plain_nanmax, plain_nanmin = PLAIN["nanmax"], PLAIN["nanmin"]


class KernelFaultError(Exception):
    """Raised by generated code: ``(code, site, block, thread, value, limit)``."""


def kernel_jit(reference: bool = False, cache: bool = True):
    """The decorator of generated functions: numba (cached, GIL released) or none."""
    if reference:
        return lambda f: f
    return numba.njit(cache=cache, nogil=True, error_model="numpy")


def _ix_python(i, n, site, b, t, ctl):
    """``i`` if ``0 <= i < n``; otherwise stop the kernel with a bounds fault."""
    if i < 0 or i >= n:
        raise KernelFaultError(FAULT_BOUNDS, site, b, t, i, n)
    return i


@intrinsic
def _ix(typingctx, i, n, site, b, t, ctl):
    """``_ix_python`` as inline machine code: a compare and a cold branch that raises.

    An intrinsic rather than a function: a call per index (one that may raise) is not
    always inlined by LLVM and then costs up to 30x in inner loops, and numba-level
    inlining costs compile time at every index. The cold branch writes the fault into
    ``ctl[1:7]`` (first fault wins) and raises a constant exception, which keeps the
    code per index small; the engine reads the details back from ``ctl``.
    """
    scalars = (i, n, site, b, t)
    if not all(isinstance(x, (types.Integer, types.Boolean)) for x in scalars):
        return None

    def codegen(context, builder, signature, args):
        i64 = types.int64
        vals = [context.cast(builder, v, ty, i64) for v, ty in zip(args[:5], scalars,
                                                                     strict=True)]
        index, bound = vals[0], vals[1]
        zero = ir.Constant(index.type, 0)
        bad = builder.or_(builder.icmp_signed("<", index, zero),
                          builder.icmp_signed(">=", index, bound))
        if isinstance(i, types.Integer) and not i.signed and i.bitwidth == 64:
            bad = builder.or_(bad, builder.icmp_unsigned(">=", args[0], ir.Constant(
                args[0].type, 1 << 63)))  # > 2**63 reads as negative above
        with builder.if_then(bad, likely=False):
            record = context.make_array(ctl)(context, builder, args[5]).data
            first = builder.cmpxchg(builder.gep(record, [ir.Constant(index.type, 1)]), zero,
                                    ir.Constant(index.type, FAULT_BOUNDS), "seq_cst",
                                    "seq_cst")
            with builder.if_then(builder.extract_value(first, 1)):
                for slot, value in enumerate((vals[2], vals[3], vals[4], index, bound), 2):
                    builder.store(value, builder.gep(record, [ir.Constant(index.type, slot)]))
            context.call_conv.return_user_exc(builder, KernelFaultError, (FAULT_BOUNDS,))
        return args[0]
    return i(i, n, site, b, t, ctl), codegen


@register_jitable(cache=True)
def nonzero(d, site, b, t):
    """``d``, or a fault at ``site``: a division by zero in a ``debug=True`` kernel
    (``passes/zero_division.py``)."""
    if d == 0:
        raise KernelFaultError(FAULT_ASSERT, site, b, t, 0, 0)
    return d


def _at(x, t):
    """``x[t]`` for a per-thread array, ``x`` for a number (collective operands)."""
    return x[t] if isinstance(x, np.ndarray) else x


@overload(_at)
def _ov_at(x, t):
    if isinstance(x, numba.types.Array):
        return lambda x, t: x[t]
    return lambda x, t: x


@register_jitable(cache=True)
def _shfl(out, val, src, width, mask, nt, wave, kind):
    """Every active lane t gets ``val`` of its source lane (HIP ``__shfl*``)."""
    for t in range(nt):
        if not mask[t]:
            continue
        lane = t & (wave - 1)
        base = t - lane
        w = _at(width, t)
        s = _at(src, t)
        seg = lane & ~(w - 1)
        if kind == SHFL_IDX:
            index = (s & (w - 1)) + seg
        elif kind == SHFL_UP:
            index = lane - s
            if index < seg:
                index = lane
        elif kind == SHFL_DOWN:
            index = lane + s
            if (lane & (w - 1)) + s >= w:
                index = lane
        else:
            index = lane ^ s
            if index >= ((lane + w) & ~(w - 1)):
                index = lane
        st = base + (index & (wave - 1))  # ds_bpermute wraps within the wave
        if st < nt and mask[st]:
            out[t] = _at(val, st)
        else:
            out[t] = 0  # an inactive source lane reads as 0 (ds_bpermute)


@register_jitable(cache=True)
def _vote(out, pred, mask, nt, wave, kind):
    """ballot / any / all / activemask over each wave's active lanes.

    The member mask of CUDA's ``*_sync`` spellings is not applied: every active lane takes
    part (CUDA code passes 0xffffffff to mean "the whole warp", which on a wave64 device
    would otherwise drop lanes 32-63).
    """
    for base in range(0, nt, wave):
        bits = np.uint64(0)
        active = np.uint64(0)
        for lane in range(min(wave, nt - base)):
            t = base + lane
            if mask[t]:
                bit = np.uint64(1) << np.uint64(lane)
                active |= bit
                if _at(pred, t):
                    bits |= bit
        for lane in range(min(wave, nt - base)):
            t = base + lane
            if mask[t]:
                if kind == VOTE_BALLOT:
                    out[t] = bits
                elif kind == VOTE_ANY:
                    out[t] = 1 if bits != 0 else 0
                elif kind == VOTE_ALL:
                    out[t] = 1 if bits == active else 0
                else:
                    out[t] = active


@register_jitable(cache=True)
def _barrier(mask, alive, nt, site, b):
    """A barrier under divergent control: every live thread must have arrived, unless
    none did (then no thread executed it: e.g. the last test of a loop every thread left).

    The fault carries (site, block, first missing thread, arrived, live threads, first
    thread that arrived, threads that had returned) for the message.
    """
    arrived = 0
    missing = -1
    first = -1
    total = 0
    for t in range(nt):
        if alive[t]:
            total += 1
            if mask[t]:
                arrived += 1
                if first < 0:
                    first = t
            elif missing < 0:
                missing = t
    if missing >= 0 and arrived > 0:
        raise KernelFaultError(FAULT_BARRIER, site, b, missing, arrived, total, first,
                               nt - total)


@register_jitable(cache=True)
def _sync_count(pred, mask, alive, nt, kind, site, b):
    """syncthreads_count / _and / _or: a barrier that also counts ``pred``."""
    _barrier(mask, alive, nt, site, b)
    n = 0
    total = 0
    for t in range(nt):
        if alive[t]:
            total += 1
            if _at(pred, t):
                n += 1
    if kind == SYNC_COUNT:
        return np.int32(n)
    if kind == SYNC_AND:
        return np.int32(1 if n == total else 0)
    return np.int32(1 if n > 0 else 0)


@register_jitable(cache=True)
def _copy_mask(dst, src):
    """dst[:] = src, as a plain loop (numba's array slice assignment costs ~1 s to compile)."""
    for t in range(dst.shape[0]):
        dst[t] = src[t]


@register_jitable(cache=True)
def _any_set(mask, nt):
    for t in range(nt):
        if mask[t]:
            return True
    return False


def _poll(ctl, b, site):
    """Stop here if the watchdog fired or another worker faulted (checked in loops).

    ``site`` is the loop's fault site, so a watchdog stop can name the loop.
    """
    if ctl[0] != 0:
        raise KernelFaultError(FAULT_STOPPED, site, b, -1, 0, 0)


@overload(_poll, jit_options={"cache": True})
def _ov_poll(ctl, b, site):
    def impl(ctl, b, site):
        if _load_raw(ctl, 0) != 0:  # an atomic load: the flag is set by another thread
            raise KernelFaultError(FAULT_STOPPED, site, b, -1, 0, 0)
    return impl
