"""The kernel language (``hip.*``) in AMDGPU terms, as HIP's own headers implement it.

===================  ======================================================================
threadIdx, blockIdx  ``llvm.amdgcn.workitem.id.*`` / ``workgroup.id.*`` (VGPR v0 / SGPRs)
blockDim, gridDim    code-object-v5 hidden kernel arguments (``llvm.amdgcn.implicitarg.ptr``:
                     block counts at bytes 0/4/8, group sizes at 12/14/16), as ROCm 6 does
laneid               ``mbcnt.lo`` (+ ``mbcnt.hi`` on wave64)
syncthreads          workgroup release fence, ``s_barrier``, acquire fence (``__syncthreads``)
syncthreads_count    an LDS counter between three barriers (HIP uses an LDS reduction too)
syncwarp             wavefront fences around ``llvm.amdgcn.wave.barrier``
threadfence*         ``fence`` at agent / workgroup / system scope
atomic.*             ``atomicrmw`` / ``cmpxchg``, relaxed, agent scope (LDS: workgroup), as
                     HIP's ``atomicAdd`` etc.; inc/dec are LLVM's ``uinc_wrap``/``udec_wrap``
shfl*                HIP's lane arithmetic and ``llvm.amdgcn.ds.bpermute`` (64-bit values in
                     two halves)
ballot/any/all       ``llvm.amdgcn.ballot.i64`` (``.i32`` on wave32, widened to 64 bits)
popc/ffs/clz/brev    ``llvm.ctpop`` / ``cttz`` / ``ctlz`` / ``bitreverse``
mfma_*               ``llvm.amdgcn.mfma.*`` (the clang builtin's intrinsic) on the private
                     arrays loaded as vectors; LLVM allocates the accumulator (AGPRs)
===================  ======================================================================
"""

from __future__ import annotations

import ast
from typing import Any

from numba.core import types

from gpusim.compile.amdgpu.emit import (
    BOOL,
    I32,
    I64,
    TupleValue,
    Value,
    const,
    ll_type,
    mem_type,
    size_of,
)
from gpusim.compile.amdgpu.unsupported import unsupported
from gpusim.compile.ir import MFMA_OPS
from gpusim.compile.passes.intrinsic_types import base_name, mfma_instruction

_IMPLICIT_OFFSET = {"gridDim": (0, 4, "i32"), "blockDim": (12, 2, "i16")}
_RMW = {"add": ("add", "fadd"), "sub": ("sub", "fsub"), "exch": ("xchg", "xchg"),
        "and": ("and", None), "or": ("or", None), "xor": ("xor", None),
        "inc": ("uinc_wrap", None), "dec": ("udec_wrap", None)}
_FENCE = {"threadfence": 'syncscope("agent") ', "threadfence_block": 'syncscope("workgroup") ',
          "threadfence_system": ""}
_WGRED = {"syncthreads_count": ("add", 0), "syncthreads_and": ("and", 1),
          "syncthreads_or": ("or", 0)}
WGRED_GLOBAL = "__gpusim_wgred"  # the LDS word syncthreads_count/and/or reduce into


