"""A first launch under the default model traces a sample of the work-groups; a kernel
with a loop has it traced by a worker (trace/tracer.py), so that a runaway loop in it
is stopped by the watchdog, once, and by Ctrl-C, and the emulator runs the next launch."""

import _thread
import threading
import time

import kernels
import numpy as np
import pytest

from gpusim import hip
from gpusim.engine import estimate, specialize
from gpusim.errors import HipError, hipError_t
from gpusim.trace.tracer import traced_variant

K = kernels.jitted("spin_for", "vadd")
GROUPS = 4 * estimate.SAMPLE  # more than a sample: the rest runs on the fast path


def still_works() -> None:
    out = np.zeros(1000)
    K.vadd[4, 256](np.ones(1000), np.ones(1000), out)
    hip.hipDeviceSynchronize()
    assert out.sum() == 2000


def compiled() -> None:
    """Both variants built first, so that the timings below measure the launch alone."""
    traced_variant(specialize(kernels.spin_for, (np.zeros(1, np.int64),), 64))


def test_the_watchdog_stops_a_runaway_sample(fresh_system, watchdog_1s):
    compiled()
    estimate.forget()
    start = time.monotonic()
    with pytest.raises(HipError) as err:
        K.spin_for[GROUPS, 64](np.zeros(1, np.int64))
        hip.hipDeviceSynchronize()
    assert err.value.code == hipError_t.hipErrorLaunchTimeOut
    assert watchdog_1s <= time.monotonic() - start < 1.9 * watchdog_1s  # once, not twice
    assert f"loop at line {kernels.line_of(kernels.spin_for, 'forever')}" in str(err.value)
    still_works()


def test_ctrl_c_stops_a_runaway_sample(fresh_system, sigint_raises):
    compiled()
    estimate.forget()
    timer = threading.Timer(0.5, _thread.interrupt_main)  # as Jupyter's "interrupt kernel"
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        K.spin_for[GROUPS, 64](np.zeros(1, np.int64))  # ~30 s until the watchdog
        hip.hipDeviceSynchronize()
    timer.join()
    assert time.monotonic() - start < 3
    still_works()
