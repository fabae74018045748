"""Arithmetic with numba's (Python's) meaning: conversions, operators, comparisons, math.

The operand conversions are the ones numba's typing chose (``infer`` asks the same
typing context), so an ``int64 + float32`` is a ``double`` add here as it is in the
emulator; a learner reading the ISA sees ``v_add_f64`` and learns that Python floats are
doubles. ``//`` and ``%`` keep Python's floor semantics (a few more instructions than
C's truncating ``/`` and ``%``), and ``x ** 2`` with a small constant integer power
becomes multiplications.

>>> from numba.core import types
>>> str(signature(operator.truediv, (types.int64, types.int64)).return_type)
'float64'
"""

from __future__ import annotations

import ast
import functools
import math
import operator
from typing import Any

from numba.core import types

from gpusim.compile.amdgpu.emit import BOOL, FunctionBuilder, Value, const, ll_type
from gpusim.compile.amdgpu.unsupported import math_unsupported, unsupported
from gpusim.compile.passes.infer import BINOPS, typing_context

_INT_OPS = {operator.add: "add", operator.sub: "sub", operator.mul: "mul",
            operator.and_: "and", operator.or_: "or", operator.xor: "xor",
            operator.lshift: "shl"}
_FLOAT_OPS = {operator.add: "fadd", operator.sub: "fsub", operator.mul: "fmul",
              operator.truediv: "fdiv"}
_ICMP = {operator.eq: "eq", operator.ne: "ne", operator.lt: "lt", operator.le: "le",
         operator.gt: "gt", operator.ge: "ge"}
_FCMP = {operator.eq: "oeq", operator.ne: "une", operator.lt: "olt", operator.le: "ole",
         operator.gt: "ogt", operator.ge: "oge"}
# Math functions that are Python operators (math.pow is always a float power).
NUMPY_OPERATORS = {"floor_divide": BINOPS[ast.FloorDiv], "remainder": BINOPS[ast.Mod],
                   "power": BINOPS[ast.Pow], "pow": BINOPS[ast.Pow]}


@functools.lru_cache(maxsize=4096)
def signature(fn: Any, argtys: tuple) -> Any:
    """numba's signature for ``fn(*argtys)`` (None when numba has none)."""
    ctx = typing_context()
    try:
        return ctx.resolve_function_type(ctx.resolve_value_type(fn), argtys, {})
    except Exception:  # noqa: BLE001 - numba raises many kinds; None means "no signature"
        return None


def _llvm_suffix(ty: Any) -> str:
    return {"float": "f32", "double": "f64", "half": "f16"}.get(ll_type(ty), ll_type(ty))