class Intrinsics:
    """Mixin: ``intrinsic_value(node)`` for an ``Intrinsic`` IR node."""

    kir: Any
    fb: Any
    wave_size: int
    uses_wgred: bool

    def intrinsic_value(self, node: Any) -> Value | TupleValue | None:
        name = node.name
        head, _, axis = name.partition(".")
        if head in ("threadIdx", "blockIdx", "blockDim", "gridDim"):
            return self.dim(head, axis)
        if name == "warpsize":
            return const(self.wave_size, I64)
        if name == "laneid":
            return self.convert(self.lane_id(), I64)
        if name in ("grid", "gridsize"):
            parts = []
            for ax in "xyz"[: node.const]:
                if name == "grid":
                    base = self.mul(self.dim("blockIdx", ax), self.dim("blockDim", ax))
                    parts.append(self.fb.op(f"add {base.typed()}, "
                                            f"{self.dim('threadIdx', ax).ref}", I64))
                else:
                    parts.append(self.mul(self.dim("blockDim", ax), self.dim("gridDim", ax)))
            return parts[0] if len(parts) == 1 else TupleValue(tuple(parts))
        if head == "atomic":
            return self.atomic(node, axis)
        args = node.args[1:] if name.endswith("_sync") else node.args
        base = base_name(name)
        if base in ("syncthreads", "sync_grid"):  # a grid sync's own barrier (its
            self.barrier()                          # device-wide part is not modelled)
            return None
        if base in _WGRED:
            return self.workgroup_reduce(base, self.expr(args[0]))
        if base == "syncwarp":
            self.fb.emit('fence syncscope("wavefront") release')
            self.fb.call("void", "llvm.amdgcn.wave.barrier", [])
            self.fb.emit('fence syncscope("wavefront") acquire')
            return None
        if base in _FENCE:
            self.fb.emit(f"fence {_FENCE[base]}seq_cst")
            return None
        if base.startswith("shfl"):
            return self.shuffle(base, node, [self.expr(a) for a in args])
        if base in ("ballot", "any", "all", "activemask"):
            pred = self.truth(self.expr(args[0])) if args else const(True, BOOL)
            mask = self.ballot(pred)
            if base in ("ballot", "activemask"):
                return mask
            if base == "any":
                return self.convert(self.fb.op(f"icmp ne {mask.typed()}, 0", BOOL), I32)
            everyone = self.ballot(const(True, BOOL))
            return self.convert(self.fb.op(f"icmp eq {mask.typed()}, {everyone.ref}", BOOL), I32)
        if base in ("popc", "ffs", "clz", "brev"):
            return self.bits(base, self.expr(args[0]))
        if base == "fma":
            rt = node.numba_type
            return self.intrinsic("fma", rt, *(self.convert(self.expr(a), rt) for a in args))
        if name in MFMA_OPS:
            self.mfma(node)
            return None
        raise unsupported(self.kir, node, f"hip.{name}")

    # -- matrix cores ------------------------------------------------------------------
    def mfma(self, node: Any) -> None:
        """``hip.mfma_*(a, b, c[, d])``: the private arrays as LLVM vectors into
        ``llvm.amdgcn.mfma.*`` (the builtin's intrinsic), the result stored back; LLVM
        then places the accumulator in AGPRs (gfx908/gfx90a) or the unified VGPR file
        as it does for hipcc, which is what ``kernel.resources()`` counts."""
        inst = mfma_instruction(self, node)
        a, b, c = (self.mfma_operand(arg, t, n) for arg, t, n in zip(
            node.args[:3], (inst.a_type, inst.b_type, inst.d_type),
            (inst.a_per_lane, inst.b_per_lane, inst.d_per_lane), strict=True))
        dty = _mfma_vector(inst.d_type, inst.d_per_lane)
        fn = "llvm.amdgcn." + inst.builtin.removeprefix("__builtin_amdgcn_").replace("_", ".")
        d = self.fb.call(dty, fn, [a, b, c, "i32 0", "i32 0", "i32 0"])
        out = node.args[3] if len(node.args) == 4 else node.args[2]
        info = self.arrays[out.id]
        self.fb.emit(f"store {dty} {d.ref}, ptr addrspace({info.space}) {info.base}, align 4")

    def mfma_operand(self, arg: Any, elem: str, count: int) -> str:
        """One operand as the intrinsic's typed argument (``<4 x i16> %t7``)."""
        want = _mfma_vector(elem, count)
        if isinstance(arg, ast.Name) and arg.id in self.arrays:
            info = self.arrays[arg.id]
            mem = mem_type(info.dtype)
            have = mem if count == 1 else f"<{count} x {mem}>"
            v = self.fb.op(f"load {have}, ptr addrspace({info.space}) {info.base}, align 4", None)
            if have == want or mem.startswith("i") and elem not in ("f16", "bf16"):
                if have != want:  # int8 elements packed into one i32 / i64 register
                    v = self.fb.op(f"bitcast {have} {v.ref} to {want}", None)
                return f"{want} {v.ref}"
            if elem == "bf16":  # float values rounded to bfloat16 (nearest, ties to even)
                r = self.fb.op(f"fptrunc {have} {v.ref} to <{count} x bfloat>", None)
                v = self.fb.op(f"bitcast <{count} x bfloat> {r.ref} to {want}", None)
            else:  # f16 from float32 values, f32/f64 from another float width
                op = "fptrunc" if size_of(info.dtype) * 8 > _BITS[elem] else "fpext"
                v = self.fb.op(f"{op} {have} {v.ref} to {want}", None)
            return f"{want} {v.ref}"
        scalar = {"f32": types.float32, "f64": types.float64, "i32": types.int32}[elem]
        v = self.convert(self.expr(arg), scalar)
        if count == 1:
            return f"{want} {v.ref}"
        vec = "poison"  # a number for every element: C = 0.0 starts an accumulation
        for i in range(count):
            vec = self.fb.op(f"insertelement {want} {vec}, {ll_type(scalar)} {v.ref}, i32 {i}",
                             None).ref
        return f"{want} {vec}"

    # -- positions ---------------------------------------------------------------------
    def dim(self, head: str, axis: str) -> Value:
        if head in ("threadIdx", "blockIdx"):
            fn = "workitem" if head == "threadIdx" else "workgroup"
            v = self.fb.call("i32", f"llvm.amdgcn.{fn}.id.{axis}", [], types.uint32)
            return self.convert(v, I64)
        start, width, ll = _IMPLICIT_OFFSET[head]
        self.fb.declare("implicitarg", "declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()")
        base = self.fb.op("call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()", None)
        offset = start + width * "xyz".index(axis)
        ptr = self.fb.op(f"getelementptr inbounds i8, ptr addrspace(4) {base.ref}, i64 {offset}",
                         None)
        ty = types.uint16 if ll == "i16" else types.uint32
        v = self.fb.op(f"load {ll}, ptr addrspace(4) {ptr.ref}, align {width}, "
                       "!invariant.load !0", ty)
        return self.convert(v, I64)

    def lane_id(self) -> Value:
        lo = self.fb.call("i32", "llvm.amdgcn.mbcnt.lo", ["i32 -1", "i32 0"], I32)
        if self.wave_size == 32:
            return lo
        return self.fb.call("i32", "llvm.amdgcn.mbcnt.hi", ["i32 -1", lo.typed()], I32)

    # -- synchronisation ---------------------------------------------------------------
    def barrier(self) -> None:
        self.fb.emit('fence syncscope("workgroup") release')
        self.fb.call("void", "llvm.amdgcn.s.barrier", [])
        self.fb.emit('fence syncscope("workgroup") acquire')

    def workgroup_reduce(self, base: str, pred: Value) -> Value:
        """``syncthreads_count/and/or``: reset an LDS word, combine atomically, read it."""
        self.uses_wgred = True
        op, init = _WGRED[base]
        word = f"ptr addrspace(3) @{WGRED_GLOBAL}"
        self.barrier()  # earlier readers of the word are done
        first = const(True, BOOL)
        for ax in "xyz":
            zero = self.fb.op(f"icmp eq {self.dim('threadIdx', ax).typed()}, 0", BOOL)
            first = self.fb.op(f"and i1 {first.ref}, {zero.ref}", BOOL)
        reset, go = self.fb.fresh("wgred.reset"), self.fb.fresh("wgred.go")
        self.fb.cbr(first, reset, go)
        self.fb.start(reset)
        self.fb.emit(f"store i32 {init}, {word}, align 4")
        self.fb.start(go)
        self.barrier()
        bit = self.convert(self.truth(pred), I32)
        self.fb.op(f'atomicrmw {op} {word}, i32 {bit.ref} syncscope("workgroup") monotonic, '
                   "align 4", I32)
        self.barrier()
        out = self.fb.op(f"load i32, {word}, align 4", I32)
        return out if op == "add" else self.convert(self.truth(out), I32)

    def ballot(self, pred: Value) -> Value:
        bits = 64 if self.wave_size == 64 else 32
        mask = self.fb.call(f"i{bits}", f"llvm.amdgcn.ballot.i{bits}", [pred.typed()],
                            types.uint64 if bits == 64 else types.uint32)
        return self.convert(mask, types.uint64)

    # -- atomics -----------------------------------------------------------------------
    def atomic(self, node: Any, op: str) -> Value:
        ptr, info = self.element_ptr(node.args[0], node.args[1])
        dt = info.dtype
        vals = [self.convert(self.expr(a), dt) for a in node.args[2:]]
        scope = {3: "workgroup", 5: "singlethread"}.get(info.space, "agent")
        at = f"ptr addrspace({info.space}) {ptr}"
        align = size_of(dt)
        if op == "cas":
            ity = types.int64 if dt.bitwidth == 64 else I32
            expected, new = (self.bitcast(v, ity) for v in vals)
            pair = self.fb.op(f"cmpxchg {at}, {expected.typed()}, {new.typed()} "
                              f'syncscope("{scope}") monotonic monotonic, align {align}', None)
            old = self.fb.op(f"extractvalue {{ {ll_type(ity)}, i1 }} {pair.ref}, 0", ity)
            return self.bitcast(old, dt)
        is_float = isinstance(dt, types.Float)
        if op in ("max", "min"):
            kind = ("f" + op) if is_float else (op if dt.signed else "u" + op)
        else:
            kind = _RMW[op][1 if is_float else 0]
        return self.fb.op(f"atomicrmw {kind} {at}, {vals[0].typed()} "
                          f'syncscope("{scope}") monotonic, align {align}', dt)

    def bitcast(self, v: Value, to: Any) -> Value:
        if ll_type(v.ty) == ll_type(to):
            return Value(v.ref, to)
        return self.fb.op(f"bitcast {v.typed()} to {ll_type(to)}", to)

    # -- wavefront shuffles ------------------------------------------------------------
    def shuffle(self, base: str, node: Any, args: list[Value]) -> Value:
        value, arg = args[0], self.convert(args[1], I32)
        width = self.convert(args[2], I32) if len(args) > 2 else const(self.wave_size, I32)
        me = self.lane_id()
        fb = self.fb
        low = fb.op(f"sub i32 {width.ref}, 1", I32)
        seg = fb.op(f"xor i32 {low.ref}, -1", I32)
        seg_start = fb.op(f"and i32 {me.ref}, {seg.ref}", I32)
        if base == "shfl":
            index = fb.op(f"add i32 {arg.ref}, {seg_start.ref}", I32)
        else:
            if base == "shfl_up":
                index = fb.op(f"sub i32 {me.ref}, {arg.ref}", I32)
                stay = fb.op(f"icmp slt i32 {index.ref}, {seg_start.ref}", BOOL)
            elif base == "shfl_down":
                index = fb.op(f"add i32 {me.ref}, {arg.ref}", I32)
                pos = fb.op(f"and i32 {me.ref}, {low.ref}", I32)
                moved = fb.op(f"add i32 {pos.ref}, {arg.ref}", I32)
                stay = fb.op(f"icmp sge i32 {moved.ref}, {width.ref}", BOOL)
            else:  # shfl_xor
                index = fb.op(f"xor i32 {me.ref}, {arg.ref}", I32)
                end = fb.op(f"add i32 {me.ref}, {width.ref}", I32)
                end = fb.op(f"and i32 {end.ref}, {seg.ref}", I32)
                stay = fb.op(f"icmp sge i32 {index.ref}, {end.ref}", BOOL)
            index = self.select(stay, me, index)
        addr = fb.op(f"shl i32 {index.ref}, 2", I32)
        return self.bpermute(addr, value)

    def bpermute(self, addr: Value, value: Value) -> Value:
        ty = value.ty
        if isinstance(ty, types.Boolean) or (isinstance(ty, types.Integer) and ty.bitwidth < 32):
            wide = self.convert(value, I32)
            return self.convert(self.bpermute(addr, wide), ty)
        if isinstance(ty, types.Float) and ty.bitwidth == 16:
            bits = self.convert(self.bitcast(value, types.uint16), I32)
            back = self.convert(self.bpermute(addr, bits), types.uint16)
            return self.bitcast(back, ty)
        if size_of(ty) == 8:
            raw = self.bitcast(value, types.uint64)
            lo = self.convert(raw, types.uint32)
            hi = self.convert(self.fb.op(f"lshr i64 {raw.ref}, 32", types.uint64), types.uint32)
            lo, hi = self.bpermute(addr, lo), self.bpermute(addr, hi)
            hi64 = self.fb.op(f"shl i64 {self.convert(hi, types.uint64).ref}, 32", types.uint64)
            joined = self.fb.op(f"or i64 {hi64.ref}, {self.convert(lo, types.uint64).ref}",
                                types.uint64)
            return self.bitcast(joined, ty)
        word = self.bitcast(value, I32)
        out = self.fb.call("i32", "llvm.amdgcn.ds.bpermute", [addr.typed(), word.typed()], I32)
        return self.bitcast(out, ty)

    # -- bit operations ----------------------------------------------------------------
    def bits(self, base: str, x: Value) -> Value:
        ll = ll_type(x.ty)
        if base == "brev":
            return self.fb.call(ll, f"llvm.bitreverse.{ll}", [x.typed()], x.ty)
        unsigned = types.Integer(f"uint{x.ty.bitwidth}")
        if base == "popc":
            n = self.fb.call(ll, f"llvm.ctpop.{ll}", [x.typed()], unsigned)
        elif base == "clz":
            n = self.fb.call(ll, f"llvm.ctlz.{ll}", [x.typed(), "i1 false"], unsigned)
        else:  # ffs: 1 + index of the lowest set bit, 0 for 0
            tz = self.fb.call(ll, f"llvm.cttz.{ll}", [x.typed(), "i1 false"], unsigned)
            one = self.fb.op(f"add {tz.typed()}, 1", unsigned)
            zero = self.fb.op(f"icmp eq {x.typed()}, 0", BOOL)
            n = self.select(zero, const(0, unsigned), one)
        return self.convert(n, I32)



_BITS = {"f16": 16, "f32": 32, "xf32": 32, "f64": 64}
# One lane's operand of each element type as the LLVM intrinsic takes it (LLVM's
# IntrinsicsAMDGPU.td): f16 as half vectors, bf16 as i16 vectors, int8 and fp8/bf8 packed
# into one i32 / i64 register, one f32 or f64 element as a scalar.
_ELEM = {"f32": "float", "xf32": "float", "f64": "double", "i32": "i32", "f16": "half",
         "bf16": "i16"}


def _mfma_vector(elem: str, count: int) -> str:
    if elem in ("i8", "fp8", "bf8"):
        return f"i{8 * count}"
    return _ELEM[elem] if count == 1 else f"<{count} x {_ELEM[elem]}>"
