"""Split a HIP program: the host half, as C++ for the real compiler.

What hipcc's host pass does, written as edits of the user's own text, so that the host
compiler's diagnostics keep the user's lines:

- a ``__global__`` function keeps its signature; its body becomes a stub that hands the
  launch to gpusim (``__gpusim_launch``), as the stub HIP-Clang emits does;
- a ``__device__``-only function is blanked out (spaces, newlines kept): it exists only on
  the GPU, where gpusim's translation of it runs;
- ``k<<<grid, block, shared, stream>>>(args)`` becomes
  ``(__gpusim_configure(grid, block, shared, stream), k(args))``;
- each file starts with ``#line 1 "<its name>"``, so ``__FILE__``, ``assert`` and the
  compiler's messages name the user's file;
- ``__device__``/``__constant__`` variables stay as the host's shadow copies, registered
  by address so ``hipMemcpyToSymbol(HIP_SYMBOL(x), ...)`` finds the device copy.

>>> from gpusim.hipcc.clangast import parse
>>> src = "__global__ void k(int* a) { a[0] = 1; }\\nint main() { k<<<1, 1>>>(0); }"
>>> text = host_sources(parse(src), {"hip_cell.hip": src})["hip_cell.hip"]
>>> "(__gpusim_configure(1, 1), k(0))" in text, text.startswith('#line 1 "hip_cell.hip"')
(True, True)
"""

from __future__ import annotations

from clang.cindex import Cursor, CursorKind, TranslationUnit

from gpusim.hipcc.clangast import user_decls, user_file

K = CursorKind
_FUNCTIONS = (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD)
_SCOPES = (K.NAMESPACE, K.LINKAGE_SPEC, K.STRUCT_DECL, K.CLASS_DECL, K.UNEXPOSED_DECL)


def _attrs(c: Cursor) -> set:
    return {k.kind for k in c.get_children()}


def _body(c: Cursor) -> Cursor | None:
    return next((k for k in c.get_children() if k.kind == K.COMPOUND_STMT), None)


class _Edits:
    """Text replacements per file, applied back to front."""

    def __init__(self) -> None:
        self.by_file: dict[str, list[tuple[int, int, str]]] = {}

    def add(self, fname: str, start: int, end: int, text: str) -> None:
        self.by_file.setdefault(fname, []).append((start, end, text))

    def blank(self, c: Cursor) -> None:
        self.add(c.extent.start.file.name, c.extent.start.offset, c.extent.end.offset, None)

    def apply(self, fname: str, text: str) -> str:
        data = text.encode("utf-8", "surrogateescape")
        for start, end, new in sorted(self.by_file.get(fname, []), reverse=True):
            old = data[start:end]
            if new is None:  # blank, keeping the line structure
                new_bytes = bytes(b if b in b"\r\n" else 32 for b in old)
            else:
                new_bytes = new.encode("utf-8", "surrogateescape") + b"\n" * old.count(b"\n")
            data = data[:start] + new_bytes + data[end:]
        return data.decode("utf-8", "surrogateescape")


def _stub(fn: Cursor) -> str:
    """The body of a kernel's host stub: its arguments' addresses, then the launch."""
    addrs = [f"(void*)&{p.spelling}" if p.spelling else "nullptr" for p in fn.get_arguments()]
    if fn.kind == K.FUNCTION_TEMPLATE:
        addrs = [f"(void*)&{p.spelling}" if p.spelling else "nullptr"
                 for p in fn.get_children() if p.kind == K.PARM_DECL]
    args = ", ".join([*addrs, "nullptr"])
    return (f"{{ void* __gpusim_args[] = {{{args}}}; "
            f"__gpusim_launch_stub(__PRETTY_FUNCTION__, __gpusim_args); }}")


def _walk(decls: list[Cursor], edits: _Edits, kernels: list[Cursor],
          variables: list[Cursor]) -> None:
    for k in decls:
        if k.kind in _SCOPES:
            _walk([d for d in k.get_children() if user_file(d)], edits, kernels, variables)
        elif k.kind in _FUNCTIONS:
            attrs, body = _attrs(k), _body(k)
            if K.CUDAGLOBAL_ATTR in attrs:
                if body is not None:
                    edits.add(body.extent.start.file.name, body.extent.start.offset,
                              body.extent.end.offset, _stub(k))
                    kernels.append(k)
            elif K.CUDADEVICE_ATTR in attrs and K.CUDAHOST_ATTR not in attrs and body:
                edits.blank(k)
        elif k.kind == K.VAR_DECL and k.semantic_parent.kind in (K.TRANSLATION_UNIT,
                                                                  K.NAMESPACE):
            attrs = _attrs(k)
            if K.CUDASHARED_ATTR in attrs:
                edits.blank(k)
            elif K.CUDACONSTANT_ATTR in attrs or K.CUDADEVICE_ATTR in attrs:
                variables.append(k)


