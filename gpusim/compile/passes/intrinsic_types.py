"""Types of kernel-language intrinsics (part of the ``infer`` pass).

The result types follow HIP: ``ballot``/``activemask`` give a 64-bit mask (uint64, also
on wave32 devices, as HIP's ``__ballot`` does), ``any``/``all``/``syncthreads_*`` give int32,
``popc``/``ffs``/``clz`` give int32, shuffles give their operand's type, atomics the array's
element type. Thread and block indices are int64 (so index arithmetic cannot overflow).

>>> from numba.core import types
>>> RESULT["ballot"], RESULT["syncthreads_count"]
(uint64, int32)
"""

from __future__ import annotations

import ast
from typing import Any

from numba.core import types

from gpusim.compile.ir import MFMA_OPS
from gpusim.devices.mfma import ARCHS, MfmaError, MfmaInstruction, get_mfma

RESULT = {
    "ballot": types.uint64, "ballot_sync": types.uint64, "activemask": types.uint64,
    "any": types.int32, "all": types.int32, "any_sync": types.int32, "all_sync": types.int32,
    "syncthreads_count": types.int32, "syncthreads_and": types.int32,
    "syncthreads_or": types.int32, "popc": types.int32, "ffs": types.int32, "clz": types.int32,
    "syncthreads": types.none, "syncwarp": types.none, "threadfence": types.none,
    "sync_grid": types.none,
    "threadfence_block": types.none, "threadfence_system": types.none,
}
# Number of operands (without the CUDA member mask) each collective takes.
ARITY = {"shfl": (2, 3), "shfl_up": (2, 3), "shfl_down": (2, 3), "shfl_xor": (2, 3),
         "ballot": (1, 1), "any": (1, 1), "all": (1, 1), "activemask": (0, 0),
         "syncthreads": (0, 0), "sync_grid": (0, 0), "syncwarp": (0, 1),
         "syncthreads_count": (1, 1),
         "syncthreads_and": (1, 1), "syncthreads_or": (1, 1), "threadfence": (0, 0),
         "threadfence_block": (0, 0), "threadfence_system": (0, 0), "popc": (1, 1),
         "ffs": (1, 1), "clz": (1, 1), "brev": (1, 1), "fma": (3, 3)}
ATOMIC_ARITY = {"atomic.cas": 4}
INT_ONLY = ("atomic.and", "atomic.or", "atomic.xor", "atomic.inc", "atomic.dec")


def base_name(name: str) -> str:
    """``shfl_down_sync`` -> ``shfl_down`` (the CUDA spelling takes a leading mask)."""
    return name[:-5] if name.endswith("_sync") else name


def intrinsic_type(typer: Any, node: Any) -> Any:
    """The numba type of ``node`` (an ``Intrinsic``); raises a located error if misused."""
    name = node.name
    args = node.args
    if name.split(".")[0] in ("threadIdx", "blockIdx", "blockDim", "gridDim") or name in (
            "warpsize", "laneid"):
        return types.int64
    if name in ("grid", "gridsize"):
        return types.int64 if node.const == 1 else types.UniTuple(types.int64, node.const)
    if name.startswith("atomic."):
        return _atomic(typer, node)
    if name in MFMA_OPS:
        return mfma_type(typer, node)
    tys = [typer.expr(a) for a in args]
    base = base_name(name)
    if name.endswith("_sync") or (name == "syncwarp" and args):
        if not tys or not isinstance(tys[0], (types.Integer, types.Boolean)):
            raise typer.fail(node, f"hip.{name} takes the member mask first",
                             instead=f"hip.{name}(0xffffffff, ...)")
        tys, args = tys[1:], args[1:]
    lo, hi = ARITY.get(base, (0, 9))
    if not lo <= len(tys) <= hi:
        want = lo if lo == hi else f"{lo} to {hi}"
        raise typer.fail(node, f"hip.{name} takes {want} operand(s), got {len(tys)}")
    for ty in tys:
        if isinstance(ty, (types.Array, types.BaseTuple)) or ty == types.none:
            raise typer.fail(node, f"hip.{name} works on single numbers, not {ty}")
    if base in RESULT:
        if base in ("popc", "ffs", "clz") and not isinstance(tys[0], types.Integer):
            raise typer.fail(node, f"hip.{name} needs an integer, got {tys[0]}")
        return RESULT[base]
    if base.startswith("shfl"):
        for ty in tys[1:]:
            if not isinstance(ty, types.Integer):
                raise typer.fail(node, f"the lane/delta/width of hip.{name} must be integers")
        return tys[0]
    if base == "brev":
        if not isinstance(tys[0], types.Integer):
            raise typer.fail(node, f"hip.brev needs an integer, got {tys[0]}")
        return tys[0]
    if base == "fma":
        out = tys[0]
        for ty in tys[1:]:
            out = typer.ctx.unify_types(out, ty)
        if not isinstance(out, types.Float):
            out = types.float64
        return out
    raise typer.fail(node, f"hip.{name} cannot be used here")


