"""Fixtures for the engine tests: device specs and a one-line launcher."""

import sys
from pathlib import Path

import numpy as np
import pytest

from gpusim.devices import get_spec
from gpusim.engine import launch

sys.path.insert(0, str(Path(__file__).parent))  # tests import the shared kernels module


@pytest.fixture(scope="session")
def mi300x():
    return get_spec("mi300x")


@pytest.fixture(scope="session")
def rx7900xtx():
    return get_spec("rx7900xtx")


@pytest.fixture(scope="session")
def run(mi300x):
    """run(kernel, grid, block, *args, device=mi300x, shared=0)."""
    def _run(kernel, grid, block, *args, device=None, shared=0, reference=False):
        launch(kernel, grid=grid, block=block, args=args, dynamic_lds_bytes=shared,
               device=device or mi300x, reference=reference)
    return _run


@pytest.fixture()
def rng():
    return np.random.default_rng(1234)
