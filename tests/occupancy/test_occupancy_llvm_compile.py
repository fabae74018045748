"""compile_amdgpu: what it reads from LLVM, how it fails, and that failures are contained."""

from __future__ import annotations

import pytest

from gpusim.occupancy_model import (
    MINIMAL_KERNEL_SGPRS,
    MINIMAL_KERNEL_VGPRS,
    AmdgpuCompileError,
    OccupancyError,
    compile_amdgpu,
    occupancy,
    probe_kernel_ir,
)

pytestmark = pytest.mark.usefixtures("llvm_oracle")

# The kernel behind MINIMAL_KERNEL_*: a bounds-checked out[i] = i.
MINIMAL_KERNEL = """target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
define amdgpu_kernel void @fill(ptr addrspace(1) %out, i32 %n) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %bb = mul i32 %b, 256
  %i = add i32 %bb, %t
  %c = icmp slt i32 %i, %n
  br i1 %c, label %w, label %e
w:
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  %f = sitofp i32 %i to float
  store float %f, ptr addrspace(1) %p
  br label %e
e:
  ret void
}
"""


def _spilling_kernel(live: int = 48) -> str:
    """``live`` values held across volatile accesses with only 24 VGPRs allowed."""
    body = ["  %t = call i32 @llvm.amdgcn.workitem.id.x()"]
    for i in range(live):
        body += [
            f"  %i{i} = add i32 %t, {i * 64}",
            f"  %p{i} = getelementptr i32, ptr addrspace(1) %buf, i32 %i{i}",
            f"  %x{i} = load volatile i32, ptr addrspace(1) %p{i}",
        ]
    body += [f"  store volatile i32 %x{i}, ptr addrspace(1) %p{live - 1 - i}" for i in range(live)]
    return "\n".join(
        [
            'target triple = "amdgcn-amd-amdhsa"',
            "declare i32 @llvm.amdgcn.workitem.id.x()",
            "define amdgpu_kernel void @spill(ptr addrspace(1) %buf) #0 {",
            *body,
            "  ret void",
            "}",
            'attributes #0 = { "amdgpu-num-vgpr"="24" "amdgpu-flat-work-group-size"="64,64" }',
        ]
    )


def test_probe_counts_come_back_exactly(target):
    agprs = 0 if target == "gfx1100" else 12
    r = compile_amdgpu(
        probe_kernel_ir(vgprs=77, agprs=agprs, sgprs=40, lds_bytes=3000, block_size=192), target
    )
    assert (r.kernel, r.target, r.vgprs, r.agprs, r.lds_bytes) == (
        "probe",
        target,
        77,
        agprs,
        3000,
    )
    assert 40 <= r.sgprs <= 40 + 6  # plus VCC / FLAT_SCRATCH / XNACK_MASK
    assert r.max_flat_workgroup_size == 192
    assert r.wave_size == (32 if target == "gfx1100" else 64)
    assert (r.spills, r.scratch_bytes, r.dynamic_stack) == (0, 0, False)
    assert f'.amdgcn_target "amdgcn-amd-amdhsa--{target}' in r.isa and "s_endpgm" in r.isa


def test_minimal_kernel_is_within_the_documented_defaults(target):
    r = compile_amdgpu(MINIMAL_KERNEL, target)
    assert r.vgprs <= MINIMAL_KERNEL_VGPRS and r.sgprs <= MINIMAL_KERNEL_SGPRS
    assert "global_store" in r.isa
    assert occupancy(r, block_size=64, device=target) == occupancy(
        block_size=64, device=target, vgprs=r.vgprs, sgprs=r.sgprs
    )


def test_spills_and_scratch_are_reported():
    r = compile_amdgpu(_spilling_kernel(), "gfx1100")
    assert r.vgprs <= 24 and r.vgpr_spills > 0 and r.spills == r.vgpr_spills + r.sgpr_spills
    assert r.scratch_bytes > 0 and "scratch_store" in r.isa


def test_results_are_cached_and_usable_as_a_kernel():
    ir = probe_kernel_ir(vgprs=128)
    first = compile_amdgpu(ir, "gfx942")
    assert compile_amdgpu(ir, "gfx942") is first
    assert occupancy(first, block_size=256, device="mi300x").waves_per_simd == 4
    with pytest.raises(OccupancyError, match="compiled for gfx942, not gfx90a"):
        occupancy(first, block_size=256, device="mi250x")
    with pytest.raises(OccupancyError, match="256 threads this kernel was compiled for"):
        occupancy(first, block_size=512, device="mi300x")


def test_several_kernels_are_told_apart():
    a = probe_kernel_ir(vgprs=40, name="a").replace("attributes #0", "attributes #9")
    b = probe_kernel_ir(vgprs=90, name="b").split("\n", 1)[1]
    module = a.replace("#0", "#9") + b
    assert compile_amdgpu(module, "gfx90a", kernel="b").vgprs == 90
    assert compile_amdgpu(module, "gfx90a", kernel="a").vgprs == 40
    with pytest.raises(AmdgpuCompileError, match=r"kernels \['a', 'b'\]; name one"):
        compile_amdgpu(module, "gfx90a")


def test_llvm_errors_are_raised_and_the_caller_survives():
    # LLVM exits the process on this error; only the worker process goes.
    with pytest.raises(AmdgpuCompileError, match=r"local memory \(70000\) exceeds limit"):
        compile_amdgpu(probe_kernel_ir(lds_bytes=70000), "gfx942")
    with pytest.raises(AmdgpuCompileError, match="expected"):
        compile_amdgpu("this is not IR", "gfx942")
    with pytest.raises(AmdgpuCompileError, match="not a processor LLVM knows"):
        compile_amdgpu(probe_kernel_ir(vgprs=8), "gfx9999")
    assert compile_amdgpu(probe_kernel_ir(vgprs=9), "gfx942").vgprs == 9  # a fresh worker


def test_probe_builder_refuses_counts_it_cannot_force():
    with pytest.raises(ValueError, match="vgprs 257 is outside 0..256"):
        probe_kernel_ir(vgprs=257)
    with pytest.raises(ValueError, match="block_size 0"):
        probe_kernel_ir(block_size=0)
