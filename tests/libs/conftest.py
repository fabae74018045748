"""Fixtures for the library tests: a rocBLAS handle on a fresh system, launches without
the sampled time estimate. The storage helpers live in blas_storage.py (a uniquely named
module, importable from every test here)."""

import sys
from pathlib import Path

import pytest

import gpusim
from gpusim import rocblas
from gpusim.engine import estimate

sys.path.insert(0, str(Path(__file__).parent))  # tests import blas_storage


@pytest.fixture
def handle():
    """A rocBLAS handle on a fresh default system (and a fresh system afterwards)."""
    gpusim.set_system()
    h = rocblas.rocblas_create_handle()
    yield h
    gpusim.set_system()


@pytest.fixture
def no_sampled_estimate(monkeypatch):
    """Launches keep the first-order time estimate, so only the fast variant of a kernel
    is compiled: with the default estimate a first launch also compiles the trace variant
    (and, on a grid this small, runs only that one). For tests whose checks are a big
    kernel's numbers (ThreeFry: its 20 rounds are inlined at every draw, a ~1000-line
    function for numba in each variant); tests/tracing checks that the trace variant
    leaves the same numbers."""
    monkeypatch.setattr(estimate, "ENABLED", False)
