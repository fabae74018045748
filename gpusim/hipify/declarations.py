"""Which names a C/C++ file declares itself: macros, functions, variables, types.

hipify-perl warns about every ``cuda[A-Z]\\w+`` left after translation, also the helpers
a program defines for itself (a ``cudaCheckError()`` macro, a ``cudaParams`` argument).
A name the file declares is the file's own, not a CUDA API that HIPIFY lacks, so the
report leaves it out. Without a compiler, "declares" is read from the tokens:

- ``#define NAME`` and the parameters of a function-like macro ``#define F(NAME)``;
- ``struct``/``class``/``union``/``enum``/``typename``/``using``/``namespace NAME``, and
  the enumerators of an ``enum { NAME, ... }``;
- ``TYPE NAME`` followed by one of ``( ; , = [ ) { :`` (variables, parameters, members,
  functions); through ``*``/``&`` when TYPE is clearly a type (``float *NAME,``: a
  builtin, ``const``, a ``..._t`` name, a type this file declares, or one ``is_type``
  knows), so ``flags & NAME`` stays a use; after a template type (``vector<T> NAME;``);
- ``NAME(...) {`` (a function definition), ``(*NAME)(`` (a function pointer),
  ``} NAME;`` (``typedef struct {...} NAME;``), and the further declarators of a
  declaration statement (``int a = 0, NAME[4];``).

A word that starts an expression (``return``, ``case``, ``throw``, ``new``, ...) before
NAME makes it a use, whatever follows.

>>> from gpusim.hipify.lexer import tokenize
>>> source = "#define cudaCheck(e) e\\nint cudaN = 0;\\nint f() { return cudaUse(1); }"
>>> sorted(declared_names(tokenize(source)))
['cudaCheck', 'cudaN', 'e', 'f']
"""

from __future__ import annotations

from collections.abc import Callable

from gpusim.hipify.lexer import Token

EXPRESSION_WORDS = frozenset({
    "return", "case", "else", "do", "goto", "throw", "new", "delete", "sizeof", "alignof",
    "typeid", "decltype", "co_return", "co_yield", "co_await", "not", "and", "or", "xor",
    "bitand", "bitor", "compl", "operator", "defined", "if", "while", "for", "switch",
    "default", "public", "private", "protected", "template", "static_assert",
})
TAG_WORDS = frozenset({"struct", "class", "union", "enum", "typename", "using", "namespace"})
TYPE_WORDS = frozenset({
    "void", "char", "short", "int", "long", "float", "double", "bool", "unsigned", "signed",
    "auto", "const", "volatile", "wchar_t", "char16_t", "char32_t", "half", "__half",
    "dim3", "size_t",
})
DECLARATION_WORDS = frozenset({
    "static", "extern", "inline", "register", "thread_local", "constexpr", "mutable",
    "typedef", "__device__", "__host__", "__shared__", "__constant__", "__managed__",
    "__global__", "__forceinline__", "__restrict__", "friend", "virtual", "explicit",
})
AFTER_NAME = frozenset({"(", ";", ",", "=", "[", ")", "{", ":"})
AFTER_POINTER_NAME = frozenset({",", ")", ";", "=", "["})
AFTER_TEMPLATE_NAME = frozenset({";", "=", ",", "[", "{"})
BEFORE_BODY = frozenset({"const", "noexcept", "override", "final", "volatile"})


def _matching(sig: list[Token], k: int, step: int) -> int:
    """Index of the bracket matching ``sig[k]`` going ``step`` (+1 forward, -1 back), or -1."""
    pairs = {"(": ")", "[": "]", "{": "}", ")": "(", "]": "[", "}": "{"}
    opening, closing = sig[k].text, pairs[sig[k].text]
    depth = 0
    for j in range(k, len(sig) if step > 0 else -1, step):
        depth += (sig[j].text == opening) - (sig[j].text == closing)
        if depth == 0:
            return j
    return -1


def _closes_template(sig: list[Token], k: int) -> bool:
    """``sig[k]`` is ``>`` closing ``name<...>``, not a comparison."""
    depth = 0
    for j in range(k, -1, -1):
        text = sig[j].text
        depth += (text == ">") - (text == "<") + 2 * (text == ">>")
        if depth == 0:
            return j > 0 and sig[j - 1].kind == "ident"
        if not (sig[j].kind in ("ident", "number") or text in ("<", ">", ">>", "::", ",",
                                                                "*", "&")):
            return False
    return False


