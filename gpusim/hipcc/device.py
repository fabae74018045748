"""``__global__`` and ``__device__`` functions -> ``@hip.jit`` Python.

Pointers: a kernel's pointer parameter is an array (the launch turns the device pointer
into an array that starts where the pointer points). A pointer held in a local variable
is the pair (array, offset): ``float* row = a + i * n;`` keeps ``row`` as ``a`` plus
``row_off = i * n``, and ``row[j]`` is ``a[row_off + j]``. A device function's pointer
parameter ``p`` becomes two parameters, ``p`` and ``p_off``. ``__shared__`` arrays are
``hip.shared.array`` (``extern __shared__ T s[]`` is shape 0: dynamic LDS), a
``__shared__`` scalar is a one-element shared array, local arrays are ``hip.local.array``.
"""

from __future__ import annotations

import ast
import re

from clang.cindex import Cursor, CursorKind

from gpusim.hipcc import builtins as bi
from gpusim.hipcc import ctypes_map as ct
from gpusim.hipcc.clangast import children, operator, strip
from gpusim.hipcc.exprs import _PREC, py_name
from gpusim.hipcc.stmts import StmtTranslator

K = CursorKind
_NOT_VALUES = (K.TYPE_REF, K.TEMPLATE_REF, K.NAMESPACE_REF, K.CUDASHARED_ATTR,
               K.CUDACONSTANT_ATTR, K.CUDADEVICE_ATTR)
_POINTER_HINT = "pointers into a kernel's array parameters, a shared or a local array"


