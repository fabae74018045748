"""Matrix-core instructions in the kernel language: ``hip.mfma_*``, one per clang builtin.

HIP C++ calls ``__builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0)`` on vector
registers; a ``@hip.jit`` kernel calls ``hip.mfma_f32_32x32x8bf16_1k(a, b, acc)`` on private
arrays (``hip.local.array``), the builtin's name without ``__builtin_amdgcn_``:

- ``a``, ``b``: this lane's A and B elements, a private array of exactly that many
  elements (4 for 32x32x8 bf16), or a number where the lane holds one;
- ``acc``: this lane's C elements (16 f32 for 32x32x8), replaced by D = A B + C: the
  accumulator stays in its registers, as compilers keep it in AGPRs across a K loop;
- ``hip.mfma_...(a, b, c, d)``: D into the private array ``d``, C from ``c`` (an array,
  or a number such as ``0.0`` for every element).

Element types: f32/f64 MFMAs take numbers (rounded to the type); f16 ones float16 arrays
(or float32 values, rounded); bf16 ones uint16 arrays of bfloat16 bit patterns or
float32 values (rounded to nearest, ties to even); i8 ones int8 arrays; fp8/bf8 ones
uint8 arrays of bit patterns. C/D are float32 (f32), int32 (i32) or float64 (f64)
arrays. Which lane holds which element: ``gpusim.devices.mfma`` and ``viz.mfma``.

>>> mfma_f32_32x32x8bf16_1k.name
'mfma_f32_32x32x8bf16_1k'
>>> print(mfma_f32_32x32x8bf16_1k.__doc__.splitlines()[0])
D(32x32 f32) = A(32x8 bf16) B(8x32 bf16) + C, 1 block; per lane: A 4, B 4, C/D 16.
"""

from __future__ import annotations

from gpusim.compile.ir import MFMA_OPS
from gpusim.compile.lang import Stub
from gpusim.devices.mfma import ARCHS, _table

PREFIX = "__builtin_amdgcn_"


def _doc(builtin: str) -> str:
    where = [(arch, inst) for arch in ARCHS for inst in _table(arch).values()
             if inst.builtin == builtin]
    inst = where[-1][1]
    archs = ", ".join(arch for arch, _ in where)
    return (f"D({inst.m}x{inst.n} {inst.d_type}) = A({inst.m}x{inst.k} {inst.a_type}) "
            f"B({inst.k}x{inst.n} {inst.b_type}) + C, {inst.blocks} block"
            f"{'s' if inst.blocks > 1 else ''}; per lane: A {inst.a_per_lane}, "
            f"B {inst.b_per_lane}, C/D {inst.d_per_lane}.\n"
            f"{builtin} on {archs}: "
            + "; ".join(f"{a} {i.name}, {i.cycles} cycles" for a, i in where))


STUBS = {name: Stub(name, _doc(PREFIX + name)) for name in MFMA_OPS}
globals().update(STUBS)  # hip.mfma_f32_32x32x8bf16_1k, ...

__all__ = list(MFMA_OPS)