def _atomic(typer: Any, node: Any) -> Any:
    name, args = node.name, node.args
    want = ATOMIC_ARITY.get(name, 3)
    if len(args) != want:
        shape = "(ary, idx, expected, val)" if want == 4 else "(ary, idx, val)"
        raise typer.fail(node, f"hip.{name} takes {shape}")
    ary = typer.expr(args[0])
    if not isinstance(ary, types.Array):
        raise typer.fail(args[0], f"the first argument of hip.{name} must be an array")
    if isinstance(args[0], ast.Name) and typer.space(args[0].id) == "const":
        raise typer.fail(args[0], "const arrays are read-only")
    idx = args[1]
    parts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
    ity = typer.expr(idx) if not isinstance(idx, ast.Tuple) else None
    if isinstance(ity, types.BaseTuple):  # a tuple variable: cuda.grid(2), (i, uint64(j))
        if not all(isinstance(t, types.Integer) for t in ity.types):
            raise typer.fail(idx, f"the index of hip.{name} must be integers, got {ity}")
        parts = [idx] * len(ity)
    if len(parts) != ary.ndim:
        raise typer.fail(idx, f"hip.{name} on a {ary.ndim}-d array needs {ary.ndim} "
                         "indices", instead="a tuple index, e.g. (i, j)")
    for p in parts if not isinstance(ity, types.BaseTuple) else []:
        typer.index_type(p)
    for v in args[2:]:
        vt = typer.expr(v)
        if not isinstance(vt, (types.Number, types.Boolean)):
            raise typer.fail(v, f"hip.{name} needs a number, got {vt}")
    dt = ary.dtype
    if not isinstance(dt, (types.Integer, types.Float)) or dt.bitwidth not in (32, 64):
        raise typer.fail(args[0], f"atomics work on 32/64-bit integers and floats, not {dt}",
                         instead="an int32, int64, uint32, uint64, float32 or float64 array")
    if name in INT_ONLY and not isinstance(dt, types.Integer):
        raise typer.fail(node, f"hip.{name} needs an integer array, not {dt}")
    return dt


def mfma_instruction(typer: Any, node: Any) -> MfmaInstruction:
    """The instruction ``hip.<node.name>`` is on the kernel's target (gfx942 when the
    kernel is compiled without a device, e.g. by ``front_end`` in a test)."""
    target = typer.kir.target or "gfx942"
    builtin = "__builtin_amdgcn_" + node.name
    if target == "gfx908":
        raise typer.fail(node, f"hip.{node.name}: gpusim models the MFMAs of gfx90a and gfx942; "
                         "the MI100's (gfx908, CDNA1) are not in its tables",
                         instead="run it on an MI300X or MI250X (gpusim.set_system)")
    if target not in ARCHS:
        raise typer.fail(node, f"hip.{node.name} is a matrix-core (MFMA) instruction, and this "
                         f"device ({target}) has no MFMA units (MFMA is CDNA: gfx90a MI200, "
                         "gfx942 MI300)", instead="run it on an MI300X or MI250X "
                         "(gpusim.set_system), or write the product with VALU arithmetic")
    try:
        return get_mfma(target, builtin)
    except MfmaError:
        other = [a for a in ARCHS if a != target]
        raise typer.fail(node, f"{builtin} does not exist on {target} (it is a "
                         f"{', '.join(other)} instruction)", instead="one of this "
                         "architecture's MFMAs: gpusim.devices.mfma.list_mfma"
                         f"({target!r})") from None


