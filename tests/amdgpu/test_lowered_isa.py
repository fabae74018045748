"""Lowered kernels compile for every target to the instructions a GPU engineer expects."""

from __future__ import annotations

import re

import numba
import pytest
from kernels import TILE, histogram, matmul_tiled, vadd, wave_sum

from gpusim.compile.amdgpu import amdgpu_isa, amdgpu_resources
from gpusim.devices import get_spec

f32, i32 = numba.types.float32, numba.types.int32
VADD = (f32[::1], f32[::1], f32[::1])
MATMUL = (f32[:, ::1], f32[:, ::1], f32[:, ::1])
REDUCE = (f32[::1], f32[::1])
HIST = (i32[::1], i32[::1])


def _has(isa: str, pattern: str) -> bool:
    return re.search(rf"^\s+{pattern}", isa, re.M) is not None


def test_vector_add_loads_stores_and_fits_in_few_registers(device):
    isa = amdgpu_isa(vadd, VADD, device)
    assert _has(isa, r"global_load_(dword|b32)") and _has(isa, r"global_store_(dword|b32)")
    assert _has(isa, "s_endpgm")
    r = amdgpu_resources(vadd, VADD, device)
    assert 1 <= r["vgprs"] < 16 and 8 <= r["sgprs"] <= 40
    assert (r["lds_bytes"], r["scratch_bytes"], r["spills"]) == (0, 0, 0)
    assert r["wave_size"] == get_spec(device).wave_size
    assert r["occupancy_waves_per_simd"] == get_spec(device).max_waves_per_simd


def test_tiled_matmul_uses_lds_and_barriers(device):
    isa = amdgpu_isa(matmul_tiled, MATMUL, device)
    assert _has(isa, r"ds_(write|store)") and _has(isa, r"ds_(read|load)")
    assert _has(isa, "s_barrier")
    r = amdgpu_resources(matmul_tiled, MATMUL, device)
    assert r["lds_bytes"] == 2 * TILE * TILE * 4  # the two shared tiles, nothing else
    assert 16 <= r["vgprs"] <= 128 and r["spills"] == 0


def test_shuffle_reduction_uses_ds_bpermute_or_dpp(device):
    isa = amdgpu_isa(wave_sum, REDUCE, device)
    assert _has(isa, r"(ds_bpermute_b32|v_\w+_dpp|v_mov_b32_dpp)")
    assert _has(isa, r"v_mbcnt_lo_u32_b32")  # the lane id
    assert amdgpu_resources(wave_sum, REDUCE, device)["lds_bytes"] == 0  # bpermute: no LDS


def test_wave64_needs_mbcnt_hi_and_wave32_does_not():
    assert _has(amdgpu_isa(wave_sum, REDUCE, "mi300x"), "v_mbcnt_hi_u32_b32")
    assert not _has(amdgpu_isa(wave_sum, REDUCE, "rx7900xtx"), "v_mbcnt_hi_u32_b32")


def test_histogram_atomics_are_global_atomic_adds(device):
    isa = amdgpu_isa(histogram, HIST, device)
    assert _has(isa, r"global_atomic_add")
    assert not _has(isa, r"global_atomic_cmpswap")  # integer add needs no CAS loop


@pytest.mark.parametrize("device", ["mi300x", "mi250x", "mi100", "rx7900xtx"])
def test_each_device_gets_its_own_target_and_wave_size(device):
    spec = get_spec(device)
    full = amdgpu_isa(vadd, VADD, device, full=True)
    assert f'.amdgcn_target "amdgcn-amd-amdhsa--{spec.gfx_target}' in full
    assert re.search(rf"\.wavefront_size:\s+{spec.wave_size}\b", full)
    assert ".amdhsa_kernel vadd" in full


def test_isa_code_view_starts_with_a_summary_and_ends_at_s_endpgm():
    isa = amdgpu_isa(vadd, VADD, "mi300x")
    head, label, *code = isa.splitlines()
    assert head.startswith("; vadd on gfx942 (wave64): ") and "VGPRs" in head
    assert label == "vadd:"
    assert code[-1].strip() == "s_endpgm" and ".amdhsa_kernel" not in isa


def test_python_ints_are_64_bit_so_indices_take_vgpr_pairs():
    # hip.grid(1) is an int64 (as in numba.cuda): the comparison with c.size is 64-bit.
    assert _has(amdgpu_isa(vadd, VADD, "mi300x"), r"v_cmp_\w+_i64")
