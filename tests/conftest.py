"""Fixtures shared by every test folder."""

import signal
import sys
from pathlib import Path

import pytest

import gpusim
from gpusim.config import config

sys.path.insert(0, str(Path(__file__).parent))  # every suite imports kernels.py


@pytest.fixture
def fresh_system():
    """A new default emulated system (8 x MI300X) for the test, and again after it, so
    no buffer, stream or current device leaks between tests."""
    gpusim.set_system()
    yield
    gpusim.set_system()


@pytest.fixture()
def watchdog_1s():
    """gpusim.config.watchdog_seconds = 1 for the test, restored afterwards."""
    old = config.watchdog_seconds
    config.watchdog_seconds = 1.0
    yield 1.0
    config.watchdog_seconds = old


@pytest.fixture
def sigint_raises():
    """Python's own Ctrl-C handler, as in a terminal or a Jupyter kernel. A test run
    started in the background by a shell script inherits SIGINT ignored, and then
    interrupt_main() does nothing (Python docs, _thread.interrupt_main)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