class Ops:
    """Mixin: arithmetic on ``Value`` s through ``self.fb`` (a FunctionBuilder)."""

    fb: FunctionBuilder
    kir: Any

    # -- conversions --------------------------------------------------------------------
    def convert(self, v: Value, to: Any) -> Value:
        """``v`` as numba type ``to``, with numba's (C's) conversion rules."""
        src = v.ty
        if src == to:
            return v
        if isinstance(to, types.Boolean):
            return self.truth(v)
        if isinstance(src, types.Boolean):
            kind = "zext" if isinstance(to, types.Integer) else "uitofp"
            return self.fb.op(f"{kind} i1 {v.ref} to {ll_type(to)}", to)
        if isinstance(src, types.Integer) and isinstance(to, types.Integer):
            if src.bitwidth == to.bitwidth:
                return Value(v.ref, to)
            kind = "trunc" if src.bitwidth > to.bitwidth else ("sext" if src.signed else "zext")
            return self.fb.op(f"{kind} {v.typed()} to {ll_type(to)}", to)
        if isinstance(src, types.Integer) and isinstance(to, types.Float):
            kind = "sitofp" if src.signed else "uitofp"
            return self.fb.op(f"{kind} {v.typed()} to {ll_type(to)}", to)
        if isinstance(src, types.Float) and isinstance(to, types.Integer):
            kind = "fptosi" if to.signed else "fptoui"
            return self.fb.op(f"{kind} {v.typed()} to {ll_type(to)}", to)
        if isinstance(src, types.Float) and isinstance(to, types.Float):
            kind = "fpext" if src.bitwidth < to.bitwidth else "fptrunc"
            return self.fb.op(f"{kind} {v.typed()} to {ll_type(to)}", to)
        raise unsupported(self.kir, getattr(self, "node", None), f"a conversion {src} -> {to}")

    def truth(self, v: Value) -> Value:
        """Python's truth value of a number, as an ``i1``."""
        if isinstance(v.ty, types.Boolean):
            return v
        if isinstance(v.ty, types.Float):
            return self.fb.op(f"fcmp une {v.typed()}, {const(0.0, v.ty).ref}", BOOL)
        return self.fb.op(f"icmp ne {v.typed()}, 0", BOOL)

    def select(self, cond: Value, a: Value, b: Value) -> Value:
        return self.fb.op(f"select i1 {cond.ref}, {a.typed()}, {b.typed()}", a.ty)

    def intrinsic(self, name: str, ty: Any, *args: Value) -> Value:
        """``llvm.<name>.<type>(args)``, e.g. ``llvm.sqrt.f32``."""
        return self.fb.call(ll_type(ty), f"llvm.{name}.{_llvm_suffix(ty)}",
                            [a.typed() for a in args], ty)

    # -- operators ----------------------------------------------------------------------
    def binop(self, op: Any, a: Value, b: Value, node: ast.AST, right: ast.AST | None = None
              ) -> Value:
        """``a <op> b`` (``op`` from ``operator``) with numba's result type."""
        sig = signature(op, (a.ty, b.ty))
        if sig is None:
            raise unsupported(self.kir, node, f"the operator {op.__name__} on {a.ty}, {b.ty}")
        rt = sig.return_type
        if op is operator.pow:
            return self.power(a, b, rt, node, right)
        a, b = self.convert(a, rt), self.convert(b, rt)
        if isinstance(rt, types.Float):
            if op in _FLOAT_OPS:
                return self.fb.op(f"{_FLOAT_OPS[op]} {a.typed()}, {b.ref}", rt)
            if op in (operator.floordiv, operator.mod):
                return self.float_floor_op(op, a, b)
        elif isinstance(rt, (types.Integer, types.Boolean)):
            signed = getattr(rt, "signed", False)
            if op in _INT_OPS:
                return self.fb.op(f"{_INT_OPS[op]} {a.typed()}, {b.ref}", rt)
            if op is operator.rshift:
                return self.fb.op(f"{'ashr' if signed else 'lshr'} {a.typed()}, {b.ref}", rt)
            if op in (operator.floordiv, operator.mod):
                return self.int_floor_op(op, a, b, signed)
        raise unsupported(self.kir, node, f"the operator {op.__name__} on {rt}")

    def int_floor_op(self, op: Any, a: Value, b: Value, signed: bool) -> Value:
        """Python's ``//`` and ``%``: round toward minus infinity, remainder takes b's sign."""
        if not signed:
            return self.fb.op(f"{'udiv' if op is operator.floordiv else 'urem'} "
                              f"{a.typed()}, {b.ref}", a.ty)
        q = self.fb.op(f"sdiv {a.typed()}, {b.ref}", a.ty)
        r = self.fb.op(f"srem {a.typed()}, {b.ref}", a.ty)
        nonzero = self.fb.op(f"icmp ne {r.typed()}, 0", BOOL)
        signs = self.fb.op(f"xor {r.typed()}, {b.ref}", a.ty)
        differ = self.fb.op(f"icmp slt {signs.typed()}, 0", BOOL)
        fix = self.fb.op(f"and i1 {nonzero.ref}, {differ.ref}", BOOL)
        if op is operator.floordiv:
            one = self.convert(fix, a.ty)
            return self.fb.op(f"sub {q.typed()}, {one.ref}", a.ty)
        return self.select(fix, self.fb.op(f"add {r.typed()}, {b.ref}", a.ty), r)

    def float_floor_op(self, op: Any, a: Value, b: Value) -> Value:
        if op is operator.floordiv:
            return self.intrinsic("floor", a.ty, self.fb.op(f"fdiv {a.typed()}, {b.ref}", a.ty))
        r = self.fb.op(f"frem {a.typed()}, {b.ref}", a.ty)
        zero = const(0.0, a.ty).ref
        nonzero = self.fb.op(f"fcmp une {r.typed()}, {zero}", BOOL)
        rneg = self.fb.op(f"fcmp olt {r.typed()}, {zero}", BOOL)
        bneg = self.fb.op(f"fcmp olt {b.typed()}, {zero}", BOOL)
        differ = self.fb.op(f"xor i1 {rneg.ref}, {bneg.ref}", BOOL)
        fix = self.fb.op(f"and i1 {nonzero.ref}, {differ.ref}", BOOL)
        return self.select(fix, self.fb.op(f"fadd {r.typed()}, {b.ref}", a.ty), r)

    def power(self, a: Value, b: Value, rt: Any, node: ast.AST, right: ast.AST | None
              ) -> Value:
        exponent = right.value if isinstance(right, ast.Constant) else None
        if isinstance(exponent, int) and not isinstance(exponent, bool) and 0 <= exponent <= 64:
            base, out = self.convert(a, rt), None
            while exponent:  # square and multiply
                if exponent & 1:
                    out = base if out is None else self.mul(out, base)
                exponent >>= 1
                if exponent:
                    base = self.mul(base, base)
            return out if out is not None else const(1, rt)
        if isinstance(rt, types.Float) and exponent == 0.5:
            return self.intrinsic("sqrt", rt, self.convert(a, rt))
        if isinstance(rt, types.Float) and rt.bitwidth <= 32:
            return self.intrinsic("pow", rt, self.convert(a, rt), self.convert(b, rt))
        raise unsupported(self.kir, node, f"`**` on {rt} with this exponent",
                          "only constant integer powers 0..64, ** 0.5, and float32 powers "
                          "are lowered", instead="x * x, math.sqrt(x), or float32 values")

    def mul(self, a: Value, b: Value) -> Value:
        kind = "fmul" if isinstance(a.ty, types.Float) else "mul"
        return self.fb.op(f"{kind} {a.typed()}, {b.ref}", a.ty)

    def compare(self, op: Any, a: Value, b: Value, node: ast.AST) -> Value:
        sig = signature(op, (a.ty, b.ty))
        if sig is None:
            raise unsupported(self.kir, node, f"comparing {a.ty} with {b.ty}")
        common = sig.args[0] if sig.args[0] == sig.args[1] else typing_context().unify_types(
            *sig.args)
        a, b = self.convert(a, common), self.convert(b, common)
        if isinstance(common, types.Float):
            return self.fb.op(f"fcmp {_FCMP[op]} {a.typed()}, {b.ref}", BOOL)
        pred = _ICMP[op]
        if pred not in ("eq", "ne"):
            pred = ("s" if getattr(common, "signed", False) else "u") + pred
        return self.fb.op(f"icmp {pred} {a.typed()}, {b.ref}", BOOL)

    def unary(self, node: ast.UnaryOp, v: Value) -> Value:
        if isinstance(node.op, ast.Not):
            return self.fb.op(f"xor i1 {self.truth(v).ref}, true", BOOL)
        rt = getattr(node, "numba_type", v.ty)
        v = self.convert(v, rt)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.USub):
            if isinstance(rt, types.Float):
                return self.fb.op(f"fneg {v.typed()}", rt)
            return self.fb.op(f"sub {v.ll} 0, {v.ref}", rt)
        return self.fb.op(f"xor {v.typed()}, {'true' if rt == BOOL else -1}", rt)  # ~x

    def minmax(self, name: str, args: list[Value], rt: Any) -> Value:
        """Python's ``min``/``max``: the first of equal values; a NaN first argument wins."""
        out = self.convert(args[0], rt)
        for nxt in args[1:]:
            nxt = self.convert(nxt, rt)
            better = self.compare(operator.lt if name == "min" else operator.gt, nxt, out, None)
            out = self.select(better, nxt, out)
        return out

    # -- math ---------------------------------------------------------------------------
    def math(self, name: str, args: list[Value], sig: Any, node: ast.AST) -> Value:
        """``math.<name>`` / ``np.<name>`` of ``args`` with numba's signature ``sig``."""
        rt = sig.return_type
        ft = next((t for t in (*sig.args, rt) if isinstance(t, types.Float)), types.float64)
        if name in ("abs", "absolute") and isinstance(rt, types.Integer):
            x = self.convert(args[0], rt)
            return self.fb.call(ll_type(rt), f"llvm.abs.{ll_type(rt)}",
                                [x.typed(), "i1 false"], rt)
        if name in ("minimum", "maximum", "fmin", "fmax") and not isinstance(rt, types.Float):
            return self.minmax("min" if name in ("minimum", "fmin") else "max", args, rt)
        xs = [self.convert(a, ft) for a in args]
        name = {"abs": "fabs", "absolute": "fabs", "power": "pow", "fmin": "minnum",
                "fmax": "maxnum", "radians": "deg2rad", "degrees": "rad2deg"}.get(name, name)
        if name in ("exp", "exp2", "log", "log2", "log10", "sin", "cos", "pow"):
            if ft.bitwidth > 32:
                raise math_unsupported(self.kir, node, name, ft)
            if name == "log" and len(xs) == 2:  # math.log(x, base)
                num, den = self.intrinsic("log", ft, xs[0]), self.intrinsic("log", ft, xs[1])
                return self.convert(self.fb.op(f"fdiv {num.typed()}, {den.ref}", ft), rt)
            return self.convert(self.intrinsic(name, ft, *xs), rt)
        if name in ("sqrt", "fabs", "floor", "ceil", "trunc", "rint", "copysign", "minnum",
                    "maxnum", "minimum", "maximum", "fma"):
            return self.convert(self.intrinsic(name, ft, *xs), rt)
        if name in ("isnan", "isinf", "isfinite"):
            x = xs[0]
            if name == "isnan":
                return self.fb.op(f"fcmp uno {x.typed()}, {x.ref}", BOOL)
            mag = self.intrinsic("fabs", ft, x)
            inf = const(math.inf, ft).ref
            return self.fb.op(f"fcmp {'oeq' if name == 'isinf' else 'one'} {mag.typed()}, "
                              f"{inf}", BOOL)
        if name == "fmod":
            return self.convert(self.fb.op(f"frem {xs[0].typed()}, {xs[1].ref}", ft), rt)
        if name == "square":
            return self.convert(self.mul(xs[0], xs[0]), rt)
        if name == "reciprocal":
            return self.convert(self.fb.op(f"fdiv {const(1.0, ft).typed()}, {xs[0].ref}", ft), rt)
        if name in ("deg2rad", "rad2deg"):
            k = const(math.pi / 180 if name == "deg2rad" else 180 / math.pi, ft)
            return self.convert(self.mul(xs[0], k), rt)
        if name == "sign":
            zero = const(0.0, ft)
            pos = self.convert(self.fb.op(f"fcmp ogt {xs[0].typed()}, {zero.ref}", BOOL), ft)
            neg = self.convert(self.fb.op(f"fcmp olt {xs[0].typed()}, {zero.ref}", BOOL), ft)
            return self.convert(self.fb.op(f"fsub {pos.typed()}, {neg.ref}", ft), rt)
        raise math_unsupported(self.kir, node, name, ft)

