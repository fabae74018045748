"""Clang's vector types in device code: each local vector variable is a private array.

HIP C++ holds the operands of the matrix-core builtins (``__builtin_amdgcn_mfma_*``,
``mfma.py``) in clang vector types, spelled two ways::

    typedef float floatx4 __attribute__((ext_vector_type(4)));                  // clang's
    using float16 = __attribute__((__vector_size__(16 * sizeof(float)))) float;  // GCC's

A local variable of either kind, with int, float, double, short, char (any width,
signed or not), ``_Float16``/``__half`` or ``__bf16`` elements, is a private array of
its element type::

    floatx4 acc = {0};       acc = hip.local.array(4, hip.float32)
                             acc[0] = np.float32(0.0), then a loop zeroes acc[1:4]
    acc[i], acc.y, acc.s3    acc[i], acc[1], acc[3]         (read or assigned)
    d = acc;                 for __e in range(4): d[__e] = acc[__e]
    v = w.yx; v = {1, 2};    element by element, every value read before any is stored
    floatx4 v = 2.0f;        every element 2.0 (an ext_vector_type splat)

A ``__bf16`` holds a bfloat16 bit pattern (a uint16), as the MFMA builtins take it: a
float assigned to a ``__bf16`` element is rounded to nearest even (``hip.bf16``), one
copied from another ``__bf16`` keeps its bits, and a ``__bf16`` read as a number is
refused (gpusim has no bfloat16 arithmetic). A ``__bf16*`` kernel parameter is a uint16
array of such patterns.

A vector in memory is read or written through a cast of a pointer to its element type
(or to an integer of that size): ``floatx4 v = *(const floatx4*)(p + 4 * i);``,
``((floatx4*)out)[i] = v;`` are four elements of ``p``/``out`` in a row.

Refused at their line, with what to write instead: arithmetic and comparisons on whole
vectors, casts between vector types of another element type, vectors as device-function
parameters or results, arrays of vectors, ``__shared__`` vectors, and pointer variables
or parameters whose type points to a vector.
"""

from __future__ import annotations

import re

import numpy as np
from clang.cindex import Cursor, CursorKind, TypeKind

from gpusim.hipcc import ctypes_map as ct
from gpusim.hipcc.clangast import children, operator, strip
from gpusim.hipcc.exprs import _PREC

K = CursorKind

_KINDS = (TypeKind.VECTOR, TypeKind.EXTVECTOR)
_CASTS = (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR)
_XYZW = {"x": 0, "y": 1, "z": 2, "w": 3, "r": 0, "g": 1, "b": 2, "a": 3}
_ZERO = {"float32": "np.float32(0.0)", "float64": "0.0", "float16": "np.float16(0.0)"}
_CONSTANT = re.compile(r"-?[\d.]+|np\.\w+\(-?[\d.]+\)")
_SIMPLE = re.compile(r"[\w.]+|-?[\d.]+|np\.\w+\(-?[\w.]+\)")  # no call, read once or often
_WHOLE = ("its elements: v[i], v.x; a whole vector only in `v = w;`, `v = {a, b, c, d};`, "
          "a declaration, or as an operand of an MFMA builtin")


def is_vector(t) -> bool:
    """Whether ``t`` is a clang vector type (ext_vector_type or __vector_size__)."""
    return ct.canon(t).kind in _KINDS


def is_bf16(t) -> bool:
    """Whether ``t`` is clang's ``__bf16`` (libclang 18 reports its kind as UNEXPOSED)."""
    t = ct.canon(t)
    return t.kind == TypeKind.UNEXPOSED and \
        t.spelling.replace("const ", "").replace("volatile ", "") == "__bf16"


def storage(t) -> str | None:
    """The dtype a number of type ``t`` is held in: its own, or uint16 (the bit pattern)
    for a ``__bf16``."""
    return "uint16" if is_bf16(t) else ct.dtype_name(t)


def layout(t) -> tuple[str, int] | None:
    """(storage dtype, element count) of a vector type; None for a vector of other
    elements (bool)."""
    t = ct.canon(t)
    dtype = storage(t.element_type)
    return None if dtype in (None, "bool_") else (dtype, t.element_count)


