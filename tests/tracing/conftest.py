"""Fixtures for the trace-path tests: a fresh MI300X system and the learner's kernels."""


import pytest

import gpusim


@pytest.fixture(autouse=True)
def mi300x_system():
    """Every test starts on one MI300X, tracing off outside `profile(memory=True)`."""
    gpusim.set_system(device="mi300x", ngpus=1)
    yield
    gpusim.config.trace = False
