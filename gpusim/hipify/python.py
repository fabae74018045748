"""numba.cuda Python -> gpusim.hip spelling, by ``ast`` positions, never by regex.

The module is found by what the code imports (``from numba import cuda [as c]``,
``import numba.cuda as c``, ``from numba.cuda import ...``, ``numba.cuda.X`` after
``import numba``, and gpusim's own ``from gpusim import cuda``); only the nodes that
refer to it are rewritten, so comments, strings and look-alike names stay as they are,
and the rest of the text keeps its layout. The name table is hand-written data
(data/numba_cuda.json; its targets are checked against gpusim.hip by the tests).
``cuda.shfl_down_sync(0xffffffff, v, d)`` becomes ``hip.shfl_down(v, d)``: HIP's
unsynchronised form acts on the active lanes of the whole 64-lane wavefront, which is
what the 32-bit full mask meant on a 32-lane warp (and it is flagged, since code around
it usually assumes 32 lanes too).

>>> print(hipify_python("from numba import cuda\\n@cuda.jit\\ndef k(a):\\n"
...                     "    a[cuda.grid(1)] = cuda.warpsize\\n").text)
from gpusim import hip
@hip.jit
def k(a):
    a[hip.grid(1)] = hip.warpsize
<BLANKLINE>
"""

from __future__ import annotations

import ast
import json
from functools import lru_cache
from pathlib import Path

from gpusim.hipify.python_warp import check_python
from gpusim.hipify.report import Conversion, Finding, Result

DATA = Path(__file__).with_name("data") / "numba_cuda.json"
MODULES = ("numba.cuda", "gpusim.cuda")


@lru_cache(maxsize=1)
def names() -> dict:
    """The numba.cuda -> gpusim.hip name table."""
    return json.loads(DATA.read_text())


class _Edits:
    """Text replacements at ast positions (line, UTF-8 column), applied back to front."""

    def __init__(self, source: str):
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))
        self.edits: dict[tuple[int, int], str] = {}

    def offset(self, line: int, col: int) -> int:
        text = self.lines[line - 1].encode("utf-8")[:col].decode("utf-8")
        return self.starts[line - 1] + len(text)

    def replace(self, node: ast.AST, text: str, end: ast.AST | None = None) -> None:
        last = end or node
        span = (self.offset(node.lineno, node.col_offset),
                self.offset(last.end_lineno, last.end_col_offset))
        self.edits[span] = text

    def delete_between(self, first: ast.AST, second: ast.AST) -> None:
        """Remove ``first`` and what separates it from ``second`` (an argument and its comma)."""
        self.edits[(self.offset(first.lineno, first.col_offset),
                    self.offset(second.lineno, second.col_offset))] = ""

    def apply(self) -> str:
        text = self.source
        for (start, end), new in sorted(self.edits.items(), reverse=True):
            text = text[:start] + new + text[end:]
        return text


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


