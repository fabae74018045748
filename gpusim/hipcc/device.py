"""``__global__`` and ``__device__`` functions -> ``@hip.jit`` Python.

Pointers: a kernel's pointer parameter is an array (the launch turns the device pointer
into an array that starts where the pointer points). A pointer held in a local variable
is the pair (array, offset): ``float* row = a + i * n;`` keeps ``row`` as ``a`` plus
``row_off = i * n``, and ``row[j]`` is ``a[row_off + j]``. A device function's pointer
parameter ``p`` becomes two parameters, ``p`` and ``p_off``. ``__shared__`` arrays are
``hip.shared.array`` (``extern __shared__ T s[]`` is shape 0: dynamic LDS), a
``__shared__`` scalar is a one-element shared array, local arrays are ``hip.local.array``.

Structs of scalars (HIP's vector types ``float4``, ``uint2``, ... and the user's own) held
in variables or passed by value live as one variable per field: ``v.x`` is ``v_x``; a
device function takes one parameter per field and returns a struct as a tuple. In memory
(``float4* p``, ``__shared__ float4 tile[64]``) a struct whose fields all have one scalar
type is that many scalars in a row, as C lays it out: ``p`` is a float32 array and
``p[i].z`` is ``p[i * 4 + 2]``; offsets of struct pointers count structs. A cast between
pointers to the same scalar keeps the array (``(float*)p4`` scales the offset); a cast to
another scalar views the array as that dtype (``a.view(np.uint8)``).

Nested structs (``struct { float3 pos; float mass; }``) are flattened: ``q.pos.y`` is
``q_pos_y``, and in memory the same seven floats in a row.

Half precision (``<hip/hip_fp16.h>``): a ``__half`` (clang's ``_Float16``) is a float16
number of the kernel language, whose + - * / of two float16 values round once, as HIP's;
every conversion to or from it is written out (``np.float16(x)`` rounds to nearest even).
A ``__half2`` is a struct of two (``h.x``, ``h.y``; ``half2*`` a float16 array, two a
struct); its functions, operators and constructor are templates (``builtins.HALF``).

Cooperative groups (``cooperative_groups::this_thread_block()``, ``tiled_partition``)
are not values at run time: a group is its size (the block's thread count or the tile's),
ranks and shuffles are computed from the thread's index in its block, ``sync()`` is
``hip.syncthreads()`` or, for a tile of at most 32 threads, ``hip.syncwarp()``.

A lambda (``auto f = [&](int i) { return a[i]; };``, or a ``__device__`` lambda passed to
a template kernel) whose body is ``return expr;`` is written where it is called, its
parameters bound to the arguments; its captures are the caller's variables.

``printf`` becomes ``hip.printf(format, values...)``: C's formatting, applied on the host.

Clang's vector types (``float __attribute__((ext_vector_type(4)))``, ``__vector_size__``)
held in local variables are private arrays (``vectors.py``), and the matrix-core builtins
``__builtin_amdgcn_mfma_*`` on them are ``hip.mfma_*`` (``mfma.py``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

import numpy as np
from clang.cindex import Cursor, CursorKind, TypeKind

from gpusim.hipcc import builtins as bi
from gpusim.hipcc import ctypes_map as ct
from gpusim.hipcc import mfma, textures, vectors
from gpusim.hipcc.clangast import children, operator, strip, template_value
from gpusim.hipcc.exprs import _PREC, py_name
from gpusim.hipcc.stmts import _STEPS, StmtTranslator, has_side_effects

K = CursorKind
_NOT_VALUES = (K.TYPE_REF, K.TEMPLATE_REF, K.NAMESPACE_REF, K.CUDASHARED_ATTR,
               K.CUDACONSTANT_ATTR, K.CUDADEVICE_ATTR)
_POINTER_HINT = "pointers into a kernel's array parameters, a shared or a local array"
_CASTS = (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR,
          K.CXX_CONST_CAST_EXPR)
_FP16_HEADER = "hip/hip_fp16.h"  # its functions: bi.HALF
_ZERO = {"float32": "np.float32(0.0)", "float64": "0.0", "bool_": "False",
         "float16": "np.float16(0.0)"}
_ATOM = re.compile(r"[\w.]+|[\w.]+\[[^\[\]]*\]|-?\d+")
_FLAT_TID = ("(hip.threadIdx.x + hip.threadIdx.y * hip.blockDim.x + hip.threadIdx.z * "
             "hip.blockDim.x * hip.blockDim.y)")
_BLOCK_THREADS = "(hip.blockDim.x * hip.blockDim.y * hip.blockDim.z)"
_BLOCK_RANK = ("(hip.blockIdx.x + hip.blockIdx.y * hip.gridDim.x + hip.blockIdx.z * "
               "hip.gridDim.x * hip.gridDim.y)")
_GRID_THREADS = f"(hip.gridDim.x * hip.gridDim.y * hip.gridDim.z * {_BLOCK_THREADS})"
_VECTOR_PARAM = ("a pointer to its elements (float* v) or its elements as numbers, or the "
                 "vector as a local variable of the function that uses it")


@dataclass
class Group:
    """A cooperative group: ``kind`` "block" (the thread block), "tile" (a
    ``thread_block_tile<N>``, ``size`` the constant N) or "group" (a ``thread_group``
    whose size is a run-time value, ``size`` its text)."""

    kind: str
    size: str

    def size_text(self) -> str:
        return _BLOCK_THREADS if self.kind == "block" else self.size


def _group_type(t) -> tuple[str, str | None] | None:
    """("block"|"tile"|"group"|"grid"|"coalesced", N for a tile) for a cooperative
    groups type (through references and const), else None."""
    t = ct.strip_reference(t).get_canonical()
    if t.kind != TypeKind.RECORD:
        return None
    name = t.spelling.replace("const ", "").strip()
    if not name.startswith("cooperative_groups::"):
        return None
    name = name.removeprefix("cooperative_groups::")
    if name.startswith("thread_block_tile<"):
        return "tile", name[len("thread_block_tile<"):].rstrip(">").rstrip("Uu ")
    return {"thread_block": ("block", None), "thread_group": ("group", None),
            "grid_group": ("grid", None), "coalesced_group": ("coalesced", None)}.get(
                name, ("other", None))


def _lambda_call(t) -> Cursor | None:
    """The ``operator()`` (with its body) of a lambda's class type, else None."""
    t = ct.strip_reference(t).get_canonical()
    if t.kind != TypeKind.RECORD:
        return None
    decl = t.get_declaration()
    if decl is None or not decl.spelling.startswith("(lambda at "):
        return None
    for k in decl.get_children():
        if k.kind == K.CXX_METHOD and k.spelling == "operator()":
            return k.get_definition() or k
    return None


def _scaled(off: str | None, n: int, k: int = 0) -> str:
    """The scalar index of field ``k`` of struct number ``off`` (``n`` fields each)."""
    off = off or "0"
    if re.fullmatch(r"-?\d+", off):
        return str(int(off) * n + k)
    base = off if n == 1 else f"{off} * {n}" if _ATOM.fullmatch(off) else f"({off}) * {n}"
    return f"{base} + {k}" if k else base


def _plus(off: str | None, index: str) -> str:
    return index if not off or off == "0" else f"{off} + {index}"


