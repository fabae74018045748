"""Faults with their full location on both paths: out of bounds, divergent barriers,
use after free; and a failed launch leaves the emulator usable."""

import kernels as K
import numpy as np
import pytest
from kernels import line_of

from gpusim import hip
from gpusim.errors import HipError, SanitizerError, hipError_t


@pytest.mark.parametrize("check", [False, True], ids=["fast", "checked"])
def test_out_of_bounds_names_kernel_block_thread_line_array_index_and_shape(run, check):
    buf = np.zeros(110, np.float32)
    with pytest.raises(HipError) as err:
        run(K.oob_write, 2, 64, buf[:100], 128, check=check)
    assert err.value.code == hipError_t.hipErrorIllegalAddress
    msg = str(err.value)
    for part in ("kernel 'oob_write'", f"line {line_of(K.oob_write, 'oob')}", "array 'out'",
                 "shape (100,)", "index 100", "threadIdx=(36, 0, 0) of blockIdx=(1, 0, 0)"):
        assert part in msg
    assert buf[100:].sum() == 0  # nothing was written outside the array


def test_a_fault_after_races_carries_the_races_too(run):
    with pytest.raises(SanitizerError) as err:
        run(K.race_then_oob, 3, 64, np.zeros(64, np.float32))
    assert err.value.code == hipError_t.hipErrorIllegalAddress  # the fault decides the code
    assert f"line {line_of(K.race_then_oob, 'late_oob')}" in str(err.value)
    assert "Before that fault, the checked path found" in str(err.value)
    assert err.value.findings[0].kind == "global race"


@pytest.mark.parametrize("check", [False, True], ids=["fast", "checked"])
def test_divergent_barrier_says_who_arrived(run, check):
    with pytest.raises(HipError) as err:
        run(K.divergent_barrier, 1, 64, np.zeros(64, np.float32), check=check)
    assert err.value.code == hipError_t.hipErrorLaunchFailure
    msg = str(err.value)
    assert f"line {line_of(K.divergent_barrier, 'divergent')}" in msg
    assert "reached by 16 of the 64 live threads" in msg and "(threadIdx=(0, 0, 0) among" in msg
    assert "threadIdx=(16, 0, 0) and 47 other threads did not arrive" in msg


def test_use_after_free_is_an_illegal_address_naming_the_argument():
    kernel = hip.jit(K.vadd)
    a, b, out = (hip.to_device(np.ones(8)) for _ in range(3))
    hip.hipFree(a)
    with pytest.raises(HipError) as err:
        kernel[1, 64](a, b, out)
    assert err.value.code == hipError_t.hipErrorIllegalAddress
    assert "use after free: argument 'a'" in str(err.value) and "hipFree" in str(err.value)
    c = hip.to_device(np.ones(8))  # the runtime is still fine
    kernel[1, 64](c, b, out)
    assert (out.copy_to_host() == 2).all()


def test_checked_errors_raise_at_the_synchronising_call_and_poison_nothing():
    racy = hip.jit(check=True)(K.reduce_no_first_barrier)
    x, out = hip.to_device(np.arange(128, dtype=np.float32)), hip.device_array(2, np.float32)
    racy[2, 64](x, out)  # queued: nothing has run yet
    with pytest.raises(SanitizerError) as err:
        hip.hipDeviceSynchronize()
    assert len(err.value.findings) == 1
    hip.hipDeviceSynchronize()  # the failed launch is gone from the queue
    ok = hip.jit(K.block_sum)
    ok[2, 64](x, out)
    np.testing.assert_array_equal(out.copy_to_host(), [2016, 6112])


def test_config_check_and_the_per_kernel_switch(monkeypatch):
    from gpusim.config import config

    x, out = hip.to_device(np.arange(128, dtype=np.float32)), hip.device_array(2, np.float32)
    monkeypatch.setattr(config, "check", True)
    with pytest.raises(SanitizerError):
        hip.jit(K.reduce_no_first_barrier)[2, 64](x, out)
        hip.hipDeviceSynchronize()
    unchecked = hip.jit(check=False)(K.reduce_no_first_barrier)
    unchecked[2, 64](x, out)  # check=False wins over the config: the fast path runs
    hip.hipDeviceSynchronize()
    assert unchecked.specializations[-1].mode == "fast"
