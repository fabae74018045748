"""A C/C++ tokeniser just good enough to hipify: it never loses a byte.

hipify-perl rewrites the whole file with regular expressions, so a CUDA name inside a
comment or a string literal is rewritten too. Translating tokens instead keeps comments
and strings as they are: only identifiers, ``#include`` header names and the ``<<<``
``>>>`` launch brackets are ever rewritten. Joining the tokens' texts gives back the
input exactly (a property the tests check on arbitrary text).

>>> [t.kind for t in tokenize('a<<<1, 2>>>(x); // cudaMalloc')][:4]
['ident', 'punct', 'number', 'punct']
>>> tokenize('#include <cuda_runtime.h>')[-1]
Token(kind='header', text='<cuda_runtime.h>', line=1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("space", "comment", "string", "char", "header", "number", "ident", "punct",
         "directive")


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` (one of KINDS), its exact ``text``, and its first ``line``."""

    kind: str
    text: str
    line: int


# Order matters: comments before punctuation, raw strings before identifiers (R"x(...)x"),
# numbers before punctuation (".5"), and the longest punctuators first.
_RAW_STRING = r'(?:u8|u|U|L)?R"(?P<delim>[^()\\\s]{0,16})\((?:.|\n)*?\)(?P=delim)"'
_PATTERNS = [
    ("space", r"[ \t\r\f\v]+|\\\n|\n"),
    ("comment", r"//(?:[^\n\\]|\\.|\\\n)*|/\*(?:.|\n)*?(?:\*/|\Z)"),
    ("string", _RAW_STRING + r'|(?:u8|u|U|L)?"(?:[^"\\\n]|\\.|\\\n)*"?'),
    ("char", r"(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*'?"),
    ("number", r"\.?\d(?:[eEpP][+-]|'[0-9a-zA-Z_]|[0-9a-zA-Z_.])*"),
    ("ident", r"[A-Za-z_$][A-Za-z0-9_$]*"),
    ("punct", r"<<<|>>>|<<=|>>=|->\*|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||"
              r"[-+*/%&|^!=<>]=|##|.|\n"),
]
_TOKEN = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _PATTERNS))
_DIRECTIVE = re.compile(r"#[ \t]*(\w+)")
_HEADER = re.compile(r'[ \t]*(<[^>\n]*>|"[^"\n]*")')


def tokenize(text: str) -> list[Token]:
    """Split C/C++ ``text`` into tokens whose texts join back to ``text``.

    A ``#`` that starts a line begins a ``directive`` token (``#include``, ``#define``...);
    an ``#include``'s file name becomes one ``header`` token.

    >>> "".join(t.text for t in tokenize('x = "cudaFree";')) == 'x = "cudaFree";'
    True
    """
    tokens: list[Token] = []
    pos, line, line_start = 0, 1, True
    while pos < len(text):
        directive = _DIRECTIVE.match(text, pos) if line_start and text[pos] == "#" else None
        if directive:
            tokens.append(Token("directive", directive.group(0), line))
            pos = directive.end()
            header = _HEADER.match(text, pos) if directive.group(1) == "include" else None
            if header:
                if header.start(1) > pos:
                    tokens.append(Token("space", text[pos:header.start(1)], line))
                tokens.append(Token("header", header.group(1), line))
                pos = header.end()
            line_start = False
            continue
        match = _TOKEN.match(text, pos)
        kind, piece = match.lastgroup, match.group(0)
        tokens.append(Token(kind, piece, line))
        pos = match.end()
        newlines = piece.count("\n")
        line += newlines
        if newlines and kind in ("space", "punct"):
            line_start = piece.endswith("\n") and not piece.endswith("\\\n")
        elif kind not in ("space", "comment"):
            line_start = False
    return tokens
