"""Python a kernel cannot use: a KernelCompileError with line, column and a fix."""

import inspect

import numba
import numpy as np
import pytest

from gpusim.compile import lang as hip
from gpusim.compile.pipeline import front_end
from gpusim.errors import KernelCompileError

F64 = numba.types.float64[::1]


def k_try(a):
    try:
        a[0] = 1
    except IndexError:
        pass


def k_lambda(a):
    f = lambda x: x + 1  # noqa: E731
    a[0] = f(1)


def k_fstring(a):
    print(f"a = {a[0]}")


def k_listcomp(a):
    b = [a[i] for i in range(3)]
    a[0] = b[0]


def k_unknown_call(a):
    a[0] = np.linalg.norm(a)


def k_python_function(a):
    a[0] = helper(a[1])


def helper(x):
    return x + 1


def k_return_value(a):
    return a[0]


def k_nested_def(a):
    def inner(x):
        return x
    a[0] = inner(1)


def k_while_else(a):
    while a[0] > 0:
        a[0] -= 1
    else:
        a[1] = 1


def k_in_test(a):
    if 3 in (1, 2, 3):
        a[0] = 1


def k_undefined_name(a):
    a[0] = not_defined_anywhere  # noqa: F821


def k_wrong_dims(a):
    a[0, 1] = 1.0


def k_float_index(a):
    a[1.5] = 1.0


def k_array_alias(a):
    s = hip.shared.array(4, np.float32)
    b = s  # (another name of an argument array is a view of it, as in numba.cuda)
    b[0] = a[0]


def k_shared_shape_not_constant(a):
    s = hip.shared.array(a.shape[0], np.float32)
    s[0] = 1


def k_bad_dtype(a):
    s = hip.shared.array(4, "not-a-type")
    s[0] = 1


def k_threadidx_bare(a):
    a[0] = hip.threadIdx


CASES = [
    (k_try, "try", "`try` statements", "if"),
    (k_lambda, "lambda", "lambda", "device=True"),
    (k_fstring, 'f"', "f-strings", "print('x =', x)"),
    (k_listcomp, "[a[i]", "list comprehensions", "local.array"),
    (k_unknown_call, "np.linalg.norm", "unknown function", "device=True"),
    (k_python_function, "helper(", "unknown function 'helper'", "device=True"),
    (k_return_value, "return", "returning a value", "array argument"),
    (k_nested_def, "def inner", "functions defined inside", "device=True"),
    (k_while_else, "while", "`while ... else`", "flag"),
    (k_in_test, "3 in", "`in` comparisons", "=="),
    (k_undefined_name, "not_defined_anywhere", "is not defined", "module level"),
    (k_wrong_dims, "a[0, 1]", "has 1 dimension(s) but is indexed with 2", "a[i]"),
    (k_float_index, "a[1.5]", "an index must be an integer", "int(x)"),
    (k_array_alias, "b = s", "array variables", "index the array directly"),
    (k_shared_shape_not_constant, "a.shape[0]", "must be known when the kernel compiles",
     "module-level constant"),
    (k_bad_dtype, '"not-a-type"', "is not a number type", "np.float32"),
    (k_threadidx_bare, "hip.threadIdx", "group of three values", "hip.threadIdx.x"),
]


@pytest.mark.parametrize("kernel, where, what, fix", CASES, ids=[c[0].__name__ for c in CASES])
def test_unsupported_construct_reports_line_column_and_fix(kernel, where, what, fix):
    with pytest.raises(KernelCompileError) as err:
        front_end(kernel, wave_size=64, arg_types=(F64,))
    lines, first = inspect.getsourcelines(kernel)
    row = next(i for i, ln in enumerate(lines) if where in ln and not ln.lstrip().startswith(
        "def k_"))
    e = err.value
    assert e.lineno == first + row, str(e)
    indent = len(lines[row]) - len(lines[row].lstrip())
    assert indent < e.col <= len(lines[row].rstrip()), str(e)  # points into the line
    msg = str(e)
    assert what in msg and fix in msg, msg
    assert f"kernel '{kernel.__name__}', line {first + row}, column {e.col}" in msg
    assert lines[row].strip() in msg  # the source line is shown


def test_error_inside_a_device_function_names_it():
    dev = hip.DeviceFunction(k_try)

    def k(a):
        dev(a)
    with pytest.raises(KernelCompileError, match="in device function 'k_try'"):
        front_end(k, wave_size=64, arg_types=(F64,))


def test_recursive_device_function_with_a_barrier():
    # recursion compiles (passes/recursion.py), one thread at a time: no barriers there
    def down(n):
        hip.syncthreads()
        return 1 if n <= 1 else n * rec(n - 1)
    rec = hip.DeviceFunction(down)

    def k(a):
        a[0] = rec(3)
    with pytest.raises(KernelCompileError, match="cannot use hip.syncthreads"):
        front_end(k, wave_size=64, arg_types=(F64,))


def test_wrong_number_of_arguments():
    with pytest.raises(KernelCompileError, match="takes 1 arguments"):
        front_end(k_wrong_dims, wave_size=64,
                  arg_types=(F64, F64))


def test_type_mismatch_names_the_operator():
    def k(a, b):
        a[0] = b[0] << 1.5
    with pytest.raises(KernelCompileError, match="`<<` is not defined for \\(float64, float64"):
        front_end(k, wave_size=64, arg_types=(F64, F64))


def test_stub_called_outside_a_kernel():
    with pytest.raises(RuntimeError, match="only be called inside a @hip.jit kernel"):
        hip.syncthreads()
