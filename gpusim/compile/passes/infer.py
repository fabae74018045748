"""Pass 7, infer: the numba type of every variable, from the launch argument types.

numba itself types the generated code again; this pass exists so the compiler knows,
before generating anything, what each value is: the dtype of the per-thread arrays that
keep values across barriers, which arrays are global/LDS/local, and whether an index is
an integer. It asks numba's own typing context for every operator and math function, so
its answers are numba's (``int32 + int32`` is ``int64``, ``float32 * 2.0`` is ``float64``)
and the error messages can point at the user's line.

Typing is flow-insensitive: a variable's type is the unification of everything assigned
to it (``s = 0`` then ``s += 0.5`` makes ``s`` a float64), as numba does at loop joins.

>>> import numba
>>> from gpusim.compile import lang as hip
>>> from gpusim.compile.pipeline import front_end
>>> def k(x, out):
...     i = hip.grid(1)
...     v = x[i] * 2
...     out[i] = v
>>> f32 = numba.types.float32[::1]
>>> kir = front_end(k, wave_size=64, arg_types=(f32, f32), passes=(
...     "parse", "subset", "resolve", "normalize", "uniformity", "lower", "infer"))
>>> str(kir.types["i"]), str(kir.types["v"])
('int64', 'float64')
"""

from __future__ import annotations

import ast
import builtins
import operator
from typing import Any

from numba.core import types
from numba.core.errors import NumbaError
from numba.core.registry import cpu_target
from numba.np.numpy_support import from_dtype

from gpusim.compile.diagnostics import compile_error
from gpusim.compile.ir import Cast, Intrinsic, KernelIR, MathCall
from gpusim.compile.passes.enum_members import enum_operands
from gpusim.compile.passes.half_types import half_result
from gpusim.compile.passes.intrinsic_types import intrinsic_type
from gpusim.compile.passes.recursion import separate_call_type
from gpusim.compile.passes.vector_types import vector_type

BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
          ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
          ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
          ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.BitAnd: operator.and_}
CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
          ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}
OP_TEXT = {operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
           operator.floordiv: "//", operator.mod: "%", operator.pow: "**",
           operator.lshift: "<<", operator.rshift: ">>", operator.or_: "|",
           operator.xor: "^", operator.and_: "&"}
I64 = types.int64
ARRAY_ATTRS = ("shape", "size", "ndim", "strides", "itemsize", "nbytes", "T", "real", "imag")

_ctx = None


def typing_context():
    """numba's CPU typing context, loaded once."""
    global _ctx
    if _ctx is None:
        _ctx = cpu_target.typing_context
        _ctx.refresh()
    return _ctx


class _UnknownTypeError(Exception):
    """A name whose type is not known yet (the fixpoint will come back to it)."""


