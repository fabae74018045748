"""Fixtures shared by every test folder."""

import sys
from pathlib import Path

import pytest

import gpusim

sys.path.insert(0, str(Path(__file__).parent))  # every suite imports kernels.py


@pytest.fixture
def fresh_system():
    """A new default emulated system (8 x MI300X) for the test, and again after it, so
    no buffer, stream or current device leaks between tests."""
    gpusim.set_system()
    yield
    gpusim.set_system()