class _Translator(ast.NodeVisitor):
    def __init__(self, source: str):
        self.edits = _Edits(source)
        self.aliases: set[str] = set()  # local names bound to the numba.cuda module
        self.numba_imports: list[ast.Import] = []
        self.used = False  # a numba.cuda.X reference was rewritten
        self.imports_done = False
        self.conversions: list[Conversion] = []
        self.findings: list[Finding] = []
        self.table = names()

    def convert(self, node: ast.AST, cuda: str, hip: str, kind: str) -> None:
        self.conversions.append(Conversion(node.lineno, cuda, hip, kind))

    def visit_Import(self, node: ast.Import) -> None:
        if self.imports_done:  # imports are handled in a first pass
            return
        if any(a.name == "numba" for a in node.names):
            self.numba_imports.append(node)
        kept = [a for a in node.names if a.name not in MODULES]
        for alias in node.names:
            if alias.name in MODULES and alias.asname:
                self.aliases.add(alias.asname)
            elif alias.name in ("numba", *MODULES):
                self.aliases.add(alias.name if alias.name != "numba" else "numba.cuda")
        if len(kept) < len(node.names):
            new = "from gpusim import hip"
            if any(a.name == "numba.cuda" and not a.asname for a in node.names):
                kept.append(ast.alias("numba"))  # `import numba.cuda` also bound `numba`
            if kept:
                new = "import " + ", ".join(ast.unparse(a) for a in kept) + "\n" + \
                    " " * node.col_offset + new
            self.edits.replace(node, new)
            self.convert(node, "import numba.cuda", "from gpusim import hip", "include")

    def import_hip_after_numba(self) -> None:
        """``import numba`` ... ``numba.cuda.jit``: hip needs its own import."""
        if self.used and self.numba_imports and "from gpusim import hip" not in self.edits.source:
            node = self.numba_imports[0]
            self.edits.replace(node, ast.unparse(node) + "\n" + " " * node.col_offset +
                               "from gpusim import hip")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if self.imports_done:
            return
        if node.module in MODULES:
            self.from_cuda_module(node)
            return
        if node.module not in ("numba", "gpusim") or node.level:
            return
        ours = [a for a in node.names if a.name == "cuda"]
        if not ours:
            return
        self.aliases.update(a.asname or a.name for a in ours)
        kept = [a for a in node.names if a.name != "cuda"]
        new = "from gpusim import hip"
        if kept:
            new += "\n" + " " * node.col_offset + f"from {node.module} import " + \
                ", ".join(ast.unparse(a) for a in kept)
        self.edits.replace(node, new)
        self.convert(node, f"from {node.module} import cuda", "from gpusim import hip",
                     "include")

    def from_cuda_module(self, node: ast.ImportFrom) -> None:
        """``from numba.cuda import jit, grid`` -> ``from gpusim.hip import jit, grid``."""
        parts = []
        for alias in node.names:
            target = self.table["renamed"].get(alias.name, alias.name)
            if alias.name in self.table["unsupported"]:
                self.unsupported(node, alias.name)
            local = alias.asname or alias.name
            parts.append(target if local == target else f"{target} as {local}")
        self.edits.replace(node, "from gpusim.hip import " + ", ".join(parts))
        self.convert(node, f"from {node.module} import", "from gpusim.hip import", "include")

    def unsupported(self, node: ast.AST, name: str) -> None:
        self.findings.append(Finding(
            node.lineno, "unsupported", f"cuda.{name}",
            f"cuda.{name} has no gpusim.hip equivalent: {self.table['unsupported'][name]}",
            "library"))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        owner = _dotted(node.value)
        if owner not in self.aliases:
            self.generic_visit(node)
            return
        name, table = node.attr, self.table
        self.used |= owner == "numba.cuda"
        if name in table["renamed"]:
            self.edits.replace(node, f"hip.{table['renamed'][name]}")
            self.convert(node, f"cuda.{name}", f"hip.{table['renamed'][name]}", "library")
        elif name in table["same"] or name in table["sync_to_plain"]:
            self.edits.replace(node.value, "hip")
            self.convert(node, f"cuda.{name}", f"hip.{name}", "library")
        elif name in table["unsupported"]:
            self.unsupported(node, name)
        else:
            self.findings.append(Finding(
                node.lineno, "unknown", f"cuda.{name}",
                f"unknown numba.cuda name: cuda.{name} (not in the table; left as is)",
                "unknown"))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        plain = self.table["sync_to_plain"]
        if (isinstance(func, ast.Attribute) and _dotted(func.value) in self.aliases
                and func.attr in plain and len(node.args) >= 2
                and self.full_mask(node.args[0])):
            self.edits.replace(func, f"hip.{plain[func.attr]}")
            self.edits.delete_between(node.args[0], node.args[1])
            self.convert(node, f"cuda.{func.attr}", f"hip.{plain[func.attr]}", "library")
            for arg in node.args[1:]:
                self.visit(arg)
            return
        self.generic_visit(node)

    def full_mask(self, mask: ast.AST) -> bool:
        """0xffffffff, or cuda.activemask(): a mask naming every lane the warp has."""
        if isinstance(mask, ast.Constant):
            return mask.value == 0xFFFFFFFF
        return (isinstance(mask, ast.Call) and isinstance(mask.func, ast.Attribute)
                and _dotted(mask.func.value) in self.aliases and mask.func.attr == "activemask")

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.aliases:  # the module object itself, e.g. passed along
            self.edits.replace(node, "hip")


def hipify_python(source: str) -> Result:
    """Translate numba.cuda Python source to gpusim.hip, with wave64 warnings.

    Raises SyntaxError (with the line) when ``source`` is not valid Python.

    >>> r = hipify_python("from numba import cuda\\nx = cuda.default_stream()\\n")
    >>> r.unmapped[0].line, r.unmapped[0].name
    (2, 'cuda.default_stream')
    """
    tree = ast.parse(source)
    work = _Translator(source)
    for node in ast.walk(tree):  # imports first: they bind the aliases used below
        if isinstance(node, ast.Import | ast.ImportFrom):
            work.visit(node)
    work.imports_done = True
    for statement in tree.body:
        work.visit(statement)
    work.import_hip_after_numba()
    aliases = work.aliases | {"hip"}
    findings = work.findings + check_python(tree, aliases)
    return Result(source, work.edits.apply(), work.conversions, findings,
                  lines=source.count("\n"))
