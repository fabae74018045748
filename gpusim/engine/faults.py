"""Turn a fault raised inside generated code into a ``HipError`` a learner can act on.

The message names the kernel, the file, line and column, the source line, the thread and
block (as ``threadIdx``/``blockIdx`` triples), and for a bad index the array, its shape and
the index. Nothing was written out of bounds: the check runs before the access.
"""

from __future__ import annotations

from typing import Any

from gpusim.compile import CompiledKernel, shown_filename
from gpusim.compile.device import FAULT_ASSERT, FAULT_BARRIER, FAULT_BOUNDS, FAULT_WAVE
from gpusim.engine.advice import GUARD, bounds_advice
from gpusim.errors import HipError, hipError_t

_SPACE = {"global": "global", "shared": "LDS (shared)", "local": "private (local)",
          "const": "constant"}


def unflatten(linear: int, dims: tuple[int, int, int]) -> tuple[int, int, int]:
    """Linear index -> (x, y, z) with x fastest, as HIP numbers threads and blocks.

    >>> unflatten(70, (64, 2, 1))
    (6, 1, 0)
    """
    x, y = dims[0], dims[1]
    return (linear % x, linear // x % y, linear // (x * y))


def _array_shape(ck: CompiledKernel, site: Any, args: tuple) -> tuple | None:
    if ck.ir is not None and site.var in ck.ir.arrays:
        decl = ck.ir.arrays[site.var]
        return None if decl.dynamic else decl.shape
    if ck.ir is not None and site.var in ck.ir.params:
        arg = args[ck.ir.params.index(site.var)]
        return getattr(arg, "shape", None)
    return None


def _advice(ck: CompiledKernel, site: Any, value: int, limit: int) -> str:
    if site.func != ck.name:  # in a device function: its own source is not at hand
        return GUARD
    return bounds_advice(ck.source_lines, ck.firstlineno, line=site.line, array=site.array,
                         value=value, limit=limit)


def raised_exception(raises: tuple, thread: tuple[int, int, int],
                     block: tuple[int, int, int]) -> BaseException:
    """The host-side exception for a kernel's ``raise`` (``compile/passes/raises.py``), with
    numba.cuda's message: the raising thread, then the exception's first argument.

    >>> raised_exception((ValueError, ("bad x",)), (1, 0, 0), (2, 0, 0))
    ValueError('tid=[1, 0, 0] ctaid=[2, 0, 0]: bad x')
    """
    cls, args = raises
    where = f"tid={list(thread)} ctaid={list(block)}"
    return cls(f"{where}: {args[0]}" if args else where, *args[1:])


def fault_error(ck: CompiledKernel, fault_args: tuple, *, grid: tuple, block: tuple,
                args: tuple) -> BaseException:
    """The ``HipError`` for ``KernelFaultError(code, site, block, thread, value, limit)``
    (for the kernel's own ``raise``, its exception)."""
    code, site_no, b, t, value, limit = (int(a) for a in fault_args[:6])
    site = ck.sites[site_no]
    where = f"line {site.line}, column {site.col} of {shown_filename(site.filename)}"
    if site.func != ck.name:
        where += f" (device function '{site.func}')"
    text = ck.line_text(site.line) if site.func == ck.name else ""
    thread = f"threadIdx={unflatten(t, block)} of blockIdx={unflatten(b, grid)}" if t >= 0 \
        else f"blockIdx={unflatten(b, grid)}"
    src = f"\n    {text}" if text else ""
    if code == FAULT_BOUNDS:
        shape = _array_shape(ck, site, args)
        shape_text = f" (shape {shape})" if shape is not None else ""
        msg = (f"kernel '{ck.name}': out-of-bounds {site.what} of {_SPACE.get(site.space, '')} "
               f"array '{site.array}'{shape_text} at {where}: index {value} is outside "
               f"0..{limit - 1} in a dimension of size {limit}; {thread}.{src}\n"
               "Nothing outside the array was read or written: the kernel stopped at this "
               "access. " + _advice(ck, site, value, limit))
        if site.space == "shared":
            msg += (" (On AMD hardware an out-of-range LDS access is silently dropped or reads "
                    "0; the emulator reports it instead.)")
        return HipError(hipError_t.hipErrorIllegalAddress, msg)
    if code == FAULT_BARRIER and t < 0:  # work-groups disagree around a grid sync
        msg = (f"kernel '{ck.name}': divergent grid sync at {where}: {site.what} differs "
               f"between blockIdx={unflatten(value, grid)} and blockIdx={unflatten(b, grid)}."
               f"{src}\nEvery thread of the grid must reach the same grid syncs "
               "(cuda.cg.this_grid().sync()); on a GPU this hangs. Make the condition or loop "
               "bound the same for every block.")
        return HipError(hipError_t.hipErrorLaunchFailure, msg)
    if code == FAULT_BARRIER:
        first, exited = (int(a) for a in fault_args[6:8]) if len(fault_args) >= 8 else (-1, 0)
        among = f" (threadIdx={unflatten(first, block)} among them)" if first >= 0 else ""
        others = limit - value - 1
        more = f" and {others} other thread{'s' if others != 1 else ''}" if others > 0 else ""
        gone = (f" {exited} thread{'s' if exited != 1 else ''} had already returned; an exited "
                "thread is not waited for, as on AMD hardware." if exited else "")
        msg = (f"kernel '{ck.name}': divergent barrier at {where}: {site.what} was reached by "
               f"{value} of the {limit} live threads of blockIdx={unflatten(b, grid)}{among}; "
               f"threadIdx={unflatten(t, block)}{more} did not arrive (they took another branch "
               f"or left the loop).{gone}{src}\nEvery live thread of a block must reach the "
               "same barrier; on a GPU this hangs or corrupts LDS. Move the barrier out of the "
               "`if`/loop, or make its condition the same for the whole block.")
        return HipError(hipError_t.hipErrorLaunchFailure, msg)
    if code == FAULT_WAVE:  # an MFMA with lanes missing (compile/device/mfma.py)
        wave_no, lane = t // limit, t % limit
        nt = block[0] * block[1] * block[2]
        if t >= nt:
            why = (f"the block of {nt} threads ends inside wave {wave_no}, so lanes {lane}.."
                   f"{limit - 1} do not exist")
            fix = f"launch blocks of a multiple of {limit} threads"
        else:
            why = (f"only {value} of its {limit} lanes are active; threadIdx="
                   f"{unflatten(t, block)} (lane {lane}) is not active: it took another branch or "
                   "returned")
            fix = ("call the matrix instruction where every lane of the wave reaches it "
                   "(outside the `if`), and mask the data instead (load zeros)")
        msg = (f"kernel '{ck.name}': matrix instruction {site.what} at {where} needs all "
               f"{limit} lanes of a wavefront, but in wave {wave_no} of "
               f"blockIdx={unflatten(b, grid)} {why}.{src}\nThe matrix core "
               "reads every lane's registers of A, B and C; gpusim stops rather than use "
               f"undefined values. Fix: {fix}.")
        return HipError(hipError_t.hipErrorLaunchFailure, msg)
    if code == FAULT_ASSERT and site.raises is not None:  # the kernel's own `raise`
        return raised_exception(site.raises, unflatten(t, block), unflatten(b, grid))
    if code == FAULT_ASSERT:
        told = f": {site.what}" if site.what != "assert" else ""  # assert's own message
        msg = f"kernel '{ck.name}': assertion failed at {where} in {thread}{told}.{src}"
        return HipError(hipError_t.hipErrorAssert, msg)
    return HipError(hipError_t.hipErrorLaunchFailure,
                    f"kernel '{ck.name}' stopped with fault code {code} at {where}")
