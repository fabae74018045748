"""Writing LLVM IR text: values, types, constants and one function's basic blocks.

The lowering keeps numba types on every value (``Value.ty``) because LLVM's integer
types carry no sign: ``int32`` and ``uint32`` are both ``i32``, and only the numba type
says whether ``<`` is ``icmp slt`` or ``icmp ult``. Booleans are ``i1`` in registers and
``i8`` in memory, as clang does.

Variables live in ``alloca``s of the private address space (5) and LLVM's ``O3``
pipeline (mem2reg/SROA) turns them into SSA registers, the way clang's own output at
``-O0`` is cleaned up: simple to emit, and what LLVM optimises best.

>>> from numba.core import types
>>> fb = FunctionBuilder()
>>> v = fb.op("add i64 1, 2", types.int64)
>>> v.ref, ll_type(types.float32), const(0.5, types.float32).ref
('%t1', 'float', '0x3FE0000000000000')
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba.core import types

GLOBAL, SHARED, CONSTANT, PRIVATE = 1, 3, 4, 5  # AMDGPU address spaces (AMDGPUUsage.rst)
SPACE_OF = {"global": GLOBAL, "shared": SHARED, "const": CONSTANT, "local": PRIVATE}
I64 = types.int64
I32 = types.int32
BOOL = types.boolean


@dataclass(frozen=True)
class Value:
    """An LLVM operand (``%t3``, ``42``, ``@tile``) and the numba type it stands for."""

    ref: str
    ty: Any

    @property
    def ll(self) -> str:
        return ll_type(self.ty)

    def typed(self) -> str:
        """``i64 %t3``: the operand as LLVM's instructions take it."""
        return f"{self.ll} {self.ref}"


@dataclass(frozen=True)
class TupleValue:
    """A tuple (``a.shape``, ``hip.grid(2)``): kept as separate values, never an aggregate."""

    items: tuple[Value, ...]

    @property
    def ty(self) -> Any:
        return types.BaseTuple.from_types([v.ty for v in self.items])


def ll_type(ty: Any) -> str:
    """The LLVM type of a numba scalar type in a register.

    >>> ll_type(types.uint8), ll_type(types.boolean), ll_type(types.float64)
    ('i8', 'i1', 'double')
    """
    if isinstance(ty, types.Boolean):
        return "i1"
    if isinstance(ty, types.Integer):
        return f"i{ty.bitwidth}"
    if isinstance(ty, types.Float):
        return {16: "half", 32: "float", 64: "double"}[ty.bitwidth]
    raise TypeError(f"no LLVM register type for {ty}")


def mem_type(ty: Any) -> str:
    """The LLVM type of a numba scalar in memory (``bool`` is a byte)."""
    return "i8" if isinstance(ty, types.Boolean) else ll_type(ty)


def size_of(ty: Any) -> int:
    return 1 if isinstance(ty, types.Boolean) else ty.bitwidth // 8


def const(value: Any, ty: Any) -> Value:
    """A constant of numba type ``ty``. Floats are written as the hex of their double
    value (rounded to the type first), the only exact spelling LLVM accepts for all."""
    if isinstance(ty, types.Boolean):
        return Value("true" if value else "false", ty)
    if isinstance(ty, types.Integer):
        bits = ty.bitwidth
        v = int(value) & ((1 << bits) - 1)
        if v >= 1 << (bits - 1):
            v -= 1 << bits  # LLVM reads integer literals as signed
        return Value(str(v), ty)
    if isinstance(ty, types.Float):
        rounded = float({16: np.float16, 32: np.float32, 64: np.float64}[ty.bitwidth](value))
        if ty.bitwidth == 16:
            return Value(f"0xH{int(np.float16(rounded).view(np.uint16)):04X}", ty)
        return Value(f"0x{struct.unpack('<Q', struct.pack('<d', rounded))[0]:016X}", ty)
    raise TypeError(f"no LLVM constant for {ty}")


def local_name(name: str) -> str:
    """A readable LLVM local name for a Python variable (non-ASCII names are replaced)."""
    return name if re.fullmatch(r"[A-Za-z_][\w.]*", name, flags=re.ASCII) else "v"


@dataclass
class FunctionBuilder:
    """Basic blocks of one function; instructions go to the current block.

    After a terminator (``br``, ``ret``) the builder opens an unreachable block, so the
    dead code after a Python ``return`` or ``break`` is still valid IR (LLVM drops it).
    """

    blocks: list[tuple[str, list[str]]] = field(default_factory=lambda: [("entry", [])])
    allocas: list[str] = field(default_factory=list)
    declarations: dict[str, str] = field(default_factory=dict)
    counter: int = 0
    terminated: bool = False

    @property
    def label(self) -> str:
        """The current block's label (for ``phi`` operands)."""
        return self.blocks[-1][0]

    def fresh(self, stem: str = "t") -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def emit(self, text: str) -> None:
        if self.terminated:
            self.start(self.fresh("dead"))
        self.blocks[-1][1].append("  " + text)

    def op(self, text: str, ty: Any) -> Value:
        """Emit ``%tN = text`` and return ``%tN`` as a value of numba type ``ty``."""
        name = "%" + self.fresh()
        self.emit(f"{name} = {text}")
        return Value(name, ty)

    def terminate(self, text: str) -> None:
        self.emit(text)
        self.terminated = True

    def start(self, label: str) -> None:
        """Begin block ``label``, falling through into it from an open block."""
        if not self.terminated:
            self.blocks[-1][1].append(f"  br label %{label}")
        self.blocks.append((label, []))
        self.terminated = False

    def br(self, label: str) -> None:
        self.terminate(f"br label %{label}")

    def cbr(self, cond: Value, then: str, orelse: str) -> None:
        self.terminate(f"br i1 {cond.ref}, label %{then}, label %{orelse}")

    def alloca(self, ll: str, stem: str, align: int = 8) -> str:
        """A private-memory slot in the entry block; returns its pointer name."""
        name = f"%{local_name(stem)}.addr{self.fresh('')}"
        self.allocas.append(f"  {name} = alloca {ll}, align {align}, addrspace(5)")
        return name

    def declare(self, name: str, text: str) -> None:
        """Add a declaration (``declare i32 @llvm.amdgcn.workitem.id.x()``) once."""
        self.declarations.setdefault(name, text)

    def call(self, ret: str, fn: str, args: list[str], ty: Any = None) -> Value | None:
        """Call intrinsic ``fn`` with typed operands (``"i32 %t3"``); declared on first use
        from the operand types."""
        arg_types = ", ".join(a.rsplit(" ", 1)[0] for a in args)  # "<4 x i16> %t1": the type
        self.declare(fn, f"declare {ret} @{fn}({arg_types})")
        text = f"call {ret} @{fn}({', '.join(args)})"
        if ret == "void":
            self.emit(text)
            return None
        return self.op(text, ty)

    def render(self) -> list[str]:
        if not self.terminated:
            self.blocks[-1][1].append("  ret void")
        out: list[str] = []
        for k, (label, lines) in enumerate(self.blocks):
            out.append(f"{label}:")
            if k == 0:
                out.extend(self.allocas)
            out.extend(lines)  # every block ends in a terminator: see start() and br()
        return out
