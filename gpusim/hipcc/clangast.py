"""Parse HIP C++ with libclang: the translation unit, clang's diagnostics, and the few
facts about a node that libclang's Python bindings do not expose (operator spellings,
literal values).

The source is parsed as HIP (``-x hip``) for the host side only, against gpusim's own
HIP headers (``include/``, in ROCm's layout) and the standard library of the C++
compiler that builds the host half (zig's clang 18 and libc++, ``toolchain``): the parse
needs no ROCm and no GPU toolchain.

>>> tu = parse("int f(int a) { return a * 2; }")
>>> fn = next(c for c in tu.cursor.get_children() if c.spelling == "f")
>>> ret = list(list(fn.get_children())[1].get_children())[0]
>>> binop = list(ret.get_children())[0]
>>> operator(binop), value_of(list(binop.get_children())[1])
('*', 2)
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

from clang import cindex

from gpusim.errors import KernelCompileError, hipError_t

FILENAME = "hip_cell.hip"
INCLUDE_DIR = Path(__file__).with_name("include")
ARGS = ["-x", "hip", "-nogpuinc", "-nogpulib", "--cuda-host-only",
        "-nostdinc", "-nostdinc++", "-Wno-unused-value",
        "-include", "hip/hip_runtime.h"]  # as hipcc does: HIP names need no #include


class ClangError(KernelCompileError):
    """clang rejected the source; the message is clang's own diagnostics."""


def enums_header() -> str:
    """hipError_t with gpusim's (HIP's real) numeric values, so C code and the emulator
    agree on every status code."""
    members = ", ".join(f"{m.name} = {int(m)}" for m in hipError_t)
    return f"#pragma once\nenum hipError_t {{ {members} }};\n"


