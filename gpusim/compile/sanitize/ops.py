"""The calls checked code makes at each access: ``_lds1/2/3`` and ``_glb1/2/3``.

``_lds2(i, j, n1, kind, site, _b, _t, _lsh, base, _cst, _fnd)`` updates the shadow of
element ``i * n1 + j`` of an LDS array (``shadow.lds_access``) and returns ``(i, j)``,
the index itself; ``_glb*`` do the same for global arrays (``shadow.global_access``).

Compiled, each is an ``@intrinsic``: a few instructions that pass the arrays' raw
addresses to the shadow logic (see shadow.py for why addresses, not arrays). As plain
Python (the reference path) each is a function over the arrays: ``PYTHON``.

>>> import numpy as np
>>> from gpusim.compile.sanitize.shadow import FIND_COLS, L_GEN, LDS_COLS, MAX_FINDINGS, WRITE
>>> sh = np.full((8, LDS_COLS), -1, np.int32); sh[:, L_GEN] = 0
>>> cst, fnd = np.array([1, 1, 0, 64, 0, 0, 0, 0]), np.zeros((MAX_FINDINGS, FIND_COLS), np.int64)
>>> PYTHON["_lds2"](1, 2, 4, WRITE, 0, 0, 3, sh, 0, cst, fnd), int(sh[6, L_GEN])
((1, 2), 1)
"""

from __future__ import annotations

from llvmlite import ir
from numba.core import cgutils, types
from numba.core.typing import signature
from numba.extending import intrinsic

from gpusim.compile.sanitize import shadow as cl

_RAW_SIG = signature(types.int64, *[types.int64] * 10)


def _call_inline(context, builder, raw, args) -> None:
    """Call numba-compiled ``raw`` (compiled once per process), asking LLVM to inline it:
    the call itself would otherwise cost as much as the shadow work."""
    cres = context.compile_subroutine(builder, raw, _RAW_SIG)
    fn = context.declare_function(builder.module, cres.fndesc)
    status, _ = context.call_conv.call_function(builder, fn, _RAW_SIG.return_type,
                                                _RAW_SIG.args, args, attrs=("alwaysinline",))
    with cgutils.if_unlikely(builder, status.is_error):
        context.call_conv.return_status_propagate(builder, status)


def _typed(raw, rank: int, argtys: tuple):
    """(signature, codegen) of a rank-``rank`` entry point over ``raw``."""
    idx = argtys[:rank]
    if not all(isinstance(a, (types.Integer, types.Boolean)) for a in idx):
        return None
    ret = idx[0] if rank == 1 else types.BaseTuple.from_types(idx)

    def codegen(context, builder, sig, args):
        def i64(k):
            return context.cast(builder, args[k], sig.args[k], types.int64)

        flat = i64(0)
        for k in range(1, rank):  # row-major: ((i * n1) + j) * n2 + k
            flat = builder.add(builder.mul(flat, i64(rank + k - 1)), i64(k))
        o = 2 * rank - 1  # kind, site, b, t, shadow, base, cst, fnd follow
        arrays = {k: context.make_array(sig.args[k])(context, builder, args[k])
                  for k in (o + 4, o + 6, o + 7)}

        def address(k):
            return builder.ptrtoint(arrays[k].data, ir.IntType(64))
        rows = builder.extract_value(arrays[o + 4].shape, 0)
        _call_inline(context, builder, raw, [
            flat, i64(o), i64(o + 1), i64(o + 2), i64(o + 3), address(o + 4), rows,
            i64(o + 5), address(o + 6), address(o + 7)])
        if rank == 1:
            return args[0]
        return context.make_tuple(builder, ret, args[:rank])
    return signature(ret, *argtys), codegen


@intrinsic
def _lds1(typingctx, i, kind, site, b, t, sh, base, cst, fnd):
    return _typed(cl.lds_access, 1, (i, kind, site, b, t, sh, base, cst, fnd))


@intrinsic
def _lds2(typingctx, i, j, n1, kind, site, b, t, sh, base, cst, fnd):
    return _typed(cl.lds_access, 2, (i, j, n1, kind, site, b, t, sh, base, cst, fnd))


@intrinsic
def _lds3(typingctx, i, j, k, n1, n2, kind, site, b, t, sh, base, cst, fnd):
    return _typed(cl.lds_access, 3, (i, j, k, n1, n2, kind, site, b, t, sh, base, cst, fnd))


@intrinsic
def _glb1(typingctx, i, kind, site, b, t, sh, base, cst, fnd):
    return _typed(cl.global_access, 1, (i, kind, site, b, t, sh, base, cst, fnd))


@intrinsic
def _glb2(typingctx, i, j, n1, kind, site, b, t, sh, base, cst, fnd):
    return _typed(cl.global_access, 2, (i, j, n1, kind, site, b, t, sh, base, cst, fnd))


@intrinsic
def _glb3(typingctx, i, j, k, n1, n2, kind, site, b, t, sh, base, cst, fnd):
    return _typed(cl.global_access, 3, (i, j, k, n1, n2, kind, site, b, t, sh, base, cst, fnd))


def _python(access, rank: int):
    def entry(*args):
        idx, dims = args[:rank], args[rank:2 * rank - 1]
        flat = idx[0]
        for k in range(1, rank):
            flat = flat * dims[k - 1] + idx[k]
        kind, site, b, t, sh, base, cst, fnd = args[2 * rank - 1:]
        access(flat, kind, site, b, t, sh.ctypes.data, sh.shape[0], base, cst.ctypes.data,
               fnd.ctypes.data)
        return idx[0] if rank == 1 else tuple(idx)
    return entry


# The same entry points as plain Python, for the reference path.
PYTHON = {f"_{space}{rank}": _python(access, rank) for space, access in
          (("lds", cl.lds_access), ("glb", cl.global_access)) for rank in (1, 2, 3)}
