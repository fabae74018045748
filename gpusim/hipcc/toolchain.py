"""The real C++ compiler behind ``gpusim.hipcc``: zig's clang 18, from the ``ziglang``
wheel.

A HIP program's host half is ordinary C++ (iostream, STL, templates, classes, lambdas),
so it is compiled, not translated: ``python -m ziglang c++`` is clang 18 with libc++ and
libc headers, installs from PyPI on Linux, macOS and Windows, and is the same clang as
the ``libclang`` 18 wheel that parses the device half, so both halves see one C++.
The first build on a machine compiles libc++ for it (about a minute, once, kept in zig's
cache; ``python -m gpusim.exercises.warm`` does it at set-up); a program takes about 1 s.

``include_args()`` are the same include paths and defines for libclang's parse.

>>> sorted({a for a in include_args() if a.startswith("-")})
['-D_LIBCPP_ABI_NAMESPACE=__1', ...]
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from gpusim.config import config
from gpusim.errors import KernelCompileError

# One optimisation level for every build: zig keeps one libc++ per level, so a second
# level would build libc++ again (~1 min).
OPT = "-O1"


class CompilerError(KernelCompileError):
    """The C++ compiler rejected the host code; the message is its diagnostics."""


def zig() -> list[str]:
    """The command that runs zig's C++ compiler."""
    try:
        import ziglang  # noqa: F401 - only to find out whether the wheel is there
    except ImportError as e:
        raise CompilerError("gpusim.hipcc needs the `ziglang` wheel for host C++: "
                            "pip install ziglang==0.13.0 (it is in binder/requirements.txt)"
                            ) from e
    return [sys.executable, "-m", "ziglang", "c++"]


@functools.cache
def include_args() -> tuple[str, ...]:
    """``-isystem``/``-D`` arguments zig's clang uses for C++ (libc++, clang's builtin
    headers, the C library), read once from ``zig c++ -###`` and kept in the cache."""
    cache = Path(config.cache_dir) / "hipcc" / f"zig-includes-{_zig_version()}-2.json"
    if cache.exists():
        return tuple(json.loads(cache.read_text()))
    probe = subprocess.run([*zig(), "-###", OPT, "-x", "c++", "-c", os.devnull, "-o",
                            os.devnull], capture_output=True, text=True, check=False)
    cc1 = next((ln for ln in probe.stderr.splitlines() if '"-cc1"' in ln), None)
    if cc1 is None:
        raise CompilerError(f"zig c++ -### printed no compiler command:\n{probe.stderr}")
    words, found = shlex.split(cc1), []
    for k, word in enumerate(words[:-1]):
        if word == "-isystem":
            found += ["-isystem", str(Path(words[k + 1]).resolve())]
        elif word == "-D" and words[k + 1] != "NDEBUG":  # hipcc keeps assert() on
            found.append("-D" + words[k + 1])
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(found))
    return tuple(found)


@functools.cache
def _zig_version() -> str:
    from importlib.metadata import version

    return version("ziglang")


def build(files: dict[str, str], units: list[str], args: list[str],
          name_of: dict[str, str]) -> Path:
    """Compile ``units`` of ``files`` ({relative path: C++ text}, written under one build
    folder) into a shared library and return its path. Builds are kept in the cache by
    the hash of everything that goes in. ``args`` may name the build folder as ``{dir}``;
    ``name_of`` maps written paths back to the user's file names in diagnostics."""
    key = hashlib.sha256(json.dumps([files, units, args, _zig_version(),
                                     _header_stamp()]).encode()).hexdigest()[:20]
    folder = Path(config.cache_dir) / "hipcc" / key
    lib = folder / ("program.dll" if sys.platform == "win32" else "program.so")
    if lib.exists():
        return lib
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
    tmp = folder / f"program.{os.getpid()}.tmp"
    cmd = [*zig(), OPT, "-shared", "-fPIC", "-g0", "-w",
           "-fno-sanitize=undefined",  # zig turns UBSan traps on by default
           # Calls to exit/abort inside the program bind to the program's own (the shim's),
           # so exit(1) ends main, not the notebook's process.
           "-Wl,-Bsymbolic",
           *[a.replace("{dir}", str(folder)) for a in args], "-x", "c++",
           *[str(folder / u) for u in units], "-o", str(tmp)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        text = done.stderr
        for written, user in sorted(name_of.items(), key=lambda kv: -len(kv[0])):
            text = text.replace(str(folder / written), user)
        raise CompilerError(text.strip() or f"the C++ compiler failed ({done.returncode})")
    tmp.replace(lib)
    return lib


@functools.cache
def _header_stamp() -> str:
    """Changes when gpusim's own headers or shim change, so cached builds are redone."""
    root = Path(__file__).parent
    h = hashlib.sha256()
    for p in sorted((root / "include").rglob("*")) + sorted((root / "shim").rglob("*")) + \
            sorted(root.glob("*.py")):  # the translator too: a cached translation follows it
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()[:12]
