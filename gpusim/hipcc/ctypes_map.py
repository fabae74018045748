"""C types -> NumPy dtypes and the kernel language's names for them.

>>> from clang import cindex
>>> from gpusim.hipcc.clangast import parse
>>> tu = parse("unsigned long n; float *p;")
>>> [dtype_name(c.type) for c in tu.cursor.get_children() if c.spelling in ("n", "p")]
['uint64', None]
"""

from __future__ import annotations

from clang.cindex import Type, TypeKind

# clang's _Float16 (CXType_Float16 = 32 in Index.h), HIP's __half: the libclang 18 Python
# bindings do not name this kind, and reading a type of it would raise without this.
if not hasattr(TypeKind, "FLOAT16"):
    TypeKind.FLOAT16 = TypeKind(32)

_SCALARS = {
    TypeKind.BOOL: "bool_", TypeKind.CHAR_S: "int8", TypeKind.SCHAR: "int8",
    TypeKind.CHAR_U: "uint8", TypeKind.UCHAR: "uint8", TypeKind.SHORT: "int16",
    TypeKind.USHORT: "uint16", TypeKind.INT: "int32", TypeKind.UINT: "uint32",
    TypeKind.LONG: "int64", TypeKind.ULONG: "uint64", TypeKind.LONGLONG: "int64",
    TypeKind.ULONGLONG: "uint64", TypeKind.FLOAT: "float32", TypeKind.DOUBLE: "float64",
    TypeKind.HALF: "float16", TypeKind.FLOAT16: "float16",
}
_POINTERS = (TypeKind.POINTER, TypeKind.INCOMPLETEARRAY, TypeKind.CONSTANTARRAY)


def canon(t: Type) -> Type:
    """The type with typedefs, ``const`` sugar and ``enum`` looked through."""
    t = t.get_canonical()
    if t.kind == TypeKind.ENUM:
        return t.get_declaration().enum_type.get_canonical()
    return t


def dtype_name(t: Type) -> str | None:
    """``'float32'``, ``'int32'``, ... for a scalar C type; None for anything else."""
    return _SCALARS.get(canon(t).kind)


def is_float(t: Type) -> bool:
    return (dtype_name(t) or "").startswith("float")


def is_int(t: Type) -> bool:
    name = dtype_name(t)
    return name is not None and not name.startswith("float")


def is_unsigned(t: Type) -> bool:
    return (dtype_name(t) or "").startswith("uint") or canon(t).kind == TypeKind.BOOL


def is_pointer(t: Type) -> bool:
    """Pointers and arrays (which decay to pointers)."""
    return canon(t).kind in _POINTERS


def pointee(t: Type) -> Type:
    t = canon(t)
    return t.get_pointee() if t.kind == TypeKind.POINTER else t.element_type


def is_record(t: Type) -> bool:
    return canon(t).kind == TypeKind.RECORD


def array_shape(t: Type) -> tuple[tuple[int, ...], Type]:
    """(shape, element type) of a C array type: ``float[4][8]`` -> ((4, 8), float);
    ``float[]`` (extern __shared__) -> ((0,), float)."""
    shape = []
    t = canon(t)
    while t.kind in (TypeKind.CONSTANTARRAY, TypeKind.INCOMPLETEARRAY):
        shape.append(t.get_array_size() if t.kind == TypeKind.CONSTANTARRAY else 0)
        t = canon(t.element_type)
    return tuple(shape), t


def scalar_fields(t: Type) -> list[tuple[str, str]] | None:
    """[(field, dtype)] of a struct whose members are scalars or such structs, nested
    structs flattened in memory order (``struct { float3 pos; int id; }`` ->
    ``pos_x, pos_y, pos_z, id``); None otherwise."""
    if not is_record(t):
        return None
    fields = []
    for f in canon(t).get_fields():
        dtype = dtype_name(f.type)
        if dtype is not None:
            fields.append((f.spelling, dtype))
            continue
        inner = scalar_fields(f.type)
        if not inner:
            return None
        fields += [(f"{f.spelling}_{name}", d) for name, d in inner]
    return fields or None


def field_span(t: Type, name: str) -> tuple[int, int]:
    """(first, count) of member ``name`` of the struct ``t`` among ``scalar_fields(t)``:
    a scalar member is one field, a struct member as many as it has."""
    first = 0
    for f in canon(t).get_fields():
        count = 1 if dtype_name(f.type) is not None else len(scalar_fields(f.type) or ())
        if f.spelling == name:
            return first, count
        first += count
    raise KeyError(name)


def members(t: Type) -> list[tuple[str, Type]]:
    """The direct members of the struct ``t``: (name, type)."""
    return [(f.spelling, f.type) for f in canon(t).get_fields()]


def layout(t: Type) -> tuple[str, int] | None:
    """How values of ``t`` lie in an array of scalars: ``(dtype, count)``. A scalar is
    ``(dtype, 1)``; a struct whose fields all have one scalar type (``float4``,
    ``struct { float x, y, z; }``) is ``(dtype, number of fields)``: element ``i`` of a
    ``float4*`` is ``a[4 * i]`` .. ``a[4 * i + 3]`` of a float32 array, as in memory
    (C puts no padding between fields of one type). None for anything else."""
    dtype = dtype_name(t)
    if dtype is not None:
        return dtype, 1
    fields = scalar_fields(t)
    if not fields or len({d for _, d in fields}) != 1:
        return None
    return fields[0][1], len(fields)


def strip_reference(t: Type) -> Type:
    """``const float4&`` -> ``const float4``; other types unchanged."""
    c = t.get_canonical()
    if c.kind in (TypeKind.LVALUEREFERENCE, TypeKind.RVALUEREFERENCE):
        return c.get_pointee()
    return t


def flat_offsets(t: Type) -> list[int]:
    """The byte offset of each of ``scalar_fields(t)`` in C's layout (clang's)."""
    out = []
    for f in canon(t).get_fields():
        base = canon(t).get_offset(f.spelling) // 8
        if dtype_name(f.type) is not None:
            out.append(base)
        else:
            out += [base + o for o in flat_offsets(f.type)]
    return out
