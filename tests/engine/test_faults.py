"""Bad input: out-of-bounds accesses, asserts, runaway kernels, invalid launches."""

import kernels as K
import numpy as np
import pytest

from gpusim.config import config
from gpusim.engine import validate_launch
from gpusim.errors import HipError, hipError_t


def _line_of(kernel, text):
    lines, first = __import__("inspect").getsourcelines(kernel)
    return first + next(i for i, ln in enumerate(lines) if text in ln)


def test_out_of_bounds_write_is_caught_and_nothing_outside_is_written(run):
    buf = np.zeros(120, np.float32)
    view = buf[10:110]  # the kernel's array is the middle of a larger buffer
    with pytest.raises(HipError) as err:
        run(K.oob_write, 2, 64, view, 128)
    assert err.value.code == hipError_t.hipErrorIllegalAddress
    assert buf[:10].sum() == 0 and buf[110:].sum() == 0
    msg = str(err.value)
    assert "'oob_write'" in msg and "write" in msg and "'out' (shape (100,))" in msg
    assert f"line {_line_of(K.oob_write, 'out[i] = 1.0')}" in msg
    assert "index 100" in msg and "threadIdx=(36, 0, 0) of blockIdx=(1, 0, 0)" in msg


def test_out_of_bounds_read(run):
    with pytest.raises(HipError, match=r"out-of-bounds read of global array 'x'"):
        run(K.oob_read, 1, 64, np.zeros(64), np.zeros(64))


def test_negative_index_is_out_of_bounds_as_on_a_gpu(run):
    out = np.zeros(64)
    with pytest.raises(HipError, match="index -1 is outside 0..63"):
        run(K.negative_index, 1, 64, out)
    assert out[-1] == 0


def test_lds_out_of_bounds(run):
    with pytest.raises(HipError, match=r"LDS \(shared\) array 's' \(shape \(32,\)\)"):
        run(K.lds_oob, 1, 64, np.zeros(64, np.float32))


def test_assert_is_a_device_side_assert(run):
    x = np.concatenate([np.ones(40), -np.ones(24)])
    with pytest.raises(HipError) as err:
        run(K.asserts, 1, 64, x)
    assert err.value.code == hipError_t.hipErrorAssert
    assert "threadIdx=(40, 0, 0)" in str(err.value)


def test_watchdog_stops_a_runaway_kernel(run):
    old = config.watchdog_seconds
    config.watchdog_seconds = 0.5
    try:
        with pytest.raises(HipError) as err:
            run(K.spin_forever, 2, 64, np.zeros(1, np.int64))
    finally:
        config.watchdog_seconds = old
    assert err.value.code == hipError_t.hipErrorLaunchTimeOut
    out = np.zeros(1000)  # the emulator is still usable
    run(K.vadd, 4, 256, np.ones(1000), np.ones(1000), out)
    assert out.sum() == 2000


@pytest.mark.parametrize("grid, block, shared, text", [
    ((1, 1, 1), (2048, 1, 1), 0, "2048 threads"),
    ((1, 1, 1), (32, 32, 2), 0, "2048 threads"),
    ((1, 1, 1), (0, 1, 1), 0, "at least 1"),
    ((0, 1, 1), (64, 1, 1), 0, "at least 1"),
    ((1, 1, 1), (1, 1, 2048), 0, "1x1x2048 = 2048 threads"),
    ((1, 70000, 1), (64, 1, 1), 0, "limit of 65536"),
    ((1, 1, 1), (64, 1, 1), 70000, "70000 bytes of LDS"),
])
def test_invalid_launch_configurations(mi300x, grid, block, shared, text):
    with pytest.raises(HipError) as err:
        validate_launch("k", grid, block, shared, 0, mi300x)
    assert err.value.code == hipError_t.hipErrorInvalidConfiguration
    assert text in str(err.value) and "MI300X" in str(err.value)


def test_static_plus_dynamic_lds_over_the_limit(run):
    with pytest.raises(HipError, match=r"65540 bytes of LDS .*2048 static \+ 63492 dynamic"):
        run(K.matmul_tiled, 1, (16, 16), *(np.zeros((4, 4), np.float32),) * 3, shared=63492)


def test_bad_block_value_type(run):
    with pytest.raises(HipError, match="tuple of 1 to 3 ints"):
        run(K.vadd, 1, (1, 2, 3, 4), np.zeros(1), np.zeros(1), np.zeros(1))


def test_advice_fits_the_code_around_the_bad_index(run):
    """A one-past-the-end thread gets "guard with an if"; a loop that walks past the end
    gets advice about that loop; a negative index gets advice about the lower end."""
    with pytest.raises(HipError) as err:
        run(K.oob_write, 2, 64, np.zeros(100, np.float32), 128)
    assert "Guard the access with an `if`" in str(err.value)
    with pytest.raises(HipError) as err:
        run(K.while_walks_past_end, 1, 64, np.zeros(128, np.float32), 128)
    msg = str(err.value)
    loop = _line_of(K.while_walks_past_end, "while i <= n")
    assert f"`while` loop at line {loop} (`while i <= n:  # <= : one step too far`)" in msg
    assert "Guard the access with an `if`" not in msg
    with pytest.raises(HipError) as err:
        run(K.grid_stride_past_end, 2, 64, np.zeros(100, np.float32), 100)
    loop = _line_of(K.grid_stride_past_end, "for i in range")
    assert f"`for` loop at line {loop}" in str(err.value) and "range(start, out.shape[0]" in \
        str(err.value)
    with pytest.raises(HipError) as err:
        run(K.negative_index, 1, 64, np.zeros(64))
    assert "The index is negative" in str(err.value)