def _macro(tokens: list[Token], position: int) -> set[str]:
    """``#define NAME`` or ``#define NAME(a, b)`` at ``tokens[position]``: its names."""
    i = position + 1
    while i < len(tokens) and tokens[i].kind == "space" and tokens[i].text != "\n":
        i += 1
    if i >= len(tokens) or tokens[i].kind != "ident":
        return set()
    names = {tokens[i].text}
    if i + 1 < len(tokens) and tokens[i + 1].text == "(":  # function-like: no space before (
        for t in tokens[i + 2:i + 200]:  # the parameter list, on this line
            if t.text in (")", "\n"):
                break
            if t.kind == "ident":
                names.add(t.text)
    return names


def _type_names(sig: list[Token]) -> set[str]:
    """Names this file introduces as types: struct/class/union/enum X, typedef ... X;"""
    types = {sig[k + 1].text for k, t in enumerate(sig[:-1])
             if t.text in ("struct", "class", "union", "enum") and sig[k + 1].kind == "ident"}
    for k, t in enumerate(sig):
        if t.text == "typedef":
            end = next((j for j in range(k, len(sig)) if sig[j].text == ";"), -1)
            if end > 0 and sig[end - 1].kind == "ident":
                types.add(sig[end - 1].text)
        elif t.text == "using" and k + 2 < len(sig) and sig[k + 2].text == "=":
            types.add(sig[k + 1].text)
    return types


def _further_declarators(sig: list[Token], k: int) -> set[str]:
    """``int a = 0, b[4];`` from ``a`` at ``sig[k]``: ``{"b"}`` (statements only)."""
    names, depth, after_comma = set(), 0, False
    for j in range(k + 1, len(sig)):
        text = sig[j].text
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return set()  # a parameter list, not a statement
        elif depth == 0 and text == ";":
            return names
        elif depth == 0 and text == ",":
            after_comma = True
            continue
        if after_comma and sig[j].kind == "ident":
            names.add(text)
        if text not in ("*", "&", "&&"):
            after_comma = False
    return set()


def _enumerators(sig: list[Token], k: int) -> set[str]:
    """The names of ``enum [class] [X] [: T] { A, B = 2 }`` whose ``enum`` is ``sig[k]``."""
    j = k + 1
    while j < len(sig) and sig[j].text not in ("{", ";"):
        j += 1
    if j >= len(sig) or sig[j].text != "{":
        return set()
    end = _matching(sig, j, 1)
    names, depth = set(), 0
    for m in range(j + 1, end if end > 0 else len(sig)):
        text = sig[m].text
        depth += (text in ("(", "[", "{")) - (text in (")", "]", "}"))
        if depth == 0 and sig[m].kind == "ident" and sig[m - 1].text in ("{", ","):
            names.add(text)
    return names


def declared_names(tokens: list[Token], wanted: Callable[[str], bool] = lambda name: True,
                   is_type: Callable[[str], bool] = lambda name: False) -> set[str]:
    """Names ``tokens`` (from :func:`gpusim.hipify.lexer.tokenize`) declare.

    ``wanted`` limits the search to the names of interest (it is faster); ``is_type``
    names types declared elsewhere (HIPIFY's CUDA types), so ``cudaStream_t *s`` is read
    as a declaration.
    """
    names = {n for n in _macro_names(tokens) if wanted(n)}
    sig = _Significant(tokens, is_type)
    for k, t in enumerate(sig.tokens):
        if t.text == "enum":
            names |= {n for n in _enumerators(sig.tokens, k) if wanted(n)}
        if t.kind != "ident" or not wanted(t.text) or k == 0 or not sig.declares(k):
            continue
        names.add(t.text)
        if sig.after(k) in ("=", ",", "[", ";"):
            names |= {n for n in _further_declarators(sig.tokens, k) if wanted(n)}
    return names


def _macro_names(tokens: list[Token]) -> set[str]:
    """The names of every ``#define`` in ``tokens`` (see ``_macro``)."""
    names: set[str] = set()
    for position, t in enumerate(tokens):
        if t.kind == "directive" and t.text.lstrip("#").strip() == "define":
            names |= _macro(tokens, position)
    return names


def _past_qualifiers(sig: list[Token], j: int) -> int:
    """The index of the first token from ``sig[j]`` on that is not ``const``, ``noexcept``,
    ... (what may stand between a parameter list and a function body)."""
    while 0 < j < len(sig) and sig[j].text in BEFORE_BODY:
        j += 1
    return j