class Typer:
    """Types a kernel body; ``strict`` turns "not known yet" into an error."""

    def __init__(self, kir: KernelIR):
        self.kir = kir
        self.ctx = typing_context()
        self.types: dict[str, Any] = {}
        self.fixed: dict[str, Any] = dict(zip(kir.params, kir.arg_types, strict=False))
        for name, decl in kir.arrays.items():
            self.fixed[name] = types.Array(from_dtype(decl.dtype), len(decl.shape) or 1, "C")
        for name, value in kir.constants.items():
            self.fixed[name] = _unliteral(self.ctx.resolve_value_type(value))
        self.strict = False
        self.changed = False
        self.cache: dict[tuple, Any] = {}

    def fail(self, node: ast.AST, msg: str, instead: str = "") -> Exception:
        return compile_error(self.kir.src, node, msg, instead=instead, kernel=self.kir.name)

    def run(self) -> dict[str, Any]:
        for _ in range(20):
            self.changed = False
            self.block(self.kir.func.body)
            if not self.changed:
                break
        self.strict = True
        self.block(self.kir.func.body)
        return {**self.types}

    # -- statements -------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            try:
                self.stmt(s)
            except _UnknownTypeError:
                if self.strict:
                    raise

    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, ast.Assign):
            value = self.expr(s.value)
            for t in s.targets:
                self.bind(t, value, s.value)
        elif isinstance(s, ast.AugAssign):
            target = self.expr(_load(s.target))
            value = self.binop(s, BINOPS[type(s.op)], target, self.expr(s.value))
            self.bind(s.target, value, s.value)
        elif isinstance(s, ast.For):
            rng = self.call_type(s.iter, range, [self.index_type(a) for a in s.iter.args])
            self.bind(s.target, rng.dtype, s.iter)
            self.block(s.body)
        elif isinstance(s, (ast.If, ast.While)):
            self.expr(s.test)
            self.block(s.body)
            self.block(s.orelse)
        elif isinstance(s, ast.Expr):
            self.expr(s.value)
        elif isinstance(s, ast.Assert):
            self.expr(s.test)

    def bind(self, target: ast.AST, ty: Any, value: ast.AST) -> None:
        if isinstance(target, ast.Name):
            name = target.id
            if name in self.fixed:
                what = "an array" if name in self.kir.arrays or isinstance(
                    self.fixed[name], types.Array) else "a kernel argument"
                if isinstance(self.fixed[name], types.Array) or name in self.kir.constants:
                    raise self.fail(target, f"'{self.kir.user_name(name)}' is {what} and "
                                    "cannot be reassigned", instead="a new variable name")
                old = self.fixed.pop(name)  # a scalar argument reassigned: now a variable
                self.types[name] = old
            if isinstance(ty, types.Array) and not _is_view(value) and not (
                    isinstance(value, ast.Name) and value.id not in self.kir.arrays):
                # (another name of an argument array or view is a view of all of it:
                # numba.cuda's `data = buf_0 if step % 2 == 0 else buf_1` swap)
                raise self.fail(target, "array variables can only hold views of arrays "
                                "(a[i, :], a[1:], a.T); other arrays are kernel arguments or "
                                "hip.shared/local/const arrays",
                                instead="index the array directly where you need it")
            old = self.types.get(name)
            new = ty if old is None else self.ctx.unify_types(old, ty)
            if new is None:
                raise self.fail(value, f"'{self.kir.user_name(name)}' is assigned a {ty} here "
                                f"but a {old} elsewhere", instead="two separate variables")
            new = _unliteral(new)
            if new != old:
                self.types[name] = new
                self.changed = True
        elif isinstance(target, ast.Tuple):
            if not isinstance(ty, types.BaseTuple) or len(ty) != len(target.elts):
                raise self.fail(target, f"cannot unpack {ty} into {len(target.elts)} names")
            for elt, ety in zip(target.elts, ty.types, strict=True):
                self.bind(elt, ety, value)
        elif isinstance(target, ast.Attribute):
            self.attribute(target)  # a record field: r.x = v or a[i].x = v
            if isinstance(ty, (types.Array, types.BaseTuple)) or ty == types.none:
                raise self.fail(value, f"cannot store a {ty} into a record field")
        elif isinstance(target, ast.Subscript) and getattr(target, "fills", False):
            return  # r['a'][...] = arr, rewritten below on an earlier round
        elif isinstance(target, ast.Subscript):
            base = self.expr(target.value)
            if isinstance(target.value, ast.Name) and self.space(target.value.id) == "const":
                raise self.fail(target, "const arrays are read-only",
                                instead="a hip.shared.array or an argument array")
            elem = self.subscript(target, base)
            if (isinstance(base, types.Record) and isinstance(elem, types.NestedArray)
                    and isinstance(ty, types.Array) and ty.ndim == elem.ndim):
                # r['a'] = arr fills the nested array: r['a'][...] = arr, whose copy numba
                # checks (a shape mismatch is a ValueError; r['a'] = arr would read past arr)
                target.value = ast.copy_location(ast.Subscript(target.value, target.slice,
                                                               ast.Load()), target)
                target.slice, target.fills = ast.Constant(Ellipsis), True
                return
            if isinstance(ty, (types.Array, types.BaseTuple)) or ty == types.none:
                raise self.fail(value, f"cannot store a {ty} into an array element")

    def space(self, name: str) -> str:
        decl = self.kir.arrays.get(name)
        return decl.space if decl else "global"

    # -- expressions ------------------------------------------------------------------
    def expr(self, node: ast.expr) -> Any:
        ty = self._expr(node)
        node.numba_type = ty
        return ty

    def _expr(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return _constant_type(node, self)
        if isinstance(node, ast.Name):
            if node.id in self.fixed:
                return self.fixed[node.id]
            if node.id in self.types:
                return self.types[node.id]
            if self.strict:
                raise self.fail(node, f"'{self.kir.user_name(node.id)}' is used before it is "
                                "assigned", instead="assign it before this line")
            raise _UnknownTypeError(node.id)
        if isinstance(node, ast.BinOp):
            return self.binop(node, BINOPS[type(node.op)], self.expr(node.left),
                              self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            arg = self.expr(node.operand)
            if isinstance(node.op, ast.Not):
                return types.boolean
            return self.call_type(node, UNARY[type(node.op)], [arg])
        if isinstance(node, ast.Compare):
            tys = enum_operands(self, node, [self.expr(n) for n in (node.left,
                                                                     *node.comparators)])
            for op, left, right in zip(node.ops, tys[:-1], tys[1:], strict=True):
                if type(op) in CMPOPS:  # (`is` is checked by enum_operands)
                    self.call_type(node, CMPOPS[type(op)], [left, right])
            return types.boolean
        if isinstance(node, (ast.BoolOp, ast.IfExp)):
            parts = node.values if isinstance(node, ast.BoolOp) else [node.body, node.orelse]
            if isinstance(node, ast.IfExp):
                self.expr(node.test)
            tys = [self.expr(p) for p in parts]
            out = tys[0]
            for t in tys[1:]:
                out = self.ctx.unify_types(out, t)
                if out is None:
                    raise self.fail(node, f"the two branches give {tys[0]} and {t}; they must "
                                    "be numbers", instead="convert one branch, e.g. float(x)")
            return _unliteral(out)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, self.expr(node.value))
        if hasattr(node, "type_value"):  # a.view(np.int32): passes/type_args.py
            return types.NumberClass(from_dtype(node.type_value))
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Tuple):
            return types.BaseTuple.from_types([self.expr(e) for e in node.elts])
        if isinstance(node, Cast):
            self.expr(node.arg)
            dt = node.dtype
            return {int: I64, float: types.float64, bool: types.boolean}.get(dt) or from_dtype(dt)
        if isinstance(node, MathCall) and getattr(node, "vector", None) is not None:
            return vector_type(self, node)  # cuda.float32x4(...)
        if isinstance(node, MathCall):
            return self.call_type(node, node.func, self.call_args(node.args),
                                  name=node.qualname)
        if isinstance(node, Intrinsic):
            return intrinsic_type(self, node)
        if isinstance(node, ast.Call) and getattr(node, "separate", None):
            return separate_call_type(self, node)  # a recursive device function
        if isinstance(node, ast.Call) and getattr(node, "method", False):
            return self.method_call(node)
        if isinstance(node, ast.Call):
            return self.builtin_call(node)
        raise self.fail(node, f"{type(node).__name__} expressions are not supported in kernels")

    def call_args(self, nodes: list[ast.expr]) -> list:
        """Types of a call's arguments; ``f(*t)`` spreads the tuple ``t``, as numba does."""
        out = []
        for a in nodes:
            if not isinstance(a, ast.Starred):
                out.append(self.expr(a))
                continue
            ty = self.expr(a.value)
            if not isinstance(ty, types.BaseTuple):
                raise self.fail(a, f"only a tuple can be spread over arguments with `*`, not "
                                f"a {ty}", instead="pass the arguments one by one")
            a.numba_type = ty
            out.extend(ty.types)
        return out

    def method_call(self, node: ast.Call) -> Any:
        """``value.method(args)``, as numba types it (``z.conjugate()``, ``a.sum()``)."""
        base = self.expr(node.func.value)
        args = tuple(self.call_args(node.args))
        try:
            bound = self.ctx.resolve_getattr(base, node.func.attr)
            sig = None if bound is None else self.ctx.resolve_function_type(bound, args, {})
        except NumbaError:
            sig = None
        if sig is None:
            raise self.fail(node, f"a {base} has no method .{node.func.attr}"
                            f"({', '.join(str(a) for a in args)}) in kernels")
        return _unliteral(sig.return_type)

    def builtin_call(self, node: ast.Call) -> Any:
        name = node.func.id
        args = self.call_args(node.args)
        if name in ("print", "printf"):
            for t in args:
                if isinstance(t, (types.Array, types.BaseTuple)):
                    raise self.fail(node, "print() in a kernel takes numbers and strings",
                                    instead="print single elements: print(a[i])")
            return types.none
        if name == "len":
            if len(args) != 1 or not isinstance(args[0], (types.Array, types.BaseTuple)):
                raise self.fail(node, "len() takes one array")
            return types.intp
        if name == "range":
            raise self.fail(node, "range() can only be used in `for i in range(...)`")
        return self.call_type(node, getattr(builtins, name), args, name=name)

    def attribute(self, node: ast.Attribute) -> Any:
        base = self.expr(node.value)
        if isinstance(base, types.Array):
            if node.attr == "shape":
                return types.UniTuple(types.intp, base.ndim)
            if node.attr in ("size", "ndim"):
                return types.intp
            ty = None
            if node.attr in ARRAY_ATTRS:  # numba's answer: a view (.T, .real) or numbers
                ty = self.ctx.resolve_getattr(base, node.attr)
            if ty is None:
                raise self.fail(node, f"arrays in kernels have .{', .'.join(ARRAY_ATTRS)}, "
                                f"not .{node.attr}")
            return _unliteral(ty)
        if isinstance(base, types.EnumMember) and node.attr == "value":
            return base.dtype
        if isinstance(base, types.Complex) and node.attr in ("real", "imag"):
            return base.underlying_float
        if isinstance(base, types.Record):
            return self.field(node, base, node.attr)
        if isinstance(base, types.BaseNamedTuple) and node.attr in base.fields:
            return base.types[base.fields.index(node.attr)]
        raise self.fail(node, f"a {base} has no attribute .{node.attr} in kernels")

    def field(self, node: ast.AST, record: Any, name: str) -> Any:
        """The type of field ``name`` of a record (a nested array field is an array)."""
        if name not in record.fields:
            raise self.fail(node, f"the record has no field '{name}'",
                            instead=f"one of {', '.join(record.fields)}")
        return record.typeof(name)

    def subscript(self, node: ast.Subscript, base: Any) -> Any:
        idx = node.slice
        if isinstance(base, types.Record):
            k, names = _int_literal(idx), list(base.fields)
            if k is not None and -len(names) <= k < len(names):  # r[0]: a field by position
                return self.field(node, base, names[k])
            if not (isinstance(idx, ast.Constant) and isinstance(idx.value, str)):
                raise self.fail(node, "a record is indexed by a field name in quotes",
                                instead="r['x'] or r.x")
            return self.field(node, base, idx.value)
        if isinstance(base, types.Array):
            parts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
            if any(isinstance(p, ast.Slice) for p in parts) or len(parts) < base.ndim:
                return self.view(node, base, parts)
            if len(parts) != base.ndim:
                name = ast.unparse(node.value)
                raise self.fail(node, f"'{self.kir.user_name(name)}' has {base.ndim} "
                                f"dimension(s) but is indexed with {len(parts)}",
                                instead=f"one index per dimension, e.g. {name}["
                                f"{', '.join('ijk'[:base.ndim]) if base.ndim <= 3 else 'i, ...'}]")
            for p in parts:
                self.index_type(p)
            return base.dtype
        if isinstance(base, types.BaseTuple):
            ity = self.expr(idx)
            const = _int_literal(idx)
            if const is not None:
                if not -len(base) <= const < len(base):
                    raise self.fail(node, f"index {const} is out of range for a tuple of "
                                    f"{len(base)}")
                return base.types[const]  # numba's static_getitem: any tuple
            if not isinstance(base, types.UniTuple):
                raise self.fail(node, "index this tuple with a constant")
            return self.call_type(node, operator.getitem, [base, ity])
        raise self.fail(node, f"a {base} cannot be indexed")

    def view(self, node: ast.Subscript, base: Any, parts: list[ast.expr]) -> Any:
        """``a[i, :]``, ``a[1:]``, ``a[i]`` of a 2-d array: a view, typed by numba."""
        tys = []
        for p in parts:
            if isinstance(p, ast.Slice):
                for bound in (p.lower, p.upper, p.step):
                    if bound is not None:
                        self.index_type(bound)
                tys.append(types.slice3_type if p.step is not None else types.slice2_type)
            elif isinstance(self.expr(p), types.BaseTuple) and len(parts) == 1:
                tys.append(self.expr(p))  # a[gid] with gid = cuda.grid(2)
            else:
                tys.append(self.index_type(p))
        index = tys[0] if len(tys) == 1 else types.Tuple(tys)
        return self.call_type(node, operator.getitem, [base, index], name="[] (a view)")

    def index_type(self, node: ast.expr) -> Any:
        ty = self.expr(node)
        if not isinstance(ty, (types.Integer, types.Boolean)):
            raise self.fail(node, f"an index must be an integer, got {ty}",
                            instead="int(x) to convert")
        return ty

    def binop(self, node: ast.AST, op: Any, left: Any, right: Any) -> Any:
        return self.call_type(node, op, [left, right], name=OP_TEXT.get(op))

    def call_type(self, node: ast.AST, fn: Any, args: list, name: str | None = None) -> Any:
        """Ask numba what ``fn(*args)`` returns; a clear error if it has no answer."""
        key = (fn, tuple(args))
        if key not in self.cache and (half := half_result(self.ctx, fn, args)) is not None:
            self.cache[key] = half  # numba.cuda's float16 rules (half_types.py)
        if key not in self.cache:
            try:
                fnty = self.ctx.resolve_value_type(fn)
                sig = self.ctx.resolve_function_type(fnty, tuple(args), {})
            except NumbaError:
                sig = None
            self.cache[key] = None if sig is None else _unliteral(sig.return_type)
        result = self.cache[key]
        if result is None:
            what = name or getattr(fn, "__name__", str(fn))
            shown = ", ".join(str(a) for a in args)
            raise self.fail(node, f"`{what}` is not defined for ({shown})",
                            instead="check the operand types; convert with float(x), int(x) "
                            "or np.float32(x)")
        return result


