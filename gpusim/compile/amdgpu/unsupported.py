"""What the AMDGPU lowering cannot translate yet, and the error that says so.

Each gap is reported with the kernel, file, line and column of the construct (the same
format as every other compile error) and a ``construct`` attribute tools can test, so a
caller can fall back to counts it was given::

    kernel.resources(x, out, device="mi300x", fallback={"vgprs": 32, "sgprs": 24})

Math functions: LLVM's AMDGPU backend expands only a few math intrinsics itself; the
rest are calls into AMD's device library (ocml), which llvmlite does not ship. What
lowers (``MATH_F32``/``MATH_ANY``) and what does not is a table, checked before LLVM
sees the IR so the message names the user's line rather than an LLVM "Cannot select".

>>> "exp" in MATH_F32, "tan" in MATH_F32, "sqrt" in MATH_ANY
(True, False, True)
"""

from __future__ import annotations

import ast
from typing import Any

from gpusim.compile.diagnostics import compile_error
from gpusim.errors import KernelCompileError

# Supported for float32 (and float16, through float32) only: LLVM expands these to
# v_exp_f32 / v_log_f32 / v_sin_f32 sequences; float64 needs ocml.
MATH_F32 = {"exp", "exp2", "log", "log2", "log10", "sin", "cos", "pow"}
# Supported for every float type: single instructions or short exact expansions.
MATH_ANY = {"sqrt", "fabs", "floor", "ceil", "trunc", "rint", "copysign", "fmin", "fmax",
            "minimum", "maximum", "fma", "fmod", "isnan", "isinf", "isfinite"}

SUPPORTED_SUMMARY = (
    "lowered: arithmetic, comparisons, casts, if/elif/else, while, for range(...), break, "
    "continue, return, assert, global/LDS/local/const arrays, atomics, barriers, fences, "
    "shuffles, ballot/any/all, popc/ffs/clz/brev/fma, and math sqrt/fabs/floor/ceil/trunc/"
    "rint/copysign/fmin/fmax/fmod/isnan/isinf/isfinite (any float), exp/exp2/log/log2/"
    "log10/sin/cos/pow (float32)"
)


class AmdgpuLoweringError(KernelCompileError):
    """The kernel uses a construct the AMDGPU lowering does not translate yet.

    Carries ``lineno``, ``col``, ``construct`` and ``kernel`` like every compile error.
    """


def unsupported(kir: Any, node: ast.AST | None, construct: str, why: str = "",
                instead: str = "") -> AmdgpuLoweringError:
    """An ``AmdgpuLoweringError`` for ``construct`` at ``node`` of kernel ``kir``."""
    message = f"{construct} cannot be lowered to AMDGPU code yet"
    if why:
        message += f" ({why})"
    err = compile_error(kir.src, node, message, construct=construct, kernel=kir.name,
                        instead=instead or "pass fallback={'vgprs': ..., 'sgprs': ...} to "
                        "kernel.resources() to use counts you know")
    out = AmdgpuLoweringError(str(err))
    for attr in ("lineno", "col", "filename", "construct", "kernel"):
        setattr(out, attr, getattr(err, attr))
    return out


def math_unsupported(kir: Any, node: ast.AST, name: str, ty: Any) -> AmdgpuLoweringError:
    """The error for a math function LLVM cannot expand without AMD's device library."""
    name = getattr(node, "qualname", name)  # math.tan, np.arctan, ...
    if name.rpartition(".")[2] in MATH_F32:
        return unsupported(kir, node, f"{name}() on {ty}",
                           "float64 needs AMD's device library (ocml), which is not bundled",
                           instead="compute in np.float32, or pass fallback= counts")
    return unsupported(kir, node, f"{name}()",
                       "it needs AMD's device library (ocml), which is not bundled",
                       instead="pass fallback={'vgprs': ..., 'sgprs': ...} to "
                       "kernel.resources()")
