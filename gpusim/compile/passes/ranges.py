"""Pass 11, ranges: regions whose every index stays in bounds, proved once per block.

Each bounds-checked index (``a[i]`` becomes ``_ix(i, n, site, ...)``) costs a compare and
a branch that writes the fault record, and that branch keeps LLVM from vectorising the
loop over the threads. Most kernels index with ``i = blockIdx.x * blockDim.x +
threadIdx.x``, its 2-D and 3-D forms, strides and loop offsets: the smallest and largest
value such an index takes in a work-group follow from ``0 <= threadIdx.x < blockDim.x``
by interval arithmetic. For each region this pass builds the condition "every index's
interval lies inside its array" (``region.in_bounds``) as expressions of values known
when the region starts (kernel arguments, block coordinates, array shapes, uniform
variables); codegen writes the region twice: ``if <condition>:`` without checks,
``else:`` with them.

What it bounds: thread and block ids, kernel arguments and uniform values (exact), loop
variables of ``range`` loops, the counter of a grid-stride ``while i < n: ...; i +=
step`` (from its start up; ``step >= 0`` joins the test), ``+ - *``, ``//`` and ``%`` by a
constant, a module constant, ``warpsize`` or a run-time divisor (``>= 1`` joins the test),
shifts and ``&`` by constants, ``min``/``max``, ``x if c else y``, integer casts; arrays
are arguments, static LDS or dynamic LDS (its extent as the launch set it).

Sound by construction, so a wrong answer can only cost speed: intervals only widen;
a guard narrows a value only where it holds (inside ``if i < n:``, in ``x if i < n else
y``, after ``if i >= n: return``) and only until a name in it is assigned again; anything
the pass cannot bound (a value read from memory, a float, unsigned arithmetic, a view, a
`while` loop other than a counter) leaves the region checked. When the condition
fails the checked copy runs, which is the code of every fault message.

>>> import ast
>>> from gpusim.compile.ir import Intrinsic
>>> iv = thread_interval(Intrinsic(name="threadIdx.y"))
>>> iv[1].left.name, type(iv[1].op).__name__, iv[1].right.value  # 0 .. blockDim.y - 1
('blockDim.y', 'Sub', 1)
"""

from __future__ import annotations

import ast
import operator
from typing import NamedTuple

from numba.core import types

from gpusim.compile.ir import Cast, Intrinsic, KernelIR, MathCall, Region, walk_schedule
from gpusim.compile.passes.uniform import Uniformity

Interval = tuple[ast.expr, ast.expr]  # (lowest, highest), expressions of region-entry values
Guard = tuple[ast.expr, bool]  # a test and whether it held


class Def(NamedTuple):
    """A name's one assignment in the region: ``kind`` "expr" (``name = value``) or
    "range" (``for name in value``), with the guards and definitions of that point."""

    kind: str
    value: ast.expr
    guards: list
    env: dict


class UnboundedError(Exception):
    """An expression whose range the pass cannot state."""


# -- building bound expressions (constants folded so the generated test stays readable) --
def _num(node: ast.expr) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


_FOLD = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
         ast.FloorDiv: operator.floordiv, ast.RShift: operator.rshift,
         ast.LShift: operator.lshift}


def _arith(op: ast.operator, a: ast.expr, b: ast.expr) -> ast.expr:
    x, y = _num(a), _num(b)
    if x is not None and y is not None:
        return ast.Constant(_FOLD[type(op)](x, y))
    if isinstance(op, ast.Mult) and 0 in (x, y):
        return ast.Constant(0)
    if isinstance(op, (ast.Add, ast.Sub)) and y == 0:
        return a
    if isinstance(op, ast.Add) and x == 0:
        return b
    if isinstance(op, ast.Mult) and (x == 1 or y == 1):
        return b if x == 1 else a
    return ast.BinOp(a, op, b)


def _pick(fn: str, items: list[ast.expr]) -> ast.expr:
    """``min(...)``/``max(...)`` of ``items``, without repeats; one item is itself."""
    seen: dict[str, ast.expr] = {}
    for e in items:
        seen.setdefault(ast.dump(e), e)
    nums = [_num(e) for e in seen.values()]
    if all(n is not None for n in nums):
        return ast.Constant((min if fn == "min" else max)(nums))
    if len(seen) == 1:
        return next(iter(seen.values()))
    return ast.Call(ast.Name(fn, ast.Load()), list(seen.values()), [])


