"""Writing the generated Python: indented lines, each tagged ``# line N`` with the C++ line
it came from, and errors for C++ outside the supported subset.

>>> out = Emitter(["int x = 1;"])
>>> out.line("x = 1", 1)
>>> print(out.text(), out.cpp_line(1))
x = 1  # line 1
 1
"""

from __future__ import annotations

from contextlib import contextmanager

from clang.cindex import Cursor

from gpusim.errors import KernelCompileError


class UnsupportedCpp(KernelCompileError):  # noqa: N818 - named for what it reports
    """C++ that gpusim.hipcc does not translate; ``lineno``/``col`` point at it."""


class Emitter:
    """Collects generated lines and which C++ line each came from."""

    def __init__(self, cpp_lines: list[str]):
        self.cpp_lines = cpp_lines
        self.lines: list[str] = []
        self.origin: list[int] = []  # origin[k] = C++ line of generated line k + 1 (0: none)
        self.depth = 0

    def line(self, text: str, cpp_line: int = 0) -> None:
        tag = f"  # line {cpp_line}" if cpp_line else ""
        self.lines.append("    " * self.depth + text + tag)
        self.origin.append(cpp_line)

    @contextmanager
    def indent(self):
        self.depth += 1
        start = len(self.lines)
        try:
            yield
        finally:
            if len(self.lines) == start:  # an empty C++ block
                self.line("pass")
            self.depth -= 1

    def mark(self) -> int:
        """Where the next line will go (for ``take``)."""
        return len(self.lines)

    def take(self, mark: int) -> list[tuple[str, int]]:
        """Remove the lines written since ``mark`` and return them, indented relative to
        the current depth, for ``put`` to write again elsewhere (a loop test's statements
        written again before each ``continue``)."""
        prefix = "    " * self.depth
        taken = [(ln[len(prefix):] if ln.startswith(prefix) else ln.lstrip(), origin)
                 for ln, origin in zip(self.lines[mark:], self.origin[mark:], strict=True)]
        del self.lines[mark:], self.origin[mark:]
        return taken

    def put(self, taken: list[tuple[str, int]]) -> None:
        """Write lines from ``take`` at the current depth."""
        for text, origin in taken:
            self.lines.append("    " * self.depth + text)
            self.origin.append(origin)

    @staticmethod
    def tagged(text: str, cpp_line: int) -> tuple[str, int]:
        """One line as ``take`` returns it."""
        return (text + (f"  # line {cpp_line}" if cpp_line else ""), cpp_line)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def cpp_line(self, generated_line: int) -> int:
        """The C++ line behind a generated line (1-based), 0 if none."""
        if 1 <= generated_line <= len(self.origin):
            return self.origin[generated_line - 1]
        return 0


def unsupported(cursor: Cursor, what: str, instead: str, cpp_lines: list[str]
                ) -> UnsupportedCpp:
    """An error at ``cursor``'s line and column: what is not supported, what to write."""
    loc = cursor.location
    parts = [f"line {loc.line}, column {loc.column}: {what} is not supported by "
             "gpusim.hipcc"]
    if 0 < loc.line <= len(cpp_lines):
        parts += ["    " + cpp_lines[loc.line - 1], "    " + " " * (loc.column - 1) + "^"]
    if instead:
        parts.append(f"    Instead: {instead}")
    err = UnsupportedCpp("\n".join(parts))
    err.lineno, err.col, err.construct = loc.line, loc.column, what
    return err
