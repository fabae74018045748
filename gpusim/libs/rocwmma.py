"""rocWMMA's fragment API in ``@hip.jit`` kernels: the readable way to a matrix-core GEMM.

rocWMMA (github.com/ROCm/rocWMMA) wraps the MFMA instructions in *fragments*: a tile of
A, B or the accumulator spread over the 64 lanes of a wavefront, loaded, multiplied and
stored by the whole wave together. Its C++ names, in Python::

    FragA = rocwmma.fragment(rocwmma.matrix_a, 32, 32, 8, rocwmma.bfloat16)  # a type, like
    FragB = rocwmma.fragment(rocwmma.matrix_b, 32, 32, 8, rocwmma.bfloat16)  # C++'s `using`
    FragC = rocwmma.fragment(rocwmma.accumulator, 32, 32, 8, np.float32)

    @hip.jit
    def gemm(A, B, C):                       # one wave per 32x32 tile of C
        a, b, acc = FragA(), FragB(), FragC()
        row, col = hip.blockIdx.y * 32, hip.blockIdx.x * 32
        rocwmma.fill_fragment(acc, 0.0)
        for k in range(0, A.shape[1], 8):
            rocwmma.load_matrix_sync(a, A, row, k)    # A[row:row+32, k:k+8]
            rocwmma.load_matrix_sync(b, B, k, col)    # B[k:k+8, col:col+32]
            rocwmma.mma_sync(acc, a, b, acc)          # acc = a @ b + acc
        rocwmma.store_matrix_sync(C, row, col, acc)   # C[row:row+32, col:col+32]

Differences from C++: a tile is named by its array and top-left corner (``A, row, k``)
rather than a pointer and a leading dimension (the array knows its strides and bounds,
so a tile that runs off the array is an out-of-bounds error naming the line); a
fragment's memory layout is the array's own. Each fragment is a private array of the
lane's registers, and each function is an ordinary device function (shown in the
generated code) over the instruction's lane layout (``gpusim.devices.mfma``, held to
AMD's matrix instruction calculator): reading the functions is reading the layout.

Fragment shapes: those of one single-block MFMA (rocWMMA also tiles bigger ones out of
several; here a bigger tile is a loop the learner writes): f32 32x32x2, 16x16x4; f16 and
bf16 32x32x8, 16x16x16; i8 32x32x8, 16x16x16 (gfx90a), 32x32x16, 16x16x32 (gfx942); f64
16x16x4. bf16 fragments hold bit patterns: load them from uint16 arrays of bfloat16
patterns, or from float arrays (each value rounded to nearest even, ``hip.bf16``).

>>> FragA = fragment(matrix_a, 32, 32, 8, bfloat16)
>>> FragA.size, FragA.dtype, FragA.__name__
(4, dtype('uint16'), 'rocwmma_matrix_a_32x32x8_bf16')
>>> fragment(accumulator, 16, 16, 16, np.float32).size
4
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.compile import lang as hip
from gpusim.devices.mfma import ARCHS, MfmaInstruction, _table

matrix_a, matrix_b, accumulator = "matrix_a", "matrix_b", "accumulator"
float32, float64, float16, bfloat16, int8, int32 = "f32", "f64", "f16", "bf16", "i8", "i32"
_TYPE = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
         np.dtype(np.float16): "f16", np.dtype(np.int8): "i8", np.dtype(np.int32): "i32"}
# how a fragment of each element type is held: bf16 as bit patterns (NumPy has no bf16)
_STORAGE = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": np.uint16,
            "i8": np.int8, "i32": np.int32}


def _shapes() -> dict[tuple[int, int, int, str], MfmaInstruction]:
    """(M, N, K, input type) -> the single-block MFMA computing it (any architecture:
    the builtin is the same on both; the kernel's target decides if it exists)."""
    out: dict[tuple[int, int, int, str], MfmaInstruction] = {}
    for arch in ARCHS:
        for inst in _table(arch).values():
            if inst.blocks == 1 and inst.a_type == inst.b_type and inst.a_type in _STORAGE \
                    and not ("bf16" == inst.a_type and not inst.builtin.endswith("_1k")):
                out.setdefault((inst.m, inst.n, inst.k, inst.a_type), inst)
    return out


SHAPES = _shapes()


def _source(name: str, params: str, body: list[str]) -> str:
    return f"def {name}({params}):\n" + "".join(f"    {line}\n" for line in body)


def _device(text: str, name: str) -> hip.DeviceFunction:
    """A device function from source text (the front end reads exec'd source)."""
    scope: dict[str, Any] = {"hip": hip}
    exec(compile(text, f"<rocwmma {name}>", "exec"), scope)  # noqa: S102 - our own template
    return hip.DeviceFunction(scope[name])


def _operand_functions(inst: MfmaInstruction, use: str) -> dict[str, hip.DeviceFunction]:
    """load_matrix_sync for an A or B fragment: lane l holds row (col) l % M of the tile
    and k = (l // M) * kpack + e in its element e (the MFMA's layout, one block)."""
    m = inst.m if use == matrix_a else inst.n
    kpack = inst.a_per_lane
    value = "hip.bf16(src[{i}])" if inst.a_type == "bf16" else "src[{i}]"
    index = ("row + lane % {m}, col + lane // {m} * {kp} + e" if use == matrix_a
             else "row + lane // {m} * {kp} + e, col + lane % {m}").format(m=m, kp=kpack)
    name = f"load_{use}_{inst.m}x{inst.n}x{inst.k}_{inst.a_type}"
    held = "(l % M, l // M * kpack + e)" if use == matrix_a else "(l // N * kpack + e, l % N)"
    text = _source(name, "frag, src, row, col", [
        f'"""{use} {inst.m}x{inst.n}x{inst.k} {inst.a_type}: lane l, element e <- the '
        f'tile\'s {held}."""',
        "lane = hip.laneid",
        f"for e in range({kpack}):",
        f"    frag[e] = {value.format(i=index)}",
    ])
    return {"load_matrix_sync": _device(text, name)}


def _accumulator_functions(m: int, n: int, k: int, d_type: str) -> dict[str, Any]:
    """fill / load / store of an accumulator: register r of lane l is the tile's
    (4 ((r // 4) G + l // N) + r % 4, l % N) with G = 64 // N (f64: (r G + l // N, l % N))."""
    per_lane = m * n // 64
    groups = 64 // n
    row = (f"row + {groups} * r + lane // {n}" if d_type == "f64" else
           f"row + 4 * ((r // 4) * {groups} + lane // {n}) + r % 4")
    where = f"{row}, col + lane % {n}"
    tag = f"{m}x{n}x{k}_{d_type}"
    fns = {
        "fill_fragment": _source(f"fill_{tag}", "frag, value", [
            f"for r in range({per_lane}):", "    frag[r] = value"]),
        "load_matrix_sync": _source(f"load_acc_{tag}", "frag, src, row, col", [
            "lane = hip.laneid", f"for r in range({per_lane}):",
            f"    frag[r] = src[{where}]"]),
        "store_matrix_sync": _source(f"store_acc_{tag}", "dst, row, col, frag", [
            "lane = hip.laneid", f"for r in range({per_lane}):",
            f"    dst[{where}] = frag[r]"]),
    }
    return {api: _device(text, text.split("(")[0][4:]) for api, text in fns.items()}


class _Fragments:
    """Every fragment type (a ``LocalStruct``) and its functions, made at import."""

    def __init__(self) -> None:
        self.types: dict[tuple, hip.LocalStruct] = {}
        self.impls: dict[str, dict[hip.LocalStruct, hip.DeviceFunction]] = {
            "load_matrix_sync": {}, "store_matrix_sync": {}, "fill_fragment": {},
            "mma_sync": {}}
        for (m, n, k, elem), inst in SHAPES.items():
            for use in (matrix_a, matrix_b):
                size = inst.a_per_lane
                struct = self.struct(use, m, n, k, elem, size, _STORAGE[elem])
                for api, fn in _operand_functions(inst, use).items():
                    self.impls[api][struct] = fn
            acc = (accumulator, m, n, k, inst.d_type)
            if acc not in self.types:
                struct = self.struct(accumulator, m, n, k, inst.d_type, inst.d_per_lane,
                                     _STORAGE[inst.d_type])
                for api, fn in _accumulator_functions(m, n, k, inst.d_type).items():
                    self.impls[api][struct] = fn
            op = inst.builtin.removeprefix("__builtin_amdgcn_")
            text = _source(f"mma_{m}x{n}x{k}_{elem}", "d, a, b, c", [
                f'"""d = a @ b + c on the matrix core: {inst.builtin}."""',
                f"hip.{op}(a, b, c, d)"])
            self.impls["mma_sync"][self.types[(matrix_a, m, n, k, elem)]] = _device(
                text, f"mma_{m}x{n}x{k}_{elem}")

    def struct(self, use: str, m: int, n: int, k: int, elem: str, size: int,
               dtype: Any) -> hip.LocalStruct:
        # the last word's position tells the types apart on the host (Overload's rule)
        struct = hip.LocalStruct(f"rocwmma_{use}_{m}x{n}x{k}_{elem}", size, dtype,
                                 doc=f"rocwmma::fragment<{use}, {m}, {n}, {k}, {elem}>: "
                                 f"{size} element(s) per lane")
        self.types[(use, m, n, k, elem)] = struct
        return struct


_FRAGMENTS = _Fragments()


def fragment(use: str, m: int, n: int, k: int, dtype: Any) -> hip.LocalStruct:
    """The fragment type ``rocwmma::fragment<use, M, N, K, T>``; call it in a kernel
    (``acc = FragC()``) to get one wave-lane's registers of the tile.

    ``use``: ``matrix_a``, ``matrix_b`` or ``accumulator``; ``dtype``: ``rocwmma.bfloat16``,
    ``float16``, ``float32``, ``float64``, ``int8`` (inputs) or ``np.float32``/``np.int32``/
    ``np.float64`` (accumulators), as a name or a NumPy type."""
    elem = dtype if isinstance(dtype, str) else _TYPE.get(np.dtype(dtype))
    key = (use, m, n, k, elem)
    if key in _FRAGMENTS.types:
        return _FRAGMENTS.types[key]
    have = sorted({f"{mm}x{nn}x{kk} {t}" for (mm, nn, kk, t) in SHAPES})
    raise ValueError(f"no MFMA computes a {use} fragment of {m}x{n}x{k} {elem}; the "
                     f"fragment shapes are {', '.join(have)} (accumulators: f32, or i32 for "
                     "i8 and f64 for f64 inputs)")


def _overload(api: str, arg: int, doc: str) -> hip.Overload:
    fn = hip.Overload(api, arg, _FRAGMENTS.impls[api])
    fn.__doc__ = doc
    return fn


load_matrix_sync = _overload(
    "load_matrix_sync", 0, "load_matrix_sync(frag, array, row, col): the tile of `array` "
    "whose top-left element is array[row, col] into the fragment, spread over the wave.")
store_matrix_sync = _overload(
    "store_matrix_sync", -1, "store_matrix_sync(array, row, col, acc): the accumulator "
    "fragment into the tile of `array` at (row, col).")
fill_fragment = _overload("fill_fragment", 0,
                          "fill_fragment(frag, value): every element of the tile = value.")
mma_sync = _overload("mma_sync", 1, "mma_sync(d, a, b, c): d = a @ b + c on the matrix "
                     "core (d and c may be the same accumulator).")

__all__ = ["SHAPES", "accumulator", "bfloat16", "fill_fragment", "float16", "float32",
           "float64", "fragment", "int8", "int32", "load_matrix_sync", "matrix_a", "matrix_b",
           "mma_sync", "store_matrix_sync"]
