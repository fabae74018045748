"""Fixtures for the engine tests: device specs and a one-line launcher."""


import numpy as np
import pytest

from gpusim.devices import get_spec
from gpusim.engine import launch


@pytest.fixture(scope="session")
def mi300x():
    return get_spec("mi300x")


@pytest.fixture(scope="session")
def rx7900xtx():
    return get_spec("rx7900xtx")


@pytest.fixture(scope="session", params=["fast", "reference"])
def run(mi300x, request):
    """run(kernel, grid, block, *args, device=mi300x, shared=0): every test that uses it
    runs twice, on the compiled (fast) path and on the pure-Python reference path, so a
    difference between the two cannot hide. ``reference=`` forces one path."""
    def _run(kernel, grid, block, *args, device=None, shared=0, reference=None):
        if reference is None:
            reference = request.param == "reference"
        launch(kernel, grid=grid, block=block, args=args, dynamic_lds_bytes=shared,
               device=device or mi300x, reference=reference)
    return _run


@pytest.fixture()
def rng():
    return np.random.default_rng(1234)
