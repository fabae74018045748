"""Static instruction costs of kernel statements, for the trace variant's counters.

The trace variant adds, at the top of every straight-line block a thread runs, the cost of
that block's statements to the thread's counters (``tracelib``: VALU, branch, FLOPs,
SALU, SMEM); the engine then takes a wavefront's count as its busiest lane's (a wave
issues an instruction if any lane needs it). This is an *estimate* of what the AMDGPU
compiler would emit, good enough to rank kernels and feed the timing model:

==========================  ====================================================
Python                      counted as
==========================  ====================================================
``+ - * & | ^ << >>``       1 VALU (``/ **``, ``// %`` by a constant: 4, a reciprocal
                            and fix-ups; ``// %`` by a variable: ``INT_DIV`` = 20)
comparison, ``and``/``or``  1 VALU per operator
``x if c else y``, casts    1 VALU (``v_cndmask``, ``v_cvt``; a literal's cast: 0)
``math.*``                  1 VALU (``sin cos tan exp log pow ...``: 4)
array index                 1 VALU (address arithmetic); constant memory: 1 SMEM
``if``, loop iteration      1 branch
float result                each arithmetic operator is also a FLOP (per lane)
float ``a * b + c``         one FMA: a multiply feeding an add or subtract in the
                            same expression (or ``acc += a * b``) is contracted
                            into one VALU of 2 FLOPs (counted in ``fma``)
uniform target              the statement's operations are SALU, not VALU
``for`` over a constant     unrolled (``unrolled``): no counter or branch per
``range`` (<= 32 trips)     iteration; a static LDS array's index in its body
                            costs nothing (a constant offset in the instruction)
==========================  ====================================================

Memory instructions are not counted here: they are the trace's own rows.

>>> import ast
>>> from gpusim.compile.ir import KernelIR
>>> kir = KernelIR(name="k", pyfunc=None)
>>> statement_cost(ast.parse("y = a * x + b").body[0], kir)   # y's type unknown: integer
Cost(valu=2, branch=0, flops=0, salu=0, smem=0, fma=0)
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from gpusim.compile.ir import Cast, Intrinsic, KernelIR, MathCall

SLOW_OPS = (ast.Div, ast.Pow)  # a reciprocal and fix-ups: 4
INT_DIV_OPS = (ast.FloorDiv, ast.Mod)
# An integer division or remainder by a value the compiler does not know has no
# instruction: LLVM expands a 32-bit one into about 13 VALU (a float reciprocal
# v_rcp_iflag_f32, conversions, v_mul_hi/v_mul_lo and two conditional corrections: LLVM's
# AMDGPU udiv.ll test, udiv32_invariant_denom), and a 64-bit one (numba's int64) into a
# check of the high halves around that 32-bit path (BypassSlowDivision; LLVM's NVPTX
# bypass-div.ll test); Python's floor semantics add a sign fix-up. Model assumption: 20.
INT_DIV = 20
SLOW_MATH = ("sin", "cos", "tan", "exp", "log", "pow", "atan", "asin", "acos", "sinh", "cosh",
             "tanh", "erf", "expm1", "log1p", "log2", "log10", "exp2", "atan2", "hypot")
FLOP_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
# Model assumption: LLVM (hipcc -O3, NVVM) fully unrolls a loop of a few constant
# iterations (its unroll threshold bounds trips x body size) and folds each iteration's
# constant LDS offset into the instruction (ds_read offset:N; LDS [R+imm] on NVIDIA).
UNROLL_MAX = 32
# FMA contraction: clang compiles HIP with -ffp-contract=fast by default and libNVVM
# contracts by default (its -fma=1 option), so a float multiply whose result feeds an add
# or subtract of the same expression becomes one v_fma_f32 / FFMA.
_ADDS = (ast.Add, ast.Sub)
_FOLD = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__,
         ast.FloorDiv: int.__floordiv__}


class Cost(NamedTuple):
    """Instructions one thread issues for a statement (``tracelib.COUNTERS`` order)."""

    valu: int = 0
    branch: int = 0
    flops: int = 0
    salu: int = 0
    smem: int = 0
    fma: int = 0  # of the VALU, fused multiply-adds (2 FLOPs each, per lane like flops)

    def __add__(self, other: tuple) -> Cost:  # type: ignore[override]
        return Cost(*(a + b for a, b in zip(self, other, strict=True)))


class _Ops(NamedTuple):
    """What an expression computes: ALU operations, float-capable arithmetic outside
    indices, SMEM loads, multiply-adds a float statement contracts (one ALU each fewer),
    ``fma()`` calls (one ALU, 2 FLOPs)."""

    alu: int = 0
    arith: int = 0
    smem: int = 0
    contract: int = 0
    fma: int = 0

    def __add__(self, other: tuple) -> _Ops:  # type: ignore[override]
        return _Ops(*(a + b for a, b in zip(self, other, strict=True)))


def _is_mult(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)


def _constant(node: ast.AST, kir: KernelIR) -> int | None:
    """The integer ``node`` always is (a literal, a module constant, arithmetic of them)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        value = getattr(kir.pyfunc, "__globals__", {}).get(node.id)
        return value if type(value) is int else None
    if isinstance(node, ast.BinOp) and type(node.op) in _FOLD:
        a, b = _constant(node.left, kir), _constant(node.right, kir)
        if a is not None and b is not None and (b or not isinstance(node.op, ast.FloorDiv)):
            return _FOLD[type(node.op)](a, b)
    return None