def mfma_type(typer: Any, node: Any) -> Any:
    """``hip.mfma_*(a, b, acc)`` or ``(a, b, c, d)``: each operand checked; no value."""
    inst = mfma_instruction(typer, node)
    if inst.a_type == "xf32":
        raise typer.fail(node, f"hip.{node.name} ({inst.name}) is not modelled: the internal "
                         "precision of xf32 MFMAs is not in the public ISA guide",
                         instead="an f32 MFMA of the same shape family (hip.mfma_f32_16x16x4f32"
                         ", hip.mfma_f32_32x32x2f32)")
    args = node.args
    if len(args) not in (3, 4):
        raise typer.fail(node, f"hip.{node.name} takes (a, b, acc) or (a, b, c, d), got "
                         f"{len(args)} argument(s)", instead=f"hip.{node.name}(a, b, acc): "
                         "acc becomes A @ B + acc")
    want = {"a": (inst.a_per_lane, inst.a_type), "b": (inst.b_per_lane, inst.b_type),
            "c": (inst.d_per_lane, inst.d_type), "d": (inst.d_per_lane, inst.d_type)}
    roles = ("a", "b", "c", "d")[:len(args)]
    for role, arg in zip(roles, args, strict=True):
        written = role == "d" or (role == "c" and len(args) == 3)
        _mfma_operand(typer, node, inst, arg, role, *want[role], written)
    return types.none


_DTYPE_HINT = {"f32": "np.float32", "xf32": "np.float32", "f64": "np.float64",
               "f16": "np.float16", "bf16": "np.uint16", "i8": "np.int8", "i32": "np.int32",
               "fp8": "np.uint8", "bf8": "np.uint8"}


def _mfma_operand(typer: Any, node: Any, inst: MfmaInstruction, arg: Any, role: str,
                  per_lane: int, elem: str, written: bool) -> None:
    what = role.upper()
    shape = f"hip.local.array({per_lane}, {_DTYPE_HINT[elem]})"
    where = f"hip.{node.name} ({inst.name} on {inst.arch})"
    decl = typer.kir.arrays.get(arg.id) if isinstance(arg, ast.Name) else None
    if written and (decl is None or decl.space != "local"):
        raise typer.fail(arg, f"the {what} operand of {where} receives this lane's "
                         f"{per_lane} result element(s), so it must be a private array",
                         instead=f"acc = {shape}, then hip.{node.name}(a, b, acc)")
    if decl is not None:
        name = typer.kir.user_name(arg.id)
        if decl.space != "local" or len(decl.shape) != 1 or decl.shape[0] != per_lane:
            raise typer.fail(arg, f"the {what} operand of {where} is {per_lane} {elem} "
                             f"element(s) per lane; '{name}' is a {decl.space} array of "
                             f"shape {decl.shape}", instead=shape)
        if not _element_ok(elem, decl.dtype, role):
            raise typer.fail(arg, f"the {what} operand of {where} holds {elem} elements; "
                             f"'{name}' is {decl.dtype}", instead=shape)
        return
    ty = typer.expr(arg)
    if not isinstance(ty, (types.Float, types.Integer)):
        raise typer.fail(arg, f"the {what} operand of {where} must be a private array "
                         f"(hip.local.array) or a number, not {ty}", instead=shape)
    if per_lane != 1 and role in ("a", "b"):
        raise typer.fail(arg, f"each lane holds {per_lane} {elem} elements of {what} for "
                         f"{where}, so one number cannot be its operand", instead=shape)
    if elem in ("fp8", "bf8") or (elem in ("i8", "i32") and not isinstance(ty, types.Integer)):
        raise typer.fail(arg, f"the {what} operand of {where} holds {elem} values",
                         instead=shape)


def _element_ok(elem: str, dtype: Any, role: str) -> bool:
    """Whether a private array of ``dtype`` holds operand elements of type ``elem``."""
    kind, size = dtype.kind, dtype.itemsize
    if role in ("c", "d"):  # the accumulator registers: exactly the result type
        return str(dtype) == {"f32": "float32", "i32": "int32", "f64": "float64"}[elem]
    if elem in ("f32", "xf32", "f64"):
        return kind == "f"
    if elem == "f16":
        return kind == "f" and size in (2, 4)  # float16, or float32 values rounded
    if elem == "bf16":
        return (kind == "u" and size == 2) or (kind == "f" and size == 4)
    if elem == "i8":
        return kind in "iu" and size == 1
    return kind == "u" and size == 1  # fp8 / bf8 bit patterns