def parse(source: str, filename: str = FILENAME, include_dirs: tuple[str, ...] = (),
          defines: tuple[str, ...] = ()) -> cindex.TranslationUnit:
    """Parse ``source`` (the text of ``filename``) as HIP against gpusim's HIP headers and
    the C++ compiler's standard library; raise ``ClangError`` with clang's messages if it
    has errors. ``include_dirs`` are ``-I`` folders (the file's own folder comes first); ``defines``
    may also hold ``-std=c++20`` (C++17 by default, as hipcc)."""
    from gpusim.hipcc.toolchain import include_args

    index = cindex.Index.create()
    unsaved = [(filename, source.encode("utf-8", "surrogateescape")),
               (str(INCLUDE_DIR / "__gpusim_enums.h"), enums_header())]
    own = [f"-I{Path(filename).parent}"] if Path(filename).is_absolute() else []
    std = [] if any(d.startswith("-std=") for d in defines) else ["-std=c++17"]
    args = [*ARGS, *std, "-isystem", str(INCLUDE_DIR), *include_args(), *own,
            *(f"-I{d}" for d in include_dirs), *defines]
    tu = index.parse(filename, args=args, unsaved_files=unsaved,
                     options=cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    errors = [d for d in tu.diagnostics if d.severity >= cindex.Diagnostic.Error]
    if errors:
        text = "\n".join(_format(d, source, filename) for d in tu.diagnostics
                         if d.severity >= cindex.Diagnostic.Warning)
        err = ClangError(text)
        # An error inside a header (a static_assert in a template) is located at the
        # user's line by its notes ("in instantiation ... requested here").
        first = next((loc for loc in _locations(errors[0])
                      if loc.file is not None and loc.file.name == filename),
                     errors[0].location)
        err.lineno, err.col = first.line, first.column
        raise err
    return tu


def _locations(diag: cindex.Diagnostic) -> list:
    """Where a diagnostic and its notes point, in clang's order."""
    return [diag.location, *(note.location for note in diag.children)]


def _format(diag: cindex.Diagnostic, source: str, filename: str) -> str:
    """A diagnostic as clang prints it: ``file:line:col: error: message``, the line, a
    caret, then its notes the same way."""
    text = diag.format(cindex.Diagnostic.DisplaySourceLocation
                       | cindex.Diagnostic.DisplayColumn | cindex.Diagnostic.DisplayOption)
    # gpusim's own headers as a program includes them (hip/hip_runtime.h), not where
    # this checkout happens to be
    text = text.replace(f"{INCLUDE_DIR}{os.sep}", "")
    loc = diag.location
    if loc.file is not None and loc.file.name == filename:
        lines = source.splitlines()
        if 0 < loc.line <= len(lines):
            line = lines[loc.line - 1]
            text += "\n" + line + "\n" + " " * (loc.column - 1) + "^"
    return "\n".join([text, *(_format(note, source, filename) for note in diag.children)])


def user_file(cursor: cindex.Cursor) -> bool:
    """Whether ``cursor`` was written by the user (the program's files and its own
    headers), not in gpusim's HIP headers or the standard library."""
    loc = cursor.location
    return not loc.is_in_system_header and loc.file is not None  # the cheap test first


in_cell = user_file


def user_decls(tu: cindex.TranslationUnit) -> list[cindex.Cursor]:
    """The translation unit's top-level declarations written by the user, found once:
    the standard library's thousands are skipped by every later pass."""
    found = tu.__dict__.get("_gpusim_user_decls")
    if found is None:
        found = [c for c in tu.cursor.get_children() if user_file(c)]
        tu.__dict__["_gpusim_user_decls"] = found
    return found


def _spelling(cxstring: cindex._CXString) -> str:
    return cindex._CXString.from_result(cxstring)


_lib = cindex.conf.lib
for _name, _res in (("clang_getCursorBinaryOperatorKind", ctypes.c_int),
                    ("clang_getCursorUnaryOperatorKind", ctypes.c_int),
                    ("clang_getBinaryOperatorKindSpelling", cindex._CXString),
                    ("clang_getUnaryOperatorKindSpelling", cindex._CXString),
                    ("clang_Cursor_Evaluate", ctypes.c_void_p),
                    ("clang_EvalResult_getKind", ctypes.c_int),
                    ("clang_EvalResult_getAsLongLong", ctypes.c_longlong),
                    ("clang_EvalResult_isUnsignedInt", ctypes.c_uint),
                    ("clang_EvalResult_getAsUnsigned", ctypes.c_ulonglong),
                    ("clang_EvalResult_getAsDouble", ctypes.c_double),
                    ("clang_EvalResult_dispose", None)):
    getattr(_lib, _name).restype = _res
_lib.clang_getCursorBinaryOperatorKind.argtypes = [cindex.Cursor]
_lib.clang_getCursorUnaryOperatorKind.argtypes = [cindex.Cursor]
_lib.clang_getBinaryOperatorKindSpelling.argtypes = [ctypes.c_int]
_lib.clang_getUnaryOperatorKindSpelling.argtypes = [ctypes.c_int]
_lib.clang_Cursor_Evaluate.argtypes = [cindex.Cursor]
for _name in ("clang_EvalResult_getKind", "clang_EvalResult_getAsLongLong",
              "clang_EvalResult_isUnsignedInt", "clang_EvalResult_getAsUnsigned",
              "clang_EvalResult_getAsDouble", "clang_EvalResult_dispose"):
    getattr(_lib, _name).argtypes = [ctypes.c_void_p]

# CXUnaryOperatorKind: the increments differ only by their numbers, not their spelling.
_UNARY_KINDS = {1: "post++", 2: "post--", 3: "++", 4: "--"}


def operator(cursor: cindex.Cursor) -> str:
    """The operator of a binary/compound-assignment/unary operator node: ``"+"``, ``"+="``,
    ``"&&"``; unary ``"-"``, ``"!"``, ``"&"`` (address of), ``"*"`` (dereference), ``"++"``
    (prefix) or ``"post++"`` (postfix)."""
    if cursor.kind == cindex.CursorKind.UNARY_OPERATOR:
        kind = _lib.clang_getCursorUnaryOperatorKind(cursor)
        return _UNARY_KINDS.get(kind) or _spelling(_lib.clang_getUnaryOperatorKindSpelling(kind))
    kind = _lib.clang_getCursorBinaryOperatorKind(cursor)
    return _spelling(_lib.clang_getBinaryOperatorKindSpelling(kind))


def value_of(cursor: cindex.Cursor) -> int | float | None:
    """The value clang computes for a constant expression (a literal, ``sizeof(float)``,
    a ``#define`` constant), or None if it is not a constant."""
    result = _lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        kind = _lib.clang_EvalResult_getKind(result)
        if kind == 1:  # CXEval_Int
            if _lib.clang_EvalResult_isUnsignedInt(result):
                return int(_lib.clang_EvalResult_getAsUnsigned(result))
            return int(_lib.clang_EvalResult_getAsLongLong(result))
        if kind == 2:  # CXEval_Float
            return float(_lib.clang_EvalResult_getAsDouble(result))
        return None
    finally:
        _lib.clang_EvalResult_dispose(result)


def children(cursor: cindex.Cursor) -> list[cindex.Cursor]:
    """The child nodes, as a list."""
    return list(cursor.get_children())


def strip(cursor: cindex.Cursor) -> cindex.Cursor:
    """Look through implicit conversions and parentheses (UNEXPOSED_EXPR, PAREN_EXPR)."""
    while cursor.kind in (cindex.CursorKind.UNEXPOSED_EXPR, cindex.CursorKind.PAREN_EXPR):
        kids = children(cursor)
        if len(kids) != 1:
            break
        cursor = kids[0]
    return cursor


def template_value(fn: cindex.Cursor, i: int) -> str:
    """The ``i``-th template argument of ``fn``, a value (not a type), as C++ writes it
    and ``__PRETTY_FUNCTION__`` becomes in program.kernel_name: ``16``, ``-3``, a bool
    as ``1``/``0``. libclang sign-extends the value, so a bool true (one bit) reads -1;
    its zero-extension, 1, tells it from an int -1 (zero-extended: 2**32 - 1 or more)."""
    value = fn.get_template_argument_value(i)
    return "1" if value == -1 and fn.get_template_argument_unsigned_value(i) == 1 \
        else str(value)