def _launches(tu: TranslationUnit, fname: str, text: str, edits: _Edits) -> None:
    """``callee<<<cfg>>>(args)`` -> ``(__gpusim_configure(cfg), callee(args))``, by tokens
    (also inside the user's macros)."""
    data = text.encode("utf-8", "surrogateescape")
    toks = [t.extent for t in tu.get_tokens(extent=tu.get_extent(fname, (0, len(data))))]
    # spellings from the file's bytes: libclang's own decoding fails on non-UTF-8 comments
    words = [data[e.start.offset:e.end.offset].decode("utf-8", "surrogateescape") for e in toks]
    for i, word in enumerate(words):
        if word != "<<<":
            continue
        start, close = _callee_start(words, i), _match(words, i + 1, ">>>")
        if close + 1 >= len(words) or words[close + 1] != "(":
            continue
        end = _match(words, close + 2, ")")
        if end >= len(words):
            continue
        callee = data[toks[start].start.offset:toks[i].start.offset].decode(
            "utf-8", "surrogateescape")
        config = data[toks[i].end.offset:toks[close].start.offset].decode(
            "utf-8", "surrogateescape")
        edits.add(fname, toks[start].start.offset, toks[close + 1].end.offset,
                  f"(__gpusim_configure({config}), {callee}(")
        edits.add(fname, toks[end].end.offset, toks[end].end.offset, ")")


def _match(words: list[str], j: int, closer: str) -> int:
    """Index of ``closer`` at bracket depth 0 from token ``j`` on."""
    depth = 0
    while j < len(words):
        w = words[j]
        if w == closer and depth == 0:
            return j
        depth += w in ("(", "[", "{") and 1 or 0
        depth -= w in (")", "]", "}") and 1 or 0
        j += 1
    return j


def _callee_start(words: list[str], i: int) -> int:
    """Index of the first token of the kernel name before ``<<<`` (``ns::k<T, 4>``)."""
    j = i - 1
    while j > 0:
        if words[j] == ">":  # template arguments
            depth = 0
            while j > 0:
                depth += (words[j] == ">") - (words[j] == "<")
                if depth == 0:
                    break
                j -= 1
            j -= 1
            continue
        if words[j - 1] == "::":
            j -= 2
            continue
        if words[j - 1] == "template":
            j -= 1
            continue
        return j
    return max(j, 0)


def host_sources(tu: TranslationUnit, sources: dict[str, str], unit: int = 0
                 ) -> dict[str, str]:
    """{user file name: its host C++}; the main file also gets the registrations of its
    kernels and device variables (``__gpusim_registrations_<unit>``)."""
    edits, kernels, variables = _Edits(), [], []
    _walk(user_decls(tu), edits, kernels, variables)
    for fname, text in sources.items():
        _launches(tu, fname, text, edits)
    out = {fname: f'#line 1 "{fname}"\n' + edits.apply(fname, text)
           for fname, text in sources.items()}
    main_file = tu.spelling
    regs = [f'__gpusim_register_var(&{_qualified(v)}, "{v.spelling}", sizeof({_qualified(v)}));'
            for v in variables]
    regs += [f'__gpusim_register_kernel((const void*)&{_qualified(k)}, "{k.spelling}");'
             for k in kernels if k.kind == K.FUNCTION_DECL]
    lines = [f'extern "C" void __gpusim_registrations_{unit}() {{', *regs, "}"]
    out[main_file] += "\n" + "\n".join(lines) + "\n"
    return out


def _qualified(c: Cursor) -> str:
    """``ns::name`` of a declaration at namespace scope."""
    parts, p = [c.spelling], c.semantic_parent
    while p is not None and p.kind == K.NAMESPACE:
        if p.spelling:  # an anonymous namespace's names are found without it
            parts.insert(0, p.spelling)
        p = p.semantic_parent
    return "::" + "::".join(parts)