def unrolled(s: ast.stmt, kir: KernelIR) -> bool:
    """``for v in range(...)`` with constant bounds and at most ``UNROLL_MAX`` trips.

    >>> kir = KernelIR(name="k", pyfunc=None)
    >>> [unrolled(ast.parse(f"for k in range({r}): pass").body[0], kir)
    ...  for r in ("16", "0, 32, 8", "8192 // 256", "n", "1024")]
    [True, True, True, False, False]
    """
    it = s.iter if isinstance(s, ast.For) else None
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
            and it.func.id == "range" and 1 <= len(it.args) <= 3 and not it.keywords):
        return False
    bounds = [_constant(a, kir) for a in it.args]
    return None not in bounds and len(range(*bounds)) <= UNROLL_MAX


def _op_cost(op: ast.operator, divisor: ast.AST, kir: KernelIR) -> int:
    """VALU instructions of one binary operator (``divisor``: its right operand).

    >>> kir = KernelIR(name="k", pyfunc=None)
    >>> [_op_cost(ast.Mod(), ast.parse(d).body[0].value, kir) for d in ("64", "10", "n")]
    [4, 4, 20]
    """
    if isinstance(op, INT_DIV_OPS) and _constant(divisor, kir) is None:
        return INT_DIV
    # by a constant: a multiply by its reciprocal (a shift for a power of two) plus the
    # fix-ups of Python's floor semantics on signed integers (srem, then the sign)
    return 4 if isinstance(op, SLOW_OPS + INT_DIV_OPS) else 1
    return 4 if isinstance(op, SLOW_OPS) else 1


def _ops(node: ast.AST, kir: KernelIR, index: bool = False, folded: bool = False) -> _Ops:
    """What ``node`` computes (``_Ops``); ``folded``: in an unrolled loop's body (static
    LDS offsets are constants)."""
    alu = arith = smem = contract = fma = 0
    n = node
    if isinstance(n, ast.BinOp):
        alu += _op_cost(n.op, n.right, kir)
        arith += isinstance(n.op, FLOP_OPS) and not index
        # one of the add's operands may be a multiply it fuses with (one only: an FMA
        # has one product); integer index arithmetic is left uncontracted
        contract += (isinstance(n.op, _ADDS) and not index
                     and (_is_mult(n.left) or _is_mult(n.right)))
    elif isinstance(n, ast.UnaryOp):
        alu += 1
    elif isinstance(n, ast.Compare):
        alu += len(n.ops)
    elif isinstance(n, ast.BoolOp):
        alu += len(n.values) - 1
    elif isinstance(n, Cast) and isinstance(n.arg, ast.Constant):
        pass  # np.float32(0.25): a constant the compiler folds, no v_cvt
    elif isinstance(n, (ast.IfExp, Cast)):
        alu += 1
    elif isinstance(n, MathCall):
        alu += 4 if n.qualname.rsplit(".", 1)[-1] in SLOW_MATH else 1
    elif isinstance(n, Intrinsic):
        if n.name == "fma":
            alu, arith, fma = alu + 1, arith + 2 * (not index), fma + (not index)
        elif n.name in ("popc", "ffs", "clz", "brev", "laneid"):
            alu += 1
        elif n.name.startswith(("grid", "gridsize")):
            alu += n.const or 1
    elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
        decl = kir.arrays.get(n.value.id)
        if decl is not None and decl.space == "const":
            smem += 1
        elif folded and decl is not None and decl.space == "shared" and not decl.dynamic:
            return _Ops(alu, arith, smem)  # base + constant offset: nothing per access
        elif decl is not None or n.value.id in kir.params:
            alu += 1  # the element's address
        idx = _ops(n.slice, kir, index=True)  # index arithmetic is integer work
        return _Ops(alu + idx.alu, arith, smem + idx.smem)
    total = _Ops(alu, arith, smem, contract, fma)
    for child in ast.iter_child_nodes(n):
        total = total + _ops(child, kir, index, folded)
    return total


