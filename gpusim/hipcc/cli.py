"""``gpusim-hipcc``: build and run a HIP program from a terminal, as ``hipcc`` would.

    gpusim-hipcc main.hip -o app && ./app 1024     # an executable that runs on gpusim
    gpusim-hipcc --run main.hip -- 1024            # build and run at once
    gpusim-hipcc --genco kernels.hip -o kernels.co # a code object for hipModuleLoad

``-I``/``-D`` work as in hipcc; hipcc's other flags (``-O3``, ``--offload-arch=...``,
``-std=...``, ``-g``, ``-W...``) are accepted and ignored. The program's exit status is
the command's. ``./app`` is a small script that compiles (cached) and runs the source.

>>> main(["--version"])
gpusim-hipcc (HIP C++ on the gpusim emulator; host compiler: zig c++ ...)
0
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from gpusim.errors import GpusimError, KernelCompileError

_IGNORED_PREFIXES = ("-O", "--offload-arch", "-W", "-g", "-fPIC", "-fgpu-rdc",
                     "--amdgpu-target", "-x", "-m", "--rocm-path", "-fopenmp", "-c")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gpusim-hipcc", description=__doc__.split("\n\n")[0])
    p.add_argument("sources", nargs="*", help="the program's .hip/.cpp files (translation "
                   "units; device code is not linked across them: no -fgpu-rdc)")
    p.add_argument("-std", dest="std", default="c++17", help="C++ standard (c++17)")
    p.add_argument("-o", dest="output", help="the executable (or code object) to write")
    p.add_argument("-I", dest="include", action="append", default=[], help="include folder")
    p.add_argument("-D", dest="define", action="append", default=[], help="NAME[=value]")
    p.add_argument("--run", action="store_true", help="build, then run with the arguments "
                   "after --")
    p.add_argument("--genco", action="store_true", help="write a code object for "
                   "hipModuleLoad instead of a program")
    p.add_argument("--version", action="store_true")
    return p


def main(argv: list[str] | None = None) -> int:
    """The command; returns its exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    program_args: list[str] = []
    if "--" in argv:
        k = argv.index("--")
        argv, program_args = argv[:k], argv[k + 1:]
    argv = [w for a in argv if not a.startswith(_IGNORED_PREFIXES) or a.startswith("-I")
            for w in (["-std", a[5:]] if a.startswith("-std=") else [a])]
    opts = _parser().parse_args(argv)
    if opts.version:
        from gpusim.hipcc.toolchain import _zig_version

        print(f"gpusim-hipcc (HIP C++ on the gpusim emulator; host compiler: zig c++ "
              f"{_zig_version()}, clang 18)")
        return 0
    if not opts.sources:
        print("gpusim-hipcc: no input files", file=sys.stderr)
        return 2
    source = Path(opts.sources[0]).resolve()
    units = [str(Path(u).resolve()) for u in opts.sources[1:]]
    defines = [f"-D{d}" for d in opts.define]
    build = {"include": [str(Path(d).resolve()) for d in opts.include], "defines": defines,
             "std": opts.std, "units": units}
    if opts.genco:
        out = Path(opts.output or source.with_suffix(".co").name)
        out.write_bytes(json.dumps({"gpusim_code_object": 1, "source": str(source),
                                    "text": source.read_bytes().decode("latin-1"),
                                    **build}).encode())
        return 0
    if opts.run:
        return run_program(str(source), build, program_args)
    try:
        _compile(str(source), build)  # report errors now, as hipcc does
    except KernelCompileError as e:
        print(e, file=sys.stderr)
        return 1
    out = Path(opts.output or "a.out")
    out.write_text(f"#!{sys.executable}\n# Built by gpusim-hipcc from {source}: runs it on "
                   "the gpusim emulator.\nimport sys\nfrom gpusim.hipcc.cli import "
                   f"run_program\nsys.exit(run_program({str(source)!r}, {build!r}, "
                   "sys.argv[1:], sys.argv[0]))\n")
    out.chmod(out.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return 0


def _compile(source: str, build: dict) -> Any:
    from gpusim.hipcc.module import compile as hip_compile

    return hip_compile(filename=source, include_dirs=build["include"],
                       defines=build["defines"], std=build["std"], units=build["units"])


def run_program(source: str, build: dict, args: list[str], program: str | None = None) -> int:
    """Compile ``source`` with ``build`` (include, defines, std, units; cached) and run its
    ``main`` with ``args``; returns the exit status."""
    try:
        mod = _compile(source, build)
        return mod.run(args, program or Path(source).stem)
    except KernelCompileError as e:
        print(e, file=sys.stderr)
        return 1
    except GpusimError as e:
        print(f"gpusim: {e}", file=sys.stderr)
        return 1


def read_code_object(path: str = "", text: str = "") -> Any:
    """The device code of a ``--genco`` code object (a file, or its bytes in memory)."""
    from gpusim.errors import HipError, hipError_t
    from gpusim.hipcc.module import compile as hip_compile

    try:
        data = json.loads(Path(path).read_text() if path else text)
        assert data.get("gpusim_code_object") == 1
    except (OSError, ValueError, AssertionError):
        raise HipError(hipError_t.hipErrorInvalidImage if not path or os.path.exists(path)
                       else hipError_t.hipErrorFileNotFound,
                       f"hipModuleLoad: {path or 'the image'} is not a code object from "
                       "gpusim-hipcc --genco") from None
    text = data["text"].encode("latin-1").decode("utf-8", "surrogateescape")
    return hip_compile(text, filename=data["source"], include_dirs=data["include"],
                       defines=data["defines"], std=data.get("std", "c++17"), host=False)


def entry_point() -> None:
    sys.exit(main())
