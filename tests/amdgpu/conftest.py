"""Fixtures for the AMDGPU lowering tests: skip without LLVM's AMDGPU backend."""

from __future__ import annotations

import pytest

from gpusim.occupancy_model import amdgpu_available

# Every shipped profile: gfx942, gfx90a, gfx908 (wave64) and gfx1100 (wave32).
DEVICES = ("mi300x", "mi250x", "mi100", "rx7900xtx")


@pytest.fixture(autouse=True)
def llvm_backend():
    """Skip unless llvmlite can compile for amdgcn-amd-amdhsa."""
    if not amdgpu_available():
        pytest.skip("llvmlite was built without the AMDGPU backend")


@pytest.fixture(params=DEVICES)
def device(request: pytest.FixtureRequest) -> str:
    """Each shipped device profile in turn."""
    return request.param
