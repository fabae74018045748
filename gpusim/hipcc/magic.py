"""The ``%%hip`` cell magic: compile the cell's HIP C++ and, if it has ``main``, run it.

The cell's kernels become notebook variables (``saxpy``), ready to launch from Python;
the module is ``_hip``. ``%%hip --python`` also prints the generated Python. Output of
``printf`` appears in the cell, then the exit status; errors are shown as clang or
gpusim.hipcc reports them, without a Python traceback.
"""

from __future__ import annotations

from typing import Any

from gpusim.errors import GpusimError, KernelCompileError
from gpusim.hipcc.lines import to_cpp


def hip_cell(line: str, cell: str, user_ns: dict[str, Any] | None = None) -> int | None:
    """Run one ``%%hip`` cell; returns main's exit status (None without main).

    >>> hip_cell("", '''
    ... #include <cstdio>
    ... int main() { printf("hello from HIP C++\\\\n"); return 0; }
    ... ''')
    hello from HIP C++
    exit status 0
    0
    """
    from gpusim.hipcc.module import compile as hip_compile

    # The course's exercise markers (### BEGIN SOLUTION, #> starter lines) are not C++;
    # blank them, keeping every other line where it is for clang's line numbers.
    cell = "\n".join("" if ln.lstrip().startswith(("### ", "#>")) else ln
                     for ln in cell.split("\n"))
    try:
        mod = hip_compile(cell)
    except KernelCompileError as e:
        print(e)
        return None
    for err in mod.errors.values():  # kernels gpusim cannot run; the rest of the cell can
        print(err)
    if user_ns is not None:
        user_ns.update(mod.kernels)  # saxpy, and template instances as scale__float
        user_ns["_hip"] = mod
    if "--python" in line.split():
        print(mod.python_source)
    if not mod.has_main:
        return None
    try:
        status = mod.run()
    except GpusimError as e:
        print(to_cpp(e))
        return None
    print(f"exit status {status}")
    return status


def load(ipython: Any) -> None:
    """Register ``%%hip`` with an IPython shell (``%load_ext gpusim``)."""
    def hip(line: str, cell: str) -> None:
        hip_cell(line, cell, ipython.user_ns)
    ipython.register_magic_function(hip, magic_kind="cell", magic_name="hip")