class DeviceTranslator(StmtTranslator):
    """One device or kernel function; ``device_pointer_params`` names, per device
    function, which parameters are pointers (their calls pass array and offset)."""

    def __init__(self, out, constants, device_fns: dict[str, list[bool]],
                 device_vars: list[tuple[str, str, int]] = ()):
        super().__init__(out, constants)
        self.device_fns = device_fns
        # __device__/__constant__ variables: every kernel and device function takes their
        # device copies as hidden trailing parameters, named __g_<name>.
        self.device_vars = {name: count for name, _, count in device_vars}
        self.ptrs: dict[str, tuple[str, str | None]] = {}  # C name -> (array, offset var)
        self.shared_scalars: set[str] = set()
        self.structs: dict[str, list[tuple[str, str]]] = {}  # struct variable -> fields

    def function(self, fn: Cursor, name: str, kernel: bool) -> list[tuple[str, str]]:
        """Emit the function; return its parameters as (kind, dtype) for the launcher:
        kind "array" (a pointer) or "scalar"."""
        params, spec = [], []
        for p in fn.get_arguments():
            pname = py_name(p.spelling)
            if ct.is_pointer(p.type):
                self.ptrs[p.spelling] = (pname, None if kernel else pname + "_off")
                params += [pname] if kernel else [pname, pname + "_off"]
                spec.append(("array", ct.dtype_name(ct.pointee(p.type)) or "uint8"))
            elif ct.dtype_name(p.type):
                params.append(pname)
                spec.append(("scalar", ct.dtype_name(p.type)))
            elif ct.scalar_fields(p.type) and kernel:  # a struct of scalars: one per field
                fields = ct.scalar_fields(p.type)
                self.structs[p.spelling] = fields
                params += [f"{pname}_{f}" for f, _ in fields]
                spec.append(("struct", tuple(fields)))
            else:
                self.fail(p, f"a parameter of type `{p.type.spelling}`",
                          "scalars (int, float, ...) and pointers")
        line = fn.location.line
        params += [f"__g_{v}" for v in self.device_vars]
        self.out.line("@hip.jit" if kernel else "@hip.jit(device=True)", line)
        self.out.line(f"def {name}({', '.join(params)}):", line)
        body = next(k for k in children(fn) if k.kind == K.COMPOUND_STMT)
        self.body(body)
        return spec

    # ---- declarations
    def decl(self, c: Cursor) -> None:
        name, line = py_name(c.spelling), c.location.line
        kids = [k for k in children(c) if k.kind not in _NOT_VALUES]
        shared = any(k.kind == K.CUDASHARED_ATTR for k in children(c))
        init = kids[-1] if kids else None
        if ct.canon(c.type).kind.name in ("CONSTANTARRAY", "INCOMPLETEARRAY"):
            shape, elem = ct.array_shape(c.type)
            dtype = ct.dtype_name(elem)
            if dtype is None:
                self.fail(c, f"arrays of `{elem.spelling}`", "arrays of scalars")
            dims = str(shape[0]) if len(shape) == 1 else str(shape)
            where = "shared" if shared else "local"
            self.out.line(f"{name} = hip.{where}.array({dims}, hip.{dtype})", line)
            self.ptrs[c.spelling] = (name, None)
            inits = [k for k in kids if k.kind == K.INIT_LIST_EXPR]
            if inits:
                for i, v in enumerate(children(inits[0])):
                    self.out.line(f"{name}[{i}] = {self.convert(v, elem)[0]}", line)
            return
        if shared:
            dtype = ct.dtype_name(c.type)
            self.out.line(f"{name} = hip.shared.array(1, hip.{dtype})", line)
            self.shared_scalars.add(c.spelling)
            return
        if ct.scalar_fields(c.type):
            self.struct_decl(c, name, init, line)
            return
        if ct.is_pointer(c.type):
            if init is None:
                self.fail(c, "a pointer declared without a value", _POINTER_HINT)
            base, off = self.pointer(init)
            self.ptrs[c.spelling] = (base, name + "_off")
            self.out.line(f"{name}_off = {off or 0}", line)
            return
        dtype = ct.dtype_name(c.type)
        if dtype is None:
            self.fail(c, f"a variable of type `{c.type.spelling}`",
                      "scalar variables (int, float, ...), arrays and pointers")
        if init is None:
            value = "0.0" if dtype == "float64" else "np.float32(0.0)" if dtype == "float32" \
                else "False" if dtype == "bool_" else "0"
        else:
            value = self.convert(init, c.type)[0]
            if dtype == "float64" and not ct.is_float(init.type):
                value = f"float({value})"
        self.out.line(f"{name} = {value}", line)

    def struct_decl(self, c: Cursor, name: str, init: Cursor | None, line: int) -> None:
        """A struct of scalars lives as one variable per field: ``p.x`` is ``p_x``."""
        fields = ct.scalar_fields(c.type)
        self.structs[c.spelling] = fields
        values = self.struct_values(c, init, fields)
        for (f, _), v in zip(fields, values, strict=True):
            self.out.line(f"{name}_{f} = {v}", line)

    def struct_values(self, c: Cursor, init: Cursor | None, fields) -> list[str]:
        zero = {"float32": "np.float32(0.0)", "float64": "0.0", "bool_": "False"}
        if init is None or strip(init).kind == K.CALL_EXPR and not children(strip(init)):
            return [zero.get(d, "0") for _, d in fields]
        s = strip(init)
        while s.kind == K.CALL_EXPR and len(children(s)) == 1:  # copy construction
            s = strip(children(s)[0])
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.structs:
            return [f"{py_name(s.spelling)}_{f}" for f, _ in fields]
        if s.kind == K.INIT_LIST_EXPR and len(children(s)) == len(fields):
            return [self.convert(v, f.type)[0]
                    for v, f in zip(children(s), ct.canon(c.type).get_fields(), strict=True)]
        self.fail(init, "this struct initialiser",
                  "a brace list of every field, {1.0f, 2}, or another struct variable")

    # ---- names
    def x_decl_ref_expr(self, c: Cursor) -> str:
        name = c.spelling
        if not name and len(children(c)) == 1:  # a template's value parameter, substituted
            return self.expr(children(c)[0])
        if name == "warpSize":
            return "hip.warpsize"
        if name in self.shared_scalars:
            return f"{py_name(name)}[0]"
        if c.referenced is not None and c.referenced.kind == K.ENUM_CONSTANT_DECL:
            return str(c.referenced.enum_value)
        if self._device_var(c):
            return f"__g_{name}" if ct.is_pointer(c.type) else f"__g_{name}[0]"
        if ct.is_pointer(c.type) and name in self.ptrs:
            self.fail(c, "a pointer used as a value", "index it: p[i], or *p")
        return py_name(name)

    def x_member_ref_expr(self, c: Cursor) -> str:
        base = children(c)
        if base and strip(base[0]).spelling in bi.POSITION:
            return f"hip.{strip(base[0]).spelling}.{c.spelling}"
        if base and strip(base[0]).kind == K.DECL_REF_EXPR and \
                strip(base[0]).spelling in self.structs:
            return f"{py_name(strip(base[0]).spelling)}_{c.spelling}"
        self.fail(c, "this member access in device code",
                  "structs of scalars held in variables or passed by value to a kernel")

    # ---- pointers
    def pointer(self, c: Cursor) -> tuple[str, str | None]:
        """(array, offset expression or None) that a pointer-valued expression denotes."""
        s = strip(c)
        if s.kind in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR,
                      K.CXX_REINTERPRET_CAST_EXPR):
            inner = [k for k in children(s) if k.kind != K.TYPE_REF][-1]
            if ct.dtype_name(ct.pointee(s.type)) != ct.dtype_name(ct.pointee(inner.type)):
                self.fail(s, "a cast between pointer types", "arrays of one element type")
            return self.pointer(inner)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.ptrs:
            return self.ptrs[s.spelling]
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.shared_scalars:
            return py_name(s.spelling), None
        if s.kind == K.DECL_REF_EXPR and self._device_var(s) and ct.is_pointer(s.type):
            return f"__g_{s.spelling}", None
        if s.kind == K.BINARY_OPERATOR and operator(s) in ("+", "-"):
            lhs, rhs = children(s)
            if not ct.is_pointer(lhs.type):
                lhs, rhs = rhs, lhs
            base, off = self.pointer(lhs)
            step = self.wrap(rhs, _PREC["+"], right=True)
            sign = operator(s)
            return base, f"{off} {sign} {step}" if off else (step if sign == "+" else f"-{step}")
        if s.kind == K.UNARY_OPERATOR and operator(s) == "&":
            (arg,) = children(s)
            arg = strip(arg)
            if arg.kind == K.ARRAY_SUBSCRIPT_EXPR:
                return self._element(arg)
            if arg.kind == K.DECL_REF_EXPR and arg.spelling in self.shared_scalars:
                return py_name(arg.spelling), None
            if arg.kind == K.DECL_REF_EXPR and self._device_var(arg):
                return f"__g_{arg.spelling}", None
        self.fail(c, "this pointer expression", _POINTER_HINT)

    def _device_var(self, c: Cursor) -> bool:
        """A reference to a file-level __device__/__constant__ variable (not a local)."""
        ref = c.referenced
        return c.spelling in self.device_vars and ref is not None and \
            ref.kind == K.VAR_DECL and ref.semantic_parent is not None and \
            ref.semantic_parent.kind in (K.TRANSLATION_UNIT, K.NAMESPACE)

    def _element(self, c: Cursor) -> tuple[str, str]:
        """(array, index text) of ``p[i]`` / ``tile[i][j]``."""
        indices = []
        while strip(c).kind == K.ARRAY_SUBSCRIPT_EXPR:
            c, idx = children(strip(c))
            indices.append(self.expr(idx))
        indices.reverse()
        base, off = self.pointer(c)
        if len(indices) > 1:
            if off:
                self.fail(c, "a pointer into a multi-dimensional array", "index the array")
            return base, ", ".join(indices)
        return base, f"{off} + {indices[0]}" if off else indices[0]

    def x_array_subscript_expr(self, c: Cursor) -> str:
        base, index = self._element(c)
        return f"{base}[{index}]"

    def deref(self, c: Cursor, arg: Cursor) -> str:
        base, off = self.pointer(arg)
        return f"{base}[{off or 0}]"

    def pointer_binary(self, c, op, lhs, rhs):
        if op in ("-",) and ct.is_pointer(lhs.type) and ct.is_pointer(rhs.type):
            (a, ao), (b, bo) = self.pointer(lhs), self.pointer(rhs)
            if a == b:
                return f"({ao or 0}) - ({bo or 0})", _PREC["-"]
        self.fail(c, "pointer arithmetic outside an index or a pointer variable",
                  "p[i + k], or a pointer variable: float* q = p + k;")

    def step_var(self, c, arg, delta, line):
        s = strip(arg)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.ptrs and ct.is_pointer(s.type):
            self.out.line(f"{py_name(s.spelling)}_off {'+' if delta > 0 else '-'}= 1", line)
            return
        super().step_var(c, arg, delta, line)

    def assign(self, c, op, lhs, rhs, line):
        s = strip(lhs)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.structs and op == "=":
            fields = self.structs[s.spelling]
            for (f, _), v in zip(fields, self.struct_values(s, rhs, fields), strict=True):
                self.out.line(f"{py_name(s.spelling)}_{f} = {v}", line)
            return
        if s.kind == K.DECL_REF_EXPR and ct.is_pointer(s.type) and s.spelling in self.ptrs:
            base, off_var = self.ptrs[s.spelling]
            if op in ("+=", "-=") and off_var:
                self.out.line(f"{off_var} {op} {self.expr(rhs)}", line)
                return
            if op == "=" and off_var:
                new_base, off = self.pointer(rhs)
                if new_base == base:
                    self.out.line(f"{off_var} = {off or 0}", line)
                    return
            self.fail(c, "pointing a pointer at another array",
                      "one pointer variable per array")
        super().assign(c, op, lhs, rhs, line)

    # ---- calls
    def x_call_expr(self, c: Cursor) -> str:
        name = c.spelling
        args = [a for a in children(c)[1:] if a.location.file is not None]  # no defaults
        if name in bi.ATOMICS:
            base, index = self.pointer(args[0])
            rest = ", ".join(self.expr(a) for a in args[1:])
            return f"hip.atomic.{bi.ATOMICS[name]}({base}, {index or 0}, {rest})"
        if name in bi.BITS32:
            fn, dtype = bi.BITS32[name]
            return f"{fn}(np.{dtype}({self.expr(args[0])}))"
        if name == "printf":
            return self.printf(c, args)
        if name == "__lane_id":
            return "hip.laneid"
        if name == "__bitextract_u32":  # bits [offset, offset + width) of src
            src, off, width = (self.expr(a) for a in args)
            return (f"np.uint32((np.uint64({src}) >> np.uint64({off})) & "
                    f"((np.uint64(1) << np.uint64({width})) - np.uint64(1)))")
        if name in ("rsqrtf", "rsqrt"):
            one = "np.float32(1.0)" if name == "rsqrtf" else "1.0"
            return f"{one} / math.sqrt({self.expr(args[0])})"
        if name == "__fdividef":
            return f"{self.wrap(args[0], 11)} / {self.wrap(args[1], 11, right=True)}"
        fn = bi.CALLS.get(name) or bi.MATH.get(name)
        if fn is not None:
            return f"{fn}({', '.join(self.expr(a) for a in args)})"
        callee = function_name(c.referenced) if c.referenced is not None else name
        if callee in self.device_fns:
            texts = []
            for a, is_ptr in zip(args, self.device_fns[callee], strict=True):
                if is_ptr:
                    base, off = self.pointer(a)
                    texts += [base, off or "0"]
                else:
                    texts.append(self.expr(a))
            texts += [f"__g_{v}" for v in self.device_vars]
            return f"{callee}({', '.join(texts)})"
        self.fail(c, f"calling `{name}` in device code",
                  "__device__ functions of this cell, HIP's device built-ins and math")

    def printf(self, c: Cursor, args: list[Cursor]) -> str:
        """Device printf -> ``print``: the text and values in order, with print()'s
        spacing (one space between items); widths and precisions are not applied."""
        fmt = strip(args[0])
        if fmt.kind != K.STRING_LITERAL:
            self.fail(c, "printf with a format that is not a string literal",
                      'printf("i = %d\\n", i)')
        text = ast.literal_eval(fmt.spelling)
        pieces, values = _FORMAT.split(text), [self.expr(a) for a in args[1:]]
        items = []
        for k, piece in enumerate(pieces):
            piece = piece.replace("%%", "%").strip(" ")
            if k == len(pieces) - 1:
                piece = piece.rstrip("\n")
            if piece:
                items.append(repr(piece))
            if k < len(values):
                items.append(values[k])
        return f"print({', '.join(items)})"


_FORMAT = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcsp]")


def function_name(fn: Cursor) -> str:
    """The Python name of a function or of one instantiation of a template:
    ``saxpy``, ``scale<float>`` -> ``scale__float``."""
    n = fn.get_num_template_arguments()
    if n <= 0:
        return py_name(fn.spelling)
    args = [fn.get_template_argument_type(i).spelling for i in range(n)]
    args = [a if a else str(fn.get_template_argument_value(i)) for i, a in enumerate(args)]
    return fn.spelling + "__" + "_".join("".join(ch if ch.isalnum() else "_" for ch in a)
                                         for a in args)
