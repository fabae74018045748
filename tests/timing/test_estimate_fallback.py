"""The default estimate never costs a launch: slices are traced element by element, and a
trace variant that fails for an internal reason leaves the first-order estimate, said so
in the record."""

import warnings

import numpy as np
import pytest

import gpusim
from gpusim import cuda
from gpusim.compile import lang as hip
from gpusim.devices import get_spec
from gpusim.engine import launch
from gpusim.trace import tracer as tracing
from gpusim.trace.tracer import Tracer


def slices(a, s):
    a[0:3] = 1.0
    a[3:, 1] = 2.0
    a[4, ::-1] = 3.0
    a[1] = 5.0  # a whole row by an integer index
    sm = hip.shared.array((4, 2), np.float32)
    sm[2] = 1.0
    sm[0:1, 1] = 2.0
    s[0] = sm[2, 1] + sm[0, 1]


def test_slice_assignment_records_every_element_it_stores():
    a, s = np.zeros((5, 2)), np.zeros(1, np.float32)
    tracer = Tracer(addresses=(1 << 20, 1 << 24))
    launch(slices, grid=1, block=1, args=(a, s), device=get_spec("mi300x"), tracer=tracer)
    want = np.zeros((5, 2))
    want[0:3], want[3:, 1], want[4, ::-1], want[1] = 1.0, 2.0, 3.0, 5.0
    np.testing.assert_array_equal(a, want)
    assert s[0] == 3.0
    trace = tracer.result.trace
    glob = (trace.space == 0) & (trace.kind == 1)
    got = sorted(trace.addr[glob, 0].tolist())
    off = (1 << 20) + 8 * np.arange(10).reshape(5, 2)  # byte address of each element
    stored = [off[0:3], off[3:, 1], off[4, ::-1], off[1], [1 << 24]]
    assert got == sorted(np.concatenate([np.ravel(x) for x in stored]).tolist())
    lds = trace.space == 1
    lds_off = 4 * np.arange(8).reshape(4, 2)
    assert sorted(trace.addr[lds & (trace.kind == 1), 0].tolist()) == sorted(
        [*lds_off[2], lds_off[0, 1]])
    assert sorted(trace.addr[lds & (trace.kind == 0), 0].tolist()) == sorted(
        [lds_off[2, 1], lds_off[0, 1]])


def profiled(kernel, *args):
    with gpusim.profile() as prof:
        kernel[2, 32](*args)
        cuda.synchronize()
    return prof.kernels[-1].breakdown


def test_slice_assignment_is_modeled_by_default():
    a, s = np.zeros((5, 2)), np.zeros(1, np.float32)
    assert profiled(cuda.jit(slices), a, s)["estimate"] == "traced"
    np.testing.assert_array_equal(a, [[1, 1], [5, 5], [1, 1], [0, 2], [3, 3]])
    assert s[0] == 3.0


def add_one(a):
    i = hip.grid(1)
    if i < a.size:
        a[i] += 1.0


@pytest.mark.parametrize("where", ["compile", "build"])
def test_failing_trace_falls_back_to_the_first_order_estimate(monkeypatch, where):
    def broken(*args, **kwargs):
        raise RuntimeError("injected")

    if where == "compile":  # a fresh kernel function: no trace variant cached for it
        exec(compile("def add(a):\n    i = hip.grid(1)\n    if i < a.size:\n"
                     "        a[i] += 1.0\n", "<fallback test>", "exec"), ns := {"hip": hip})
        kernel = cuda.jit(ns["add"])
        real = tracing.compile_kernel
        monkeypatch.setattr(tracing, "compile_kernel", lambda *a, mode="fast", **kw: (
            broken() if mode == "trace" else real(*a, mode=mode, **kw)))
    else:
        kernel = cuda.jit(add_one)
        monkeypatch.setattr(tracing.Tracer, "_build", broken)
    a = np.arange(64.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default path stays quiet
        why = profiled(kernel, a)
    np.testing.assert_array_equal(a, np.arange(64.0) + 1)
    assert why["estimate"] == "first-order"
    assert "injected" in why["estimate_failure"]


def test_a_user_fault_still_fails_the_launch():
    @cuda.jit
    def oob(a):
        a[cuda.grid(1) + 1] = 1.0

    with pytest.raises(Exception, match="out-of-bounds"):
        oob[1, 64](np.zeros(64))
        cuda.synchronize()
