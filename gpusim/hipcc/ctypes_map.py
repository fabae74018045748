"""C types -> NumPy dtypes and the kernel language's names for them.

>>> from clang import cindex
>>> from gpusim.hipcc.clangast import parse
>>> tu = parse("unsigned long n; float *p;")
>>> [dtype_name(c.type) for c in tu.cursor.get_children() if c.spelling in ("n", "p")]
['uint64', None]
"""

from __future__ import annotations

from clang.cindex import Type, TypeKind

_SCALARS = {
    TypeKind.BOOL: "bool_", TypeKind.CHAR_S: "int8", TypeKind.SCHAR: "int8",
    TypeKind.CHAR_U: "uint8", TypeKind.UCHAR: "uint8", TypeKind.SHORT: "int16",
    TypeKind.USHORT: "uint16", TypeKind.INT: "int32", TypeKind.UINT: "uint32",
    TypeKind.LONG: "int64", TypeKind.ULONG: "uint64", TypeKind.LONGLONG: "int64",
    TypeKind.ULONGLONG: "uint64", TypeKind.FLOAT: "float32", TypeKind.DOUBLE: "float64",
    TypeKind.HALF: "float16",
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
    """[(field, dtype)] of a struct whose members are all scalars; None otherwise."""
    if not is_record(t):
        return None
    fields = [(f.spelling, dtype_name(f.type)) for f in canon(t).get_fields()]
    if not fields or any(d is None for _, d in fields):
        return None
    return fields