def _int_type(node: ast.expr, unsigned_bits: int = 0) -> bool:
    """``node`` is a signed integer (arithmetic on it is exact for index-sized values), or
    an unsigned one of at most ``unsigned_bits`` bits (a value that fits an int64)."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    ty = getattr(node, "numba_type", None)
    if isinstance(ty, types.IntegerLiteral):
        return True
    return isinstance(ty, types.Integer) and (ty.signed or ty.bitwidth <= unsigned_bits)


_NEGATE = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt}
_FLIP = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Eq: ast.Eq}


def comparisons(test: ast.expr, held: bool) -> list[tuple[ast.expr, type, ast.expr]]:
    """``(left, op, right)`` facts that hold when ``test`` evaluated to ``held``.

    >>> t = ast.parse("0 < y < n - 1 and x < m", mode="eval").body
    >>> [(ast.unparse(a), o.__name__, ast.unparse(b)) for a, o, b in comparisons(t, True)]
    [('0', 'Lt', 'y'), ('y', 'Lt', 'n - 1'), ('x', 'Lt', 'm')]
    """
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And if held else ast.Or):
        return [f for v in test.values for f in comparisons(v, held)]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return comparisons(test.operand, not held)
    if not isinstance(test, ast.Compare):
        return []
    if held:
        sides = [test.left, *test.comparators]
        return [(a, type(op), b) for a, op, b in zip(sides, test.ops, sides[1:], strict=False)
                if type(op) in _FLIP]
    if len(test.ops) == 1 and type(test.ops[0]) in _NEGATE:  # not (a < b): a >= b
        return [(test.left, _NEGATE[type(test.ops[0])], test.comparators[0])]
    return []


def _pure(node: ast.expr) -> bool:
    """No memory read in ``node`` (array shapes aside): a value that only an assignment
    to one of its names can change."""
    return not any(isinstance(n, ast.Subscript) and not _shape(n) or isinstance(n, ast.Call)
                   or (isinstance(n, Intrinsic) and not n.name.startswith(
                       ("threadIdx.", "blockIdx.", "blockDim.", "gridDim.")))
                   for n in ast.walk(node))


def _shape(node: ast.Subscript) -> bool:
    return isinstance(node.value, ast.Attribute) and node.value.attr == "shape"


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _stored(stmts: list[ast.stmt]) -> set[str]:
    return {n.id for s in stmts for n in ast.walk(s)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _step(s: ast.stmt) -> ast.expr | None:
    """``step`` if ``s`` is ``i += step``, ``i = i + step`` or ``i = step + i``."""
    if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(
            s.target, ast.Name):
        return s.value
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(
            s.targets[0], ast.Name) and isinstance(s.value, ast.BinOp) and isinstance(
            s.value.op, ast.Add):
        name, (a, b) = s.targets[0].id, (s.value.left, s.value.right)
        for one, other in ((a, b), (b, a)):
            if isinstance(one, ast.Name) and one.id == name and name not in _names(other):
                return other
    return None


def _exits(stmts: list[ast.stmt]) -> bool:
    """The block never falls through to the statement after it."""
    return bool(stmts) and isinstance(stmts[-1], (ast.Return, ast.Continue, ast.Break))


class Ranges:
    """The in-bounds condition of one region (see the module docstring)."""

    def __init__(self, kir: KernelIR, region: Region):
        self.kir, self.region = kir, region
        self.conditions: dict[str, ast.expr] = {}  # ast.dump -> condition, in order
        self.increments: set[int] = set()  # `i += step` statements of counters (induction)
        # names the thread loop sets before the statements run count as assigned here
        self.assigned = _stored(region.stmts) | set(region.loads) | set(region.snapshots) | \
            set(region.remat)
        self.uniform = Uniformity(kir, kir.uniform)
        self.params = kir.array_params()

    # -- statements: walk in order, with the guards that hold and the names defined ----
    def run(self) -> list[ast.expr] | None:
        """The region's in-bounds conditions, or None when some index cannot be bounded."""
        try:
            self.block(self.region.stmts, [], {})
        except UnboundedError:
            return None
        return list(self.conditions.values())

    def block(self, stmts: list[ast.stmt], guards: list[Guard], env: dict[str, Def]) -> None:
        """Walk ``stmts`` in order; what a block learns stays in it (``env`` is copied)."""
        env = dict(env)
        for s in stmts:
            self.statement(s, guards, env)
            before, held = dict(env), guards  # what the assigned value was computed with
            changed = _stored([s])
            guards = [g for g in guards if not (_names(g[0]) & changed)]
            for name in changed - ({*env} if id(s) in self.increments else set()):
                env.pop(name, None)
            if isinstance(s, ast.Assign):
                for t in s.targets:
                    self.define(t, s.value, Def("expr", s.value, list(held), before), env)
            elif isinstance(s, ast.If) and _exits(s.body) and not s.orelse:
                guards = guards + [(s.test, False)]  # `if i >= n: return`: then i < n
            elif isinstance(s, ast.If) and _exits(s.orelse):
                guards = guards + [(s.test, True)]

    def statement(self, s: ast.stmt, guards: list[Guard], env: dict[str, Def]) -> None:
        """Collect the accesses of one statement (and of the blocks inside it)."""
        if isinstance(s, ast.Assign):
            self.expr(s.value, guards, env)
            for t in s.targets:
                self.target(t, guards, env)
        elif isinstance(s, ast.AugAssign):
            self.expr(s.value, guards, env)
            self.target(s.target, guards, env)
        elif isinstance(s, (ast.Expr, ast.Assert)):
            self.expr(s.value if isinstance(s, ast.Expr) else s.test, guards, env)
        elif isinstance(s, ast.If):
            self.expr(s.test, guards, env)
            self.block(s.body, guards + [(s.test, True)], env)
            self.block(s.orelse, guards + [(s.test, False)], env)
        elif isinstance(s, (ast.For, ast.While)):
            # the body runs again after it assigns: what it assigns holds nowhere in it
            changed = _stored(s.body) | _stored([s.target] if isinstance(s, ast.For) else [])
            guards = [g for g in guards if not (_names(g[0]) & changed)]
            outer, env = env, {k: v for k, v in env.items() if k not in changed}
            if isinstance(s, ast.While):
                env.update(self.induction(s, outer))
                self.expr(s.test, guards, env)
                self.block(s.body, guards + [(s.test, True)], env)
                return
            for a in s.iter.args:
                self.expr(a, guards, env)
            if not (isinstance(s.iter, ast.Call) and getattr(s.iter.func, "id", "") == "range"
                    and isinstance(s.target, ast.Name)):
                raise UnboundedError
            inner = dict(env)
            inner[s.target.id] = Def("range", s.iter, list(guards), dict(env))
            self.block(s.body, guards, inner)

    def define(self, target: ast.expr, value: ast.expr, at: Def, env: dict[str, Def]) -> None:
        """``target = value``: later uses in the block see ``value`` as computed with the
        guards and definitions ``at`` holds (those before the assignment)."""
        pairs = [(target, value)]
        if isinstance(target, ast.Tuple):
            pairs = list(zip(target.elts, self.tuple_parts(value, len(target.elts)),
                             strict=True))
        for t, v in pairs:
            if isinstance(t, ast.Name) and v is not None:
                env[t.id] = at._replace(value=v)

    def induction(self, loop: ast.While, env: dict[str, Def]) -> dict[str, Def]:
        """Counters of a grid-stride loop: ``i = start`` before ``while i < n:``, whose body
        assigns ``i`` once, at its top level, as ``i += step`` (or ``i = i + step``). With
        ``step >= 0`` (added to the region's test) ``i`` never falls below ``start``
        anywhere in the loop; a guard (the loop's test) bounds it from above."""
        out = {}
        for s in loop.body:
            step = _step(s)
            if step is None:
                continue
            name = _stored([s]).pop()
            stores = [n for n in ast.walk(ast.Module(loop.body, [])) if isinstance(
                n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
            if name not in env or env[name].kind != "expr" or len(stores) != 1:
                continue
            step_env = {k: v for k, v in env.items() if k not in _stored(loop.body)}
            try:
                lo = self.interval(step, [], step_env)[0]
            except UnboundedError:
                continue
            self.require(ast.Compare(lo, [ast.GtE()], [ast.Constant(0)]))
            out[name] = Def("counter", env[name].value, env[name].guards, env[name].env)
            self.increments.add(id(s))  # the counter's definition outlives its increment
        return out

    @staticmethod
    def tuple_parts(value: ast.expr, n: int) -> list[ast.expr | None]:
        if isinstance(value, ast.Tuple) and len(value.elts) == n:
            return list(value.elts)
        if isinstance(value, Intrinsic) and value.name == "grid" and value.const == n:
            return [_typed(_grid(a)) for a in "xyz"[:n]]
        return [None] * n

    def target(self, t: ast.expr, guards: list[Guard], env: dict) -> None:
        if isinstance(t, ast.Subscript):
            self.access(t, guards, env)
        elif isinstance(t, ast.Tuple):
            for e in t.elts:
                self.target(e, guards, env)

    # -- expressions: find the accesses, with the guards of their branch --------------
    def expr(self, node: ast.expr, guards: list[Guard], env: dict) -> None:
        if isinstance(node, ast.IfExp):
            self.expr(node.test, guards, env)
            self.expr(node.body, guards + [(node.test, True)], env)
            self.expr(node.orelse, guards + [(node.test, False)], env)
        elif isinstance(node, ast.BoolOp):
            for k, v in enumerate(node.values):
                held = isinstance(node.op, ast.And)  # `a and b`: b runs where a held
                self.expr(v, guards + [(w, held) for w in node.values[:k]], env)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            self.access(node, guards, env)
        elif isinstance(node, Intrinsic) and node.name.startswith("atomic."):
            array, index, *rest = node.args
            self.access(ast.Subscript(array, index, ast.Load()), guards, env)
            for a in rest:
                self.expr(a, guards, env)
        elif isinstance(node, ast.Subscript) and isinstance(
                getattr(node.value, "numba_type", None), types.Array):
            raise UnboundedError  # an array held in a tuple: checked as generated
        else:
            for c in ast.iter_child_nodes(node):
                if isinstance(c, ast.expr):
                    self.expr(c, guards, env)

    def access(self, node: ast.Subscript, guards: list[Guard], env: dict) -> None:
        """Add the conditions that keep every index of ``node`` inside its array."""
        name = node.value.id if isinstance(node.value, ast.Name) else None
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for p in parts:
            self.expr(p, guards, env)
        decl = self.kir.arrays.get(name)
        if decl is None and name not in self.params:
            if isinstance(getattr(node.value, "numba_type", None), types.Array):
                raise UnboundedError  # a view (row = a[i, :]): its shape is the thread's
            return  # a tuple or a constant array: not bounds-checked
        if isinstance(getattr(node.slice, "numba_type", None), types.BaseTuple) and \
                not isinstance(node.slice, ast.Tuple):
            raise UnboundedError  # a[gid] with gid a tuple
        for k, p in enumerate(parts):
            if isinstance(p, ast.Slice):
                raise UnboundedError
            if decl is not None and not decl.dynamic:
                bound: ast.expr = ast.Constant(decl.shape[k])
            else:  # an argument, or dynamic LDS (its extent is set at launch)
                bound = ast.Subscript(ast.Attribute(ast.Name(name, ast.Load()), "shape",
                                                    ast.Load()), ast.Constant(k), ast.Load())
            lo, hi = self.interval(p, guards, env)
            self.require(ast.Compare(lo, [ast.GtE()], [ast.Constant(0)]))
            self.require(ast.Compare(hi, [ast.Lt()], [bound]))

    def require(self, cond: ast.Compare) -> None:
        """Add ``cond`` to the region's test (folded when both sides are numbers)."""
        a, b = _num(cond.left), _num(cond.comparators[0])
        if a is None or b is None:
            self.conditions.setdefault(ast.dump(cond), cond)
        elif not (a >= b if isinstance(cond.ops[0], ast.GtE) else a < b):
            raise UnboundedError  # a constant index outside its array: always checked

    # -- intervals -------------------------------------------------------------------
    def interval(self, node: ast.expr, guards: list[Guard], env: dict) -> Interval:
        """The lowest and highest value ``node`` takes in this work-group, at this point."""
        if self.entry_value(node) and _int_type(node, unsigned_bits=32):
            return node, node  # e.g. an `unsigned int` argument: a value below 2**32
        if not _int_type(node):
            raise UnboundedError
        lo, hi = self.base_interval(node, guards, env)
        if lo is hi or not _pure(node):  # exact already (a value known at entry), or
            if hi is None:  # read from memory, which a store may change after the test
                raise UnboundedError
            return lo, hi
        key = ast.dump(node)
        for test, held in guards:
            for left, op, right in comparisons(test, held):
                if ast.dump(right) == key:
                    left, op, right = right, _FLIP[op], left
                if ast.dump(left) != key or not _int_type(right, unsigned_bits=32):
                    continue
                try:
                    rlo, rhi = self.interval(right, [], env)
                except UnboundedError:
                    continue
                if op in (ast.Lt, ast.LtE, ast.Eq):
                    cap = _arith(ast.Sub(), rhi, ast.Constant(int(op is ast.Lt)))
                    hi = cap if hi is None else _pick("min", [hi, cap])
                if op in (ast.Gt, ast.GtE, ast.Eq):
                    lo = _pick("max", [lo, _arith(ast.Add(), rlo, ast.Constant(int(op is ast.Gt)))])
        if hi is None:
            raise UnboundedError  # a counter no guard bounds here
        return lo, hi

    def const(self, node: ast.expr) -> int | None:
        """The value of a compile-time integer: a literal, a module constant, warpsize."""
        if isinstance(node, ast.Name) and type(self.kir.constants.get(node.id)) is int:
            return self.kir.constants[node.id]
        if isinstance(node, Intrinsic) and node.name == "warpsize":
            return self.kir.wave_size
        return _num(node)

    def base_interval(self, node: ast.expr, guards: list[Guard], env: dict) -> Interval:
        if self.const(node) is not None:
            c = ast.Constant(self.const(node))
            return c, c
        if self.entry_value(node):
            return node, node
        if isinstance(node, Intrinsic):
            if node.name.startswith("threadIdx."):
                return thread_interval(node)
            if node.name == "laneid":
                return ast.Constant(0), ast.Constant(self.kir.wave_size - 1)
            if node.name == "grid" and node.const == 1:
                return self.interval(_typed(_grid("x")), guards, env)
            raise UnboundedError
        if isinstance(node, ast.Name):
            return self.name_interval(node.id, env)
        if isinstance(node, ast.BinOp):
            return self.binop_interval(node, guards, env)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            lo, hi = self.interval(node.operand, guards, env)
            if isinstance(node.op, ast.UAdd):
                return lo, hi
            return _arith(ast.Sub(), ast.Constant(0), hi), _arith(ast.Sub(), ast.Constant(0), lo)
        if isinstance(node, ast.IfExp):
            a = self.interval(node.body, guards + [(node.test, True)], env)
            b = self.interval(node.orelse, guards + [(node.test, False)], env)
            return _pick("min", [a[0], b[0]]), _pick("max", [a[1], b[1]])
        if isinstance(node, MathCall) and node.qualname in ("min", "max") and node.args:
            ivs = [self.interval(a, guards, env) for a in node.args]
            return (_pick(node.qualname, [iv[0] for iv in ivs]),
                    _pick(node.qualname, [iv[1] for iv in ivs]))
        if isinstance(node, Cast) and node.dtype is not bool:
            return self.interval(node.arg, guards, env)
        raise UnboundedError

    def entry_value(self, node: ast.expr) -> bool:
        """``node`` has one value in the whole work-group, already known when the region
        starts: uniform, and no name in it is assigned inside the region."""
        return self.uniform.is_uniform(node) and not (_names(node) & self.assigned)

    def name_interval(self, name: str, env: dict[str, Def]) -> Interval:
        if name in env:
            d = env[name]
            if d.kind == "range":
                return self.range_interval(d.value, d.guards, d.env)
            if d.kind == "counter":  # only rises: from its start, up to what guards allow
                return self.interval(d.value, d.guards, d.env)[0], None
            return self.interval(d.value, d.guards, d.env)
        if name in self.region.remat and name not in _stored(self.region.stmts):
            return self.interval(self.kir.remat[name], [], {})
        raise UnboundedError

    def range_interval(self, call: ast.Call, guards: list[Guard], env: dict) -> Interval:
        """The values of ``k`` in ``for k in range(...)``, inside the loop's body."""
        args = call.args
        start, stop = (ast.Constant(0), args[0]) if len(args) == 1 else (args[0], args[1])
        slo, shi = self.interval(start, guards, env)
        elo, ehi = self.interval(stop, guards, env)
        step = _num(args[2]) if len(args) == 3 else 1
        if step is not None and step > 0:  # start <= k <= stop - 1
            return slo, _arith(ast.Sub(), ehi, ast.Constant(1))
        if step is not None and step < 0:  # stop + 1 <= k <= start
            return _arith(ast.Add(), elo, ast.Constant(1)), shi
        return (_pick("min", [slo, _arith(ast.Add(), elo, ast.Constant(1))]),
                _pick("max", [shi, _arith(ast.Sub(), ehi, ast.Constant(1))]))

    def binop_interval(self, node: ast.BinOp, guards: list[Guard], env: dict) -> Interval:
        op = node.op
        a = self.interval(node.left, guards, env)
        c = self.const(node.right)
        if isinstance(op, (ast.Add, ast.Sub, ast.Mult)):
            b = self.interval(node.right, guards, env)
            if isinstance(op, ast.Add):
                return _arith(op, a[0], b[0]), _arith(op, a[1], b[1])
            if isinstance(op, ast.Sub):
                return _arith(op, a[0], b[1]), _arith(op, a[1], b[0])
            for x, y in ((a, b), (b, a)):  # times a constant: no min/max needed
                k = _num(x[0]) if x[0] is x[1] or ast.dump(x[0]) == ast.dump(x[1]) else None
                if k is not None:
                    lo, hi = _arith(op, x[0], y[0]), _arith(op, x[0], y[1])
                    return (lo, hi) if k >= 0 else (hi, lo)
            products = [_arith(op, p, q) for p in a for q in b]
            return _pick("min", products), _pick("max", products)
        if c is None and isinstance(op, (ast.FloorDiv, ast.Mod)):
            d = self.interval(node.right, guards, env)  # by a run-time divisor: if every
            self.require(ast.Compare(d[0], [ast.GtE()], [ast.Constant(1)]))  # one is >= 1
            if isinstance(op, ast.Mod):  # Python's %: 0 .. d - 1 for a positive d
                return ast.Constant(0), _arith(ast.Sub(), d[1], ast.Constant(1))
            # x // d rises with x; for a fixed x it moves one way with d: the corners
            corners = [_arith(op, x, y) for x in a for y in d]
            return _pick("min", corners), _pick("max", corners)
        if c is None or c <= 0:
            raise UnboundedError  # a shift by a run-time amount, or by a negative one
        k = ast.Constant(c)
        if isinstance(op, (ast.FloorDiv, ast.RShift, ast.LShift)):  # monotonic in the left
            return _arith(op, a[0], k), _arith(op, a[1], k)
        if isinstance(op, ast.Mod):  # Python's %: 0 .. c - 1 for a positive c
            return ast.Constant(0), ast.Constant(c - 1)
        if isinstance(op, ast.BitAnd):
            return ast.Constant(0), k
        raise UnboundedError


def thread_interval(node: Intrinsic) -> Interval:
    """``threadIdx.a`` runs over ``0 .. blockDim.a - 1``."""
    dim = Intrinsic(name="blockDim." + node.name.split(".")[1])
    return ast.Constant(0), _arith(ast.Sub(), dim, ast.Constant(1))


def _grid(axis: str) -> ast.expr:
    """``blockIdx.a * blockDim.a + threadIdx.a``, what ``hip.grid`` means on axis ``a``."""
    return ast.BinOp(ast.BinOp(Intrinsic(name=f"blockIdx.{axis}"), ast.Mult(),
                               Intrinsic(name=f"blockDim.{axis}")),
                     ast.Add(), Intrinsic(name=f"threadIdx.{axis}"))


def _typed(node: ast.expr) -> ast.expr:
    """Mark a built index expression (and its parts) as int64, as inference would."""
    for n in ast.walk(node):
        if isinstance(n, ast.expr):
            n.numba_type = types.int64
    return node


def plan_ranges(kir: KernelIR) -> None:
    """Run the pass: ``region.in_bounds`` for every region of a fast-path kernel."""
    for node in walk_schedule(kir.schedule or []):
        if isinstance(node, Region):
            node.in_bounds = None
            if kir.mode == "fast" and kir.versioned and not node.scalar:
                node.in_bounds = Ranges(kir, node).run()