class DeviceTranslator(StmtTranslator):
    """One device or kernel function; ``device_fns`` names the cell's device functions
    (a call passes a pointer argument as array and offset, a struct field by field)."""

    def __init__(self, out, constants, device_fns: dict[str, list[bool]],
                 device_vars: list[tuple[str, str, int]] = ()):
        super().__init__(out, constants)
        self.device_fns = device_fns
        # __device__/__constant__ variables: every kernel and device function takes their
        # device copies as hidden trailing parameters, named __g_<name>.
        self.device_vars = {name: count for name, _, count in device_vars}
        self.ptrs: dict[str, tuple[str, str | None]] = {}  # C name -> (array, offset var)
        self.shared_scalars: set[str] = set()
        self.dynamic_lds: set[str] = set()  # Python names of `extern __shared__` arrays
        self.structs: dict[str, list[str]] = {}  # struct variable -> its fields' Python
        self.aliases: dict[str, str] = {}  # reference variable -> the element it names
        self.groups: dict[str, Group] = {}  # cooperative group variables
        self.bound: dict[Cursor, str] = {}  # an inlined lambda's parameters -> arguments
        self.result = None  # the function's C result type
        self.name = ""
        self.textures: dict[str, tuple[str, str]] = {}  # texture object -> its two arrays
        self.vec = vectors.VectorVars(self)  # clang vector variables: private arrays
        self.names: dict[Cursor, str] = {}  # a renamed local's declaration -> its name
        self.seen: dict[str, dict[str, str]] = {}  # C name -> {type: Python name}

    def function(self, fn: Cursor, name: str, kernel: bool) -> list[tuple[str, str]]:
        """Emit the function; return its parameters as (kind, dtype) for the launcher:
        kind "array" (a pointer), "scalar", or "struct" (fields)."""
        params, spec = [], []
        self.name = name
        body = next(k for k in children(fn) if k.kind == K.COMPOUND_STMT)
        moved = _moved_pointers(body) if kernel else set()
        for p in fn.get_arguments():
            pname = self.local_name(p)
            group = _group_type(p.type)
            if _is_reference(p.type) and group is None and _lambda_call(p.type) is None:
                if kernel or not ct.strip_reference(p.type).is_const_qualified():
                    self.fail(p, f"a reference parameter (`{p.type.spelling}`)",
                              "a pointer parameter: float* out, and out[0] = ... inside")
            if textures.is_texture(p.type):  # hipTextureObject_t: texels and descriptor
                params += textures.parameter(self, p, pname, kernel)
                spec.append(("texture", ""))
                continue
            if ct.is_pointer(p.type) and vectors.is_vector(ct.pointee(p.type)):
                self.fail(p, f"a pointer to a vector as a parameter (`{p.type.spelling}`)",
                          "a pointer to its element type (float* p), read as a vector with "
                          "*(const floatx4*)(p + 4 * i)")
            if ct.is_pointer(p.type):
                lay = ct.layout(ct.pointee(p.type)) or \
                    (("uint16", 1) if vectors.is_bf16(ct.pointee(p.type)) else None)  # bits
                if lay is None and ct.is_record(ct.pointee(p.type)):
                    self.fail(p, f"a pointer to `{ct.pointee(p.type).spelling}`, a struct "
                              "whose fields are not all one scalar type",
                              "a struct whose fields all have one type (float x, y, z;), "
                              "or one array per field")
                # a kernel's pointer starts where the launch points it: an offset variable
                # only if the kernel moves it (`p += n`); a device function's always has one
                moves = not kernel or p.spelling in moved
                self.ptrs[p.spelling] = (pname, pname + "_off" if moves else None)
                params += [pname] if kernel else [pname, pname + "_off"]
                spec.append(("array", lay[0] if lay else "uint8"))
            elif ct.dtype_name(ct.strip_reference(p.type)):
                params.append(pname)
                spec.append(("scalar", ct.dtype_name(ct.strip_reference(p.type))))
            elif group is not None and not kernel:
                self.groups[p.spelling] = self.group_param(p, group, pname)
                params.append(pname + "_size")
            elif _lambda_call(p.type) is not None:
                self.lambda_param(p)
                if kernel:  # the launch passes the (empty) closure object: one byte
                    params.append(pname)
                    spec.append(("scalar", "uint8"))
            elif ct.scalar_fields(ct.strip_reference(p.type)):  # a struct: one per field
                fields = ct.scalar_fields(ct.strip_reference(p.type))
                packed = np.dtype(list(fields), align=True)  # as the launch reads it
                if kernel and [packed.fields[f][1] for f, _ in fields] != \
                        ct.flat_offsets(p.type):
                    self.fail(p, f"a `{p.type.spelling}` argument (a struct of mixed types "
                              "inside a struct)", "pass its members as separate arguments")
                self.structs[p.spelling] = [f"{pname}_{f}" for f, _ in fields]
                params += [f"{pname}_{f}" for f, _ in fields]
                spec.append(("struct", tuple(fields)))
            elif vectors.is_vector(ct.strip_reference(p.type)):
                self.fail(p, f"a vector parameter (`{p.type.spelling}`)", _VECTOR_PARAM)
            else:
                self.fail(p, f"a parameter of type `{p.type.spelling}`",
                          "scalars (int, float, ...), pointers and structs of scalars")
        if not kernel and fn.result_type.kind != TypeKind.VOID:
            self.result = fn.result_type
            if ct.dtype_name(self.result) is None and not ct.scalar_fields(self.result):
                self.fail(fn, f"returning `{self.result.spelling}` from a device function",
                          "return a scalar or a struct of scalars")
        line = fn.location.line
        params += [f"__g_{v}" for v in self.device_vars]
        self.out.line("@hip.jit" if kernel else "@hip.jit(device=True)", line)
        self.out.line(f"def {name}({', '.join(params)}):", line)
        for p in sorted(moved & set(self.ptrs)):
            self.out.line(f"    {self.ptrs[p][1]} = 0  # `{p}` moves: it starts at element 0",
                          line)
        self.body(body)
        return spec

    def group_param(self, p: Cursor, group: tuple[str, str | None], pname: str) -> Group:
        kind, n = group
        if kind == "tile":
            return Group("tile", n)
        if kind == "block":
            return Group("block", "")
        if kind == "group":
            return Group("group", pname + "_size")
        self.fail(p, f"a `{p.type.spelling}` parameter", "thread_group, thread_block or "
                  "thread_block_tile<N> (cooperative groups within a block)")

    def lambda_param(self, p: Cursor) -> None:
        call = _lambda_call(p.type)
        fields = list(ct.canon(ct.strip_reference(p.type)).get_fields())
        if fields:
            self.fail(p, "a lambda with captures passed as an argument",
                      "a lambda without captures ([] (int a, int b) { ... }), or pass the "
                      "values it needs as arguments")
        if call is None or not any(k.kind == K.COMPOUND_STMT for k in children(call)):
            self.fail(p, "this lambda parameter", "a lambda defined in this file")

    # ---- declarations
    def decl(self, c: Cursor) -> None:
        name, line = self.local_name(c), c.location.line
        kids = [k for k in children(c) if k.kind not in _NOT_VALUES]
        shared = any(k.kind == K.CUDASHARED_ATTR for k in children(c))
        init = kids[-1] if kids else None
        if init is not None:
            self.check_sequencing(init)
        if vectors.is_vector(c.type):
            self.vec.decl(c, name, init, shared, line)
            return
        if ct.canon(c.type).kind.name in ("CONSTANTARRAY", "INCOMPLETEARRAY"):
            self.array_decl(c, name, init, shared, line)
            return
        if _is_reference(c.type):
            self.reference_decl(c, name, init, line)
            return
        if _lambda_call(c.type) is not None:
            return  # a lambda: its calls are written where they are made
        group = _group_type(c.type)
        if group is not None:
            self.group_decl(c, name, init, group, line)
            return
        if shared:
            lay = ct.layout(c.type)
            if lay is None:
                self.fail(c, f"a __shared__ variable of type `{c.type.spelling}`",
                          "scalars, structs of one scalar type, and arrays of them")
            dtype, n = lay
            self.out.line(f"{name} = hip.shared.array({n}, hip.{dtype})", line)
            if ct.dtype_name(c.type):
                self.shared_scalars.add(c.spelling)
            else:
                self.structs[c.spelling] = [f"{name}[{k}]" for k in range(n)]
            return
        if ct.scalar_fields(c.type):
            self.struct_decl(c, name, init, line)
            return
        if ct.is_pointer(c.type):
            if init is None:
                self.fail(c, "a pointer declared without a value", _POINTER_HINT)
            base, off = self.pointer(init)
            if not re.fullmatch(r"\w+", base):  # a view: (uchar4*)words
                self.out.line(f"{name} = {base}", line)
                base = name
            self.ptrs[c.spelling] = (base, name + "_off")
            self.out.line(f"{name}_off = {off or 0}", line)
            return
        dtype = ct.dtype_name(c.type)
        if dtype is None and _stateless(c.type):
            return  # `SharedMemory<T> smem;`: no state; its methods are inlined (accessor)
        if dtype is None:
            self.fail(c, f"a variable of type `{c.type.spelling}`",
                      "scalar variables (int, float, ...), structs of scalars, arrays and "
                      "pointers")
        if init is not None and strip(init).kind == K.INIT_LIST_EXPR:  # double d = {0};
            init = (children(strip(init)) or [None])[0]
        if init is None:
            value = _ZERO.get(dtype, "0")
        else:
            value = self.convert(init, c.type)[0]
            if dtype == "float64" and not ct.is_float(init.type):
                value = f"float({value})"
        self.out.line(f"{name} = {value}", line)

    def array_decl(self, c: Cursor, name: str, init: Cursor | None, shared: bool,
                   line: int) -> None:
        shape, elem = ct.array_shape(c.type)
        lay = ct.layout(elem)
        if vectors.is_vector(elem):
            self.fail(c, f"an array of vectors (`{c.type.spelling}`)",
                      "one vector variable per element (acc0, acc1, ...), or an array of "
                      "the element type")
        if lay is None:
            self.fail(c, f"arrays of `{elem.spelling}`",
                      "arrays of scalars or of structs whose fields have one scalar type")
        dtype, n = lay
        dims = (*shape[:-1], shape[-1] * n)
        text = str(dims[0]) if len(dims) == 1 else str(dims)
        where = "shared" if shared else "local"
        self.out.line(f"{name} = hip.{where}.array({text}, hip.{dtype})", line)
        if shared and dims == (0,):
            self.dynamic_lds.add(name)
        self.ptrs[c.spelling] = (name, None)
        if init is not None and strip(init).kind == K.INIT_LIST_EXPR:
            self.array_init(strip(init), name, shape, elem, n, (), line)

    def array_init(self, init: Cursor, name: str, shape, elem, n: int, at: tuple,
                   line: int) -> None:
        """``float a[2][3] = {{...}, {...}}``, ``float2 v[2] = {{1, 2}, {3, 4}}``; the
        elements not listed stay as the array starts (zero)."""
        for i, v in enumerate(children(init)):
            index = (*at, i)
            if len(index) < len(shape):
                if strip(v).kind != K.INIT_LIST_EXPR:
                    self.fail(v, "this array initialiser", "one brace list per row")
                self.array_init(strip(v), name, shape, elem, n, index, line)
                continue
            values = self.struct_values(v, elem) if n > 1 or ct.scalar_fields(elem) \
                else [self.convert(v, elem)[0]]
            for k, value in enumerate(values):
                last = index[-1] * n + k
                where = ", ".join(str(x) for x in (*index[:-1], last))
                self.out.line(f"{name}[{where}] = {value}", line)

    def reference_decl(self, c: Cursor, name: str, init: Cursor | None, line: int) -> None:
        """``float& r = a[i];`` / ``const float4& v = p[i];``: later uses name the same
        element (its index is computed here, once, as C binds the reference)."""
        target = ct.strip_reference(c.type)
        s = strip(init) if init is not None else None
        if s is not None and s.kind == K.ARRAY_SUBSCRIPT_EXPR:
            base, indices = self._element(s)
            kept = []
            for ix in indices:
                if _ATOM.fullmatch(ix):
                    kept.append(ix)
                else:
                    tmp = self.temp("i")
                    self.out.line(f"{tmp} = {ix}", line)
                    kept.append(tmp)
            lay = ct.layout(target)
            if ct.scalar_fields(target):
                if lay is None:
                    self.fail(c, f"a reference to a `{target.spelling}` in an array",
                              "structs whose fields have one scalar type")
                self.structs[c.spelling] = [
                    f"{base}[{', '.join([*kept[:-1], _scaled(kept[-1], lay[1], k)])}]"
                    for k in range(lay[1])]
            else:
                self.aliases[c.spelling] = f"{base}[{', '.join(kept)}]"
            return
        if s is not None and s.kind == K.DECL_REF_EXPR and s.spelling in self.structs:
            self.structs[c.spelling] = self.structs[s.spelling]
            return
        if s is not None and s.kind == K.DECL_REF_EXPR and ct.dtype_name(target):
            self.aliases[c.spelling] = self.expr(s)
            return
        if target.is_const_qualified() and init is not None:  # a copy reads the same
            if ct.scalar_fields(target):
                self.struct_decl(c, name, init, line, target)
            else:
                self.out.line(f"{name} = {self.convert(init, target)[0]}", line)
            return
        self.fail(c, "this reference variable", "a reference to an array element or a "
                  "variable (float& r = a[i];), or a copy")

    def struct_decl(self, c: Cursor, name: str, init: Cursor | None, line: int,
                    t=None) -> None:
        """A struct of scalars lives as one variable per field: ``p.x`` is ``p_x``."""
        t = t if t is not None else c.type
        fields = ct.scalar_fields(t)
        values = self.struct_values(init, t, hoist=True) if init is not None else \
            [_ZERO.get(d, "0") for _, d in fields]
        targets = [f"{name}_{f}" for f, _ in fields]
        self.out.line(f"{', '.join(targets)} = {', '.join(values)}", line)
        self.structs[c.spelling] = targets

    # ---- struct values
    def struct_lvalue(self, c: Cursor, hoist: bool = False) -> list[str] | None:
        """The assignable Python text of each field of a struct-typed lvalue (a
        variable, ``p[i]``, ``*p``, ``p[i]`` of a shared array), or None. ``hoist``: an
        index is computed once, into a temporary (for a statement that uses every
        field)."""
        s = strip(c)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.structs:
            return self.structs[s.spelling]
        lay = ct.layout(s.type)
        if s.kind == K.ARRAY_SUBSCRIPT_EXPR:
            if lay is None:
                self.fail(s, f"an array of `{s.type.spelling}`, a struct whose fields are "
                          "not all one scalar type", "one array per field")
            base, indices = self._element(s)
            last = indices[-1]
            if hoist and lay[1] > 1 and not _ATOM.fullmatch(last):
                tmp = self.temp("i")
                self.out.line(f"{tmp} = {last}", s.location.line)
                last = tmp
            return [f"{base}[{', '.join([*indices[:-1], _scaled(last, lay[1], k)])}]"
                    for k in range(lay[1])]
        if s.kind == K.UNARY_OPERATOR and operator(s) == "*":
            if lay is None:
                self.fail(s, f"a pointer to `{s.type.spelling}`", "one array per field")
            base, off = self.pointer(children(s)[0])
            return [f"{base}[{_scaled(off, lay[1], k)}]" for k in range(lay[1])]
        if s.kind == K.MEMBER_REF_EXPR and ct.is_record(s.type):  # o.pos, p[i].pos
            return self.member_fields(s, hoist)
        return None

    def member_fields(self, c: Cursor, hoist: bool = False) -> list[str]:
        """The Python text of each field of member ``c`` (``v.x``, ``p->x``, ``p[i].pos``
        of a struct member: its fields in order)."""
        b = strip(children(c)[0])
        if ct.is_pointer(b.type):  # p->x
            t = ct.pointee(b.type)
            lay = ct.layout(t)
            if lay is None:
                self.fail(c, f"`->` on a pointer to `{t.spelling}`",
                          "a pointer to a struct whose fields have one scalar type")
            arr, off = self.pointer(b)
            first, count = ct.field_span(t, c.spelling)
            return [f"{arr}[{_scaled(off, lay[1], first + k)}]" for k in range(count)]
        if not ct.scalar_fields(b.type):
            self.fail(c, "this member access in device code",
                      "fields of structs of scalars: v.x, p[i].x, p->x")
        first, count = ct.field_span(b.type, c.spelling)
        s = _uncopied(b)
        if count == 1 and s.kind == K.CALL_EXPR and not _is_constructor(s) and \
                not s.spelling.startswith(("make_", "operator=")):  # f(x).y: of its tuple
            return [f"{self.expr(s)}[{first}]"]
        return self.struct_values(b, b.type, hoist)[first:first + count]

    def struct_values(self, c: Cursor, t, hoist: bool = False) -> list[str]:
        """The Python text of each field's value of a struct-typed expression ``c``,
        converted to the fields of type ``t`` (``hoist``: as ``struct_lvalue``)."""
        fields = ct.scalar_fields(t)
        if fields is None:
            self.fail(c, f"a value of type `{t.spelling}`", "structs of scalars")
        s = _uncopied(c)
        if s.kind in (K.CXX_FUNCTIONAL_CAST_EXPR, K.CSTYLE_CAST_EXPR) and \
                ct.is_record(s.type):  # float2{1, 2}, (float2){1, 2}
            return self.struct_values([k for k in children(s) if k.kind != K.TYPE_REF][-1], t,
                                      hoist)
        lvalue = self.struct_lvalue(s, hoist)
        if lvalue is not None:
            return lvalue
        if s.kind == K.INIT_LIST_EXPR or s.kind == K.CALL_EXPR and not children(s):
            values = children(s)  # missing members are zero, as in C
            if len(values) > len(ct.members(t)):
                self.fail(c, "this struct initialiser", "one value per field")
            out = []
            for k, (_, mt) in enumerate(ct.members(t)):
                inner = ct.scalar_fields(mt) if ct.dtype_name(mt) is None else None
                if k < len(values):
                    out += self.struct_values(values[k], mt) if inner else \
                        [self.convert(values[k], mt)[0]]
                else:
                    out += [_ZERO.get(d, "0") for _, d in inner or [("", ct.dtype_name(mt))]]
            return out
        if s.kind == K.CALL_EXPR and s.spelling == "operator=":
            self.side_effect(s)
            return self.struct_lvalue(children(s)[0])
        half = self.half_call(s) if s.kind == K.CALL_EXPR else None
        if half is not None:  # __hadd2(a, b), __half2(x, y), a * b of __half2s, ...
            if isinstance(half, str):
                self.fail(s, f"`{s.spelling}` used as a struct", "one of its halves")
            return half
        if s.kind == K.CALL_EXPR and s.spelling.startswith("make_") and \
                s.referenced is not None and s.referenced.location.is_in_system_header:
            args = children(s)[1:]
            return [self.convert(a, mt)[0]
                    for a, (_, mt) in zip(args, ct.members(t), strict=True)]
        if s.kind == K.CALL_EXPR:  # a device function (or lambda) returning a struct
            tmp = self.temp("s")
            self.out.line(f"{tmp} = {self.expr(s)}", s.location.line)
            return [f"{tmp}[{k}]" for k in range(len(fields))]
        if s.kind == K.CONDITIONAL_OPERATOR:
            cond, a, b = children(s)
            test = self.wrap(cond, _PREC["if"] + 1)
            mark = self.out.mark()
            yes, no = self.struct_values(a, t), self.struct_values(b, t)
            if self.out.mark() != mark:
                self.out.take(mark)
                self.fail(s, "a call or side effect in a branch of `?:` on structs",
                          "an if statement")
            return [f"{y} if {test} else {n}" for y, n in zip(yes, no, strict=True)]
        self.fail(c, "this struct value", "a struct variable, p[i], a brace list {1, 2}, "
                  "make_float2(...), or a device function's result")

    def return_value(self, c: Cursor) -> str:
        if self.result is not None and ct.scalar_fields(self.result):
            values = self.struct_values(c, self.result, hoist=True)
            return f"({', '.join(values)},)" if len(values) == 1 else ", ".join(values)
        if self.result is not None:
            return self.convert(c, self.result)[0]
        return self.expr(c)

    # ---- names
    def x_decl_ref_expr(self, c: Cursor) -> str:
        name = c.spelling
        ref = c.referenced
        if ref is not None and ref in self.bound:
            return self.bound[ref]
        if not name and len(children(c)) == 1:  # a template's value parameter, substituted
            return self.expr(children(c)[0])
        if name == "warpSize":
            return "hip.warpsize"
        if name in self.aliases:
            return self.aliases[name]
        if name in self.shared_scalars:
            return f"{py_name(name)}[0]"
        if ref is not None and ref.kind == K.ENUM_CONSTANT_DECL:
            return str(ref.enum_value)
        if self._device_var(c):
            return f"__g_{name}" if ct.is_pointer(c.type) else f"__g_{name}[0]"
        if ct.is_pointer(c.type) and name in self.ptrs:
            self.fail(c, "a pointer used as a value", "index it: p[i], or *p")
        if name in self.structs:
            self.fail(c, f"the struct `{name}` used as a number", "one of its fields: v.x")
        if vectors.is_vector(c.type):
            self.vec.whole(c)
        return self.names.get(ref, py_name(name))

    def local_name(self, decl: Cursor) -> str:
        """The Python name of a parameter or local variable: its C name, unless an
        earlier declaration in this function gave that name a variable of another type
        (C++'s block scopes: a ``float b`` in one loop, an ``int b`` in the next), which
        Python could not hold in one variable: then ``b__2``, ``b__3``, ..."""
        name = py_name(decl.spelling)
        kinds = self.seen.setdefault(decl.spelling, {})
        key = ct.canon(decl.type).spelling.replace("const ", "").replace("volatile ", "")
        if key not in kinds:
            kinds[key] = name if not kinds else f"{name}__{len(kinds) + 1}"
        if kinds[key] != name:
            self.names[decl] = kinds[key]
        return kinds[key]

    def x_unexposed_expr(self, c: Cursor) -> tuple[str, int]:
        kids = children(c)
        if vectors.element_access(c):  # acc.x, acc.s3
            return self.vec.element(c), _PREC["atom"]
        if len(kids) == 1 and vectors.is_bf16(kids[0].type) and not vectors.is_bf16(c.type):
            self.fail(c, "reading a __bf16 as a number (gpusim holds a __bf16 as its bit "
                      "pattern and has no bfloat16 arithmetic)", "copy it to another "
                      "__bf16 or pass it to an MFMA builtin; compute in float")
        if len(kids) == 1 and vectors.is_vector(kids[0].type):
            self.vec.whole(kids[0])
        return super().x_unexposed_expr(c)

    def x_member_ref_expr(self, c: Cursor) -> str:
        base = children(c)
        if not base:
            self.fail(c, "this member access in device code", "v.x of a struct variable")
        b = strip(base[0])
        if b.kind == K.DECL_REF_EXPR and b.spelling in bi.POSITION:
            return f"hip.{b.spelling}.{c.spelling}"
        if b.kind == K.CALL_EXPR and _group_type(_object_type(b)) is not None:
            return self.group_dim3(b, c.spelling)
        fields = self.member_fields(c)
        if len(fields) != 1:
            self.fail(c, f"the struct member `{c.spelling}` used as a number",
                      f"one of its fields: .{c.spelling}.x")
        return fields[0]

    # ---- pointers
    def pointer(self, c: Cursor) -> tuple[str, str | None]:
        """(array, offset expression or None) that a pointer-valued expression denotes;
        the offset counts elements of the pointer's type (structs for ``float4*``)."""
        s = strip(c)
        if s.kind in _CASTS:
            inner = [k for k in children(s) if k.kind != K.TYPE_REF][-1]
            return self.pointer_cast(s, inner)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.ptrs:
            return self.ptrs[s.spelling]
        if vectors.is_vector(s.type):  # v[i] of a vector variable
            array = self.vec.array(s)
            if array is None:
                self.fail(s, "an element of this vector expression",
                          "an element of a vector variable: v[i], v.x")
            return array, None
        if s.kind == K.CALL_EXPR and s.referenced is not None and \
                s.referenced.kind in (K.CXX_METHOD, K.CONVERSION_FUNCTION):
            return self.accessor(s)
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
        if s.kind == K.UNARY_OPERATOR and operator(s) in ("post++", "post--", "++", "--"):
            (arg,) = children(s)
            a = strip(arg)
            if a.kind == K.DECL_REF_EXPR and a.spelling in self.ptrs and self.ptrs[a.spelling][1]:
                base, off = self.ptrs[a.spelling]
                sign, line = ("+" if operator(s).endswith("++") else "-"), s.location.line
                if operator(s).startswith("post"):
                    old = self.temp()
                    self.out.line(f"{old} = {off}", line)
                    self.out.line(f"{off} {sign}= 1", line)
                    return base, old
                self.out.line(f"{off} {sign}= 1", line)
                return base, off
        if s.kind == K.UNARY_OPERATOR and operator(s) == "&":
            (arg,) = children(s)
            arg = strip(arg)
            if arg.kind == K.ARRAY_SUBSCRIPT_EXPR:
                base, indices = self._element(arg)
                if len(indices) > 1:
                    self.fail(s, "a pointer into a multi-dimensional array",
                              "index the array")
                return base, indices[0]
            if arg.kind == K.MEMBER_REF_EXPR and ct.dtype_name(arg.type):  # &p[i].y
                (text,) = self.member_fields(arg)
                if text.endswith("]"):  # a float* into the float4 array
                    base, _, index = text.partition("[")
                    return base, index[:-1]
            if arg.kind == K.DECL_REF_EXPR and arg.spelling in self.shared_scalars:
                return py_name(arg.spelling), None
            if arg.kind == K.DECL_REF_EXPR and arg.spelling in self.structs and \
                    self.structs[arg.spelling][0].endswith("[0]"):  # a __shared__ struct
                return self.structs[arg.spelling][0][:-3], None
            if arg.kind == K.DECL_REF_EXPR and self._device_var(arg):
                return f"__g_{arg.spelling}", None
        self.fail(c, "this pointer expression", _POINTER_HINT)

    def accessor(self, call: Cursor) -> tuple[str, str | None]:
        """``smem.getPointer()`` / ``T* s = SharedMemory<T>();``: a method of a struct
        without fields (CUDA samples' ``SharedMemory<T>``, a way around one
        ``extern __shared__`` name per type) whose body declares arrays and returns a
        pointer: its declarations are written here and its return value is the pointer."""
        method = call.referenced
        body = next((k for k in (method.get_definition() or method).get_children()
                     if k.kind == K.COMPOUND_STMT), None)
        stmts = children(body) if body is not None else []
        if not (_stateless(method.semantic_parent.type) and stmts
                and stmts[-1].kind == K.RETURN_STMT
                and all(k.kind == K.DECL_STMT for k in stmts[:-1])):
            self.fail(call, f"calling the method `{method.spelling}` in device code",
                      "__device__ functions; a method only of a struct without fields whose "
                      "body declares arrays and returns a pointer (SharedMemory<T>)")
        for stmt in stmts[:-1]:
            self.stmt(stmt)
        return self.pointer(children(stmts[-1])[0])

    def pointer_cast(self, s: Cursor, inner: Cursor) -> tuple[str, str | None]:
        """``(float*)p4``, ``(uchar4*)bytes``, ``reinterpret_cast<uint8_t*>(words)``."""
        if not ct.is_pointer(inner.type):
            self.fail(s, "a cast of a number to a pointer", _POINTER_HINT)
        src, dst = ct.pointee(inner.type), ct.pointee(s.type)
        a, b = ct.layout(src), ct.layout(dst)
        base, off = self.pointer(inner)
        if a == b:
            return base, off
        if a is None or b is None:
            what = dst if b is None else src
            self.fail(s, f"a cast between pointers to `{src.spelling}` and `{dst.spelling}`"
                      + (" (`void*`)" if what.kind == TypeKind.VOID else ""),
                      "pointers to scalars or to structs whose fields have one scalar type")
        (sd, sn), (dd, dn) = a, b
        if base in self.dynamic_lds and off in (None, "0") and sd != dd:
            # `(T*)smem` of the dynamic LDS: every extern __shared__ array starts at the
            # same byte, so this is one more such array of the new type, not a view
            # (which could not be kept across a barrier)
            name = self.temp("lds")
            self.out.line(f"{name} = hip.shared.array(0, hip.{dd})", s.location.line)
            self.dynamic_lds.add(name)
            return name, None
        src_bytes = np.dtype(sd).itemsize * sn
        dst_bytes = np.dtype(dd).itemsize * dn
        if sd != dd:  # the same bytes seen as another scalar type
            ratio = np.dtype(dd).itemsize // np.dtype(sd).itemsize
            whole = base if ratio <= 1 else f"{base}[:len({base}) // {ratio} * {ratio}]"
            base = f"{whole}.view(np.{dd})"
        if off in (None, "0"):
            return base, off
        o = off if _ATOM.fullmatch(off) else f"({off})"
        if src_bytes % dst_bytes == 0:
            return base, f"{o} * {src_bytes // dst_bytes}" if src_bytes != dst_bytes else off
        return base, f"{o} * {src_bytes} // {dst_bytes}"

    def _device_var(self, c: Cursor) -> bool:
        """A reference to a file-level __device__/__constant__ variable (not a local)."""
        ref = c.referenced
        return c.spelling in self.device_vars and ref is not None and \
            ref.kind == K.VAR_DECL and ref.semantic_parent is not None and \
            ref.semantic_parent.kind in (K.TRANSLATION_UNIT, K.NAMESPACE)

    def _element(self, c: Cursor) -> tuple[str, list[str]]:
        """(array, index texts) of ``p[i]`` / ``tile[i][j]``; the last index counts
        elements of the array's element type (structs for ``float4``)."""
        indices = []
        while strip(c).kind == K.ARRAY_SUBSCRIPT_EXPR:
            c, idx = children(strip(c))
            indices.append(idx)
        indices.reverse()
        base, off = self.pointer(c)
        if len(indices) > 1:
            if off:
                self.fail(c, "a pointer into a multi-dimensional array", "index the array")
            return base, [self.expr(i) for i in indices]
        index = self.wrap(indices[0], _PREC["+"], right=True) if off else \
            self.expr(indices[0])
        return base, [_plus(off, index)]

    def x_array_subscript_expr(self, c: Cursor) -> str:
        lay = ct.layout(c.type)
        if lay is not None and lay[1] > 1 or ct.is_record(c.type):
            self.fail(c, "a struct element used as a number", "one of its fields: p[i].x")
        base, indices = self._element(c)
        return f"{base}[{', '.join(indices)}]"

    def deref(self, c: Cursor, arg: Cursor) -> str:
        base, off = self.pointer(arg)
        return f"{base}[{off or 0}]"

    def pointer_binary(self, c, op, lhs, rhs):
        if op in ("-",) and ct.is_pointer(lhs.type) and ct.is_pointer(rhs.type):
            (a, ao), (b, bo) = self.pointer(lhs), self.pointer(rhs)
            if a == b:
                return f"({ao or 0}) - ({bo or 0})", _PREC["-"]
        if op in ("==", "!=", "<", "<=", ">", ">=") and ct.is_pointer(lhs.type) and \
                ct.is_pointer(rhs.type):
            (a, ao), (b, bo) = self.pointer(lhs), self.pointer(rhs)
            if a == b:
                return f"({ao or 0}) {op} ({bo or 0})", _PREC["cmp"]
        self.fail(c, "pointer arithmetic outside an index or a pointer variable",
                  "p[i + k], or a pointer variable: float* q = p + k;")

    def step_var(self, c, arg, delta, line):
        s = strip(arg)
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.ptrs and ct.is_pointer(s.type):
            self.out.line(f"{py_name(s.spelling)}_off {'+' if delta > 0 else '-'}= 1", line)
            return
        if ct.dtype_name(arg.type) == "float16":  # a float16 1, or the sum would be float64
            self.out.line(f"{self.target(arg)} {'+' if delta > 0 else '-'}= np.float16(1.0)",
                          line)
            return
        super().step_var(c, arg, delta, line)

    def expr_stmt(self, c: Cursor) -> None:
        s = strip(c)
        failed = _assert_fail(s)
        if failed is not None:  # assert(cond): the kernel language's device-side assert
            test, text = children(s)[0], strip(children(failed)[1])
            self.check_sequencing(test)
            # glibc's first argument is the condition as written (#e); ROCm prints it so
            told = f"Device-side assertion `{_c_string(text.spelling)}' failed" \
                if text.kind == K.STRING_LITERAL else "Device-side assertion failed"
            self.out.line(f"assert {self.expr(test)}, {told!r}", s.location.line)
            return
        if s.kind == K.CALL_EXPR and s.spelling == "operator=":
            self.check_sequencing(s, statement=True)
            kids = children(s)
            self.assign(s, "=", kids[0], kids[-1], s.location.line)
            return
        if s.kind == K.CALL_EXPR and s.spelling in ("operator+=", "operator-=", "operator*=",
                                                     "operator/="):
            values = self.half_call(s, update=True)
            if values is not None:  # __half2 v += w: v = v + w, half by half
                self.check_sequencing(s, statement=True)
                lhs = children(s)[0]
                self.store_fields(self.struct_lvalue(lhs, hoist=True), values, lhs.type,
                                  s.location.line)
                return
        super().expr_stmt(c)

    def assign(self, c, op, lhs, rhs, line):
        if vectors.is_vector(lhs.type):  # v = w, acc = __builtin_amdgcn_mfma_...(...)
            self.vec.assign(c, op, lhs, rhs, line)
            return
        if vectors.is_bf16(lhs.type):  # a __bf16: its bit pattern
            if op != "=":
                self.fail(c, f"`{op}` on a __bf16", "compute in float, then store: "
                          "v[i] = (__bf16)x;")
            self.out.line(f"{self.target(lhs)} = {self.vec.element_value(rhs, lhs.type)}",
                          line)
            return
        s = strip(lhs)
        if ct.scalar_fields(s.type) and op == "=":
            values = self.struct_values(rhs, s.type, hoist=True)
            targets = self.struct_lvalue(s, hoist=True)
            if targets is None:
                self.fail(c, "assigning to this struct", "a struct variable or p[i]")
            self.store_fields(targets, values, s.type, line)
            return
        if op in ("+=", "-=", "*=", "/=") and ct.dtype_name(s.type) == "float16" and \
                ct.is_float(rhs.type) and ct.dtype_name(rhs.type) != "float16":
            # h += f (a float or double f): C computes in f's type, then rounds to half once
            target, wide = self.target(lhs), ct.dtype_name(rhs.type)
            value = self.wrap(rhs, _PREC[op[0]], right=True)
            self.out.line(f"{target} = np.float16(np.{wide}({target}) {op[0]} {value})", line)
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

    def store_fields(self, targets: list[str], values: list[str], t, line: int) -> None:
        """``targets = values`` for the fields of a struct of type ``t``: one tuple
        assignment, so every value is read before any field is stored, as C reads the
        right side first. The kernel language stores a float16 array element only on its
        own (not by tuple unpacking): those get a statement each, after the values have
        been read into temporaries where a value reads the array stored into."""
        fields = ct.scalar_fields(t) or []
        elements = [x for x in targets if "[" in x]
        if len(targets) == 1 or not elements or all(d != "float16" for _, d in fields):
            self.out.line(f"{', '.join(targets)} = {', '.join(values)}", line)
            return
        names = {x.split("[", 1)[0] for x in targets}
        if any(re.search(rf"\b{re.escape(n)}\b", v) for v in values for n in names):
            tmps = [self.temp("h") for _ in values]
            self.out.line(f"{', '.join(tmps)} = {', '.join(values)}", line)
            values = tmps
        for x, v in zip(targets, values, strict=True):
            self.out.line(f"{x} = {v}", line)

    def side_effect(self, c: Cursor) -> tuple[str, int]:
        if c.kind == K.CALL_EXPR and c.spelling == "operator=":  # a struct assignment
            kids = children(c)
            if has_side_effects(kids[0]):
                self.fail(c, "an assignment whose left side has side effects, used as a "
                          "value", "separate statements")
            self.assign(c, "=", kids[0], kids[-1], c.location.line)
            return "None", _PREC["atom"]
        return super().side_effect(c)

    # ---- calls
    def x_call_expr(self, c: Cursor) -> str | tuple[str, int]:
        name = c.spelling
        args = [a for a in children(c)[1:] if a.location.file is not None]  # no defaults
        if name == "operator=":
            self.fail(c, "a struct assignment used as a number", "a separate statement")
        if textures.is_fetch(c):  # tex2D<float>(obj, x, y)
            return textures.call(self, c, args)
        if name == "operator()" and _lambda_call(_object_type(c)) is not None:
            return self.lambda_call(c)
        group = self.group_call(c)
        if group is not None:
            return group
        half = self.half_call(c)
        if half is not None:  # <hip/hip_fp16.h>: a number, or a __half2 as a tuple
            if isinstance(half, str):
                return half, _PREC["atom"] if _grouped(half) == half else _PREC["if"]
            return f"({', '.join(half)})"
        if ct.is_record(c.type) and name.startswith("make_"):
            self.fail(c, f"`{name}(...)` used as a number", "store it in a variable first")
        if mfma.is_matrix_call(c):  # a number: the 4x4x4 f64 MFMA's one accumulator
            return mfma.value(self, c)
        if name in bi.ATOMICS:
            base, index = self.pointer(args[0])
            rest = ", ".join(self.expr(a) for a in args[1:])
            return f"hip.atomic.{bi.ATOMICS[name]}({base}, {index or 0}, {rest})"
        if name in bi.UNMODELED:
            why, instead = bi.UNMODELED[name]
            self.fail(c, f"`{name}()`: {why}; it", instead)
        if name in bi.SHFL_SYNC:
            return f"{bi.SHFL_SYNC[name]}({', '.join(self.expr(a) for a in args[1:])})"
        if name in bi.VOTE_SYNC:
            return self.vote_sync(name, *args)
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
        if name in ("__mul24", "__umul24"):  # low 32 bits of the low 24 bits' product
            a, b = (self.mul24_operand(x, signed=name == "__mul24") for x in args)
            low = f"np.uint32(({a} * {b}) & np.uint64(0xFFFFFFFF))"
            return f"np.int32({low})" if name == "__mul24" else low
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
            return self.device_call(c, callee, args)
        self.fail(c, f"calling `{name}` in device code",
                  "__device__ functions of this cell, HIP's device built-ins and math")

    def device_call(self, c: Cursor, callee: str, args: list[Cursor]) -> str:
        """A call of ``callee``, a __device__ function of this cell: each argument as its
        parameter is passed (a pointer as base and offset, a struct as its fields, ...),
        then the cell's __device__ variables."""
        texts = []
        for a, p in zip(args, c.referenced.get_arguments(), strict=False):
            pt = ct.strip_reference(p.type)
            if textures.is_texture(pt):
                texts += textures.argument(self, a)
            elif ct.is_pointer(pt):
                base, off = self.pointer(a)
                texts += [base, off or "0"]
            elif _group_type(pt) is not None:
                texts.append(self.group(a).size_text())
            elif _lambda_call(pt) is not None:
                continue
            elif vectors.is_vector(pt):
                self.fail(a, f"a vector parameter (`{pt.spelling}`) of `{c.spelling}`",
                          _VECTOR_PARAM)
            elif ct.dtype_name(pt) is None and ct.scalar_fields(pt):
                texts += self.struct_values(a, pt)
            else:
                texts.append(self.convert(a, pt)[0])
        texts += [f"__g_{v}" for v in self.device_vars]
        return f"{callee}({', '.join(texts)})"

    def vote_sync(self, name: str, mask: Cursor, pred: Cursor) -> str:
        """``__ballot_sync`` / ``__any_sync`` / ``__all_sync`` as HIP defines them on
        ``__ballot`` (builtins.VOTE_SYNC); a mask that is not a name or a number is kept in
        a variable first, as __all_sync reads it twice."""
        text = self.expr(mask)
        if not _ATOM.fullmatch(text):  # all_sync reads it twice
            tmp = self.temp("m")
            self.out.line(f"{tmp} = {text}", mask.location.line)
            text = tmp
        m = (f"(np.uint64({text}) & np.uint64(0xFFFFFFFF if hip.warpsize == 32 "
             f"else 0xFFFFFFFFFFFFFFFF))")
        b = f"(hip.ballot({self.expr(pred)}) & {m})"
        return bi.VOTE_SYNC[name].format(b=b, m=m)

    def half_call(self, c: Cursor, update: bool = False) -> str | list[str] | None:
        """A call of <hip/hip_fp16.h> (a function, a ``__half2`` operator or constructor):
        the text of its value, or of its fields for a ``__half2`` or ``float2`` result
        (``bi.HALF``); None for a call of anything else. ``update``: a compound
        assignment ``v += w``, whose new value is returned for the caller to store."""
        fn = c.referenced
        where = fn.location.file if fn is not None else None
        if where is None or not where.name.replace("\\", "/").endswith(_FP16_HEADER):
            return None
        name = c.spelling
        args = [a for a in children(c) if a.location.file is not None and a.kind not in
                _NOT_VALUES and not (strip(a).kind == K.DECL_REF_EXPR and
                                     strip(a).referenced == fn)]  # not the callee
        key = f"{name}{len(args)}" if name.startswith("operator") else name
        form = bi.HALF.get(key)
        if form is None:
            self.fail(c, f"`{name}` of <hip/hip_fp16.h> in device code",
                      "its conversions (__float2half, __half2float, __floats2half2_rn, "
                      "__low2float, ...), arithmetic (__hadd, __hfma, __hadd2, __hfma2, "
                      "operators), comparisons (__hlt, __heq2, __hbeq2, ...) and math "
                      "(hsqrt, h2exp, ...)")
        if key.endswith("=2") and key[-3] in "+-*/" and not update:
            self.fail(c, f"`{name}` on a __half2 used as a value", "a separate statement")
        forms = [form] if isinstance(form, str) else list(form)
        values = {}
        for letter, a, p in zip("abc", args, fn.get_arguments(), strict=False):
            t = ct.strip_reference(p.type)
            if ct.scalar_fields(t):  # a __half2 or float2: its fields
                for field, text in zip("xy", self.struct_values(a, t), strict=True):
                    values[letter + field] = _grouped(text)
            else:
                text, prec = self.convert(a, t)
                values[letter] = text if prec >= _PREC["atom"] else f"({text})"
        for slot, text in values.items():  # an argument the result reads twice: once
            if sum(f.count("{" + slot + "}") for f in forms) > 1 and not _ATOM.fullmatch(text):
                calls = re.findall(r"([\w.]+)\(", text)
                pure = not any(f in self.device_fns or f.startswith("hip.") for f in calls)
                if self.conditional and not pure:
                    self.fail(c, f"`{name}` of a call, where C evaluates it only sometimes",
                              "the call's value in a variable first")
                if not self.conditional:
                    tmp = self.temp("h")
                    self.out.line(f"{tmp} = {text}", c.location.line)
                    values[slot] = tmp
        texts = [f.format(**values) for f in forms]
        return texts[0] if isinstance(form, str) else [_grouped(t) for t in texts]

    def mul24_operand(self, c: Cursor, signed: bool) -> str:
        """The low 24 bits of ``c`` as a uint64 (for __mul24, sign-extended from bit 23,
        modulo 2**64, as ROCm's __ockl_mul24_i32 does): their product's low 32 bits are
        the result, signed or not."""
        bits = f"(np.uint64(np.uint32({self.expr(c)})) & np.uint64(0xFFFFFF))"
        if not signed:
            return bits
        return f"(({bits} ^ np.uint64(0x800000)) - np.uint64(0x800000))"

    def lambda_call(self, c: Cursor) -> tuple[str, int]:
        """``op(a, b)`` of a lambda: its body, ``return expr;``, written in place with
        the parameters bound to the arguments (captured variables are the caller's)."""
        call = _lambda_call(_object_type(c))
        body = next((k for k in children(call) if k.kind == K.COMPOUND_STMT), None)
        stmts = children(body) if body is not None else []
        if len(stmts) != 1 or stmts[0].kind != K.RETURN_STMT or not children(stmts[0]):
            self.fail(c, "calling a lambda whose body is more than `return expr;`",
                      "a __device__ function, or a lambda { return a < b ? a : b; }")
        params = [k for k in children(call) if k.kind == K.PARM_DECL]
        args = children(c)[2:]
        uses = {}
        for n in stmts[0].walk_preorder():
            if n.kind == K.DECL_REF_EXPR and n.referenced in params:
                uses[n.referenced] = uses.get(n.referenced, 0) + 1
        for p, a in zip(params, args, strict=True):
            if ct.is_pointer(p.type) or ct.dtype_name(p.type) is None:
                self.fail(a, "a lambda parameter that is not a number",
                          "numbers as lambda parameters")
            text = self.convert(a, p.type)[0]
            calls = re.findall(r"([\w.]+)\(", text)
            pure = not any(f in self.device_fns or f.startswith("hip.") for f in calls)
            if uses.get(p, 0) > 1 and not _ATOM.fullmatch(text) and not (
                    self.conditional and pure):
                # (evaluated only sometimes, an argument with no call is written twice)
                tmp = self.temp("a")
                self.out.line(f"{tmp} = {text}", c.location.line)
                text = tmp
            self.bound[p] = text if _ATOM.fullmatch(text) else f"({text})"
        try:
            return self.convert(children(stmts[0])[0], call.result_type)
        finally:
            for p in params:
                self.bound.pop(p, None)

    # ---- cooperative groups
    def group(self, c: Cursor) -> Group:
        """The group a cooperative-groups expression denotes."""
        s = _uncopied(c)  # copies, conversion to thread_group
        if s.kind == K.DECL_REF_EXPR and s.spelling in self.groups:
            return self.groups[s.spelling]
        if s.kind == K.CALL_EXPR and s.spelling == "this_thread_block":
            return Group("block", "")
        if s.kind == K.CALL_EXPR and s.spelling == "this_grid":
            return Group("grid", _GRID_THREADS)
        if s.kind == K.CALL_EXPR and s.spelling == "tiled_partition":
            kind = _group_type(s.type)
            args = [a for a in children(s)[1:] if a.location.file is not None]
            parent = self.group(args[0]) if args else None
            if parent is None or parent.kind not in ("block", "tile", "group"):
                self.fail(s, "this tiled_partition", "tiled_partition(this_thread_block(), "
                          "16) or tiled_partition<16>(block)")
            if kind is not None and kind[0] == "tile":
                return Group("tile", kind[1])
            if len(args) == 2:
                return Group("group", self.wrap(args[1], _PREC["atom"]))
        self.fail(c, "this cooperative group", "a variable holding this_thread_block() or "
                  "tiled_partition(...)")

    def group_decl(self, c: Cursor, name: str, init: Cursor | None, kind, line: int) -> None:
        if kind[0] in ("coalesced", "other"):
            self.fail(c, f"a `{c.type.spelling}` variable", "grid_group, thread_block, "
                      "thread_block_tile<N> or thread_group")
        if init is None:
            self.fail(c, "a cooperative group without a value", "thread_block b = "
                      "this_thread_block();")
        g = self.group(init)
        if kind[0] == "group" or g.kind == "group":  # its size is a run-time value
            self.out.line(f"{name}_size = {g.size_text()}", line)
            g = Group("group", f"{name}_size") if kind[0] == "group" else g
        self.groups[c.spelling] = g

    def group_call(self, c: Cursor) -> str | None:
        """``g.thread_rank()``, ``g.size()``, ``g.sync()``, ``tile.shfl_down(v, d)``,
        ``cooperative_groups::sync(g)``; None if ``c`` is no such call."""
        name = c.spelling
        kids = children(c)
        obj = None
        if kids and strip(kids[0]).kind == K.MEMBER_REF_EXPR and \
                _group_type(_object_type(c)) is not None:
            member = strip(kids[0])
            obj = children(member)[0] if children(member) else None
            args = kids[1:]
        elif name in ("sync", "thread_rank", "group_size", "num_threads") and \
                c.referenced is not None and c.referenced.location.is_in_system_header and \
                len(kids) > 1 and _group_type(kids[1].type) is not None:
            obj, args = kids[1], kids[2:]
        if obj is None:
            return None
        g = self.group(obj)
        flat = _FLAT_TID
        if g.kind == "grid":
            return self.grid_call(c, name)
        if name == "thread_rank":
            return flat if g.kind == "block" else f"{flat} % {g.size_text()}"
        if name in ("size", "num_threads", "group_size"):
            return g.size_text()
        if name == "meta_group_rank":
            return "0" if g.kind == "block" else f"{flat} // {g.size_text()}"
        if name == "meta_group_size":
            return "1" if g.kind == "block" else f"{_BLOCK_THREADS} // {g.size_text()}"
        if name == "is_valid":
            return "True"
        if name == "sync":
            line = c.location.line
            if g.kind == "block" or g.kind == "tile" and int(g.size) > 32:
                return "hip.syncthreads()"
            if g.kind == "tile":
                return "hip.syncwarp()"
            self.out.line(f"if {g.size} > 32:", line)  # a thread_group: known at run time
            with self.out.indent():
                self.out.line("hip.syncthreads()", line)
            self.out.line("else:", line)
            with self.out.indent():
                self.out.line("hip.syncwarp()", line)
            return "None"
        if name in ("shfl", "shfl_down", "shfl_up", "shfl_xor"):
            if g.kind == "block":
                self.fail(c, f"{name} on a thread_block", "a tile: "
                          "tiled_partition<32>(block)." + name + "(v, d)")
            values = ", ".join(self.expr(a) for a in args)
            return f"hip.{name}({values}, {g.size_text()})"
        if name in ("group_index", "thread_index", "group_dim", "dim_threads"):
            self.fail(c, f"{name}() used whole", f"one coordinate: g.{name}().x")
        self.fail(c, f"the cooperative groups call `{name}`", "thread_rank(), size(), "
                  "sync(), meta_group_rank(), meta_group_size() and shfl/shfl_up/shfl_down/"
                  "shfl_xor on tiles")

    def grid_call(self, c: Cursor, name: str) -> str:
        """A call on ``this_grid()``: ranks over the whole launch; ``sync()`` is the grid
        barrier of gpusim's kernel language (a cooperative launch: every block waits)."""
        if name == "thread_rank":
            return f"{_BLOCK_RANK} * {_BLOCK_THREADS} + {_FLAT_TID}"
        if name in ("size", "num_threads", "group_size"):
            return _GRID_THREADS
        if name == "is_valid":
            return "True"
        if name == "sync":
            return "gpusim_this_grid().sync()"
        self.fail(c, f"the grid group call `{name}`", "thread_rank(), size(), sync(), "
                  "is_valid() and group_dim().x")

    def group_dim3(self, call: Cursor, axis: str) -> str:
        """``block.group_index().x`` and friends: the position built-ins."""
        which = {"group_index": "blockIdx", "thread_index": "threadIdx",
                 "group_dim": "blockDim", "dim_threads": "blockDim"}.get(call.spelling)
        if which is None:
            self.fail(call, f"`.{axis}` of {call.spelling}()",
                      "group_index(), thread_index() or group_dim()")
        return f"hip.{which}.{axis}"

    # ---- printf
    def printf(self, c: Cursor, args: list[Cursor]) -> str:
        """Device printf -> ``hip.printf``: C's format, applied on the host exactly as C
        does (``%5.2f``, ``%u``, ``%x``, ...); arguments get C's promotions."""
        fmt = strip(args[0])
        if fmt.kind != K.STRING_LITERAL:
            self.fail(c, "printf with a format that is not a string literal",
                      'printf("i = %d\\n", i)')
        values = []
        for a in args[1:]:
            if ct.is_pointer(a.type) and strip(a).kind != K.STRING_LITERAL:
                if ct.dtype_name(ct.pointee(a.type)) in ("int8", "uint8"):
                    self.fail(a, "printing a string that is not a literal",
                              'a literal: printf("%s\\n", "text")')
                base, off = self.pointer(a)
                values.append(off or "0")  # %p: the offset into its array
            elif ct.dtype_name(a.type) == "float32":
                values.append(f"np.float64({self.expr(a)})")
            else:
                values.append(self.expr(a))
        text = repr(_c_string(fmt.spelling))
        return f"hip.printf({', '.join([text, *values])})"

    def x_string_literal(self, c: Cursor) -> str:
        return repr(_c_string(c.spelling))