def _is_float(target: ast.AST, kir: KernelIR) -> bool:
    """True if a statement stores a floating-point value (its operations are FLOPs)."""
    if isinstance(target, ast.Name):
        return str(kir.types.get(target.id, "")).startswith("float")
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
        name = target.value.id
        if name in kir.arrays:
            return kir.arrays[name].dtype.kind == "f"
        if name in kir.params and kir.arg_types:
            ty = kir.arg_types[kir.params.index(name)]
            return str(getattr(ty, "dtype", "")).startswith("float")
    return False


def _uniform(target: ast.AST, kir: KernelIR) -> bool:
    return isinstance(target, ast.Name) and target.id in kir.uniform


def statement_cost(s: ast.stmt, kir: KernelIR, folded: bool = False) -> Cost:
    """What one thread issues for ``s`` itself (not for the bodies of its branches/loops);
    ``folded``: ``s`` is in the body of an ``unrolled`` loop."""
    if isinstance(s, (ast.Assign, ast.AugAssign)):
        targets = s.targets if isinstance(s, ast.Assign) else [s.target]
        ops = _ops(s, kir, folded=folded)
        alu, arith, contract = ops.alu, ops.arith, ops.contract
        if isinstance(s, ast.AugAssign):
            alu += _op_cost(s.op, s.value, kir)
            arith += isinstance(s.op, FLOP_OPS)
            contract += isinstance(s.op, _ADDS) and _is_mult(s.value)  # acc += a * b
        if all(_uniform(t, kir) for t in targets):
            return Cost(salu=alu, smem=ops.smem)
        if not any(_is_float(t, kir) for t in targets):
            return Cost(valu=alu, smem=ops.smem)
        return Cost(valu=alu - contract, flops=arith, smem=ops.smem, fma=contract + ops.fma)
    if isinstance(s, ast.Expr):
        ops = _ops(s, kir, folded=folded)
        return Cost(valu=ops.alu, smem=ops.smem)
    if isinstance(s, (ast.If, ast.While, ast.Assert)):
        ops = _ops(s.test, kir)
        return Cost(valu=ops.alu, branch=1, smem=ops.smem)
    if isinstance(s, ast.For):
        ops = _ops(s.iter, kir)
        return Cost(valu=ops.alu, branch=1, smem=ops.smem)
    return Cost()


def block_cost(stmts: list[ast.stmt], kir: KernelIR, folded: bool = False) -> Cost:
    """The summed cost of a straight-line list of statements."""
    total = Cost()
    for s in stmts:
        total = total + statement_cost(s, kir, folded)
    return total


def loop_iteration_cost(s: ast.stmt, kir: KernelIR) -> Cost:
    """What each iteration of loop ``s`` adds: the back-edge branch (and a while's test)."""
    if isinstance(s, ast.While):
        ops = _ops(s.test, kir)
        return Cost(valu=ops.alu, branch=1, smem=ops.smem)
    if unrolled(s, kir):
        return Cost()
    return Cost(valu=1, branch=1)  # counter increment and compare-and-branch