class _Significant:
    """A file's tokens without spaces and comments, and the questions the declaration rules
    ask about them (module docstring)."""

    def __init__(self, tokens: list[Token], is_type: Callable[[str], bool]) -> None:
        self.tokens: list[Token] = []
        self.in_directive: list[bool] = []  # per token: on a preprocessor line
        directive = False
        for t in tokens:
            if t.kind == "directive":
                directive = True
            elif t.kind == "space" and t.text == "\n":  # not a \-continued line
                directive = False
            if t.kind not in ("space", "comment"):
                self.tokens.append(t)
                self.in_directive.append(directive)
        self.types = _type_names(self.tokens)
        self.is_type = is_type

    def after(self, k: int) -> str:
        """The text of the token after ``tokens[k]`` ("" at the end)."""
        return self.tokens[k + 1].text if k + 1 < len(self.tokens) else ""

    def declares(self, k: int) -> bool:
        """``tokens[k]`` (an identifier, ``k > 0``) is the name of a declaration."""
        sig, in_directive = self.tokens, self.in_directive
        prev, after = sig[k - 1], self.after(k)
        if (prev.kind == "ident" and prev.text in EXPRESSION_WORDS) or (
                in_directive[k - 1] and not in_directive[k]):  # #define FLAG, then NAME
            return False
        declared = (
            prev.text in TAG_WORDS
            or (prev.kind == "ident" and after in AFTER_NAME)
            or (prev.text in ("*", "&", "&&") and k >= 2 and self.pointer_declarator(k, after))
            or (prev.text == "*" and k >= 2 and sig[k - 2].text == "(" and after == ")")
            or (prev.text == ">" and after in AFTER_TEMPLATE_NAME and _closes_template(sig, k - 1))
            or (prev.text == "}" and after in (";", ","))
        )
        if not declared and after == "(":  # a function definition: NAME(...) {
            following = _past_qualifiers(sig, _matching(sig, k + 1, 1) + 1)
            declared = 0 < following < len(sig) and sig[following].text == "{"
        return declared

    def is_type_word(self, token: Token) -> bool:
        """``token`` is (part of) a type: a builtin, ``*``/``&``, a ``_t`` or known type."""
        text = token.text
        return (text in TYPE_WORDS or text in ("*", "&", "&&") or text.endswith("_t")
                or text in self.types or self.is_type(text))

    def type_start(self, j: int) -> int:
        """The first token of the type name ending at ``sig[j]`` (``ns::T``, ``V<T>``), or -1."""
        sig = self.tokens
        if sig[j].text == ">":
            depth = 0
            while j >= 0:
                depth += (sig[j].text == ">") - (sig[j].text == "<")
                j -= 1
                if depth == 0:
                    break
        if j < 0 or sig[j].kind != "ident" or sig[j].text in EXPRESSION_WORDS:
            return -1
        while j >= 2 and sig[j - 1].text == "::" and sig[j - 2].kind == "ident":
            j -= 2
        return j

    def starts_declaration(self, j: int) -> bool:
        """``sig[j]`` (the first token of a type) can start a declaration."""
        sig, in_directive = self.tokens, self.in_directive
        before = sig[j - 1].text if j else ";"
        return (before in (";", "{", "}") or before in TYPE_WORDS or before in DECLARATION_WORDS
                or (in_directive[j - 1] and not in_directive[j]))

    def in_definition_parameters(self, k: int) -> bool:
        """``sig[k]`` is in the parameter list of a function definition: ``f(...) {``."""
        sig = self.tokens
        depth = 0
        for j in range(k - 1, -1, -1):
            depth += (sig[j].text in (")", "]", "}")) - (sig[j].text in ("(", "[", "{"))
            if depth < 0:
                if sig[j].text != "(" or j == 0 or not (
                        (sig[j - 1].kind == "ident" and sig[j - 1].text not in EXPRESSION_WORDS)
                        or sig[j - 1].text == "]"):
                    return False
                following = _past_qualifiers(sig, _matching(sig, j, 1) + 1)
                return 0 < following < len(sig) and sig[following].text in ("{", ":")
        return False

    def pointer_declarator(self, k: int, after: str) -> bool:
        """``T *NAME``/``T &NAME`` at ``sig[k]``, not ``a * NAME`` nor ``flags & NAME``."""
        sig = self.tokens
        if self.is_type_word(sig[k - 2]) and after in AFTER_POINTER_NAME:
            return True
        start = self.type_start(k - 2)
        if start < 0:
            return False
        if after in ("=", ";", "[", ",") and self.starts_declaration(start):
            return True  # Vertex *NAME = NULL; (an expression would start otherwise)
        return (after in AFTER_POINTER_NAME and start > 0
                and sig[start - 1].text in ("(", ",", "const")
                and self.in_definition_parameters(k))
