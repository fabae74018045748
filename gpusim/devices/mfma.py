"""Matrix-core (MFMA) instructions of CDNA2 (gfx90a) and CDNA3 (gfx942): shapes, cost, lane layouts.

An MFMA is a wavefront-wide instruction, like a shuffle: all 64 lanes hand in a few
register elements of A and B, the matrix core computes ``D = A @ B + C`` for one or more
independent *blocks*, and every lane gets back a few elements of D. Which lane holds
which element is fixed by the instruction; this module says where, for every dense
MFMA of gfx90a and gfx942, with formulas a learner can follow (tested entry for entry
against AMD's matrix instruction calculator, tests/mfma/).

Take ``v_mfma_f32_32x32x8_bf16`` (M=32, N=32, K=8, one block; ``..._1k`` on gfx90a)::

    A (32x8 bf16): 4 elements per lane        D (32x32 f32): 16 registers per lane
        lane  0..31 : row i = lane,  k 0..3       lane  0..31 : column j = lane,
        lane 32..63 : row i = lane-32, k 4..7         rows 0-3, 8-11, 16-19, 24-27
                                                  lane 32..63 : column j = lane-32,
    B (8x32) is A's picture transposed:               rows 4-7, 12-15, 20-23, 28-31
        column j by lane, k in the element        (4 consecutive rows in 4 consecutive
                                                   registers, then the next lane half)

The general rules, per block ``b`` of ``blocks`` (``kpack`` = A elements per lane
= M*K*blocks/64):

- A[i][k] of block b: lane ``i + M*b + M*blocks*(k // kpack)``, element ``k % kpack``.
- B[k][j] of block b: the same with j and N.
- D[i][j] (and C) with 32-bit results: rows come in groups of 4 held by one lane in 4
  consecutive registers; the groups (block-major) are dealt to the 64/N lane groups
  first, then to the next 4 registers: with ``t = b*(M//4) + i//4`` and ``G = 64//N``,
  lane ``j + N*(t % G)``, register ``4*(t // G) + i % 4``.
- D[i][j] with 64-bit results (f64): rows are dealt one per lane group, blocks side by
  side in a lane group: with ``G = 64 // (N*blocks)``, lane ``j + N*b + N*blocks*(i % G)``,
  register pair ``i // G``.

Cost: ``passes`` is the MFMA's issue length in passes of 4 cycles as tabulated in the
AMD Instinct MI300 (CDNA3) ISA Reference Guide ("Matrix arithmetic instructions":
``NumPasses``) and the MI200 (CDNA2) ISA guide; FLOPs = 2*M*N*K*blocks (``ops`` for i8).
Both are checked against the calculator's "Execution cycles" and "FLOPs" in the tests.

>>> from gpusim.devices.mfma import get_mfma
>>> inst = get_mfma("gfx942", "v_mfma_f32_32x32x8_bf16")
>>> inst.m, inst.n, inst.k, inst.blocks, inst.cycles, inst.flops
(32, 32, 8, 1, 32, 16384)
>>> inst.a_per_lane, inst.d_per_lane, inst.builtin
(4, 16, '__builtin_amdgcn_mfma_f32_32x32x8bf16_1k')
>>> inst.a_lane_element(i=5, k=6), inst.d_lane_element(i=9, j=3)
((37, 2), (3, 5))
>>> get_mfma("gfx90a", "v_mfma_f32_32x32x8bf16_1k").cycles   # twice as long on CDNA2
64
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from gpusim.errors import GpusimError

WAVE = 64
ARCHS = ("gfx90a", "gfx942")


class MfmaError(GpusimError, KeyError):
    """An MFMA that this architecture does not have (the message lists what it has)."""

    def __str__(self) -> str:  # KeyError would print the repr of the message
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class MfmaInstruction:
    """One MFMA of one architecture: what it computes, how long it takes, where data lives."""

    name: str        # ISA mnemonic, e.g. "v_mfma_f32_32x32x8_bf16"
    arch: str        # "gfx90a" or "gfx942"
    m: int
    n: int
    k: int
    blocks: int      # independent M x N x K products done at once
    a_type: str      # element type of A (src0): f32 xf32 f16 bf16 i8 f64 fp8 bf8
    b_type: str      # element type of B (src1)
    d_type: str      # element type of C and D: f32, i32 or f64
    passes: int      # issue length in passes of 4 cycles (ISA guide NumPasses)
    builtin: str     # the clang builtin that emits it, __builtin_amdgcn_mfma_...

    @property
    def cycles(self) -> int:
        return 4 * self.passes

    @property
    def flops(self) -> int:
        """Floating-point (or integer, for i8) operations: one multiply and one add each."""
        return 2 * self.m * self.n * self.k * self.blocks

    @property
    def a_per_lane(self) -> int:
        """A elements each lane holds (the ``kpack``): M*K*blocks / 64."""
        return self.m * self.k * self.blocks // WAVE

    @property
    def b_per_lane(self) -> int:
        return self.n * self.k * self.blocks // WAVE

    @property
    def d_per_lane(self) -> int:
        """C/D elements each lane holds: M*N*blocks / 64 (registers, or register pairs for f64)."""
        return self.m * self.n * self.blocks // WAVE

    @property
    def a_bits(self) -> int:
        return TYPE_BITS[self.a_type]

    @property
    def d_bits(self) -> int:
        return TYPE_BITS[self.d_type]

    @property
    def a_gprs(self) -> int:
        """32-bit VGPRs holding one lane's A (or B) operand."""
        return max(1, self.a_per_lane * self.a_bits // 32)

    @property
    def d_gprs(self) -> int:
        """32-bit VGPRs (or AGPRs) holding one lane's C or D."""
        return self.d_per_lane * self.d_bits // 32

    # -- where one matrix element lives ------------------------------------------------
    def a_lane_element(self, i: int, k: int, block: int = 0) -> tuple[int, int]:
        """(lane, element index in that lane's A vector) of A[i][k] in ``block``."""
        kpack = self.a_per_lane
        return i + self.m * block + self.m * self.blocks * (k // kpack), k % kpack

    def b_lane_element(self, k: int, j: int, block: int = 0) -> tuple[int, int]:
        """(lane, element index in that lane's B vector) of B[k][j] in ``block``."""
        kpack = self.b_per_lane
        return j + self.n * block + self.n * self.blocks * (k // kpack), k % kpack

    def d_lane_element(self, i: int, j: int, block: int = 0) -> tuple[int, int]:
        """(lane, element index in that lane's C/D vector) of D[i][j] in ``block``."""
        if self.d_bits == 64:
            groups = WAVE // (self.n * self.blocks)
            return j + self.n * block + self.n * self.blocks * (i % groups), i // groups
        groups = WAVE // self.n
        t = block * (self.m // 4) + i // 4
        return j + self.n * (t % groups), 4 * (t // groups) + i % 4

    # -- whole-operand maps: what each (lane, element) holds --------------------------
    def a_map(self) -> np.ndarray:
        """int array [64, a_per_lane, 3]: (block, i, k) held by each lane's A element."""
        return _inverse(self, "a")

    def b_map(self) -> np.ndarray:
        """int array [64, b_per_lane, 3]: (block, k, j) held by each lane's B element."""
        return _inverse(self, "b")

    def d_map(self) -> np.ndarray:
        """int array [64, d_per_lane, 3]: (block, i, j) held by each lane's C/D element."""
        return _inverse(self, "d")


TYPE_BITS = {"f64": 64, "f32": 32, "xf32": 32, "i32": 32, "f16": 16, "bf16": 16,
             "i8": 8, "fp8": 8, "bf8": 8}


@cache
def _inverse(inst: MfmaInstruction, operand: str) -> np.ndarray:
    """Invert the forward formulas; each (lane, element) slot must be filled exactly once."""
    rows, cols = {"a": (inst.m, inst.k), "b": (inst.k, inst.n), "d": (inst.m, inst.n)}[operand]
    place = {"a": inst.a_lane_element, "b": inst.b_lane_element,
             "d": inst.d_lane_element}[operand]
    per_lane = {"a": inst.a_per_lane, "b": inst.b_per_lane, "d": inst.d_per_lane}[operand]
    out = np.full((WAVE, per_lane, 3), -1, dtype=np.int64)
    for b in range(inst.blocks):
        for r in range(rows):
            for c in range(cols):
                lane, elem = place(r, c, b)
                assert out[lane, elem, 0] == -1, (inst.name, operand, lane, elem)
                out[lane, elem] = (b, r, c)
    assert (out >= 0).all(), (inst.name, operand)
    out.flags.writeable = False
    return out


# name: (M, N, K, blocks, A type, B type, D type, passes). Passes from the CDNA2 and CDNA3
# ISA guides' MFMA tables (cycles = 4 x passes); the builtin is derived from the name.
_GFX90A = {
    "v_mfma_f32_32x32x1f32": (32, 32, 1, 2, "f32", "f32", "f32", 16),
    "v_mfma_f32_16x16x1f32": (16, 16, 1, 4, "f32", "f32", "f32", 8),
    "v_mfma_f32_4x4x1f32": (4, 4, 1, 16, "f32", "f32", "f32", 2),
    "v_mfma_f32_32x32x2f32": (32, 32, 2, 1, "f32", "f32", "f32", 16),
    "v_mfma_f32_16x16x4f32": (16, 16, 4, 1, "f32", "f32", "f32", 8),
    "v_mfma_f32_32x32x4f16": (32, 32, 4, 2, "f16", "f16", "f32", 16),
    "v_mfma_f32_16x16x4f16": (16, 16, 4, 4, "f16", "f16", "f32", 8),
    "v_mfma_f32_4x4x4f16": (4, 4, 4, 16, "f16", "f16", "f32", 2),
    "v_mfma_f32_32x32x8f16": (32, 32, 8, 1, "f16", "f16", "f32", 16),
    "v_mfma_f32_16x16x16f16": (16, 16, 16, 1, "f16", "f16", "f32", 8),
    "v_mfma_i32_32x32x4i8": (32, 32, 4, 2, "i8", "i8", "i32", 16),
    "v_mfma_i32_16x16x4i8": (16, 16, 4, 4, "i8", "i8", "i32", 8),
    "v_mfma_i32_4x4x4i8": (4, 4, 4, 16, "i8", "i8", "i32", 2),
    "v_mfma_i32_32x32x8i8": (32, 32, 8, 1, "i8", "i8", "i32", 16),
    "v_mfma_i32_16x16x16i8": (16, 16, 16, 1, "i8", "i8", "i32", 8),
    "v_mfma_f32_32x32x4bf16_1k": (32, 32, 4, 2, "bf16", "bf16", "f32", 16),
    "v_mfma_f32_16x16x4bf16_1k": (16, 16, 4, 4, "bf16", "bf16", "f32", 8),
    "v_mfma_f32_4x4x4bf16_1k": (4, 4, 4, 16, "bf16", "bf16", "f32", 2),
    "v_mfma_f32_32x32x8bf16_1k": (32, 32, 8, 1, "bf16", "bf16", "f32", 16),
    "v_mfma_f32_16x16x16bf16_1k": (16, 16, 16, 1, "bf16", "bf16", "f32", 8),
    "v_mfma_f32_32x32x2bf16": (32, 32, 2, 2, "bf16", "bf16", "f32", 16),
    "v_mfma_f32_16x16x2bf16": (16, 16, 2, 4, "bf16", "bf16", "f32", 8),
    "v_mfma_f32_4x4x2bf16": (4, 4, 2, 16, "bf16", "bf16", "f32", 2),
    "v_mfma_f32_32x32x4bf16": (32, 32, 4, 1, "bf16", "bf16", "f32", 16),
    "v_mfma_f32_16x16x8bf16": (16, 16, 8, 1, "bf16", "bf16", "f32", 8),
    "v_mfma_f64_16x16x4f64": (16, 16, 4, 1, "f64", "f64", "f64", 8),
    "v_mfma_f64_4x4x4f64": (4, 4, 4, 4, "f64", "f64", "f64", 4),
}

# gfx942 renamed the CDNA2 instructions (blocks and an underscore in the name) and halved
# the passes of the 1-block f16/bf16/i8 shapes; the clang builtins keep the CDNA2 names.
_GFX942 = {
    "v_mfma_f32_32x32x1_2b_f32": ("v_mfma_f32_32x32x1f32", 16),
    "v_mfma_f32_16x16x1_4b_f32": ("v_mfma_f32_16x16x1f32", 8),
    "v_mfma_f32_4x4x1_16b_f32": ("v_mfma_f32_4x4x1f32", 2),
    "v_mfma_f32_32x32x2_f32": ("v_mfma_f32_32x32x2f32", 16),
    "v_mfma_f32_16x16x4_f32": ("v_mfma_f32_16x16x4f32", 8),
    "v_mfma_f32_32x32x4_2b_f16": ("v_mfma_f32_32x32x4f16", 16),
    "v_mfma_f32_16x16x4_4b_f16": ("v_mfma_f32_16x16x4f16", 8),
    "v_mfma_f32_4x4x4_16b_f16": ("v_mfma_f32_4x4x4f16", 2),
    "v_mfma_f32_32x32x8_f16": ("v_mfma_f32_32x32x8f16", 8),
    "v_mfma_f32_16x16x16_f16": ("v_mfma_f32_16x16x16f16", 4),
    "v_mfma_i32_32x32x4_2b_i8": ("v_mfma_i32_32x32x4i8", 16),
    "v_mfma_i32_16x16x4_4b_i8": ("v_mfma_i32_16x16x4i8", 8),
    "v_mfma_i32_4x4x4_16b_i8": ("v_mfma_i32_4x4x4i8", 2),
    "v_mfma_f32_32x32x4_2b_bf16": ("v_mfma_f32_32x32x4bf16_1k", 16),
    "v_mfma_f32_16x16x4_4b_bf16": ("v_mfma_f32_16x16x4bf16_1k", 8),
    "v_mfma_f32_4x4x4_16b_bf16": ("v_mfma_f32_4x4x4bf16_1k", 2),
    "v_mfma_f32_32x32x8_bf16": ("v_mfma_f32_32x32x8bf16_1k", 8),
    "v_mfma_f32_16x16x16_bf16": ("v_mfma_f32_16x16x16bf16_1k", 4),
    "v_mfma_f64_16x16x4_f64": ("v_mfma_f64_16x16x4f64", 8),
    "v_mfma_f64_4x4x4_4b_f64": ("v_mfma_f64_4x4x4f64", 4),
}
# New in CDNA3 (builtin = the mnemonic without "v_"): xf32, 2-register i8, fp8/bf8.
_GFX942_NEW = {
    "v_mfma_f32_16x16x8_xf32": (16, 16, 8, 1, "xf32", "xf32", "f32", 4),
    "v_mfma_f32_32x32x4_xf32": (32, 32, 4, 1, "xf32", "xf32", "f32", 8),
    "v_mfma_i32_32x32x16_i8": (32, 32, 16, 1, "i8", "i8", "i32", 8),
    "v_mfma_i32_16x16x32_i8": (16, 16, 32, 1, "i8", "i8", "i32", 4),
    **{f"v_mfma_f32_{shape}_{a}_{b}": (*dims, a, b, "f32", passes)
       for shape, dims, passes in (("16x16x32", (16, 16, 32, 1), 4),
                                   ("32x32x16", (32, 32, 16, 1), 8))
       for a in ("bf8", "fp8") for b in ("bf8", "fp8")},
}


def _builtin(name: str) -> str:
    return "__builtin_amdgcn_" + name.removeprefix("v_")


@cache
def _table(arch: str) -> dict[str, MfmaInstruction]:
    if arch == "gfx90a":
        rows = {name: (*fields, name) for name, fields in _GFX90A.items()}
    elif arch == "gfx942":
        rows = {name: (*_GFX90A[old][:7], passes, old) for name, (old, passes) in _GFX942.items()}
        rows.update({name: (*fields, name) for name, fields in _GFX942_NEW.items()})
    else:
        raise MfmaError(f"no MFMA table for {arch!r}: gpusim models MFMA on {', '.join(ARCHS)}")
    return {name: MfmaInstruction(name, arch, *row[:8], builtin=_builtin(row[8]))
            for name, row in rows.items()}


def list_mfma(arch: str) -> list[str]:
    """Every dense MFMA mnemonic of ``arch`` ("gfx90a" or "gfx942"), in ISA-table order."""
    return list(_table(arch))


def builtin_names() -> list[str]:
    """Every MFMA clang builtin of gfx90a and gfx942 (``__builtin_amdgcn_mfma_...``),
    sorted: the names HIP C++ calls and ``hip.mfma_*`` mirrors in Python kernels."""
    return sorted({inst.builtin for arch in ARCHS for inst in _table(arch).values()})


def get_mfma(arch: str, name: str) -> MfmaInstruction:
    """The MFMA ``name`` of ``arch``: its ISA mnemonic (``v_mfma_...``), with or without
    ``v_``, or its clang builtin (``__builtin_amdgcn_mfma_...``)."""
    table = _table(arch)
    key = name if name.startswith("v_") else "v_" + name.removeprefix("__builtin_amdgcn_")
    if key in table:
        return table[key]
    for inst in table.values():
        if inst.builtin == name or inst.builtin == "__builtin_amdgcn_" + key[2:]:
            return inst
    raise MfmaError(f"{arch} has no MFMA {name!r}; it has: {', '.join(table)}")
