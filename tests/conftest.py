"""Fixtures shared by every test folder."""

import pytest

import gpusim


@pytest.fixture
def fresh_system():
    """A new default emulated system (8 x MI300X) for the test, and again after it, so
    no buffer, stream or current device leaks between tests."""
    gpusim.set_system()
    yield
    gpusim.set_system()
