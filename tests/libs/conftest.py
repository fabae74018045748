"""Fixtures for the library tests: a rocBLAS handle on a fresh system. The storage
helpers live in blas_storage.py (a uniquely named module, importable from every test
here)."""

import sys
from pathlib import Path

import pytest

import gpusim
from gpusim import rocblas

sys.path.insert(0, str(Path(__file__).parent))  # tests import blas_storage


@pytest.fixture
def handle():
    """A rocBLAS handle on a fresh default system (and a fresh system afterwards)."""
    gpusim.set_system()
    h = rocblas.rocblas_create_handle()
    yield h
    gpusim.set_system()
