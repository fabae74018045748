"""Code for a matrix-core statement: ``hip.mfma_*(a, b, acc)`` -> one ``_mfma`` call.

The call runs the instruction for every wave of the work-group (``device/mfma.py``), on
the per-thread storage of its operands. What the generated code shows a learner::

    # line 12: hip.mfma_f32_32x32x8bf16_1k(a, b, acc)  -- matrix core: v_mfma_f32_32x32x8_bf16
    #   (gfx942), D(32x32) = A(32x8 bf16) B(8x32) + C, per lane A 4, B 4, C/D 16; 32 cycles
    _mfma(a__l, b__l, acc__l, acc__l, _mf1_a, _mf1_b, _mf1_d, 32, 32, 8, 1, 5, 5, False, ...)

The instruction's layout tables are module constants (``_mf1_a`` ...), made when the
module is imported from the same tables the tests hold to AMD's calculator.
"""

from __future__ import annotations

import ast
from typing import Any

from gpusim.compile.device import mfma as dev
from gpusim.compile.ir import MFMA_OPS, Collective, KernelIR, walk_schedule
from gpusim.devices.mfma import MfmaInstruction, get_mfma
from gpusim.devices.mfma_math import flushes_subnormals

_VALUE_MODE = {"f32": dev.MODE_VALUE_F32, "f64": dev.MODE_VALUE_F64, "i8": dev.MODE_INT8,
               "fp8": dev.MODE_FP8_BITS, "bf8": dev.MODE_BF8_BITS}
MODE_NAMES = {v: k for k, v in vars(dev).items() if k.startswith("MODE_")}


def instruction(kir: KernelIR, node: Collective) -> MfmaInstruction:
    """The MFMA a collective node runs on the kernel's target (typed by ``infer``)."""
    return get_mfma(kir.target or "gfx942", "__builtin_amdgcn_" + node.op)


def decode_mode(kir: KernelIR, elem: str, operand: ast.expr) -> int:
    """How ``device/mfma.py`` reads this operand's stored elements (a ``MODE_*``)."""
    decl = kir.arrays.get(operand.id) if isinstance(operand, ast.Name) else None
    stored = decl.dtype if decl is not None else None
    if elem == "f16":  # a float16 array is held as uint16 bits (passes/half.py)
        return dev.MODE_F16_ROUND if stored is not None and stored.itemsize == 4 else (
            dev.MODE_F16_BITS)
    if elem == "bf16":
        return dev.MODE_BF16_BITS if stored is not None and stored.kind == "u" else (
            dev.MODE_BF16_ROUND)
    return _VALUE_MODE[elem]


def operand_source(kir: KernelIR, operand: ast.expr, fallback: str) -> str:
    """A private array's per-thread storage, a spilled number's, or the value itself."""
    if isinstance(operand, ast.Name) and operand.id in kir.arrays:
        return f"{operand.id}__l"
    return fallback


def mfma_lines(kir: KernelIR, node: Collective, tags: dict[str, str], operands: list[str],
               mask: str) -> tuple[list[str], list[str]]:
    """(the lines in the kernel, new module-level constants) of an MFMA statement.
    ``operands``: each operand as the generated code names it (``operand_source``);
    ``tags``: the layout tables made so far, one set per instruction (updated)."""
    inst = instruction(kir, node)
    a, b, c = operands[:3]
    d = operands[3] if len(operands) == 4 else c
    modes = [decode_mode(kir, inst.a_type, node.operands[0]),
             decode_mode(kir, inst.b_type, node.operands[1])]
    new = inst.name not in tags
    tag = tags.setdefault(inst.name, f"_mf{len(tags) + 1}")
    comment = (f"matrix core: {inst.name} ({inst.arch}), D({inst.m}x{inst.n}) = "
               f"A({inst.m}x{inst.k} {inst.a_type}) B({inst.k}x{inst.n}) + C, "
               f"{inst.blocks} block(s); {inst.cycles} cycles; A as "
               f"{MODE_NAMES[modes[0]].removeprefix('MODE_').lower()}")
    call = (f"_mfma({a}, {b}, {c}, {d}, {tag}_a, {tag}_b, {tag}_d, {inst.m}, {inst.n}, "
            f"{inst.k}, {inst.blocks}, {modes[0]}, {modes[1]}, {dev.D_KIND[inst.d_type]}, "
            f"{flushes_subnormals(inst)}, _MFMA_TABLES, {mask}, _nt, {kir.wave_size}, "
            f"{node.site}, _b)")
    consts = [f"{tag}_a, {tag}_b, {tag}_d = _mfma_layout(_get_mfma({inst.arch!r}, "
              f"{inst.name!r}))  # (block, row, col) of each (lane, element)"] if new else []
    return [f"# {comment}", call], consts


IMPORT = ("from gpusim.compile.device.mfma import TABLES as _MFMA_TABLES, _mfma  # noqa: F401\n"
          "from gpusim.compile.device.mfma import layout_maps as _mfma_layout  # noqa: F401\n"
          "from gpusim.devices.mfma import get_mfma as _get_mfma  # noqa: F401")


def uses_mfma(kir: Any) -> bool:
    """Whether the kernel has a matrix-core statement."""
    return any(isinstance(n, Collective) and n.op in MFMA_OPS
               for n in walk_schedule(kir.schedule))
