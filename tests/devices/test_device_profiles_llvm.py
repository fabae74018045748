"""Profiles checked against an independent oracle: LLVM's AMDGPU backend inside llvmlite.

For each profile's gfx target we compile a tiny kernel and read what the compiler
itself believes: the default wavefront size, the largest flat workgroup, and the LDS
limit per workgroup (LLVM stops with "local memory (N) exceeds limit (L)"). The
compile runs in a subprocess because LLVM exits the process on that error.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import textwrap

import pytest

from gpusim.devices import get_spec, list_devices

_PROBE = textwrap.dedent(
    r"""
    import sys
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    cpu, lds_words = sys.argv[1], int(sys.argv[2])
    ir = f'''
    target triple = "amdgcn-amd-amdhsa"
    @lds = internal addrspace(3) global [{lds_words} x i32] poison, align 4
    define amdgpu_kernel void @k(ptr addrspace(1) %p, i32 %i) {{
      %q = getelementptr [{lds_words} x i32], ptr addrspace(3) @lds, i32 0, i32 %i
      %v = load i32, ptr addrspace(3) %q
      store i32 %v, ptr addrspace(1) %p
      ret void
    }}
    '''
    target = llvm.Target.from_triple("amdgcn-amd-amdhsa")
    tm = target.create_target_machine(cpu=cpu, features="", opt=2)
    print(tm.emit_assembly(llvm.parse_assembly(ir)))
    """
)


@functools.cache
def _amdgpu_backend_available() -> bool:
    try:
        import llvmlite.binding as llvm

        llvm.initialize_all_targets()
        llvm.Target.from_triple("amdgcn-amd-amdhsa")
    except Exception:  # noqa: BLE001 - any failure means "no oracle here"
        return False
    return True


def _compile(cpu: str, lds_bytes: int) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", _PROBE, cpu, str(lds_bytes // 4)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def llvm_oracle():
    if not _amdgpu_backend_available():
        pytest.skip("llvmlite was built without the AMDGPU backend")


# AMD devices only: the calibration target (h200, an NVIDIA GPU) has no AMDGPU backend.
@pytest.mark.parametrize("device_key", list_devices())
def test_llvm_agrees_on_wave_size_workgroup_and_lds_limit(llvm_oracle, device_key):
    spec = get_spec(device_key)

    ok = _compile(spec.gfx_target, 1024)
    assert ok.returncode == 0, ok.stderr
    assert f".wavefront_size: {spec.wave_size}" in ok.stdout
    assert f".max_flat_workgroup_size: {spec.max_threads_per_block}" in ok.stdout

    too_big = _compile(spec.gfx_target, 4 * spec.lds_bytes_per_workgroup_max)
    found = re.search(r"local memory \((\d+)\) exceeds limit \((\d+)\)", too_big.stderr)
    assert found, too_big.stderr
    assert int(found[2]) == spec.lds_bytes_per_workgroup_max
