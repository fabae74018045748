"""``__builtin_amdgcn_mfma_*`` in device code -> the kernel language's ``hip.mfma_*``.

HIP C++ calls a matrix-core builtin on vector registers (``vectors.py``: private
arrays here) and gets D back as a value::

    acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
                          -> hip.mfma_f32_32x32x8bf16_1k(a, b, acc)        (in place)
    d = __builtin_amdgcn_mfma_f32_16x16x4f32(x, y, c, 0, 0, 0);
                          -> hip.mfma_f32_16x16x4f32(x, y, c, d)           (D into d)

The C operand is the accumulator D is written over when it is the variable assigned
(the form of a K loop); otherwise D goes to the assigned vector, or, where the result
is used in another way (``floatx4 d = ...``, an operand of another builtin, a scalar
``double`` accumulator of the 4x4x4 f64 MFMA), to a new private array.

Operands as the builtins declare them (clang's BuiltinsAMDGPU.def) and as ``hip.mfma_*``
stores them (``lang_mfma``):

- f32/f64 MFMAs whose lane holds one A element take a ``float``/``double`` number;
  xf32 a ``float`` vector of 2; f16 a ``_Float16``/``__fp16`` vector (float16 array);
- bf16 ones a vector of ``short`` (bfloat16 bit patterns; ``__bf16`` or ``unsigned
  short`` vectors too), copied into a uint16 array where its elements are signed;
- i8 ones an ``int`` holding 4 packed int8 (``long``: 8), fp8/bf8 ones a ``long`` of 8
  bytes. ``*reinterpret_cast<int32_t*>(a)`` of a private ``int8_t a[4]`` passes ``a``
  itself; any other integer is split into its bytes, lowest first, as in a register.

The three trailing arguments (cbsz, abid, blgp: broadcast one block's A or a lane
group's B to the others) must be 0: gpusim does not model the broadcasts, and a
program that uses them stops at their line. Which architecture has which builtin is
checked when the kernel compiles (``compile.passes.intrinsic_types.mfma_instruction``).
"""

from __future__ import annotations

import re
from functools import cache

from clang.cindex import Cursor, CursorKind, TypeKind

from gpusim.devices.mfma import ARCHS, MfmaError, MfmaInstruction, get_mfma
from gpusim.hipcc import ctypes_map as ct
from gpusim.hipcc import vectors
from gpusim.hipcc.clangast import children, operator, strip, value_of

K = CursorKind
PREFIX = "__builtin_amdgcn_"
# How the kernel language's private arrays hold each MFMA element type (lang_mfma).
STORAGE = {"f32": "float32", "xf32": "float32", "f64": "float64", "i32": "int32",
           "f16": "float16", "bf16": "uint16", "i8": "int8", "fp8": "uint8", "bf8": "uint8"}
_MODIFIERS = ("cbsz", "abid", "blgp")
_CASTS = (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR)


@cache
def instruction(builtin: str) -> MfmaInstruction | None:
    """The MFMA a builtin emits (on the last architecture that has it: shapes and
    operands are the same on each), or None if gpusim has no such MFMA."""
    for arch in reversed(ARCHS):
        try:
            return get_mfma(arch, builtin)
        except MfmaError:
            continue
    return None


def is_matrix_call(c: Cursor) -> bool:
    """Whether ``c`` calls a matrix-core builtin (``__builtin_amdgcn_mfma_*``, or the
    sparse ``__builtin_amdgcn_smfmac_*``, which gpusim refuses by name)."""
    return c.kind == K.CALL_EXPR and c.spelling.startswith(
        (PREFIX + "mfma_", PREFIX + "smfmac_"))


def instruction_of(tr, c: Cursor) -> MfmaInstruction:
    """The MFMA the call ``c`` emits; a clear error for a builtin gpusim does not model."""
    inst = instruction(c.spelling)
    if inst is None:
        tr.fail(c, f"the matrix-core builtin `{c.spelling}`", "one of the dense MFMA "
                "builtins of gfx90a and gfx942 (gpusim.devices.mfma.builtin_names() lists "
                "them); sparse (smfmac) and gfx950 MFMAs are not modelled")
    return inst


