"""Errors from translated kernels, told in the user's C++ lines.

The engine and the front end name the generated file's line ("line 15, column 5 of
.../hip_<hash>.py"); each generated module registers its line map here, and ``to_cpp``
rewrites such places to the C++ file and line ("main.hip:4"; a notebook cell is
``hip_cell.hip``), so a learner never meets the generated Python.

>>> register("/tmp/hip_x.py", {15: 4}, "saxpy.hip")
>>> to_cpp_text("bad write at line 15, column 5 of /tmp/hip_x.py: index 100")
'bad write at saxpy.hip:4: index 100'
"""

from __future__ import annotations

import re

_MAPS: dict[str, dict[int, int]] = {}
_FILES: dict[str, str] = {}
_PLACE = re.compile(r"line (\d+), column (\d+) (?:of |\()(\S+?\.py)\)?|line (\d+) of (\S+?\.py)")


def register(path: str, lines: dict[int, int], cpp_file: str | None = None) -> None:
    """Remember which C++ line (of ``cpp_file``, or a notebook cell's source when None)
    each line of the generated file ``path`` came from."""
    _MAPS[str(path)] = lines
    if cpp_file:
        _FILES[str(path)] = cpp_file


def to_cpp_text(text: str) -> str:
    def place(m: re.Match) -> str:
        line, col, path = (m.group(1), m.group(2), m.group(3)) if m.group(1) else \
            (m.group(4), None, m.group(5))
        cpp = _MAPS.get(path, {}).get(int(line))
        if not cpp:
            return m.group(0)
        return f"{_FILES.get(path, 'hip_cell.hip')}:{cpp}"
    return _PLACE.sub(place, text)


def to_cpp(err: BaseException) -> BaseException:
    """The same error (type, code) with its places given as C++ lines."""
    if err.args and isinstance(err.args[0], str):
        text = to_cpp_text(err.args[0])
        if text != err.args[0]:
            err.args = (text, *err.args[1:])
            if hasattr(err, "detail"):
                err.detail = to_cpp_text(err.detail)
    return err


_SYNC = [(re.compile(r"hip\.syncwarp\(\)\s+\(or\s+hip\.syncthreads\(\)\)"),
          "__syncthreads()"), (re.compile(r"hip\.syncthreads\(\)"), "__syncthreads()")]


def cpp_findings(err: BaseException, path: str, cpp_source: str) -> BaseException:
    """A sanitizer error of a translated kernel, its findings told in the C++: each access
    at ``file:line`` with the C++ line's text, and the fixes in C++'s spelling."""
    from dataclasses import replace

    from gpusim.engine import findings as fd
    from gpusim.errors import SanitizerError

    lines, name = _MAPS.get(str(path)), _FILES.get(str(path), "hip_cell.hip")
    if not isinstance(err, SanitizerError) or not err.findings or lines is None:
        return err
    source = cpp_source.splitlines()

    def access(a):
        if a is None:
            return None
        cpp = lines.get(a.line, 0)
        text = source[cpp - 1].strip() if 0 < cpp <= len(source) else a.text
        return replace(a, line=cpp, col=0, text=text)

    found = fd.Findings(replace(f, first=access(f.first), second=access(f.second))
                        for f in err.findings)
    text = re.sub(r"at line (\d+)", lambda m: f"at {name}:{m.group(1)}",
                  fd.report(found, header=False))
    for python, cpp in _SYNC:
        text = python.sub(cpp, text)
    head = err.detail.split("\n", 1)[0] if hasattr(err, "detail") else str(err).split("\n")[0]
    return SanitizerError(err.code, f"{head}\n{text}", found)
