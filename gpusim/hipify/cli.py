"""``gpusim-hipify FILE``: HIP source on stdout, the report on stderr.

Options follow hipify-perl's where it has one (``--hip-kernel-execution-syntax``,
``--roc``, ``--print-stats``, ``--examine``, ``--quiet-warnings``, ``-o``).

Exit status, as hipify-perl's:
  0  translated, whatever the report on stderr says (names left as they were because
     HIP has no equivalent or HIPIFY's table does not know them, wave64 hazards): they
     are warnings, as hipify-perl prints them; ``Result.unmapped`` lists them for a
     script that wants to fail on them
  2  nothing translated: bad usage, unreadable file, or Python that does not parse
     (hipify-perl dies with the open error's errno, 2 for a missing file)

>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
...     _ = f.write("cudaFree(p);\\n")
>>> main([f.name])
hipFree(p);
0
>>> os.unlink(f.name)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gpusim.hipify import PYTHON_SUFFIXES
from gpusim.hipify.cpp import hipify_cpp
from gpusim.hipify.python import hipify_python


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpusim-hipify",
        description="Translate CUDA C/C++ (or numba.cuda Python, by the .py suffix) to HIP. "
                    "HIP source goes to stdout; what could not be mapped and the wave64 "
                    "warnings go to stderr.",
        epilog="exit status: 0 translated (what could not be mapped is a warning on "
               "stderr, as with hipify-perl); 2 bad usage, unreadable input, or Python that "
               "does not parse")
    parser.add_argument("file", help="the CUDA (.cu, .cuh, .cpp, ...) or Python (.py) file; "
                                     "- reads stdin as CUDA")
    parser.add_argument("--hip-kernel-execution-syntax", action="store_true",
                        help="rewrite <<<...>>> launches as hipLaunchKernelGGL(...)")
    parser.add_argument("--roc", action="store_true",
                        help="translate library calls to roc* (rocBLAS, rocRAND, ...) "
                             "instead of hip* where possible")
    parser.add_argument("--language", choices=("cuda", "python"),
                        help="override the choice made from the file's suffix")
    parser.add_argument("--print-stats", action="store_true",
                        help="print hipify-perl's statistics on stderr")
    parser.add_argument("--examine", action="store_true",
                        help="--print-stats and --no-output")
    parser.add_argument("--no-output", action="store_true", help="do not write the HIP source")
    parser.add_argument("--quiet-warnings", action="store_true",
                        help="do not print the report of warnings")
    parser.add_argument("-o", dest="output", type=Path, help="write the HIP source here")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the console script; returns the exit status."""
    args = _parser().parse_args(argv)
    name = "<stdin>" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"gpusim-hipify: cannot read {name}: {exc}", file=sys.stderr)
        return 2
    language = args.language or ("python" if name.endswith(PYTHON_SUFFIXES) else "cuda")
    if language == "python":
        if args.hip_kernel_execution_syntax or args.roc:
            print("gpusim-hipify: --hip-kernel-execution-syntax and --roc apply to CUDA C/C++, "
                  "not Python", file=sys.stderr)
            return 2
        try:
            result = hipify_python(text)
        except SyntaxError as exc:
            print(f"gpusim-hipify: {name}:{exc.lineno}: not valid Python: {exc.msg}",
                  file=sys.stderr)
            return 2
    else:
        result = hipify_cpp(text, hip_kernel_syntax=args.hip_kernel_execution_syntax,
                            roc=args.roc)
    if args.output:
        args.output.write_text(result.text, encoding="utf-8")
    elif not (args.no_output or args.examine):
        sys.stdout.write(result.text)
    if result.findings and not args.quiet_warnings:
        print(result.report(name), file=sys.stderr)
    if args.print_stats or args.examine:
        print(result.statistics(name), file=sys.stderr)
    return 0  # warnings do not fail a translation (hipify-perl exits 0 with them too)


def entry_point() -> None:
    """The ``gpusim-hipify`` console script."""
    sys.exit(main())
