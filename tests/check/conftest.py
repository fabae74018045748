"""Fixtures for the sanitizer tests: a checked launcher and a short watchdog."""


import pytest

from gpusim.devices import get_spec
from gpusim.engine import launch


@pytest.fixture(scope="session")
def mi300x():
    return get_spec("mi300x")


@pytest.fixture(scope="session", params=["fast", "reference"])
def run(mi300x, request):
    """run(kernel, grid, block, *args, check=True, shared=0): every test that uses it runs
    on the compiled path and on the pure-Python reference path (``reference=`` forces one),
    so the two checked paths cannot differ unseen."""
    def _run(kernel, grid, block, *args, check=True, reference=None, shared=0):
        if reference is None:
            reference = request.param == "reference"
        launch(kernel, grid=grid, block=block, args=args, dynamic_lds_bytes=shared,
               device=mi300x, reference=reference, check=check)
    return _run
