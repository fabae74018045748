"""A fresh default system (8 x MI300X) around every RCCL test."""

import pytest

import gpusim


@pytest.fixture(autouse=True)
def system():
    gpusim.set_system()
    yield
    gpusim.set_system()
