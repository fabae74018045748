"""Atomic read-modify-write operations for the generated code.

Global-memory atomics run as real CPU atomics (LLVM ``atomicrmw`` / ``cmpxchg``, sequentially
consistent), because work-groups of one launch run on several host threads at once.
LDS and private-array atomics do not need that: a work-group runs on one host thread, so
``plain_*`` read-modify-write helpers are exact there and cheaper.

Each operation is a plain Python function (used by the pure-Python reference path) with a
numba ``@overload`` that the compiled path uses instead.

>>> import numpy as np
>>> a = np.zeros(4, np.int32)
>>> [int(v) for v in (atomic_add(a, 1, 5), atomic_add(a, 1, 2), a[1])]
[0, 5, 7]
>>> b = np.array([3], np.uint32); int(atomic_inc(b, 0, 3)), int(b[0])  # old >= val -> 0
(3, 0)
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload, register_jitable

# ------------------------------------------------------------------ reference (Python)


def nan_max(old, val):
    """numba.cuda's atomic.nanmax rule: a NaN is a missing value (np.nanmax of the two)."""
    return val if old != old else (old if val != val else max(old, val))


def nan_min(old, val):
    """numba.cuda's atomic.nanmin rule: a NaN is a missing value (np.nanmin of the two)."""
    return val if old != old else (old if val != val else min(old, val))


nan_max, nan_min = register_jitable(nan_max), register_jitable(nan_min)
_PICK = {"max": max, "min": min, "nanmax": nan_max, "nanmin": nan_min}


def _old_new(op: str, old, val, extra=None):
    if op in ("nanmax", "nanmin"):
        return _PICK[op](old, val)
    if op == "add":
        return old + val
    if op == "sub":
        return old - val
    if op == "max":
        return max(old, val)
    if op == "min":
        return min(old, val)
    if op == "exch":
        return val
    if op == "and":
        return old & val
    if op == "or":
        return old | val
    if op == "xor":
        return old ^ val
    if op == "inc":
        return 0 if old >= val else old + 1
    if op == "dec":
        return val if (old == 0 or old > val) else old - 1
    raise ValueError(op)


def _py_rmw(op: str):
    def rmw(ary, idx, val):
        old = ary[idx]
        ary[idx] = _old_new(op, old, ary.dtype.type(val))
        return old
    rmw.__name__ = f"atomic_{op}"
    return rmw


def atomic_cas(ary, idx, expected, val):
    """Store ``val`` at ``ary[idx]`` if it holds ``expected``; return the old value."""
    old = ary[idx]
    if old == expected:
        ary[idx] = val
    return old


# ------------------------------------------------------------------ compiled (LLVM)

_INT_OPS = {"add": "add", "sub": "sub", "exch": "xchg", "and": "and", "or": "or",
            "xor": "xor", "inc": "uinc_wrap", "dec": "udec_wrap"}
_FLOAT_OPS = {"add": "fadd", "sub": "fsub", "exch": "xchg", "max": "fmax", "min": "fmin"}


def _item_pointer(context, builder, aryty, ary, idxty, idx):
    array = context.make_array(aryty)(context, builder, ary)
    if isinstance(idxty, types.BaseTuple):
        parts = cgutils.unpack_tuple(builder, idx, len(idxty))
        part_types = idxty.types
    else:
        parts, part_types = [idx], [idxty]
    inds = [context.cast(builder, v, t, types.intp) for v, t in zip(parts, part_types, strict=True)]
    return cgutils.get_item_pointer(context, builder, aryty, array, inds, wraparound=False)


def _make_rmw_intrinsic(op: str):
    @intrinsic
    def rmw(typingctx, ary, idx, val):
        dtype = ary.dtype
        sig = dtype(ary, idx, val)

        def codegen(context, builder, signature, args):
            ptr = _item_pointer(context, builder, ary, args[0], idx, args[1])
            value = context.cast(builder, args[2], val, dtype)
            if isinstance(dtype, types.Float):
                return builder.atomic_rmw(_FLOAT_OPS[op], ptr, value, "seq_cst")
            if op in ("max", "min"):
                llop = op if dtype.signed else "u" + op
            else:
                llop = _INT_OPS[op]
            return builder.atomic_rmw(llop, ptr, value, "seq_cst")
        return sig, codegen
    return rmw


