"""Single machine instructions Python has no words for: bit counts, fma, fences.

Like ``atomics.py``, each is a plain Python function (the reference path) with a numba
``@overload`` that emits the LLVM instruction (``ctpop``, ``ctlz``, ``cttz``,
``bitreverse``, ``fma``, ``fence``, an atomic load).

>>> import numpy as np
>>> popc(np.uint64(0xF0)), ffs(np.int32(8)), clz(np.int32(1)), int(brev(np.uint32(1)))
(4, 4, 31, 2147483648)
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload

from gpusim.compile.device.atomics import _item_pointer

# ------------------------------------------------------------------ fences, polling


def threadfence() -> None:
    """A sequentially consistent fence (blocks of one launch run on several host threads)."""


@intrinsic
def _fence_raw(typingctx):
    def codegen(context, builder, signature, args):
        builder.fence("seq_cst")
        return context.get_dummy_value()
    return types.none(), codegen


@overload(threadfence)
def _ov_fence():
    return lambda: _fence_raw()


def load_relaxed(ary, idx):
    """``ary[idx]`` read with an atomic load, so a loop cannot cache it in a register."""
    return ary[idx]


@intrinsic
def _load_raw(typingctx, ary, idx):
    sig = ary.dtype(ary, idx)

    def codegen(context, builder, signature, args):
        ptr = _item_pointer(context, builder, ary, args[0], idx, args[1])
        return builder.load_atomic(ptr, "monotonic", ary.dtype.bitwidth // 8)
    return sig, codegen


@overload(load_relaxed)
def _ov_load(ary, idx):
    return lambda ary, idx: _load_raw(ary, idx)


# ------------------------------------------------------------------ bit operations


def _width(x) -> int:
    return np.asarray(x).dtype.itemsize * 8 if isinstance(x, np.generic) else 64


def popc(x) -> int:
    """Number of set bits in x's width."""
    return bin(int(x) & ((1 << _width(x)) - 1)).count("1")


def ffs(x) -> int:
    """1-based index of the lowest set bit; 0 for 0."""
    v = int(x) & ((1 << _width(x)) - 1)
    return (v & -v).bit_length()


def clz(x) -> int:
    """Leading zeros in x's width."""
    w = _width(x)
    return w - (int(x) & ((1 << w) - 1)).bit_length()


def brev(x):
    """x with its bits reversed within its width."""
    w = _width(x)
    v = int(x) & ((1 << w) - 1)
    out = int(f"{v:0{w}b}"[::-1], 2)
    return type(x)(out) if isinstance(x, np.generic) else out


def fma(a, b, c):
    """a * b + c, rounded once."""
    if isinstance(a, np.float32) and isinstance(b, np.float32) and isinstance(c, np.float32):
        return np.float32(float(a) * float(b) + float(c))  # exact product in float64
    f = getattr(math, "fma", None)
    return f(float(a), float(b), float(c)) if f else float(a) * float(b) + float(c)


def _make_bits(k: str):
    @intrinsic
    def bits(typingctx, x):
        out = x if k == "brev" else types.int32

        def codegen(context, builder, signature, args):
            v = args[0]
            if k == "brev":
                fn = builder.module.declare_intrinsic("llvm.bitreverse", [v.type])
                return builder.call(fn, [v])
            if k == "popc":
                r = builder.ctpop(v)
            elif k == "clz":
                r = builder.ctlz(v, ir.Constant(ir.IntType(1), 0))
            else:  # ffs
                zero, one = ir.Constant(v.type, 0), ir.Constant(v.type, 1)
                tz = builder.cttz(v, ir.Constant(ir.IntType(1), 0))
                r = builder.select(builder.icmp_unsigned("==", v, zero), zero,
                                   builder.add(tz, one))
            if v.type.width > 32:
                return builder.trunc(r, ir.IntType(32))
            return builder.zext(r, ir.IntType(32)) if v.type.width < 32 else r
        return out(x), codegen
    return bits


def _register_bits(py, kind: str):
    raw = _make_bits(kind)

    @overload(py)
    def _ov(x):
        return lambda x: raw(x)


for _f, _k in ((popc, "popc"), (ffs, "ffs"), (clz, "clz"), (brev, "brev")):
    _register_bits(_f, _k)


@intrinsic
def _fma_raw(typingctx, a, b, c):
    ty = a if isinstance(a, types.Float) else types.float64
    for t in (b, c):
        if isinstance(t, types.Float) and t.bitwidth > ty.bitwidth:
            ty = t

    def codegen(context, builder, signature, args):
        vals = [context.cast(builder, v, t, ty) for v, t in zip(args, (a, b, c), strict=True)]
        fn = builder.module.declare_intrinsic("llvm.fma", [vals[0].type] * 3)
        return builder.call(fn, vals)
    return ty(a, b, c), codegen


@overload(fma)
def _ov_fma(a, b, c):
    return lambda a, b, c: _fma_raw(a, b, c)