def _unliteral(ty: Any) -> Any:
    return types.unliteral(ty) if ty is not None else None


def _constant_type(node: ast.Constant, typer: Typer) -> Any:
    v = node.value
    if isinstance(v, bool):
        return types.boolean
    if isinstance(v, int):
        return I64 if -2**63 <= v < 2**63 else types.uint64
    if isinstance(v, float):
        return types.float64
    if isinstance(v, complex):
        return types.complex128
    if isinstance(v, str):
        return types.unicode_type
    if isinstance(v, bytes):  # stored into an 'S' array or record field, as numba.cuda does
        return types.Bytes(types.uint8, 1, "C", readonly=True)
    if v is None:
        return types.none
    raise typer.fail(node, f"the constant {v!r} cannot be used in a kernel")


def _int_literal(node: ast.AST) -> int | None:
    """``2`` or ``-1`` written in the kernel, else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_literal(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _is_view(node: ast.AST) -> bool:
    """An expression that makes a view of an array: a subscript or an attribute (.T)."""
    return isinstance(node, (ast.Subscript, ast.Attribute)) or (
        isinstance(node, ast.Call) and getattr(node, "method", False))


def _load(node: ast.expr) -> ast.expr:
    """The target of ``x += 1`` read as a value (a Name's context matters to nobody here)."""
    return node


def infer(kir: KernelIR) -> None:
    """Run the pass: fills ``kir.types`` (variable -> numba type)."""
    kir.types = Typer(kir).run()