def _float_minmax_cas(op: str):
    """Float max/min by a compare-and-swap loop: Python's max()/min() NaN rules (a NaN
    stays), or the nan* rules (a NaN is replaced)."""
    pick = _PICK[op]
    keep_nan = op in ("max", "min")

    def impl(ary, idx, val):
        while True:
            old = ary[idx]
            if old != old and keep_nan:
                return old
            seen = _cas_raw(ary, idx, old, pick(old, val))
            if seen == old or (seen != seen and old != old):  # NaN == NaN is False
                return old
    return impl


@intrinsic
def _cas_raw(typingctx, ary, idx, expected, val):
    dtype = ary.dtype
    sig = dtype(ary, idx, expected, val)

    def codegen(context, builder, signature, args):
        ptr = _item_pointer(context, builder, ary, args[0], idx, args[1])
        exp = context.cast(builder, args[2], expected, dtype)
        new = context.cast(builder, args[3], val, dtype)
        if isinstance(dtype, types.Float):
            ity = ir.IntType(dtype.bitwidth)
            ptr = builder.bitcast(ptr, ity.as_pointer())
            res = builder.cmpxchg(ptr, builder.bitcast(exp, ity), builder.bitcast(new, ity),
                                  "seq_cst", "seq_cst")
            return builder.bitcast(builder.extract_value(res, 0), context.get_value_type(dtype))
        res = builder.cmpxchg(ptr, exp, new, "seq_cst", "seq_cst")
        return builder.extract_value(res, 0)
    return sig, codegen


def _register(op: str):
    py = _py_rmw(op)
    raw = _make_rmw_intrinsic(op.removeprefix("nan"))  # integers have no NaN

    @overload(py, jit_options={"nogil": True})
    def _ov(ary, idx, val):
        if op in _PICK and isinstance(ary.dtype, types.Float):
            return _float_minmax_cas(op)
        return lambda ary, idx, val: raw(ary, idx, val)
    return py


atomic_add = _register("add")
atomic_sub = _register("sub")
atomic_max = _register("max")
atomic_min = _register("min")
atomic_nanmax = _register("nanmax")
atomic_nanmin = _register("nanmin")
atomic_exch = _register("exch")
atomic_and = _register("and")
atomic_or = _register("or")
atomic_xor = _register("xor")
atomic_inc = _register("inc")
atomic_dec = _register("dec")


@overload(atomic_cas, jit_options={"nogil": True})
def _ov_cas(ary, idx, expected, val):
    return lambda ary, idx, expected, val: _cas_raw(ary, idx, expected, val)


# LDS / private arrays: one host thread owns the work-group, so plain code is atomic.
def _plain(op: str):
    def impl(ary, idx, val):
        old = ary[idx]
        if op == "add":
            ary[idx] = old + val
        elif op == "sub":
            ary[idx] = old - val
        elif op == "max":
            ary[idx] = max(old, val)
        elif op == "min":
            ary[idx] = min(old, val)
        elif op == "nanmax":
            ary[idx] = nan_max(old, val)
        elif op == "nanmin":
            ary[idx] = nan_min(old, val)
        elif op == "exch":
            ary[idx] = val
        elif op == "and":
            ary[idx] = old & val
        elif op == "or":
            ary[idx] = old | val
        elif op == "xor":
            ary[idx] = old ^ val
        elif op == "inc":
            ary[idx] = 0 if old >= val else old + 1
        else:
            ary[idx] = val if (old == 0 or old > val) else old - 1
        return old
    impl.__name__ = f"plain_{op}"
    return register_jitable(impl)


def _plain_cas(ary, idx, expected, val):
    old = ary[idx]
    if old == expected:
        ary[idx] = val
    return old


PLAIN = {op: _plain(op) for op in ("add", "sub", "max", "min", "nanmax", "nanmin", "exch",
                                   "and", "or", "xor", "inc", "dec")}
PLAIN["cas"] = register_jitable(_plain_cas)
