"""``main`` and host functions -> Python over ``gpusim.hipcc.hostrt`` (C-style HIP calls).

A local whose address is taken (``hipMalloc(&d_x, n)``) is a one-element list: ``&d_x``
is ``d_x`` and reading it is ``d_x[0]``. ``kernel<<<grid, block, shared, stream>>>(...)``
is ``launch(kernel, grid, block, shared, stream, ...)``.
"""

from __future__ import annotations

from clang.cindex import Cursor, CursorKind

from gpusim.hipcc import builtins as bi
from gpusim.hipcc import ctypes_map as ct
from gpusim.hipcc.clangast import children, in_cell, operator, strip
from gpusim.hipcc.device import function_name
from gpusim.hipcc.exprs import _PREC, py_name
from gpusim.hipcc.stmts import StmtTranslator

K = CursorKind
_TYPED_ALLOC = {"hipHostMalloc", "hipMallocManaged"}
_CELL_TYPES = ("hipDeviceProp_t", "hipStream_t", "hipEvent_t")
_HOST_MATH = {"fma": "math.fma", "fmaf": "math.fma"}


class HostTranslator(StmtTranslator):
    """``main`` or another host function; ``cells`` are the locals whose address is taken."""

    def __init__(self, out, constants):
        super().__init__(out, constants)
        self.cells: set[str] = set()

    def function(self, fn: Cursor, name: str) -> None:
        body = next(k for k in children(fn) if k.kind == K.COMPOUND_STMT)
        for node in body.walk_preorder():
            if node.kind == K.UNARY_OPERATOR and operator(node) == "&":
                arg = strip(children(node)[0])
                if arg.kind == K.DECL_REF_EXPR and arg.referenced is not None and \
                        arg.referenced.kind == K.VAR_DECL:
                    self.cells.add(arg.spelling)
        params = [py_name(p.spelling) for p in fn.get_arguments()]
        self.out.line(f"def {name}({', '.join(params)}):", fn.location.line)
        self.body(body)

    # ---- declarations
    def decl(self, c: Cursor) -> None:
        name, line = py_name(c.spelling), c.location.line
        kids = [k for k in children(c) if k.kind not in (K.TYPE_REF, K.TEMPLATE_REF,
                                                          K.NAMESPACE_REF)]
        init = kids[-1] if kids else None
        tname = c.type.spelling
        value = None
        if tname.startswith(("std::vector", "vector<")):
            value = self._vector(c, init)
        elif ct.canon(c.type).kind.name == "CONSTANTARRAY":
            shape, elem = ct.array_shape(c.type)
            lists = [k for k in kids if k.kind == K.INIT_LIST_EXPR]
            items = ", ".join(self.expr(v) for v in children(lists[0])) if lists else ""
            if ct.dtype_name(elem) is None:  # handles: hipStream_t streams[2]
                value = f"[None] * {shape[0]}"
            else:
                value = (f"np.array([{items}], np.{ct.dtype_name(elem)})" if lists else
                     f"np.zeros({shape if len(shape) > 1 else shape[0]}, "
                         f"np.{ct.dtype_name(elem)})")
        elif "dim3" in tname:
            args = [self.expr(a) for a in _args(init)] if init is not None else []
            value = f"dim3({', '.join(args)})" if args else "dim3(1)"
        elif any(t in tname for t in _CELL_TYPES) and (
                init is None or init.kind == K.CALL_EXPR and not children(init)):
            value = "None"  # filled by hipGetDeviceProperties(&props), hipStreamCreate(&s)
        elif ct.scalar_fields(c.type):
            value = self._struct(c, init)
        elif init is not None and init.kind != K.INIT_LIST_EXPR:
            value = self.convert(init, c.type)[0]
        elif ct.is_pointer(c.type):
            value = "None"
        elif ct.dtype_name(c.type):
            dtype = ct.dtype_name(c.type)
            value = "np.float32(0.0)" if dtype == "float32" else "0.0" if \
                dtype == "float64" else "0"
        else:
            self.fail(c, f"a host variable of type `{tname}`",
                      "scalars, pointers, arrays, std::vector, dim3 and HIP handle types")
        if c.spelling in self.cells and ct.dtype_name(c.type):  # &x: memcpy can fill it
            value = f"np.array([{value}], np.{ct.dtype_name(c.type)})"
        elif c.spelling in self.cells:
            value = f"[{value}]"
        self.out.line(f"{name} = {value}", line)

    def _struct(self, c: Cursor, init: Cursor | None) -> str:
        """A struct of scalars on the host: a namespace with its fields."""
        fields = list(ct.canon(c.type).get_fields())
        s = strip(init) if init is not None else None
        if s is not None and s.kind == K.INIT_LIST_EXPR:
            values = [self.convert(v, f.type)[0] for v, f in zip(children(s), fields,
                                                                 strict=False)]
        elif s is None or s.kind == K.CALL_EXPR and not children(s):
            values = []
        else:
            return f"copy.copy({self.expr(init)})"
        values += ["0"] * (len(fields) - len(values))
        items = ", ".join(f"{f.spelling}={v}" for f, v in zip(fields, values, strict=True))
        return f"SimpleNamespace({items})"

    def _vector(self, c: Cursor, init: Cursor | None) -> str:
        dtype = ct.dtype_name(c.type.get_template_argument_type(0))
        if dtype is None:
            self.fail(c, "a std::vector of this element type", "std::vector of a scalar type")
        args = _args(init) if init is not None else []
        if not args:
            self.fail(c, "an empty std::vector (push_back)", "std::vector<T> v(n)")
        if len(args) == 1:
            return f"np.zeros({self.expr(args[0])}, np.{dtype})"
        return f"np.full({self.expr(args[0])}, {self.expr(args[1])}, np.{dtype})"

    # ---- names and values
    def x_decl_ref_expr(self, c: Cursor) -> str:
        ref = c.referenced
        if ref is not None and ref.kind == K.ENUM_CONSTANT_DECL:
            return c.spelling if c.spelling.startswith("hip") else str(ref.enum_value)
        if ref is not None and ref.kind == K.FUNCTION_DECL:
            return function_name(ref)
        name = py_name(c.spelling)
        return f"{name}[0]" if c.spelling in self.cells else name

    def x_string_literal(self, c: Cursor) -> str:
        return c.spelling

    def x_cxx_null_ptr_literal_expr(self, c: Cursor) -> str:
        return "None"

    def x_gnu_null_expr(self, c: Cursor) -> str:
        return "None"

    def x_member_ref_expr(self, c: Cursor) -> str:
        (base,) = children(c)
        return f"{self.wrap(base, _PREC['atom'])}.{c.spelling}"

    def x_array_subscript_expr(self, c: Cursor) -> str:
        base, idx = children(c)
        return f"{self.wrap(base, _PREC['atom'])}[{self.expr(idx)}]"

    def deref(self, c, arg):
        return f"{self.wrap(arg, _PREC['atom'])}[0]"

    def pointer_binary(self, c, op, lhs, rhs):
        if op in ("+", "-") and not ct.is_pointer(rhs.type):
            size = ct.pointee(lhs.type).get_size()
            k = self.expr(rhs) if op == "+" else f"-({self.expr(rhs)})"
            return f"ptr_add({self.expr(lhs)}, {k}, {size})", _PREC["atom"]
        if op in ("==", "!="):
            return f"{self.expr(lhs)} {'is' if op == '==' else 'is not'} {self.expr(rhs)}", 5
        self.fail(c, f"`{op}` on pointers in host code", "indexes into the array")

    def x_unary_operator(self, c: Cursor):
        if operator(c) == "&":
            arg = strip(children(c)[0])
            if arg.kind == K.DECL_REF_EXPR and arg.spelling in self.cells:
                return py_name(arg.spelling), _PREC["atom"]
            if arg.kind == K.ARRAY_SUBSCRIPT_EXPR:
                base, idx = children(arg)
                size = arg.type.get_size()
                return f"ptr_add({self.expr(base)}, {self.expr(idx)}, {size})", _PREC["atom"]
        return super().x_unary_operator(c)

    def pointer_cast(self, c: Cursor, inner: Cursor):
        s = strip(inner)
        if s.kind == K.CALL_EXPR and s.spelling in ("malloc", "calloc"):
            dtype = ct.dtype_name(ct.pointee(c.type))
            nbytes = " * ".join(self.wrap(a, 11) for a in children(s)[1:])
            return f"malloc({nbytes}, np.{dtype})", _PREC["atom"]
        return self._expr(inner)

    def x_cxx_new_expr(self, c: Cursor) -> str:
        dtype = ct.dtype_name(ct.pointee(c.type))
        count = [k for k in children(c) if k.kind != K.TYPE_REF]
        if dtype is None or not count:
            self.fail(c, "this `new`", "new T[n] of a scalar type T, or std::vector<T>")
        return f"np.zeros({self.expr(count[0])}, np.{dtype})"

    def x_cxx_delete_expr(self, c: Cursor) -> str:
        return f"free({self.expr(children(c)[0])})"

    # ---- calls
    def x_call_expr(self, c: Cursor) -> str:
        kids = children(c)
        name = c.spelling
        if len(kids) > 1 and strip(kids[1]).spelling == "__hipPushCallConfiguration":
            cfg = [self.expr(a) if a.location.file is not None else "0"
                   for a in _args(strip(kids[1]), keep_defaults=True)]
            args = [self.expr(a) for a in kids[2:]]
            return f"launch({', '.join([self.expr(kids[0])] + cfg + args)})"
        if name == "dim3":
            args = [self.expr(a) for a in _args(c)]
            return args[0] if len(args) == 1 else f"dim3({', '.join(args)})"
        if c.referenced is not None and c.referenced.kind == K.CONSTRUCTOR and \
                ct.scalar_fields(c.type):
            written = _args(c)
            if len(written) == 1 and ct.is_record(written[0].type):  # a copy, by value
                return f"copy.copy({self.expr(written[0])})"
        if name in ("size", "data") and kids and strip(kids[0]).kind == K.MEMBER_REF_EXPR:
            obj = self.expr(children(strip(kids[0]))[0])
            return f"len({obj})" if name == "size" else obj
        if name == "operator[]":
            return f"{self.wrap(kids[0], _PREC['atom'])}[{self.expr(kids[-1])}]"
        args = [self.expr(a) for a in kids[1:] if a.location.file is not None]
        if name in _TYPED_ALLOC:
            target = strip(kids[1])
            while target.kind in (K.CSTYLE_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR):
                target = strip([k for k in children(target) if k.kind != K.TYPE_REF][-1])
            elem = ct.pointee(ct.pointee(target.type))
            args = args[:2] + [f"np.{ct.dtype_name(elem) or 'uint8'}"] + args[2:]
        if name in ("rsqrt", "rsqrtf"):
            return f"1.0 / math.sqrt({args[0]})"
        fn = _HOST_MATH.get(name) or bi.MATH.get(name) or \
            (name if name in ("min", "max", "abs") else None)
        if fn is None and c.referenced is not None and in_cell(c.referenced):
            fn = function_name(c.referenced)
        return f"{fn or name}({', '.join(args)})"


def _args(c: Cursor, keep_defaults: bool = False) -> list[Cursor]:
    """The written arguments of a constructor or call (default arguments left out)."""
    c = strip(c)
    while c.kind in (K.CXX_FUNCTIONAL_CAST_EXPR, K.UNEXPOSED_EXPR, K.CALL_EXPR) and \
            len([k for k in children(c) if k.kind != K.TYPE_REF]) == 1 and \
            c.kind != K.CALL_EXPR:
        c = [k for k in children(c) if k.kind != K.TYPE_REF][0]
    kids = [k for k in children(c) if k.kind != K.TYPE_REF]
    if c.kind == K.CALL_EXPR and c.spelling == "__hipPushCallConfiguration":
        kids = kids[1:]
    if c.kind != K.CALL_EXPR:
        return [c]
    return [k for k in kids if keep_defaults or k.location.file is not None]
