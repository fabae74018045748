"""``@jit`` kernels launched through the runtime: arguments, streams, configuration."""

import numpy as np
import pytest

from gpusim.compile import lang as hip
from gpusim.errors import HipError, hipError_t
from gpusim.runtime.api import hipFree
from gpusim.runtime.darray import device_array, to_device
from gpusim.runtime.kernel import Kernel, hipLaunchKernelGGL, jit
from gpusim.runtime.streams import synchronize_device


@jit
def add_one(a):
    i = hip.grid(1)
    if i < a.size:
        a[i] += 1


@jit(launch_bounds=128)
def bounded(a):
    a[hip.grid(1)] = 1


@jit
def reverse_dynamic(x):
    buf = hip.shared.array(0, np.int32)
    t = hip.threadIdx.x
    buf[t] = x[t]
    hip.syncthreads()
    x[t] = buf[hip.blockDim.x - 1 - t]


pytestmark = pytest.mark.usefixtures("fresh_system")


def test_device_array_argument():
    d = to_device(np.arange(10.0))
    add_one[1, 64](d)
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(10.0) + 1)


def test_host_array_is_copied_in_and_back():
    a = np.arange(100.0)
    add_one[2, 64](a)
    np.testing.assert_array_equal(a, np.arange(100.0) + 1)


def test_tuple_configuration_stream_and_dynamic_shared_memory():
    d = to_device(np.arange(64, dtype=np.int32))
    reverse_dynamic[(1, 1), (64, 1, 1), 0, 64 * 4](d)
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(64)[::-1])


def test_hip_launch_kernel_ggl():
    d = device_array(32, np.float64)
    hipLaunchKernelGGL(add_one, 1, 32, 0, 0, d)
    synchronize_device()
    np.testing.assert_array_equal(d.copy_to_host(), np.ones(32))


def test_calling_without_configuration():
    with pytest.raises(HipError) as err:
        add_one(np.zeros(3))
    assert err.value.code == hipError_t.hipErrorMissingConfiguration


def test_launch_bounds_are_enforced():
    with pytest.raises(HipError, match="launch_bounds=128"):
        bounded[1, 256](np.zeros(256))


def test_invalid_configuration_raises_at_launch():
    with pytest.raises(HipError) as err:
        add_one[1, 2048](device_array(4))
    assert err.value.code == hipError_t.hipErrorInvalidConfiguration


def test_inspect_generated_source():
    text = add_one.inspect_generated(np.zeros(4))
    assert "def add_one__run(" in text and "# line" in text
    code = text[text.index("@_jit"):]
    assert add_one.inspect_generated()[-len(code):] == code  # the last specialization's


def test_inspect_generated_reads_as_the_kernel_for_a_learner():
    d = to_device(np.zeros(1000))
    add_one[4, 256](d)
    text = add_one.inspect_generated()
    lines = text.splitlines()
    assert lines[0].startswith("# gpusim: generated from kernel 'add_one'")
    assert lines[1] == ("# for AMD Instinct MI300X (gfx942), launched as grid (4, 1, 1) x "
                        "block (256, 1, 1) = 1024 threads")
    code = [ln for ln in lines if ln and not ln.startswith("#")]
    assert code[0] == "@_jit"  # the kernel first: no imports, no reference-path switch
    assert "_GPUSIM_REFERENCE" not in text and "import" not in text
    for unused in ("_by", "_bz", "_gdy", "_gdz"):  # a 1-D kernel reads none of these
        assert unused not in text
    assert not any(f"lines {n}-{n}," in text for n in range(200))


def test_jit_forms():
    assert isinstance(jit("void(float64[:])")(add_one.py_func), Kernel)
    assert jit(device=True)(lambda x: x)(3) == 3
    with pytest.raises(TypeError, match="unknown option"):
        jit(bogus=1)


def test_fault_surfaces_as_hip_error_with_kernel_name():
    @jit
    def oob(a):
        a[hip.grid(1)] = 1.0
    with pytest.raises(HipError, match="kernel 'oob': out-of-bounds write"):
        oob[1, 64](np.zeros(10))


def test_freed_device_array_is_rejected_at_launch():
    d = to_device(np.zeros(4))
    hipFree(d)
    with pytest.raises(HipError, match="use after free"):
        add_one[1, 4](d)


@pytest.mark.parametrize("bad, words", [
    ([1.0, 2.0], "Python list"),
    ((1.0, "x"), "Python tuple"),  # (a tuple of numbers is passed by value, as numba does)
    ("text", "str, which a kernel cannot take"),
    (object(), "object, which a kernel cannot take"),
])
def test_an_argument_a_kernel_cannot_take_names_the_parameter_and_the_fix(bad, words):
    @jit
    def scale(a, out):
        out[0] = a

    with pytest.raises(HipError) as err:
        scale[1, 1](bad, to_device(np.zeros(1)))
    assert err.value.code == hipError_t.hipErrorInvalidValue
    assert f"kernel 'scale': argument 'a' is a {words}" in str(err.value)
    assert "hip.to_device" in str(err.value)  # the fix
    with pytest.raises(HipError, match="argument 'out' is a Python list"):
        scale[1, 1](1.0, [0.0])


def test_a_bad_launch_queues_nothing():
    """Checked when queued: a bad launch copies nothing and leaves the host array as is."""
    from gpusim.profiler import profile

    host = np.zeros(4)
    with profile() as prof:
        with pytest.raises(HipError, match="launch_bounds=128"):
            bounded[1, 256](host)
        synchronize_device()
    assert prof.records == []
