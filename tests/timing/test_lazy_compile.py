"""The default estimate compiles the fast variant only when a launch needs it: a grid the
sampled trace covers whole runs in the trace variant alone; a larger grid, a relaunch the
memo answers, and a kernel whose trace variant fails still get it, at the launch call."""

import numba.core.dispatcher
import numpy as np
import pytest

import gpusim
from gpusim import cuda
from gpusim.compile import lang as hip
from gpusim.engine import estimate, launcher
from gpusim.errors import KernelCompileError


def fresh_kernel(name: str):
    """A kernel function of its own (no variant of it compiled yet in this process)."""
    src = (f"def {name}(a, b, n):\n    i = hip.grid(1)\n    if i < n:\n"
           "        b[i] = a[i] * 2.0 + 1.0\n")
    ns = {"hip": hip}
    exec(compile(src, f"<lazy compile test {name}>", "exec"), ns)  # noqa: S102
    return cuda.jit(ns[name])


def compiled(kernel) -> list:
    """The fast-mode CompiledKernels the launcher holds for ``kernel``."""
    return [ck for key, ck in launcher._cache.items()
            if key[0] is kernel.py_func and key[4] == "fast"]


def run(kernel, n: int, block: int = 64) -> tuple[np.ndarray, dict]:
    a = np.arange(n, dtype=np.float32)
    b = np.zeros(n, np.float32)
    with gpusim.profile() as prof:
        kernel[(n + block - 1) // block, block](a, b, n)
        cuda.synchronize()
    np.testing.assert_array_equal(b, a * 2 + 1)  # the same answer from either variant
    return b, prof.kernels[-1].breakdown


def test_small_grid_builds_only_the_trace_variant():
    kernel = fresh_kernel("lazy_small")
    _, why = run(kernel, 4 * 64)  # 4 work-groups <= estimate.SAMPLE: all traced
    assert why["estimate"] == "traced"
    (ck,) = compiled(kernel)
    assert ck.deferred and ck.run.signatures == []  # numba never compiled the fast one
    # the same shapes again: the memo answers, so the fast path runs, compiled now
    _, why = run(kernel, 4 * 64)
    assert why["estimate"] == "memo"
    assert not ck.deferred and len(ck.run.signatures) == 1


def test_large_grid_gets_the_fast_variant():
    kernel = fresh_kernel("lazy_large")
    blocks = 4 * estimate.SAMPLE
    _, why = run(kernel, blocks * 64)
    assert why["estimate"] == "sampled"
    (ck,) = compiled(kernel)
    assert not ck.deferred and len(ck.run.signatures) == 1


def test_without_the_estimate_the_fast_variant_is_built(monkeypatch):
    monkeypatch.setattr(estimate, "ENABLED", False)
    kernel = fresh_kernel("lazy_plain")
    run(kernel, 64)
    (ck,) = compiled(kernel)
    assert not ck.deferred


def test_compile_errors_still_raise_at_the_launch_call(monkeypatch):
    """numba failing on both variants (injected: a construct our front end accepts and
    numba cannot lower) raises KernelCompileError from ``kernel[grid, block](...)``
    itself, before anything is queued, as without the lazy build."""
    kernel = fresh_kernel("lazy_broken")
    real = numba.core.dispatcher.Dispatcher.compile
    tried = []

    def failing(self, sig):
        if self.py_func.__name__ == "lazy_broken__run":
            tried.append(self.py_func.__module__)
            raise numba.core.errors.TypingError("injected: cannot lower this")
        return real(self, sig)

    monkeypatch.setattr(numba.core.dispatcher.Dispatcher, "compile", failing)
    # device arrays: a launch on them runs when the host synchronises, not at the call
    a, b = cuda.to_device(np.ones(64, np.float32)), cuda.to_device(np.zeros(64, np.float32))
    with pytest.raises(KernelCompileError, match="injected: cannot lower this"):
        kernel[1, 64](a, b, 64)
    assert len(set(tried)) == 2  # the trace variant failed, then the fast one at the call
    monkeypatch.setattr(numba.core.dispatcher.Dispatcher, "compile", real)
    cuda.synchronize()  # nothing of the failed launch was queued
    assert not b.copy_to_host().any()
