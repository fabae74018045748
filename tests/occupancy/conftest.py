"""Fixtures for the occupancy tests: the LLVM oracle, when this llvmlite has AMDGPU."""

from __future__ import annotations

import pytest

from gpusim.occupancy_model import amdgpu_available

# The four targets the rules cover, one per shipped profile.
TARGETS = ("gfx942", "gfx90a", "gfx908", "gfx1100")


@pytest.fixture(scope="session")
def llvm_oracle():
    """Skip unless llvmlite can compile for amdgcn-amd-amdhsa."""
    if not amdgpu_available():
        pytest.skip("llvmlite was built without the AMDGPU backend")


@pytest.fixture(params=TARGETS)
def target(request: pytest.FixtureRequest) -> str:
    """Each covered gfx target in turn."""
    return request.param
