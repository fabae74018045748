"""hipify: translate CUDA C/C++ and numba.cuda Python to HIP, and say what did not port.

``from gpusim import hipify``, or the console script ``gpusim-hipify FILE``.

    CUDA text --tokenize (lexer)--> tokens --rename with HIPIFY's table (cpp, table)-->
        HIP text + conversions + report (unsupported / unknown names, with lines)
                  \\--warp-size checks (warp)--> wave64 warnings
    numba.cuda Python --ast (python)--> gpusim.hip text + report + warnings (python_warp)

Files: ``lexer.py`` (a C/C++ tokeniser that never loses a byte), ``cpp.py`` (CUDA C/C++
-> HIP, token by token), ``declarations.py`` (names a file declares itself: not renamed),
``table.py`` (the CUDA -> HIP mapping), ``warp.py`` / ``python_warp.py`` (warp-size-32
assumptions in C++ / in Python kernels), ``python.py`` (numba.cuda -> gpusim.hip by
``ast`` positions), ``report.py`` (the result: text, conversions, what did not port),
``cli.py`` and ``__main__.py`` (``gpusim-hipify FILE``, ``python -m gpusim.hipify``).

The mapping is data generated from ROCm/HIPIFY (data/cuda2hip.json; data/README.md
says how and from which commit).

>>> r = hipify_cpp('#include <cuda_runtime.h>\\ncudaFree(p);\\n')
>>> print(r.text, end="")
#include <hip/hip_runtime.h>
hipFree(p);
"""

from __future__ import annotations

from pathlib import Path

from gpusim.hipify.cpp import hipify_cpp
from gpusim.hipify.python import hipify_python
from gpusim.hipify.report import WAVE64, Conversion, Finding, Result
from gpusim.hipify.table import Table, load_table

PYTHON_SUFFIXES = (".py", ".pyw")


def hipify_file(path: str | Path, **options) -> Result:
    """Translate a file: Python by its suffix (.py), CUDA C/C++ otherwise.

    ``options`` go to :func:`hipify_cpp` (``hip_kernel_syntax``, ``roc``).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
    ...     _ = f.write("cudaDeviceSynchronize();\\n")
    >>> hipify_file(f.name).text
    'hipDeviceSynchronize();\\n'
    >>> os.unlink(f.name)
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    if path.suffix in PYTHON_SUFFIXES:
        if options:
            raise ValueError(f"{path}: {sorted(options)} apply to CUDA C/C++ only")
        return hipify_python(text)
    return hipify_cpp(text, **options)


__all__ = ["hipify_cpp", "hipify_python", "hipify_file", "load_table", "Table", "Result",
           "Finding", "Conversion", "WAVE64"]
