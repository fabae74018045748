"""The kernel compiler as a list of passes, run in order.

``PASSES`` is the whole compiler; each pass is a function ``KernelIR -> None`` in its own
module. ``GPUSIM_DEBUG=ir`` (or ``gpusim.config.debug = "ir"``) prints the IR after every
pass, ``ir:split`` after one pass, ``source`` the generated module.

>>> [name for name, _ in PASSES]  # doctest: +NORMALIZE_WHITESPACE
['parse', 'subset', 'resolve', 'normalize', 'uniformity', 'lower', 'infer', 'half',
 'split', 'liveness', 'zerodiv', 'ranges', 'generate']
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from gpusim.compile.codegen import compile_module, generate, reference_module
from gpusim.compile.compiled import CompiledKernel
from gpusim.compile.ir import KernelIR, unparse, walk_schedule
from gpusim.compile.passes import (
    analyze,
    check_subset,
    infer,
    lower,
    namespace,
    normalize,
    parse_function,
    plan,
    resolve_function,
    split,
)
from gpusim.compile.passes.grid_group import exit_early
from gpusim.compile.passes.half import lower_half, storage_types
from gpusim.compile.passes.ranges import plan_ranges
from gpusim.compile.passes.zero_division import guard_divisions
from gpusim.errors import GpusimError, KernelCompileError


def _parse(kir: KernelIR) -> None:
    kir.func, kir.src = parse_function(kir.pyfunc)


def _subset(kir: KernelIR) -> None:
    check_subset(kir.func, kir.src, kernel=kir.name)


def _resolve(kir: KernelIR) -> None:
    unit = resolve_function(kir.func, kir.src, ns=namespace(kir.pyfunc),
                            wave_size=kir.wave_size, kernel=kir.name)
    kir.params, kir.renamed = unit.params, unit.renamed
    kir.func.body = exit_early(kir.func.body)  # a kernel-ending `if` around a grid sync
    kir.constants.update(unit.constants)
    kir.const_arrays.update(unit.const_arrays)
    if kir.arg_types and len(kir.arg_types) != len(kir.params):
        raise KernelCompileError(f"kernel '{kir.name}' takes {len(kir.params)} arguments "
                                 f"({', '.join(kir.params)}), got {len(kir.arg_types)}")


PASSES: list[tuple[str, Callable[[KernelIR], None]]] = [
    ("parse", _parse),  # source -> ast.FunctionDef with file line numbers
    ("subset", _subset),  # reject unsupported Python (try, lambda, f-strings, ...)
    ("resolve", _resolve),  # names -> intrinsics, constants, casts, device functions
    ("normalize", normalize),  # one barrier/collective per statement; inline device fns
    ("uniformity", analyze),  # which values are the same in every thread of a block
    ("lower", lower),  # divergent control flow around barriers -> mask-friendly form
    ("infer", infer),  # numba types of every variable
    ("half", lower_half),  # float16 -> float32 values and uint16 arrays (numba's CPU has none)
    ("split", split),  # cut at barriers/collectives -> regions and block-level nodes
    ("liveness", plan),  # per-thread arrays for values that cross a cut
    ("zerodiv", guard_divisions),  # debug=True: a division by zero raises
    ("ranges", plan_ranges),  # regions whose indices stay in bounds: run unchecked
    ("generate", generate),  # Python source for numba
]


def _debug_wants(what: str, pass_name: str) -> bool:
    from gpusim.config import config

    for item in (config.debug or "").split(","):
        item = item.strip()
        if item == what or item == f"{what}:{pass_name}":
            return True
    return False


def dump(kir: KernelIR, pass_name: str) -> str:
    """The IR as text after ``pass_name`` (what ``GPUSIM_DEBUG=ir`` prints)."""
    lines = [f"=== gpusim IR of kernel '{kir.name}' after pass '{pass_name}' ==="]
    if kir.schedule:
        for node in walk_schedule(kir.schedule):
            fields = {k: v for k, v in vars(node).items() if k not in ("body", "orelse", "stmts")}
            lines.append(f"{type(node).__name__} {fields}")
            for stmt in getattr(node, "stmts", []):
                lines.extend("    " + ln for ln in unparse(stmt).splitlines())
    elif kir.func is not None:
        lines.append(unparse(kir.func))
    return "\n".join(lines)


def front_end(pyfunc: Any, *, wave_size: int, arg_types: tuple = (),
              passes: tuple[str, ...] | None = None, mode: str = "fast",
              debug: bool = False, target: str = "", versioned: bool = True) -> KernelIR:
    """Run the passes (all, or those named) and return the IR.

    ``mode`` chooses the generated code: "fast", or "check" (the sanitizer's
    instrumented accesses, see ``codegen/instrument.py``). ``debug``: numba.cuda's
    ``debug=True`` (a division by zero raises, ``passes/zero_division.py``). ``target``:
    the device's LLVM processor (``gfx942``), needed by matrix-core instructions.
    ``versioned=False``: every region checked, one copy (pass ``ranges`` skipped): faster
    to compile, slower to run.

    >>> def k(out):
    ...     out[0] = 1
    >>> front_end(k, wave_size=64, passes=("parse",)).func.name
    'k'
    """
    kir = KernelIR(name=getattr(pyfunc, "__name__", "kernel"), pyfunc=pyfunc,
                   arg_types=tuple(arg_types), wave_size=wave_size, mode=mode, debug=debug,
                   target=target, versioned=versioned)
    for name, run in PASSES:
        if passes is not None and name not in passes:
            continue
        try:
            run(kir)
        except GpusimError:
            raise
        except Exception as exc:  # a compiler bug: say where it happened
            raise KernelCompileError(
                f"internal error in compiler pass '{name}' for kernel '{kir.name}': "
                f"{type(exc).__name__}: {exc} (please report this with the kernel)") from exc
        if _debug_wants("ir", name):
            print(dump(kir, name), file=sys.stderr)
    if _debug_wants("source", "generate") and kir.source:
        print(kir.source, file=sys.stderr)
    return kir


def compile_kernel(pyfunc: Any, arg_types: tuple, *, wave_size: int,
                   reference: bool = False, mode: str = "fast", defer: bool = False,
                   debug: bool = False, target: str = "", versioned: bool = True
                   ) -> CompiledKernel:
    """Compile ``pyfunc`` for ``arg_types`` (numba types) and a wave size.

    ``reference=True`` runs the generated code as plain Python (slow, but no numba).
    ``mode="check"`` generates the sanitizer's instrumented code. ``defer=True`` runs
    every pass but leaves numba's machine code to ``CompiledKernel.finish_compile()``.
    """
    kir = front_end(pyfunc, wave_size=wave_size, arg_types=arg_types, mode=mode, debug=debug,
                    target=target, versioned=versioned)
    if reference:
        mod = reference_module(kir)
        return CompiledKernel.from_ir(kir, mod.run, mod.workspace, reference=True)
    mod = compile_module(kir, storage_types(arg_types), defer=defer)
    ck = CompiledKernel.from_ir(kir, mod.run, mod.workspace, reference=False)
    ck.pending = mod.finish if defer else None
    return ck
