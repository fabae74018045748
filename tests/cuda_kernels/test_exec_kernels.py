"""Kernels built with exec() (issue 19): the front end finds the text they were compiled
from, and tells two generated kernels with the same name apart."""

import marshal
import types

import numpy as np
import pytest

from gpusim import cuda
from gpusim.errors import KernelCompileError

TEMPLATE = """
def kernel(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i {op} 3
"""


def _make(op):
    ns = {}
    exec(TEMPLATE.format(op=op), {"cuda": cuda}, ns)
    return cuda.jit(ns["kernel"])


@pytest.mark.parametrize("op, ref", [("*", np.multiply), ("+", np.add), ("-", np.subtract)])
def test_generated_kernels_with_one_name(op, ref):
    a = np.zeros(10, np.int64)
    _make(op)[1, 16](a)
    np.testing.assert_array_equal(a, ref(np.arange(10), 3))


def test_errors_point_at_the_generated_line():
    ns = {}
    exec("def bad(a):\n    a[0] = 1\n    b = [1, 2]\n", {"cuda": cuda}, ns)
    with pytest.raises(KernelCompileError, match=r"<string>, line 3|line 3"):
        cuda.jit(ns["bad"])[1, 1](np.zeros(1))


def test_bytecode_without_source_is_a_clear_error():
    ns = {}
    exec(compile("def orphan(a):\n    a[0] = 7\n", "<orphan-src>", "exec"), ns)
    code = marshal.loads(marshal.dumps(ns["orphan"].__code__))
    fn = types.FunctionType(code.replace(co_filename="<never-compiled>"), {})
    with pytest.raises(KernelCompileError, match="cannot read the source"):
        cuda.jit(fn)[1, 1](np.zeros(1))
