"""The watchdog stops runaway kernels, Ctrl-C stops a launch, and the next one runs."""

import _thread
import threading
import time

import kernels as K
import numpy as np
import pytest
from kernels import line_of

from gpusim.engine import specialize
from gpusim.errors import HipError, hipError_t


def compiled(kernel, args, check):
    """Compile first, so the timings below measure the launch alone."""
    specialize(kernel, args, 64, mode="check" if check else "fast")


def vadd_still_works(run):
    out = np.zeros(1000)
    run(K.vadd, 4, 256, np.ones(1000), np.ones(1000), out, check=False)
    assert out.sum() == 2000


@pytest.mark.parametrize("kernel, tag", [(K.spin_while, "spin"), (K.spin_for, "forever")],
                         ids=["while_true", "for_range_10_12"])
@pytest.mark.parametrize("check", [False, True], ids=["fast", "checked"])
def test_runaway_loop_is_stopped_naming_kernel_and_loop(run, watchdog_1s, kernel, tag, check):
    args = (np.zeros(1, np.int64),)
    compiled(kernel, args, check)
    start = time.monotonic()
    with pytest.raises(HipError) as err:
        run(kernel, 2, 64, *args, check=check)
    elapsed = time.monotonic() - start
    assert err.value.code == hipError_t.hipErrorLaunchTimeOut
    assert watchdog_1s <= elapsed < watchdog_1s + 2
    msg = str(err.value)
    assert f"kernel '{kernel.__name__}'" in msg and f"loop at line {line_of(kernel, tag)}" in msg
    vadd_still_works(run)


def test_ctrl_c_stops_the_launch_and_the_emulator_stays_usable(run, sigint_raises):
    args = (np.zeros(1, np.int64),)
    compiled(K.spin_for, args, False)
    timer = threading.Timer(0.5, _thread.interrupt_main)  # as Jupyter's "interrupt kernel"
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt) as err:
        run(K.spin_for, 2, 64, *args, check=False)  # would run for ~30 s (the watchdog)
    timer.join()
    assert time.monotonic() - start < 3
    assert any("interrupted" in note for note in getattr(err.value, "__notes__", []))
    vadd_still_works(run)
