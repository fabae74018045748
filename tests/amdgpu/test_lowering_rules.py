"""The LLVM IR the lowering writes: Python's semantics, HIP's conventions, each target."""

from __future__ import annotations

import numba
import pytest
from kernels import everything, matmul_tiled, vadd

from gpusim.compile import lang as hip
from gpusim.compile.amdgpu import amdgpu_resources, lower_kernel
from gpusim.compile.amdgpu.emit import const
from gpusim.devices import get_spec

f32, f64, i64 = numba.types.float32, numba.types.float64, numba.types.int64
EVERYTHING = (f32[::1], f64[::1], i64, numba.types.boolean)


def _ir(fn, types, device="mi300x", **kw) -> str:
    return lower_kernel(fn, types, get_spec(device), **kw).ir


def test_every_supported_construct_compiles_for_every_device(device):
    r = amdgpu_resources(everything, EVERYTHING, device)
    assert r["source"] == "llvm" and r["vgprs"] > 0
    assert r["lds_bytes"] == 4  # the word syncthreads_count reduces into


def test_arguments_arrays_then_shapes_scalars_by_value_bools_as_bytes():
    ir = _ir(everything, EVERYTHING)
    assert ("define amdgpu_kernel void @everything(ptr addrspace(1) %arg.x, i64 %arg.x.shape0, "
            "ptr addrspace(1) %arg.out, i64 %arg.out.shape0, i64 %arg.n, i8 %arg.flag) #0 {"
            ) in ir
    strided = _ir(vadd, (f32[:], f32[::1], f32[::1]))  # a non-contiguous view
    assert "i64 %arg.a.shape0, i64 %arg.a.stride0" in strided


def test_memory_spaces_of_shared_local_and_const_arrays():
    ir = _ir(everything, EVERYTHING)
    assert "@const.w = internal addrspace(4) externally_initialized global [8 x float]" in ir
    assert "alloca [4 x i32], align 16, addrspace(5)" in ir
    mm = _ir(matmul_tiled, (f32[:, ::1],) * 3)
    assert "@lds.sA = internal addrspace(3) global [256 x float] poison, align 16" in mm


def test_barriers_fences_and_atomics_follow_hip():
    ir = _ir(everything, EVERYTHING)
    assert ('fence syncscope("workgroup") release\n  call void @llvm.amdgcn.s.barrier()\n'
            '  fence syncscope("workgroup") acquire') in ir
    assert 'atomicrmw fmax ptr addrspace(1)' in ir and 'syncscope("agent") monotonic' in ir
    assert "cmpxchg ptr addrspace(1)" in ir
    assert "atomicrmw uinc_wrap ptr addrspace(5)" in ir
    assert "call i64 @llvm.amdgcn.ballot.i64(i1" in ir
    assert "llvm.amdgcn.implicitarg.ptr" in ir  # blockDim / gridDim (code object v5)
    assert "call void @llvm.trap()" in ir  # assert


def test_python_floor_division_and_modulo():
    def k(out, a, b):
        out[0] = a // b
        out[1] = a % b

    signed = _ir(k, (i64[::1], i64, i64))
    assert "sdiv i64" in signed and "srem i64" in signed and "icmp slt" in signed
    unsigned = _ir(k, (numba.types.uint64[::1], numba.types.uint64, numba.types.uint64))
    assert "udiv i64" in unsigned and "urem i64" in unsigned and "sdiv" not in unsigned


def test_wave_size_follows_the_device():
    rdna = _ir(everything, EVERYTHING, "rx7900xtx")
    assert '"target-features"="+wavefrontsize32"' in rdna
    assert "llvm.amdgcn.ballot.i32" in rdna and "llvm.amdgcn.mbcnt.hi" not in rdna
    assert "target-features" not in _ir(everything, EVERYTHING, "mi100")


def test_launch_bounds_and_default_flat_workgroup_size():
    assert '"amdgpu-flat-work-group-size"="1,1024"' in _ir(vadd, (f32[::1],) * 3)
    assert '"amdgpu-flat-work-group-size"="1,256"' in _ir(vadd, (f32[::1],) * 3,
                                                          launch_bounds=256)


def test_code_after_return_and_short_circuits_are_valid_ir():
    def k(x, out):
        i = hip.grid(1)
        if i >= x.size:
            return
            out[0] = 1  # dead, still valid
        out[i] = x[i] if i < 10 and x[i] > 0 else 0.0

    assert amdgpu_resources(k, (f32[::1], f32[::1]), "mi300x")["vgprs"] > 0


@pytest.mark.parametrize("value, ty, text", [
    (0.5, f32, "0x3FE0000000000000"),
    (0.1, f32, "0x3FB99999A0000000"),  # rounded to float32 first
    (-1, numba.types.int32, "-1"),
    (2**64 - 1, numba.types.uint64, "-1"),
    (True, numba.types.boolean, "true"),
])
def test_constants_are_exact(value, ty, text):
    assert const(value, ty).ref == text


def test_a_lowering_bug_is_reported_at_its_statement(monkeypatch):
    from gpusim.compile.amdgpu import AmdgpuLoweringError
    from gpusim.compile.amdgpu.statements import KernelLowering

    def broken(self, s):
        raise KeyError("oops")

    monkeypatch.setattr(KernelLowering, "if_stmt", broken)
    with pytest.raises(AmdgpuLoweringError, match="internal error in the AMDGPU lowering"):
        lower_kernel(vadd, (f32[::1],) * 3, get_spec("mi300x"))


def test_debug_llvm_prints_the_module(capsys):
    from gpusim.config import config

    old = config.debug
    config.debug = "llvm"
    try:
        lower_kernel(vadd, (f32[::1],) * 3, get_spec("mi100"))
    finally:
        config.debug = old
    assert "define amdgpu_kernel void @vadd(" in capsys.readouterr().err
