"""`raise` in kernels and device functions (issue 19: numba's test_exception, test_userexc):
the launch raises the kernel's exception, naming the thread as numba.cuda does."""

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import KernelCompileError


class Overflowed(Exception):
    pass


LIMIT_MSG = "value above the limit"


@cuda.jit(device=True)
def check(v):
    if v > 100:
        raise ValueError(LIMIT_MSG)


@cuda.jit
def clip_or_raise(a, out, strict):
    i = cuda.grid(1)
    if i < a.size:
        if strict and a[i] < 0:
            raise Overflowed
        check(a[i])
        out[i] = max(a[i], 0)


def test_no_raise_runs_normally():
    a = np.array([3, -1, 7, 100])
    out = np.zeros(4, np.int64)
    clip_or_raise[1, 4](a, out, False)
    np.testing.assert_array_equal(out, np.maximum(a, 0))


def test_the_exception_class_and_the_raising_thread():
    a = np.zeros(70, np.int64)
    a[66] = -5  # thread 2 of block 1
    with pytest.raises(Overflowed) as err:
        clip_or_raise[2, 64](a, np.zeros(70, np.int64), True)
    assert str(err.value) == "tid=[2, 0, 0] ctaid=[1, 0, 0]"


def test_a_raise_in_a_device_function_with_a_constant_message():
    a = np.array([1, 500, 2])
    with pytest.raises(ValueError, match=r"^tid=\[1, 0, 0\] ctaid=\[0, 0, 0\]: value above"):
        clip_or_raise[1, 3](a, np.zeros(3, np.int64), False)
    cuda.synchronize()  # nothing left over for the next launch
    out = np.zeros(3, np.int64)
    clip_or_raise[1, 3](np.array([1, 2, 3]), out, False)
    assert out.tolist() == [1, 2, 3]


def test_a_message_computed_in_the_kernel_is_a_compile_error():
    @cuda.jit
    def k(a):
        raise ValueError(a[0])

    with pytest.raises(KernelCompileError, match="computed in the kernel"):
        k[1, 1](np.zeros(1))