def call(tr, c: Cursor, dest: str | None) -> str:
    """Emit the MFMA call ``c``; D goes into the private array ``dest`` (C's accumulator
    when ``c`` passes ``dest`` as C: the in-place form), or a new one if ``dest`` is None.
    Returns D's array."""
    inst = instruction_of(tr, c)
    op = c.spelling.removeprefix(PREFIX)
    args = children(c)[1:]  # after the callee
    for arg, name in zip(args[3:], _MODIFIERS, strict=True):
        if value_of(arg) != 0:
            tr.fail(arg, f"`{c.spelling}` with {name} = {value_of(arg)}: the MFMA broadcast "
                    "modifiers (cbsz, abid, blgp) are not modelled, so this",
                    "0, 0, 0 as the last three arguments, with each lane's A and B "
                    "operands already holding the values to multiply")
    a = operand(tr, args[0], inst.a_type, inst.a_per_lane)
    b = operand(tr, args[1], inst.b_type, inst.b_per_lane)
    line = c.location.line
    if dest is not None and tr.vec.array(args[2]) == dest:
        tr.out.line(f"hip.{op}({a}, {b}, {dest})", line)
        return dest
    acc = operand(tr, args[2], inst.d_type, inst.d_per_lane, number=True)
    if dest is None:
        dest = tr.vec.new_array(STORAGE[inst.d_type], inst.d_per_lane, line)
    tr.out.line(f"hip.{op}({a}, {b}, {acc}, {dest})", line)
    return dest


def value(tr, c: Cursor) -> str:
    """The builtin's result where a number is wanted: the 4x4x4 f64 MFMA's one ``double``
    (``d = __builtin_amdgcn_mfma_f64_4x4x4f64(a, b, d, 0, 0, 0)``); a vector result is
    refused here (vectors.assign takes it)."""
    inst = instruction_of(tr, c)
    if inst.d_per_lane != 1 or vectors.is_vector(c.type):
        tr.fail(c, f"the result of `{c.spelling}` (a vector) used as a number, or "
                "discarded", f"assign it to a vector: acc = {c.spelling}(a, b, acc, 0, 0, 0);")
    return f"{call(tr, c, dest=None)}[0]"


def operand(tr, c: Cursor, elem: str, per_lane: int, number: bool = False) -> str:
    """The Python text of one operand: a private array of ``per_lane`` elements of the
    MFMA type ``elem`` as ``hip.mfma_*`` stores them, or a number where a lane holds
    one element (``number``: or where every element is one constant, as C may be)."""
    dtype = STORAGE[elem]
    if vectors.is_vector(c.type):
        return tr.vec.operand(c, dtype, per_lane, number)
    if elem in ("i8", "fp8", "bf8"):  # an int or long of packed bytes
        return packed(tr, c, dtype, per_lane)
    return tr.expr(c)


def packed(tr, c: Cursor, dtype: str, n: int) -> str:
    """A private array of the ``n`` bytes of the integer ``c`` (``int`` of 4 int8,
    ``long`` of 8): the bytes of a private byte array or byte vector it reinterprets
    (``*(int*)a``, ``(long)v`` of a ``__vector_size__`` vector, ``__builtin_bit_cast(long,
    v)``) without a copy where their type is ``dtype``, else the integer's bytes, lowest
    first."""
    s = strip(c)
    line = c.location.line
    if s.kind == K.UNARY_OPERATOR and operator(s) == "*" and \
            strip(children(s)[0]).kind in _CASTS:  # *reinterpret_cast<int*>(a)
        cast = strip(children(s)[0])
        src = [k for k in children(cast) if k.kind != K.TYPE_REF][-1]
        t = ct.canon(strip(src).type)
        if t.kind == TypeKind.CONSTANTARRAY and t.get_array_size() == n and \
                ct.dtype_name(t.element_type) in ("int8", "uint8"):
            base, off = tr.pointer(src)
            if off in (None, "0") and re.fullmatch(r"\w+", base):
                if ct.dtype_name(t.element_type) == dtype:
                    return base
                tmp = tr.vec.new_array(dtype, n, line)
                tr.vec.put([f"{tmp}[{k}]" for k in range(n)],
                           [f"{base}[{k}]" for k in range(n)],
                           ct.dtype_name(t.element_type), dtype, line)
                return tmp
    if s.kind in (*_CASTS, K.BUILTIN_BIT_CAST_EXPR):  # (long)v, __builtin_bit_cast(long, v)
        src = [k for k in children(s) if k.kind != K.TYPE_REF][-1]
        lay = vectors.layout(src.type) if vectors.is_vector(src.type) else None
        if lay is not None and lay[1] == n and lay[0] in ("int8", "uint8"):
            return tr.vec.operand(src, dtype, n)
    word = tr.expr(c)
    if not re.fullmatch(r"\w+", word):
        keep = tr.temp("w")
        tr.out.line(f"{keep} = {word}", line)
        word = keep
    tmp = tr.vec.new_array(dtype, n, line)
    e = tr.temp("e")
    tr.out.line(f"for {e} in range({n}):  # its bytes, lowest first", line)
    tr.out.line(f"    {tmp}[{e}] = np.{dtype}(({word} >> (8 * {e})) & 255)", line)
    return tmp