def swizzle(name: str, n: int) -> list[int] | None:
    """The elements an ext_vector_type accessor names in a vector of ``n``; None if it
    names none.

    >>> swizzle("y", 4), swizzle("sA", 16), swizzle("wzyx", 4), swizzle("odd", 4)
    ([1], [10], [3, 2, 1, 0], [1, 3])
    """
    halves = {"lo": range(n // 2), "hi": range(n // 2, n), "even": range(0, n, 2),
              "odd": range(1, n, 2)}
    if name in halves:
        return list(halves[name]) if n % 2 == 0 else None
    if name[:1] in ("s", "S") and len(name) > 1:
        if not all(ch in "0123456789abcdefABCDEF" for ch in name[1:]):
            return None
        picked = [int(ch, 16) for ch in name[1:]]
    elif name and all(ch in _XYZW for ch in name):
        picked = [_XYZW[ch] for ch in name]
    else:
        return None
    return picked if all(k < n for k in picked) else None


def element_access(c: Cursor) -> bool:
    """Whether ``c`` (an UNEXPOSED_EXPR over a vector) is ``v.x``/``v.s3``/``v.lo``
    (clang's ExtVectorElementExpr: its accessor follows the vector), not an implicit
    conversion (which spans its operand exactly)."""
    kids = children(c)
    return len(kids) == 1 and is_vector(kids[0].type) and \
        c.extent.end.offset != kids[0].extent.end.offset


class VectorVars:
    """The vector variables of one function (C name -> (Python array, dtype, count)) and
    the translation of their declarations, elements and assignments; ``tr`` is the
    function's DeviceTranslator (its output, temporaries and expressions)."""

    def __init__(self, tr):
        self.tr = tr
        self.arrays: dict[str, tuple[str, str, int]] = {}

    # ---- declarations and assignments
    def decl(self, c: Cursor, name: str, init: Cursor | None, shared: bool, line: int) -> None:
        """``floatx4 acc;``, ``= {0}``, ``{}``, ``= w``, ``= 1.0f``, ``= __builtin_...``."""
        lay = self.layout_of(c, c.type)
        if shared:
            self.tr.fail(c, "a __shared__ vector variable", "a __shared__ array of its "
                         "element type: __shared__ float tile[4 * 64];")
        dtype, n = lay
        self.out(f"{name} = hip.local.array({n}, hip.{dtype})", line)
        self.arrays[c.spelling] = (name, dtype, n)
        if init is not None:
            self.store(c, self.arrays[c.spelling], init, line)

    def assign(self, c: Cursor, op: str, lhs: Cursor, rhs: Cursor, line: int) -> None:
        """``v = w;`` (a whole vector: a variable, a brace list, a swizzle, an MFMA
        builtin's result) into a vector variable or a swizzle of one (``v.xy = w;``)."""
        if op != "=":
            self.tr.fail(c, f"`{op}` on a whole vector", "a loop over its elements: "
                         "for (int i = 0; i < 4; i++) v[i] += w[i];")
        s = self.through(lhs)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.arrays:
            self.store(c, self.arrays[s.spelling], rhs, line)
            return
        targets, dst = self.memory(s) or (self.lvalue(lhs), self.layout_of(lhs, lhs.type)[0])
        values, src = self.values(rhs)
        self.put(targets, values, src, dst, line)

    def store(self, c: Cursor, var: tuple[str, str, int], rhs: Cursor, line: int) -> None:
        """The whole vector ``rhs`` into the vector variable ``var`` (its private array,
        dtype and length): an MFMA builtin's D straight into it."""
        from gpusim.hipcc import mfma

        name, dtype, n = var
        call = self.through(rhs)
        if mfma.is_matrix_call(call):
            inst = mfma.instruction_of(self.tr, call)
            if (mfma.STORAGE[inst.d_type], inst.d_per_lane) == (dtype, n):
                mfma.call(self.tr, call, dest=name)
                return
        values, src = self.values(rhs)
        if len(values) != n:
            self.tr.fail(c, f"assigning a vector of {len(values)} elements to one of {n}",
                         "vectors of one length")
        self.put([f"{name}[{k}]" for k in range(n)], values, src, dtype, line)

    def put(self, targets: list[str], values: list[str], src: str, dst: str,
            line: int) -> None:
        """``targets = values`` element by element, converted from ``src`` to ``dst``; a
        value that reads an array stored into is read into a temporary first (C reads
        the whole right side before the assignment); a copy of a whole array, or a run
        of one value (a constant, a name), is a loop."""
        arrays = {t.split("[", 1)[0] for t in targets}
        if any(re.search(rf"\b{re.escape(a)}\[", v) for v in values for a in arrays):
            kept = []
            for v in values:
                kept.append(self.tr.temp("x"))
                self.out(f"{kept[-1]} = {v}", line)
            values = kept
        conv = [v if src == dst else f"np.{dst}({v})" for v in values]
        dst_array, src_array = _whole(targets), _whole(values)
        if dst_array and src_array:
            e = self.tr.temp("e")
            value = f"{src_array}[{e}]" if src == dst else f"np.{dst}({src_array}[{e}])"
            self.out(f"for {e} in range({len(targets)}):", line)
            self.out(f"    {dst_array}[{e}] = {value}", line)
            return
        run = len(conv)
        while dst_array and run > 0 and conv[run - 1] == conv[-1] and \
                _SIMPLE.fullmatch(conv[-1]):
            run -= 1
        if run == len(conv) - 1:  # one element: no loop
            run += 1
        for t, v in zip(targets[:run], conv[:run], strict=True):
            self.out(f"{t} = {v}", line)
        if run < len(conv):
            e = self.tr.temp("e")
            span = f"{run}, {len(conv)}" if run else str(len(conv))
            self.out(f"for {e} in range({span}):", line)
            self.out(f"    {dst_array}[{e}] = {conv[-1]}", line)

    # ---- vector values
    def values(self, c: Cursor) -> tuple[list[str], str]:
        """(the Python text of each element, their dtype) of the vector expression ``c``."""
        from gpusim.hipcc import mfma

        s = self.through(c)
        dtype, n = self.layout_of(s, s.type)
        elem = ct.canon(s.type).element_type
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.arrays:
            name = self.arrays[s.spelling][0]
            return [f"{name}[{k}]" for k in range(n)], dtype
        if s.kind == K.INIT_LIST_EXPR:  # {a, b}: the elements not listed are zero
            kids = children(s)
            if any(is_vector(k.type) for k in kids):
                self.tr.fail(s, "a vector inside a vector's brace list", "its elements")
            return [self.element_value(k, elem) for k in kids] + \
                [_ZERO.get(dtype, "0")] * (n - len(kids)), dtype
        if s.kind in (K.CXX_FUNCTIONAL_CAST_EXPR, K.CSTYLE_CAST_EXPR):  # floatx4{...}
            inner = [k for k in children(s) if k.kind != K.TYPE_REF][-1]
            if _strip_init(inner).kind == K.INIT_LIST_EXPR:
                return self.values(_strip_init(inner))
            if not is_vector(inner.type) and ct.canon(s.type).kind == TypeKind.EXTVECTOR:
                return self.splat(inner, elem, n), dtype  # (floatx4)1.0f
            if not is_vector(inner.type):
                self.tr.fail(s, f"a cast of a number to `{s.type.spelling}` (a bit cast to a "
                             "__vector_size__ vector)", "a brace list of its elements")
            if layout(inner.type) == (dtype, n):
                return self.values(inner)
            self.tr.fail(s, f"a cast from `{inner.type.spelling}` to `{s.type.spelling}` (a "
                         "bit cast between vector types)", "an element-by-element copy")
        if s.kind == K.UNEXPOSED_EXPR and len(children(s)) == 1 and \
                not is_vector(children(s)[0].type):  # floatx4 v = 2.0f: a splat
            return self.splat(children(s)[0], elem, n), dtype
        if element_access(s):  # v.xy, v.lo
            return self.lvalue(s), dtype
        loaded = self.memory(s)
        if loaded is not None:  # *(const floatx4*)p, ((floatx4*)p)[i]
            return loaded
        if mfma.is_matrix_call(s):
            name = mfma.call(self.tr, s, dest=None)
            return [f"{name}[{k}]" for k in range(n)], dtype
        self.tr.fail(c, "this vector expression", "a vector variable, a brace list "
                     "{a, b, c, d}, a swizzle such as v.xy, a load *(const floatx4*)p, or "
                     "an MFMA builtin's result")

    def splat(self, c: Cursor, elem, n: int) -> list[str]:
        """A number given to every element: computed once."""
        value = self.element_value(c, elem)
        if not _SIMPLE.fullmatch(value):
            tmp = self.tr.temp("x")
            self.out(f"{tmp} = {value}", c.location.line)
            value = tmp
        return [value] * n

    def element_value(self, c: Cursor, elem) -> str:
        """The number ``c`` as an element of type ``elem``: converted as C converts it; a
        float into a __bf16 rounded to its bit pattern, a __bf16 copied as its bits."""
        if not is_bf16(elem):
            return self.tr.convert(c, elem)[0]
        s = _converted(c)
        if is_bf16(s.type):
            return self.tr.expr(s)
        src = ct.dtype_name(s.type)
        if src is None:
            self.tr.fail(c, f"a `{s.type.spelling}` stored as a __bf16", "a float value")
        text = self.tr.expr(s)
        return f"hip.bf16({text if src == 'float32' else f'np.float32({text})'})"

    # ---- elements
    def element(self, c: Cursor) -> str:
        """``v.y`` (an element access that names one element) as ``v[1]``."""
        if is_vector(c.type):
            self.whole(c)
        (text,) = self.lvalue(c)
        return text

    def lvalue(self, c: Cursor) -> list[str]:
        """The elements of a vector variable, or of a swizzle of one (``v.zyx``)."""
        s = self.through(c)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.arrays:
            name, _, n = self.arrays[s.spelling]
            return [f"{name}[{k}]" for k in range(n)]
        if element_access(s):
            base = children(s)[0]
            inner = self.lvalue(base)
            accessor = list(s.get_tokens())[-1].spelling
            picked = swizzle(accessor, len(inner))
            if picked is None:
                self.tr.fail(s, f"the vector accessor `.{accessor}`",
                             "x, y, z, w, s0..sF, lo, hi, even or odd")
            return [inner[k] for k in picked]
        loaded = self.memory(s)
        if loaded is not None:
            return loaded[0]
        self.tr.fail(c, "an element of this vector expression", "an element of a vector "
                     "variable: v[i], v.x")

    def memory(self, c: Cursor) -> tuple[list[str], str] | None:
        """(the elements, their dtype) of a vector in memory: ``*(floatx4*)p`` or
        ``((floatx4*)p)[i]`` of a pointer ``p`` to the vector's element type (or to an
        integer of its size: ``*(const bf16x4*)ushorts``); None if ``c`` is not one."""
        if c.kind == K.UNARY_OPERATOR and operator(c) == "*":
            (ptr,), index = children(c), None
        elif c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            ptr, index = children(c)
        else:
            return None
        cast = strip(ptr)
        if cast.kind not in _CASTS or not is_vector(ct.pointee(cast.type)):
            return None
        dtype, n = self.layout_of(c, ct.pointee(cast.type))
        src = [k for k in children(cast) if k.kind != K.TYPE_REF][-1]
        held = storage(ct.pointee(src.type)) if ct.is_pointer(src.type) else None
        same = held is not None and (held == dtype or np.dtype(held).itemsize == np.dtype(
            dtype).itemsize and np.dtype(held).kind in "iu" and np.dtype(dtype).kind in "iu")
        if not same:
            self.tr.fail(c, f"a `{cast.type.spelling}` made from a `{src.type.spelling}`",
                         "a pointer to the vector's element type: *(const floatx4*)(p + i) "
                         "of a float* p")
        base, off = self.tr.pointer(src)
        if index is not None:
            i = self.tr.wrap(index, _PREC["*"])
            off = f"{off} + {i} * {n}" if off not in (None, "0") else f"{i} * {n}"
        if off not in (None, "0") and not re.fullmatch(r"\w+", off):
            keep = self.tr.temp("i")
            self.out(f"{keep} = {off}", c.location.line)
            off = keep
        at = [str(k) for k in range(n)] if off in (None, "0") else \
            [off] + [f"{off} + {k}" for k in range(1, n)]
        return [f"{base}[{i}]" for i in at], held

    def array(self, c: Cursor) -> str | None:
        """The private array of a vector variable ``c`` (through implicit conversions)."""
        s = self.through(c)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.arrays:
            return self.arrays[s.spelling][0]
        return None

    def operand(self, c: Cursor, dtype: str, n: int, number: bool = False) -> str:
        """A private array of ``n`` ``dtype`` elements holding the vector ``c``: its own
        array when it is a variable of that type, else a new one it is copied into; or,
        with ``number``, the one constant every element has (``floatx4{}``: 0.0)."""
        s = self.through(c)
        if s.kind == K.DECL_REF_EXPR and self.arrays.get(s.spelling, ("", "", 0))[1:] == \
                (dtype, n):
            return self.arrays[s.spelling][0]
        values, src = self.values(c)
        if len(values) != n:
            self.tr.fail(c, f"a vector of {len(values)} elements where {n} are needed",
                         f"a vector of {n}")
        if number and len(set(values)) == 1 and _CONSTANT.fullmatch(values[0]):
            return values[0] if src == dtype else f"np.{dtype}({values[0]})"
        tmp = self.new_array(dtype, n, c.location.line)
        self.put([f"{tmp}[{k}]" for k in range(n)], values, src, dtype, c.location.line)
        return tmp

    def new_array(self, dtype: str, n: int, line: int) -> str:
        tmp = self.tr.temp("v")
        self.out(f"{tmp} = hip.local.array({n}, hip.{dtype})", line)
        return tmp

    def whole(self, c: Cursor):
        """Fail: the vector ``c`` used where a number is needed."""
        self.tr.fail(c, f"the vector `{c.type.spelling}` used as a whole here", _WHOLE)

    # ---- helpers
    def through(self, c: Cursor) -> Cursor:
        """``c`` without parentheses and implicit conversions between vector types of one
        length (clang's ``floatx4`` to the builtin's ``__vector_size__`` float4)."""
        while True:
            kids = children(c)
            if c.kind == K.PAREN_EXPR and len(kids) == 1:
                c = kids[0]
            elif c.kind == K.UNEXPOSED_EXPR and len(kids) == 1 and is_vector(c.type) and \
                    is_vector(kids[0].type) and not element_access(c):
                if ct.canon(c.type).element_count != ct.canon(kids[0].type).element_count:
                    self.tr.fail(c, f"converting a `{kids[0].type.spelling}` to a "
                                 f"`{c.type.spelling}` (a bit cast between vectors of other "
                                 "lengths)", "vectors of the type the builtin takes")
                c = kids[0]
            else:
                return c

    def layout_of(self, c: Cursor, t) -> tuple[str, int]:
        lay = layout(t)
        if lay is None:
            self.tr.fail(c, f"a vector of `{ct.canon(t).element_type.spelling}`",
                         "vectors of int, float, double, short, char, _Float16 or __bf16")
        return lay

    def out(self, text: str, line: int) -> None:
        self.tr.out.line(text, line)


def _converted(c: Cursor) -> Cursor:
    """What a value stored as a __bf16 is converted from: ``c`` without the implicit and
    explicit conversions to __bf16 around it (``(__bf16)x``: ``x``)."""
    while is_bf16(c.type) and not element_access(c):
        kids = [k for k in children(c) if k.kind != K.TYPE_REF]
        if len(kids) != 1 or c.kind not in (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR,
                                            K.CXX_STATIC_CAST_EXPR,
                                            K.CXX_FUNCTIONAL_CAST_EXPR):
            break
        c = kids[0]
    return c


def _strip_init(c: Cursor) -> Cursor:
    """``c`` without the implicit nodes clang puts around a brace list."""
    while c.kind == K.UNEXPOSED_EXPR and len(children(c)) == 1:
        c = children(c)[0]
    return c


def _whole(texts: list[str]) -> str | None:
    """``a`` if ``texts`` are ``a[0]``, ``a[1]``, ... in order: the first elements of
    one array, a loop's worth."""
    m = re.fullmatch(r"(\w+)\[0\]", texts[0]) if texts else None
    if m and texts == [f"{m[1]}[{k}]" for k in range(len(texts))]:
        return m[1]
    return None