def _c_string(spelling: str) -> str:
    """The text of a C string literal (adjacent literals joined, C's escapes)."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', spelling)
    return "".join(ast.literal_eval('"' + p + '"') for p in parts)


def _moved_pointers(body: Cursor) -> set[str]:
    """Names of the parameters a function body assigns or steps (``p = p + n``,
    ``p += n``, ``p++``): the pointers among them need an offset variable."""
    moved = set()
    for node in body.walk_preorder():
        if node.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and \
                operator(node).endswith("=") and operator(node) not in ("==", "!=", "<=", ">="):
            target = strip(children(node)[0])
        elif node.kind == K.UNARY_OPERATOR and operator(node) in _STEPS:
            target = strip(children(node)[0])
        else:
            continue
        ref = target.referenced if target.kind == K.DECL_REF_EXPR else None
        if ref is not None and ref.kind == K.PARM_DECL:
            moved.add(ref.spelling)
    return moved


def _assert_fail(s: Cursor) -> Cursor | None:
    """The ``__assert_fail(...)`` call of glibc's ``assert(e)``, which expands to
    ``static_cast<bool>(e) ? void(0) : __assert_fail("e", __FILE__, __LINE__, ...)``."""
    if s.kind != K.CONDITIONAL_OPERATOR:
        return None
    call = strip(children(s)[-1])
    return call if call.kind == K.CALL_EXPR and call.spelling == "__assert_fail" else None


def _stateless(t) -> bool:
    """A struct or class without fields or bases: an object of it holds nothing."""
    decl = ct.canon(t).get_declaration()
    return ct.is_record(t) and not any(
        k.kind in (K.FIELD_DECL, K.CXX_BASE_SPECIFIER) for k in decl.get_children())


def _grouped(text: str) -> str:
    """``text`` in parentheses unless it is one name, element, number, call or
    parenthesised expression already."""
    if _ATOM.fullmatch(text):
        return text
    m = re.match(r"[\w.]*\(", text)
    if m and text.endswith(")"):
        depth = 0
        for k, ch in enumerate(text[m.end() - 1:], m.end() - 1):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                if k == len(text) - 1:
                    return text  # the first parenthesis closes at the end
                break
    return f"({text})"


def _is_reference(t) -> bool:
    return t.get_canonical().kind in (TypeKind.LVALUEREFERENCE, TypeKind.RVALUEREFERENCE)


def _is_constructor(c: Cursor) -> bool:
    return c.kind == K.CALL_EXPR and c.referenced is not None and \
        c.referenced.kind == K.CONSTRUCTOR


def _uncopied(c: Cursor) -> Cursor:
    """``c`` without copy or move constructions around it."""
    s = strip(c)
    while _is_constructor(s) and len(children(s)) == 1:
        s = strip(children(s)[0])
    return s


def _object_type(c: Cursor):
    """The type of the object a member call or ``operator()`` call is made on."""
    kids = children(c)
    if not kids:
        return c.type
    first = strip(kids[0])
    if first.kind == K.MEMBER_REF_EXPR and children(first):
        return children(first)[0].type
    return kids[0].type


def function_name(fn: Cursor) -> str:
    """The Python name of a function or of one instantiation of a template:
    ``saxpy``, ``scale<float>`` -> ``scale__float``."""
    n = fn.get_num_template_arguments()
    if n <= 0:
        return py_name(fn.spelling)
    args = [fn.get_template_argument_type(i).spelling for i in range(n)]
    args = [a if a else template_value(fn, i) for i, a in enumerate(args)]
    return fn.spelling + "__" + "_".join(template_arg_name(a) for a in args)


_LAMBDA = re.compile(r"\(lambda at [^()]*:(\d+):(\d+)\)")


def template_arg_name(arg: str) -> str:
    """A template argument in a Python name: ``unsigned int`` -> ``unsigned_int``; a
    lambda's type ``(lambda at /path/f.hip:92:22)`` -> ``lambda_92_22`` (its place,
    without the folder, which would make names too long for file names).

    >>> template_arg_name("(lambda at /home/me/v1.hip:92:22)"), template_arg_name("float")
    ('lambda_92_22', 'float')
    """
    arg = _LAMBDA.sub(lambda m: f"lambda_{m[1]}_{m[2]}", arg)
    return "".join(ch if ch.isalnum() else "_" for ch in arg)


def python_name(cpp_name: str) -> str:
    """The Python name of a kernel named as C++ writes it: ``scale<float>`` ->
    ``scale__float`` (what ``function_name`` gives its instance).

    >>> python_name("k<unsigned int, (lambda at /a/b.hip:3:9)>")
    'k__unsigned_int_lambda_3_9'
    """
    if "<" not in cpp_name:
        return py_name(cpp_name)
    base, args = cpp_name.split("<", 1)
    args = _LAMBDA.sub(lambda m: f"lambda_{m[1]}_{m[2]}", args.rstrip().removesuffix(">"))
    return base + "__" + "_".join(template_arg_name(a.strip()) for a in args.split(","))


__all__ = ["DeviceTranslator", "function_name", "python_name", "template_arg_name"]
