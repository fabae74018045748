"""Kernel.resources / Kernel.isa, gpusim.occupancy(kernel), fallbacks and profile records."""

from __future__ import annotations

import csv
import inspect

import numpy as np
import pytest
from kernels import bounded_copy, histogram, matmul_tiled, vadd, with_print, with_tan

import gpusim
from gpusim import hip
from gpusim.compile.amdgpu import AmdgpuLoweringError
from gpusim.errors import HipError
from gpusim.occupancy_model import OccupancyError, occupancy

pytestmark = pytest.mark.usefixtures("fresh_system")
x = np.ones(1024, np.float32)


def test_resources_from_example_arguments():
    k = hip.jit(vadd)
    r = k.resources(x, x, x, device="mi300x")
    assert r["source"] == "llvm" and (r["device"], r["target"]) == ("mi300x", "gfx942")
    assert {"vgprs", "agprs", "sgprs", "lds_bytes", "scratch_bytes", "spills",
            "occupancy_waves_per_simd", "occupancy"} <= set(r)
    o = r["occupancy"]
    assert o == occupancy(block_size=1024, vgprs=r["vgprs"], sgprs=r["sgprs"],
                          agprs=r["agprs"], lds_bytes=r["lds_bytes"], device="mi300x")
    assert o.waves_per_simd == r["occupancy_waves_per_simd"]  # ours and LLVM's agree


def test_occupancy_of_a_kernel_uses_the_compilers_counts():
    k = hip.jit(matmul_tiled)
    a = np.ones((64, 64), np.float32)
    k[(4, 4), (16, 16)](a, a, a)
    r = k.resources(device="mi300x")  # no arguments: the last launch's types
    assert r["occupancy"].block_size == 256  # ... and its block size
    got = gpusim.occupancy(k, block_size=256)
    want = occupancy(block_size=256, vgprs=r["vgprs"], sgprs=r["sgprs"], agprs=r["agprs"],
                     lds_bytes=r["lds_bytes"], device="mi300x")
    assert got == want and got.lds_bytes == 2048
    assert hip.hipOccupancyMaxActiveBlocksPerMultiprocessor(k, 256) == want.workgroups_per_cu
    rdna = gpusim.occupancy(k, block_size=256, device="rx7900xtx")
    assert rdna.gfx_target == "gfx1100" and rdna.vgprs == k.resources(
        device="rx7900xtx")["vgprs"]


def test_a_kernel_without_arguments_or_launch_says_what_to_do():
    k = hip.jit(vadd)
    with pytest.raises(HipError, match=r"not been launched yet.*example arguments"):
        k.resources()
    with pytest.raises(HipError, match="not been launched"):
        gpusim.occupancy(k, block_size=256)


def test_launch_bounds_are_compiled_in():
    k = hip.jit(launch_bounds=128)(vadd)
    r = k.resources(x, x, x, device="mi300x")
    assert r["max_flat_workgroup_size"] == 128 and r["occupancy"].block_size == 128
    full = k.isa(x, x, x, device="mi300x", full=True)
    assert ".max_flat_workgroup_size: 128" in full
    k[8, 128](x, x, x)
    with pytest.raises(OccupancyError, match="128 threads"):
        gpusim.occupancy(k, block_size=256)


def test_isa_for_the_lab():
    k = hip.jit(vadd)
    isa = k.isa(x, x, x, device="rx7900xtx")
    assert "on gfx1100 (wave32)" in isa.splitlines()[0]
    assert "global_load_b32" in isa  # RDNA 3 spelling


def test_unsupported_construct_names_itself_and_its_line():
    k = hip.jit(with_print)
    line = inspect.getsourcelines(with_print)[1] + 2
    with pytest.raises(AmdgpuLoweringError) as err:
        k.resources(x, device="mi300x")
    assert (err.value.construct, err.value.lineno) == ("print()", line)
    assert "cannot be lowered to AMDGPU code yet" in str(err.value)
    assert "fallback=" in str(err.value)
    with pytest.raises(AmdgpuLoweringError, match=r"math\.tan\(\).*ocml"):
        hip.jit(with_tan).resources(x)


def test_fallback_counts_stand_in_for_an_unsupported_kernel():
    r = hip.jit(with_tan).resources(x, device="mi300x", block_size=128,
                                    fallback={"vgprs": 96, "sgprs": 24})
    assert r["source"] == "fallback" and "math.tan" in r["reason"]
    assert (r["vgprs"], r["sgprs"], r["agprs"]) == (96, 24, 0)
    assert r["lds_bytes"] == 128 * 4  # the declared shared array
    assert r["occupancy"].waves_per_simd == 5 and r["occupancy"].limiter == "vgpr"
    with pytest.raises(ValueError, match="'vgprs' and 'sgprs'"):
        hip.jit(with_tan).resources(x, fallback={"vgprs": 96})


def test_profile_records_carry_the_compilers_counts(tmp_path):
    k = hip.jit(histogram)
    data = np.arange(4096, dtype=np.int32)
    bins = np.zeros(16, np.int32)
    with gpusim.profile() as prof:
        k[8, 256](data, bins)
        k[8, 256, 0, 4096](data, bins)  # dynamic LDS counts against occupancy
    assert bins.sum() == 2 * data.size
    first, second = prof.kernels
    r = k.resources(data, bins)
    assert (first.vgprs, first.sgprs, first.agprs) == (r["vgprs"], r["sgprs"], r["agprs"])
    want = occupancy(block_size=256, vgprs=r["vgprs"], sgprs=r["sgprs"], device="mi300x")
    assert first.occupancy == want.fraction
    assert second.occupancy == occupancy(block_size=256, vgprs=r["vgprs"], sgprs=r["sgprs"],
                                         lds_bytes=4096, device="mi300x").fraction
    rows = list(csv.DictReader(prof.to_csv(tmp_path / "k.csv").open()))
    assert float(rows[0]["VGPR_Count"]) == r["vgprs"]
    assert float(rows[0]["SGPR_Count"]) == r["sgprs"]


def test_profiling_an_unsupported_kernel_still_runs_it():
    k = hip.jit(with_print)
    out = np.ones(64, np.float32)
    with gpusim.profile() as prof:
        k[1, 64](out)
    (rec,) = prof.kernels
    assert rec.vgprs is None and rec.occupancy is None
    assert not out.any()


def test_no_llvm_compile_outside_a_profile(monkeypatch):
    import gpusim.engine.resources as kr

    def boom(*args, **kwargs):
        raise AssertionError("compiled outside a profile")

    monkeypatch.setattr(kr, "amdgpu_compile", boom)
    hip.jit(bounded_copy)[4, 256](x, np.empty_like(x))


def test_an_interrupted_compile_does_not_answer_the_next_one(monkeypatch):
    from gpusim.occupancy_model import _llvm_process, compile_amdgpu, probe_kernel_ir

    compile_amdgpu(probe_kernel_ir(vgprs=37), "gfx942")  # the worker is running
    real, calls = _llvm_process._Worker._receive, []

    def interrupted(self):
        if not calls:
            calls.append(1)
            raise KeyboardInterrupt  # Ctrl-C while LLVM works on a profiled launch
        return real(self)

    monkeypatch.setattr(_llvm_process._Worker, "_receive", interrupted)
    with pytest.raises(KeyboardInterrupt):
        compile_amdgpu(probe_kernel_ir(vgprs=38), "gfx942")
    assert compile_amdgpu(probe_kernel_ir(vgprs=39), "gfx942").vgprs == 39
